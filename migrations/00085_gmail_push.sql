-- +goose Up
-- Gmail push through Pub/Sub (issue 15). Per user: when their users.watch
-- expires (renewed a day before, by the periodic mail poll), when a push
-- last arrived, how many history polls have begun, so a push that arrives
-- while a poll runs gets a poll of its own after it (the poll job is
-- unique per user and round: a burst of pushes before the next poll
-- begins is one poll), and since when a poll runs (one at a time; a
-- crashed one is taken over once stale).
ALTER TABLE gmail_sync
    ADD COLUMN watch_expires_at timestamptz,
    ADD COLUMN pushed_at        timestamptz,
    ADD COLUMN polls_begun      bigint NOT NULL DEFAULT 0,
    ADD COLUMN poll_started_at  timestamptz;

-- A push names the mailbox by its address.
CREATE INDEX google_accounts_email ON google_accounts (lower(email));

-- +goose Down
DROP INDEX google_accounts_email;
ALTER TABLE gmail_sync
    DROP COLUMN poll_started_at,
    DROP COLUMN polls_begun,
    DROP COLUMN pushed_at,
    DROP COLUMN watch_expires_at;
