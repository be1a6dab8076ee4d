-- +goose Up
-- "Forget that" keeps a copy of the fact in the forget's action record and
-- audit entry only for as long as it can be undone. Once the undo window
-- has passed, a periodic job erases that copy, and every other one kept in
-- action records, approvals and audit entries, leaving a content-free
-- record that something was forgotten; erased_at says when.
ALTER TABLE actions ADD COLUMN erased_at timestamptz;
CREATE INDEX actions_forgets_to_erase ON actions (executed_at)
    WHERE kind = 'memory.forget' AND state = 'done' AND erased_at IS NULL;

-- +goose Down
DROP INDEX actions_forgets_to_erase;
ALTER TABLE actions DROP COLUMN erased_at;
