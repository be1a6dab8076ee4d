-- +goose Up
-- Notes on people and things are found by meaning too (issue 19): "who
-- do I know who goes climbing?" finds "bouldering every Sunday" on Dana.
-- The embedding job embeds a note on a node (a relationship's notes are
-- in the relationship's own embedding text), its vector named by its
-- model as facts' are; reads measure the viewer's permitted notes
-- exactly (a household's notes are few), so no vector index.
ALTER TABLE graph_notes ADD COLUMN embedding vector, ADD COLUMN embedding_model text NOT NULL DEFAULT '';
CREATE INDEX graph_notes_unembedded ON graph_notes (id) WHERE embedding IS NULL AND entity_id IS NOT NULL;
CREATE TRIGGER graph_notes_embedding_stale BEFORE UPDATE OF body ON graph_notes
    FOR EACH ROW WHEN (OLD.body IS DISTINCT FROM NEW.body)
    EXECUTE FUNCTION clear_stale_embedding();

-- +goose Down
DROP TRIGGER graph_notes_embedding_stale ON graph_notes;
DROP INDEX graph_notes_unembedded;
ALTER TABLE graph_notes DROP COLUMN embedding_model, DROP COLUMN embedding;
