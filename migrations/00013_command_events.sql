-- +goose Up
-- A command a platform sends by name (Slack's "/hearth briefing",
-- Telegram's "/briefing") is an event of its own kind, dispatched to the
-- commands registry by name rather than re-read as typed text.
ALTER TABLE inbound_events DROP CONSTRAINT inbound_events_kind_check;
ALTER TABLE inbound_events ADD CONSTRAINT inbound_events_kind_check CHECK (kind IN ('message', 'button', 'unsupported', 'voice', 'command'));

-- +goose Down
DELETE FROM inbound_events WHERE kind = 'command';
ALTER TABLE inbound_events DROP CONSTRAINT inbound_events_kind_check;
ALTER TABLE inbound_events ADD CONSTRAINT inbound_events_kind_check CHECK (kind IN ('message', 'button', 'unsupported', 'voice'));
