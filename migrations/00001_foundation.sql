-- +goose Up
-- Extensions the memory and retrieval features build on: vector similarity,
-- trigram name matching, and distances between places.
CREATE EXTENSION IF NOT EXISTS vector;
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS cube;
CREATE EXTENSION IF NOT EXISTS earthdistance;

CREATE TABLE users (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    display_name text        NOT NULL CHECK (display_name <> ''),
    -- IANA zone name; NULL until the channel supplies it or the user tells us.
    timezone     text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);

-- One person may reach Hearth from several channels; each identity points
-- at the same user.
CREATE TABLE identities (
    channel      text        NOT NULL,
    external_id  text        NOT NULL,
    user_id      bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    display_name text        NOT NULL DEFAULT '',
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (channel, external_id)
);
CREATE INDEX identities_user_id ON identities (user_id);

CREATE TABLE conversations (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    channel     text        NOT NULL,
    external_id text        NOT NULL,
    user_id     bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    -- The lease that lets one turn job at a time answer this conversation.
    -- A lease, not a lock held on a connection: a turn may take seconds
    -- (model calls) and must not pin a pooled connection meanwhile; a
    -- crashed holder's lease simply runs out.
    turn_owner       text,
    turn_lease_until timestamptz,
    UNIQUE (channel, external_id)
);

-- Every acknowledged event, keyed by the platform's own id so a redelivery
-- is recognised and dropped. processed_at is set in the same transaction
-- that stores the turn's replies.
CREATE TABLE inbound_events (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    channel         text        NOT NULL,
    external_id     text        NOT NULL,
    conversation_id bigint      NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    user_id         bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind            text        NOT NULL CHECK (kind IN ('message', 'button')),
    text            text        NOT NULL DEFAULT '',
    message_id      bigint,
    button_id       text        NOT NULL DEFAULT '',
    payload         jsonb       NOT NULL DEFAULT '{}',
    received_at     timestamptz NOT NULL DEFAULT now(),
    attempts        integer     NOT NULL DEFAULT 0,
    last_error      text        NOT NULL DEFAULT '',
    processed_at    timestamptz,
    UNIQUE (channel, external_id)
);
CREATE INDEX inbound_events_pending ON inbound_events (conversation_id, id) WHERE processed_at IS NULL;

-- The transcript. A message becomes visible (gets a seq) when it is
-- received (from the user) or delivered (from the bot); seq is the cursor
-- clients page with.
CREATE SEQUENCE message_seq;
CREATE TABLE messages (
    id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    conversation_id     bigint      NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    sender              text        NOT NULL CHECK (sender IN ('user', 'bot')),
    inbound_event_id    bigint      REFERENCES inbound_events (id) ON DELETE SET NULL,
    -- Who caused a bot message and which one of its replies it is
    -- ("event:42:0", "briefing:7:2026-11-23"): a retried producer cannot
    -- create, and so cannot deliver, the same message twice.
    idempotency_key     text        UNIQUE,
    text                text        NOT NULL DEFAULT '',
    buttons             jsonb       NOT NULL DEFAULT '[]',
    seq                 bigint,
    created_at          timestamptz NOT NULL DEFAULT now(),
    delivered_at        timestamptz,
    platform_message_id text        NOT NULL DEFAULT ''
);
CREATE INDEX messages_visible ON messages (conversation_id, seq) WHERE seq IS NOT NULL;

-- +goose Down
DROP TABLE messages;
DROP SEQUENCE message_seq;
DROP TABLE inbound_events;
DROP TABLE conversations;
DROP TABLE identities;
DROP TABLE users;
