-- +goose Up
-- Replicas say they are alive: each `bot serve` process (by its River
-- client id, HEARTH_REPLICA_ID when set) writes seen_at every few seconds
-- with the silence after which it may be taken for dead (stale_after).
-- The living put a dead replica's running jobs back to work at once,
-- instead of waiting for River's stuck-job rescue.
CREATE TABLE replicas (
    id          text PRIMARY KEY,
    started_at  timestamptz NOT NULL DEFAULT now(),
    seen_at     timestamptz NOT NULL DEFAULT now(),
    stale_after interval    NOT NULL
);

-- A bot message being handed to its platform is claimed first, by the
-- replica sending it, so two runs of one delivery job (a replica taken
-- for dead that was only slow) cannot both send it.
ALTER TABLE messages ADD COLUMN send_claimed_by text, ADD COLUMN send_claimed_at timestamptz;

-- +goose Down
ALTER TABLE messages DROP COLUMN send_claimed_by, DROP COLUMN send_claimed_at;
DROP TABLE replicas;
