-- +goose Up
-- "Put family things on the Family calendar": the calendar that events
-- about the family go to (one per user); others go to the default.
ALTER TABLE google_calendars ADD COLUMN is_family boolean NOT NULL DEFAULT false;
CREATE UNIQUE INDEX google_calendars_family ON google_calendars (user_id) WHERE is_family;

-- +goose Down
DROP INDEX google_calendars_family;
ALTER TABLE google_calendars DROP COLUMN is_family;
