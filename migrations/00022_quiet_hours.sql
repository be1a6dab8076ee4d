-- +goose Up
-- Quiet hours ("don't message me after 9pm"): local wall times between
-- which reminders the user did not set for that time (before events,
-- ahead of deadlines and birthdays) are held until the end of the quiet
-- hours. Both NULL: none.
ALTER TABLE schedule_settings
    ADD COLUMN quiet_from time,
    ADD COLUMN quiet_to   time,
    ADD CONSTRAINT schedule_settings_quiet CHECK ((quiet_from IS NULL) = (quiet_to IS NULL) AND (quiet_from IS NULL OR quiet_from <> quiet_to));

-- +goose Down
ALTER TABLE schedule_settings
    DROP CONSTRAINT schedule_settings_quiet,
    DROP COLUMN quiet_to,
    DROP COLUMN quiet_from;
