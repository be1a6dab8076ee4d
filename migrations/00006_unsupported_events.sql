-- +goose Up
-- A message Hearth cannot read yet (a voice note, a photo, a sticker) is
-- still an event: it is stored, deduplicated and answered helpfully.
ALTER TABLE inbound_events DROP CONSTRAINT inbound_events_kind_check;
ALTER TABLE inbound_events ADD CONSTRAINT inbound_events_kind_check CHECK (kind IN ('message', 'button', 'unsupported'));

-- +goose Down
DELETE FROM inbound_events WHERE kind = 'unsupported';
ALTER TABLE inbound_events DROP CONSTRAINT inbound_events_kind_check;
ALTER TABLE inbound_events ADD CONSTRAINT inbound_events_kind_check CHECK (kind IN ('message', 'button'));
