-- +goose Up
-- Google accounts and their calendars, kept in sync by push notifications
-- (issue 14).
--
-- A user connects one Google account. Its OAuth token (access and refresh
-- token, expiry) is stored sealed with AES-256-GCM under a key derived from
-- HEARTH_ENCRYPTION_KEY: the database never holds it in the clear. A grant
-- that Google refuses (revoked, expired) is marked so, and the built-in
-- calendar takes over until the user connects again; notified_at makes the
-- message asking to reconnect go out once.
CREATE TABLE google_accounts (
    user_id     bigint      PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    email       text        NOT NULL DEFAULT '',
    token       bytea       NOT NULL,
    scopes      text[]      NOT NULL DEFAULT '{}',
    revoked_at  timestamptz,
    notified_at timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

-- Each calendar of an account that Hearth syncs: its incremental sync
-- token, the generation of its last full sync (mark and sweep), its push
-- channel, and when a push last arrived (a sync that started before it
-- runs again).
CREATE TABLE google_calendars (
    user_id             bigint      NOT NULL REFERENCES google_accounts (user_id) ON DELETE CASCADE,
    calendar_id         text        NOT NULL CHECK (calendar_id <> ''),
    summary             text        NOT NULL DEFAULT '',
    -- New events go to the default calendar (one per user).
    is_default          boolean     NOT NULL DEFAULT false,
    sync_token          text,
    generation          bigint      NOT NULL DEFAULT 0,
    synced_at           timestamptz,
    pushed_at           timestamptz,
    channel_id          text        UNIQUE,
    channel_resource_id text,
    channel_expires_at  timestamptz,
    PRIMARY KEY (user_id, calendar_id)
);
CREATE UNIQUE INDEX google_calendars_default ON google_calendars (user_id) WHERE is_default;
-- Renewal finds the channels about to expire.
CREATE INDEX google_calendars_channel_expiry ON google_calendars (channel_expires_at) WHERE channel_id IS NOT NULL;

-- The local copy of a Google calendar lives in events, so every reader
-- (what's on my calendar, the briefing, reminders) works unchanged. A
-- synced row names its calendar and Google's event id; sync_generation
-- is the full sync that last saw it, so a full resync sweeps the rest.
ALTER TABLE events
    ADD COLUMN calendar_id     text,
    ADD COLUMN external_id     text,
    ADD COLUMN sync_generation bigint,
    ADD CONSTRAINT events_external_pair CHECK ((calendar_id IS NULL) = (external_id IS NULL));
CREATE UNIQUE INDEX events_external ON events (user_id, calendar_id, external_id) WHERE external_id IS NOT NULL;

-- +goose Down
DROP INDEX events_external;
ALTER TABLE events
    DROP CONSTRAINT events_external_pair,
    DROP COLUMN sync_generation,
    DROP COLUMN external_id,
    DROP COLUMN calendar_id;
DROP TABLE google_calendars;
DROP TABLE google_accounts;
