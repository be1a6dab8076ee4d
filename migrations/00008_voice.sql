-- +goose Up
-- A voice note is an event of its own kind: acknowledged with a reference
-- to the audio (never the audio itself: ingress stays fast), downloaded
-- and transcribed by the turn, and its transcript kept with it.
ALTER TABLE inbound_events DROP CONSTRAINT inbound_events_kind_check;
ALTER TABLE inbound_events ADD CONSTRAINT inbound_events_kind_check CHECK (kind IN ('message', 'button', 'unsupported', 'voice'));

CREATE TABLE voice_notes (
    event_id       bigint      PRIMARY KEY REFERENCES inbound_events (id) ON DELETE CASCADE,
    -- Where the audio is: a platform file id (Telegram) or a download URL
    -- (Slack's url_private_download, fetched with the bot token).
    file_id        text        NOT NULL DEFAULT '',
    url            text        NOT NULL DEFAULT '',
    size_bytes     bigint      NOT NULL DEFAULT 0 CHECK (size_bytes >= 0),
    mime_type      text        NOT NULL DEFAULT '',
    file_name      text        NOT NULL DEFAULT '',
    duration_secs  integer     NOT NULL DEFAULT 0,
    -- What was heard; NULL until transcribed. A retried turn reuses it
    -- instead of transcribing (and paying for) the audio again.
    transcript     text,
    transcribed_at timestamptz,
    CHECK (file_id <> '' OR url <> '')
);

-- +goose Down
DROP TABLE voice_notes;
DELETE FROM inbound_events WHERE kind = 'voice';
ALTER TABLE inbound_events DROP CONSTRAINT inbound_events_kind_check;
ALTER TABLE inbound_events ADD CONSTRAINT inbound_events_kind_check CHECK (kind IN ('message', 'button', 'unsupported'));
