-- +goose Up
-- One sync of a calendar at a time, and pushes coalesced by round.
-- sync_started counts syncs begun: a push enqueues the sync keyed by it,
-- unique while pending, so pushes before the next sync begins share one
-- job, and a push during a running sync gets the job that runs after it
-- (even while River still counts a finished job as running).
-- sync_started_at lets a sync begin over one that crashed.
ALTER TABLE google_calendars
    ADD COLUMN sync_started    bigint NOT NULL DEFAULT 0,
    ADD COLUMN sync_running_since timestamptz;

-- +goose Down
ALTER TABLE google_calendars
    DROP COLUMN sync_running_since,
    DROP COLUMN sync_started;
