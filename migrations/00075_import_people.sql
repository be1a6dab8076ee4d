-- +goose Up
-- The people an import brings in become people memory knows (entities),
-- so "email Sarah" finds the address a contacts file held; the import
-- that made an entity is recorded so "undo the import" removes it.
ALTER TABLE entities ADD COLUMN import_id bigint REFERENCES imports (id) ON DELETE SET NULL;
CREATE INDEX entities_import ON entities (import_id) WHERE import_id IS NOT NULL;

-- +goose Down
DROP INDEX entities_import;
ALTER TABLE entities DROP COLUMN import_id;
