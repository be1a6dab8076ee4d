-- +goose Up
-- "Try again" after a failed send (issue 15). An approved email whose
-- sending certainly failed (the mail server or Gmail refused it: nothing
-- went out) may be tried again with the same approved payload: retryable
-- says so, and retries counts the tries, so each "Try again" button
-- (which carries its try's number) runs at most once, whatever the
-- clicks. A send whose fate is unknown is never retryable.
ALTER TABLE approvals
    ADD COLUMN retryable boolean NOT NULL DEFAULT false,
    ADD COLUMN retries   integer NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE approvals
    DROP COLUMN retries,
    DROP COLUMN retryable;
