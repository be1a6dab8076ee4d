-- +goose Up
-- Model usage: one row per model call (or per turn's query embedding, or per
-- embedding batch of the background job), so cost is known per turn, per
-- user and per day. day is the user's local date when the call was made:
-- the daily token budget resets at the user's midnight.
CREATE TABLE llm_usage (
    id            bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id       bigint      REFERENCES users (id) ON DELETE CASCADE,
    event_id      bigint      REFERENCES inbound_events (id) ON DELETE SET NULL,
    day           date        NOT NULL,
    stage         text        NOT NULL,
    provider      text        NOT NULL DEFAULT '',
    model         text        NOT NULL DEFAULT '',
    calls         integer     NOT NULL DEFAULT 0 CHECK (calls >= 0),
    input_tokens  integer     NOT NULL DEFAULT 0 CHECK (input_tokens >= 0),
    output_tokens integer     NOT NULL DEFAULT 0 CHECK (output_tokens >= 0),
    latency_ms    integer     NOT NULL DEFAULT 0,
    cost_usd      numeric(12, 6) NOT NULL DEFAULT 0,
    error         text        NOT NULL DEFAULT '',
    created_at    timestamptz NOT NULL DEFAULT now()
);
-- The budget check: a user's tokens today.
CREATE INDEX llm_usage_user_day ON llm_usage (user_id, day);
-- A turn's usage (several rows when it was retried: every attempt spent).
CREATE INDEX llm_usage_event ON llm_usage (event_id) WHERE event_id IS NOT NULL;

-- What each model call of a turn was for, cost and dropped (token budgets).
ALTER TABLE turn_traces ADD COLUMN models jsonb NOT NULL DEFAULT '[]';

-- Embeddings of memories and notes, written by the background job, never in
-- a turn. The column has no fixed dimension so the configured one
-- (HEARTH_EMBEDDING_DIMENSIONS) can change; HNSW needs a fixed dimension, so
-- there is one partial expression index per supported dimension, and a query
-- uses the index of the dimension it asks for. Rows embedded by another model
-- are re-embedded by the job (embedding_model is compared).
ALTER TABLE memories ADD COLUMN embedding vector;
ALTER TABLE memories ADD COLUMN embedding_model text NOT NULL DEFAULT '';
ALTER TABLE notes ADD COLUMN embedding vector;
ALTER TABLE notes ADD COLUMN embedding_model text NOT NULL DEFAULT '';
-- The job's work list: rows whose embedding is missing or stale.
CREATE INDEX memories_unembedded ON memories (id) WHERE deleted_at IS NULL AND embedding IS NULL;
CREATE INDEX notes_unembedded ON notes (id) WHERE deleted_at IS NULL AND embedding IS NULL;

CREATE INDEX memories_embedding_256 ON memories USING hnsw ((embedding::vector(256)) vector_cosine_ops)
    WHERE vector_dims(embedding) = 256 AND deleted_at IS NULL;
CREATE INDEX memories_embedding_512 ON memories USING hnsw ((embedding::vector(512)) vector_cosine_ops)
    WHERE vector_dims(embedding) = 512 AND deleted_at IS NULL;
CREATE INDEX memories_embedding_1024 ON memories USING hnsw ((embedding::vector(1024)) vector_cosine_ops)
    WHERE vector_dims(embedding) = 1024 AND deleted_at IS NULL;
CREATE INDEX memories_embedding_1536 ON memories USING hnsw ((embedding::vector(1536)) vector_cosine_ops)
    WHERE vector_dims(embedding) = 1536 AND deleted_at IS NULL;
CREATE INDEX notes_embedding_256 ON notes USING hnsw ((embedding::vector(256)) vector_cosine_ops)
    WHERE vector_dims(embedding) = 256 AND deleted_at IS NULL;
CREATE INDEX notes_embedding_512 ON notes USING hnsw ((embedding::vector(512)) vector_cosine_ops)
    WHERE vector_dims(embedding) = 512 AND deleted_at IS NULL;
CREATE INDEX notes_embedding_1024 ON notes USING hnsw ((embedding::vector(1024)) vector_cosine_ops)
    WHERE vector_dims(embedding) = 1024 AND deleted_at IS NULL;
CREATE INDEX notes_embedding_1536 ON notes USING hnsw ((embedding::vector(1536)) vector_cosine_ops)
    WHERE vector_dims(embedding) = 1536 AND deleted_at IS NULL;

-- An edit makes an embedding stale: clear it so the job embeds the new text.
-- +goose StatementBegin
CREATE FUNCTION clear_stale_embedding() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.embedding := NULL;
    NEW.embedding_model := '';
    RETURN NEW;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER memories_embedding_stale BEFORE UPDATE OF content, about ON memories
    FOR EACH ROW WHEN (OLD.content IS DISTINCT FROM NEW.content OR OLD.about IS DISTINCT FROM NEW.about)
    EXECUTE FUNCTION clear_stale_embedding();
CREATE TRIGGER notes_embedding_stale BEFORE UPDATE OF title, body, items ON notes
    FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.body IS DISTINCT FROM NEW.body OR OLD.items IS DISTINCT FROM NEW.items)
    EXECUTE FUNCTION clear_stale_embedding();

-- +goose Down
DROP TRIGGER notes_embedding_stale ON notes;
DROP TRIGGER memories_embedding_stale ON memories;
DROP FUNCTION clear_stale_embedding();
DROP INDEX notes_embedding_1536, notes_embedding_1024, notes_embedding_512, notes_embedding_256;
DROP INDEX memories_embedding_1536, memories_embedding_1024, memories_embedding_512, memories_embedding_256;
DROP INDEX notes_unembedded, memories_unembedded;
ALTER TABLE notes DROP COLUMN embedding_model, DROP COLUMN embedding;
ALTER TABLE memories DROP COLUMN embedding_model, DROP COLUMN embedding;
ALTER TABLE turn_traces DROP COLUMN models;
DROP TABLE llm_usage;
