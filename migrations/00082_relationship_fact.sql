-- +goose Up
-- A relationship told in chat comes with the fact that stated it
-- (issue 19): forgetting the fact forgets the relationship it created
-- (deleted with it; undo puts both back), so "forget that" leaves no
-- relationship behind.
ALTER TABLE relationships ADD COLUMN fact_id bigint REFERENCES facts (id) ON DELETE CASCADE;
CREATE INDEX relationships_fact ON relationships (fact_id) WHERE fact_id IS NOT NULL;

-- +goose Down
DROP INDEX relationships_fact;
ALTER TABLE relationships DROP COLUMN fact_id;
