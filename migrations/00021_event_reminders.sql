-- +goose Up
-- Reminders before timed calendar events, when the user asks for them
-- ("remind me 30 minutes before meetings"; Google's own reminders cover
-- the rest, so none by default). An 'event' schedule points at an events
-- row (the built-in calendar's, or the synced copy of a Google event): a
-- moved event's reminder moves with it, a deleted one's is gone.
ALTER TABLE schedules DROP CONSTRAINT schedules_kind_check;
ALTER TABLE schedules ADD CONSTRAINT schedules_kind_check
    CHECK (kind IN ('task', 'reminder', 'birthday', 'briefing', 'snooze', 'event'));
-- Minutes before a timed event that remind; 0 is off.
ALTER TABLE schedule_settings ADD COLUMN event_lead_minutes integer NOT NULL DEFAULT 0
    CHECK (event_lead_minutes BETWEEN 0 AND 1440);

-- +goose Down
DELETE FROM schedules WHERE kind = 'event';
ALTER TABLE schedule_settings DROP COLUMN event_lead_minutes;
ALTER TABLE schedules DROP CONSTRAINT schedules_kind_check;
ALTER TABLE schedules ADD CONSTRAINT schedules_kind_check
    CHECK (kind IN ('task', 'reminder', 'birthday', 'briefing', 'snooze'));
