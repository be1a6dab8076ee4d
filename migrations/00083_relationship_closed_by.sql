-- +goose Up
-- A statement that closes a relationship ("Bob and I aren't close
-- anymore", "Jon works at Initech" after Acme) remembers its fact
-- (issue 19): forgetting the fact opens what it closed again, as if it
-- had never been told, and undo of the forget closes it again. The
-- relationships it created go with it (fact_id, migration 00082).
ALTER TABLE relationships ADD COLUMN closed_by bigint REFERENCES facts (id) ON DELETE SET NULL;
CREATE INDEX relationships_closed_by ON relationships (closed_by) WHERE closed_by IS NOT NULL;

-- +goose Down
DROP INDEX relationships_closed_by;
ALTER TABLE relationships DROP COLUMN closed_by;
