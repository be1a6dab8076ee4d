-- +goose Up
-- Memories become facts over time (issue: the second brain). Every row is
-- kept, with its id, so schedules, embeddings and audit entries still
-- point at it. A fact is owned by the user who told it, or by their family
-- as a whole (family_id); it has a visibility tier, an importance, tags
-- and a source; valid_from/valid_to say when it was true (open-ended
-- allowed) and learned_at when Hearth learned it. A correction does not
-- overwrite: the old fact's validity ends, invalidated_at records when
-- Hearth learned that, and superseded_by links the fact that replaced it,
-- so "what was true then" stays answerable.
ALTER TABLE memories RENAME TO facts;
ALTER INDEX memories_user_created RENAME TO facts_user_created;
ALTER INDEX memories_search RENAME TO facts_search;
ALTER INDEX memories_about_trgm RENAME TO facts_about_trgm;
ALTER INDEX memories_unembedded RENAME TO facts_unembedded;
ALTER INDEX memories_embedding_256 RENAME TO facts_embedding_256;
ALTER INDEX memories_embedding_512 RENAME TO facts_embedding_512;
ALTER INDEX memories_embedding_1024 RENAME TO facts_embedding_1024;
ALTER INDEX memories_embedding_1536 RENAME TO facts_embedding_1536;
ALTER INDEX memories_updated RENAME TO facts_updated;
ALTER TRIGGER memories_embedding_stale ON facts RENAME TO facts_embedding_stale;

ALTER TABLE facts
    ADD COLUMN family_id      bigint      REFERENCES families (id) ON DELETE CASCADE,
    -- 1 private (health, money), 2 personal (birthdays, preferences,
    -- contact details), 3 events and milestones, 4 basic (name, relation).
    ADD COLUMN tier           smallint    NOT NULL DEFAULT 2 CHECK (tier BETWEEN 1 AND 4),
    ADD COLUMN importance     smallint    NOT NULL DEFAULT 3 CHECK (importance BETWEEN 1 AND 5),
    ADD COLUMN tags           text[]      NOT NULL DEFAULT '{}',
    ADD COLUMN source         text        NOT NULL DEFAULT 'text'
        CHECK (source IN ('text', 'voice', 'import', 'calendar', 'inferred')),
    ADD COLUMN valid_from     timestamptz,
    ADD COLUMN valid_to       timestamptz,
    ADD COLUMN learned_at     timestamptz NOT NULL DEFAULT now(),
    ADD COLUMN invalidated_at timestamptz,
    ADD COLUMN superseded_by  bigint      REFERENCES facts (id) ON DELETE SET NULL,
    -- The message the fact was told in, when it came from a chat.
    ADD COLUMN told_in        bigint      REFERENCES inbound_events (id) ON DELETE SET NULL,
    ADD CONSTRAINT facts_validity CHECK (valid_from IS NULL OR valid_to IS NULL OR valid_from <= valid_to);
UPDATE facts SET learned_at = created_at;

-- "Tell Grandma too": one fact shared with one more viewer.
CREATE TABLE fact_shares (
    fact_id   bigint NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
    viewer_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (fact_id, viewer_id)
);
CREATE INDEX fact_shares_viewer ON fact_shares (viewer_id);
CREATE INDEX facts_family ON facts (family_id) WHERE family_id IS NOT NULL AND deleted_at IS NULL;

-- The one permission predicate every read of facts goes through: the
-- owner sees their own; every current member sees a family-owned fact; a
-- viewer sees a member's fact through a grant whose tier is at most the
-- fact's (a tier-1 grant sees everything, the default tier-3 grant events,
-- milestones and basics); and a fact shared with the viewer. Who leaves a
-- family loses its grants and its family-owned facts at once, because both
-- are read here, at query time. A SQL function of one expression, so the
-- planner inlines it into each query.
CREATE FUNCTION fact_visible(viewer bigint, owner bigint, family bigint, fact_tier smallint, fact bigint)
RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT owner = viewer
        OR (family IS NOT NULL AND EXISTS (
                SELECT 1 FROM family_members fm WHERE fm.family_id = family AND fm.user_id = viewer))
        OR EXISTS (
                SELECT 1 FROM access_grants g WHERE g.target_id = owner AND g.viewer_id = viewer AND g.tier <= fact_tier)
        OR EXISTS (
                SELECT 1 FROM fact_shares s WHERE s.fact_id = fact AND s.viewer_id = viewer)
$$;

-- fact_visible decides; these give its outline in a form indexes serve,
-- computed once per query: the owners whose facts the viewer may see at
-- some tier (their own and their grantors'), the viewer's family, and the
-- facts shared with them. Every read filters by the outline first (owner,
-- family and id are indexed) and then by fact_visible, so a household's
-- search reads the household's facts, not the table.
CREATE FUNCTION fact_owners(viewer bigint) RETURNS bigint[] LANGUAGE sql STABLE AS $$
    SELECT array_append(COALESCE(array_agg(target_id), '{}'), viewer) FROM access_grants WHERE viewer_id = viewer
$$;
CREATE FUNCTION fact_families(viewer bigint) RETURNS bigint[] LANGUAGE sql STABLE AS $$
    SELECT COALESCE(array_agg(family_id), '{}') FROM family_members WHERE user_id = viewer
$$;
CREATE FUNCTION fact_shared(viewer bigint) RETURNS bigint[] LANGUAGE sql STABLE AS $$
    SELECT COALESCE(array_agg(fact_id), '{}') FROM fact_shares WHERE viewer_id = viewer
$$;

-- +goose Down
DROP FUNCTION fact_shared(bigint);
DROP FUNCTION fact_families(bigint);
DROP FUNCTION fact_owners(bigint);
DROP FUNCTION fact_visible(bigint, bigint, bigint, smallint, bigint);
DROP TABLE fact_shares;
DELETE FROM facts WHERE invalidated_at IS NOT NULL OR family_id IS NOT NULL;
ALTER TABLE facts
    DROP CONSTRAINT facts_validity,
    DROP COLUMN told_in, DROP COLUMN superseded_by, DROP COLUMN invalidated_at, DROP COLUMN learned_at,
    DROP COLUMN valid_to, DROP COLUMN valid_from, DROP COLUMN source, DROP COLUMN tags,
    DROP COLUMN importance, DROP COLUMN tier, DROP COLUMN family_id;
ALTER TRIGGER facts_embedding_stale ON facts RENAME TO memories_embedding_stale;
ALTER INDEX facts_updated RENAME TO memories_updated;
ALTER INDEX facts_embedding_1536 RENAME TO memories_embedding_1536;
ALTER INDEX facts_embedding_1024 RENAME TO memories_embedding_1024;
ALTER INDEX facts_embedding_512 RENAME TO memories_embedding_512;
ALTER INDEX facts_embedding_256 RENAME TO memories_embedding_256;
ALTER INDEX facts_unembedded RENAME TO memories_unembedded;
ALTER INDEX facts_about_trgm RENAME TO memories_about_trgm;
ALTER INDEX facts_search RENAME TO memories_search;
ALTER INDEX facts_user_created RENAME TO memories_user_created;
ALTER TABLE facts RENAME TO memories;
