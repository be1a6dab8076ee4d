-- +goose Up
-- A repeating event of the built-in calendar: how it repeats (a
-- scheduler/recur rule, in the zone its times are local to) and what each
-- occurrence is. Its occurrences are ordinary events rows, kept a year
-- ahead (through) and extended as time passes, so listing, briefings,
-- reminders and moving or cancelling one occurrence work on them as on
-- any event.
CREATE TABLE event_series (
    id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id     bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    source_key  text        UNIQUE,
    rule        jsonb       NOT NULL,
    zone        text        NOT NULL,
    title       text        NOT NULL CHECK (title <> ''),
    all_day     boolean     NOT NULL DEFAULT false,
    -- the first occurrence: every other one is as long (in minutes for
    -- a timed event, in days for an all-day one).
    starts_at   timestamptz NOT NULL,
    ends_at     timestamptz NOT NULL CHECK (ends_at >= starts_at),
    location    text        NOT NULL DEFAULT '',
    attendees   text[]      NOT NULL DEFAULT '{}',
    description text        NOT NULL DEFAULT '',
    -- occurrences starting before through are rows of events.
    through     timestamptz NOT NULL,
    deleted_at  timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now()
);
-- The extender's scan: live series whose rows end soonest.
CREATE INDEX event_series_through ON event_series (through) WHERE deleted_at IS NULL;

-- The series an event is one occurrence of: event_series.id for the
-- built-in calendar's, Google's recurringEventId for a synced copy's.
ALTER TABLE events ADD COLUMN series text;
CREATE INDEX events_user_series ON events (user_id, series) WHERE series IS NOT NULL;

-- +goose Down
DROP INDEX events_user_series;
ALTER TABLE events DROP COLUMN series;
DROP TABLE event_series;
