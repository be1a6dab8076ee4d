-- +goose Up
-- Families and access grants: who may see what of whom.
--
-- A user belongs to at most one family. Inside it, each member decides
-- per other member how much of their own data that member sees: an
-- access grant (target = whose data, viewer = who looks, tier). Tiers are
-- the memory model's visibility tiers (ARCHITECTURE.md): 1 private
-- (medical, financial), 2 personal (birthdays, preferences, contact),
-- 3 events and milestones, 4 basic (name and relationship). A grant's tier
-- is the most sensitive tier the viewer may see: a tier-3 grant shows
-- events and basics, a tier-4 grant only basics. Joining a family gives
-- every pair of members tier 3 both ways; each member raises or lowers
-- what a given member sees of them. Leaving removes the grants both ways.
-- The queries that read another user's data join these tables, so the
-- permission is decided in SQL.

CREATE TABLE families (
    id         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name       text        NOT NULL CHECK (name <> ''),
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE family_members (
    family_id bigint      NOT NULL REFERENCES families (id) ON DELETE CASCADE,
    -- One family per user.
    user_id   bigint      NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
    joined_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (family_id, user_id)
);

CREATE TABLE access_grants (
    -- Whose data.
    target_id  bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- Who may see it.
    viewer_id  bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    tier       smallint    NOT NULL CHECK (tier BETWEEN 1 AND 4),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (target_id, viewer_id),
    CHECK (target_id <> viewer_id)
);
-- "What may this viewer see?" reads by viewer.
CREATE INDEX access_grants_viewer ON access_grants (viewer_id, target_id);

-- Family invitations are one-time codes like /link's, in the same table:
-- a code with a family_id admits its typist to that family; one without
-- links identities. Neither kind is accepted as the other.
ALTER TABLE link_codes ADD COLUMN family_id bigint REFERENCES families (id) ON DELETE CASCADE;

-- +goose Down
ALTER TABLE link_codes DROP COLUMN family_id;
DROP TABLE access_grants;
DROP TABLE family_members;
DROP TABLE families;
