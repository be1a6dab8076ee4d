-- +goose Up
-- The memory graph (issue 19): relationships between entities, notes with
-- a lifetime on entities and relationships, mention counters on entities,
-- storylines and themes. Everything is owned like a fact (user_id, an
-- optional family_id, a tier) and read through fact_visible.

-- Typed, directed edges between two entities. The relation name and the
-- attitude/proximity words follow from the kinds of the two ends (Go:
-- hearth.ScaleOf); embed_text is written by the store from them, the
-- description, the label and the live notes, and the embedding job embeds
-- it (an edit clears the embedding, so a changed relationship is embedded
-- again).
CREATE TABLE relationships (
    id              bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id         bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    family_id       bigint      REFERENCES families (id) ON DELETE CASCADE,
    tier            smallint    NOT NULL DEFAULT 4 CHECK (tier BETWEEN 1 AND 4),
    from_id         bigint      NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    to_id           bigint      NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    label           text        NOT NULL DEFAULT '',
    description     text        NOT NULL DEFAULT '',
    attitude        smallint    NOT NULL DEFAULT 3 CHECK (attitude BETWEEN 1 AND 5),
    proximity       smallint    NOT NULL DEFAULT 3 CHECK (proximity BETWEEN 1 AND 5),
    confidence      real        NOT NULL DEFAULT 0.8 CHECK (confidence >= 0 AND confidence <= 1),
    state           text        NOT NULL DEFAULT 'candidate' CHECK (state IN ('candidate', 'confirmed')),
    valid_from      timestamptz,
    valid_to        timestamptz,
    embed_text      text        NOT NULL DEFAULT '',
    embedding       vector,
    embedding_model text        NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    CHECK (from_id <> to_id),
    CHECK (valid_from IS NULL OR valid_to IS NULL OR valid_from <= valid_to)
);
-- One edge per pair and label: telling Hearth twice is one relationship.
CREATE UNIQUE INDEX relationships_pair ON relationships (from_id, to_id, lower(label));
CREATE INDEX relationships_to ON relationships (to_id);
CREATE INDEX relationships_owner ON relationships (user_id);
CREATE INDEX relationships_family ON relationships (family_id) WHERE family_id IS NOT NULL;
CREATE INDEX relationships_unembedded ON relationships (id) WHERE embedding IS NULL;
CREATE TRIGGER relationships_embedding_stale BEFORE UPDATE OF embed_text ON relationships
    FOR EACH ROW WHEN (OLD.embed_text IS DISTINCT FROM NEW.embed_text)
    EXECUTE FUNCTION clear_stale_embedding();

-- Notes with a lifetime on an entity or a relationship. user_id is who
-- added it and source_event_id the message it was told in, both set by
-- code. expires_at NULL is forever; reads filter on the caller's clock,
-- a nightly job deletes what expired.
CREATE TABLE graph_notes (
    id              bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id         bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    family_id       bigint      REFERENCES families (id) ON DELETE CASCADE,
    tier            smallint    NOT NULL DEFAULT 2 CHECK (tier BETWEEN 1 AND 4),
    entity_id       bigint      REFERENCES entities (id) ON DELETE CASCADE,
    relationship_id bigint      REFERENCES relationships (id) ON DELETE CASCADE,
    body            text        NOT NULL CHECK (body <> '' AND length(body) <= 2000),
    lifetime        text        NOT NULL DEFAULT 'month' CHECK (lifetime IN ('week', 'month', 'year', 'forever')),
    expires_at      timestamptz,
    source_event_id bigint      REFERENCES inbound_events (id) ON DELETE SET NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    CHECK (num_nonnulls(entity_id, relationship_id) = 1)
);
CREATE INDEX graph_notes_entity ON graph_notes (entity_id) WHERE entity_id IS NOT NULL;
CREATE INDEX graph_notes_relationship ON graph_notes (relationship_id) WHERE relationship_id IS NOT NULL;
CREATE INDEX graph_notes_expiry ON graph_notes (expires_at) WHERE expires_at IS NOT NULL;

-- Mention counters: how many sources mention a node, first and last
-- mention, on how many distinct days (in its owner's zone). The
-- mentions themselves are kept per (entity, source), so a source counts
-- once however often it is read.
ALTER TABLE entities
    ADD COLUMN mention_sources    integer     NOT NULL DEFAULT 0,
    ADD COLUMN mention_days       integer     NOT NULL DEFAULT 0,
    ADD COLUMN first_mentioned_at timestamptz,
    ADD COLUMN last_mentioned_at  timestamptz;
CREATE TABLE entity_mentions (
    entity_id bigint      NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    source    text        NOT NULL CHECK (source <> ''),
    day       date        NOT NULL,
    at        timestamptz NOT NULL,
    PRIMARY KEY (entity_id, source)
);
CREATE INDEX entity_mentions_day ON entity_mentions (entity_id, day);
CREATE INDEX entity_mentions_source ON entity_mentions (source);
-- The nightly promotion reads the nodes mentioned on enough days.
CREATE INDEX entities_mentioned ON entities (user_id, mention_days) WHERE mention_days > 1;

-- Themes group storylines (weekly); key is stable across runs (the
-- smallest entity id of the group), so regrouping updates in place.
CREATE TABLE themes (
    id         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    family_id  bigint      REFERENCES families (id) ON DELETE CASCADE,
    tier       smallint    NOT NULL DEFAULT 4 CHECK (tier BETWEEN 1 AND 4),
    key        bigint      NOT NULL,
    title      text        NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (user_id, key)
);

-- Storylines: nodes mentioned across several days, one per node.
CREATE TABLE storylines (
    id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id     bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    family_id   bigint      REFERENCES families (id) ON DELETE CASCADE,
    tier        smallint    NOT NULL DEFAULT 4 CHECK (tier BETWEEN 1 AND 4),
    entity_id   bigint      NOT NULL UNIQUE REFERENCES entities (id) ON DELETE CASCADE,
    title       text        NOT NULL,
    theme_id    bigint      REFERENCES themes (id) ON DELETE SET NULL,
    days        integer     NOT NULL,
    sources     integer     NOT NULL,
    first_at    timestamptz NOT NULL,
    last_at     timestamptz NOT NULL,
    promoted_at timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL
);
CREATE INDEX storylines_owner ON storylines (user_id, last_at DESC);
CREATE INDEX storylines_family ON storylines (family_id) WHERE family_id IS NOT NULL;

-- +goose Down
DROP TABLE storylines;
DROP TABLE themes;
DROP INDEX entities_mentioned;
DROP TABLE entity_mentions;
ALTER TABLE entities DROP COLUMN last_mentioned_at, DROP COLUMN first_mentioned_at,
    DROP COLUMN mention_days, DROP COLUMN mention_sources;
DROP TABLE graph_notes;
DROP TABLE relationships;
