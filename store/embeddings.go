package store

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/hearthbot/hearth"
)

// EmbeddingDimensions are the vector sizes the database indexes (one HNSW
// index per size, migration 00007): Titan V2 gives 256, 512 or 1024;
// OpenAI's text-embedding-3 models any size, 1536 by default for -small.
var EmbeddingDimensions = []int{256, 512, 1024, 1536}

// The texts that are embedded, as SQL, so the write can check the row
// still says what was embedded.
const (
	memoryEmbedText = `concat_ws(': ', nullif(about, ''), content)`
	noteEmbedText   = `concat_ws(E'\n', title, nullif(body, ''), nullif((SELECT string_agg(i->>'text', ', ') FROM jsonb_array_elements(items) i), ''))`
)

// Unembedded returns up to limit live memories, notes, relationships
// (their embed_text, written by SaveRelationship) and live graph notes on
// nodes (their body; a relationship's notes are in its embed_text) that
// have no embedding from model, oldest first.
func (s *Store) Unembedded(ctx context.Context, model string, limit int) ([]hearth.Embeddable, error) {
	rows, err := s.pool.Query(ctx, `
		(SELECT 'memory', id, user_id, `+memoryEmbedText+` FROM facts
		 WHERE deleted_at IS NULL AND (embedding IS NULL OR embedding_model <> $1) ORDER BY id LIMIT $2)
		UNION ALL
		(SELECT 'note', id, user_id, `+noteEmbedText+` FROM notes
		 WHERE deleted_at IS NULL AND (embedding IS NULL OR embedding_model <> $1) ORDER BY id LIMIT $2)
		UNION ALL
		(SELECT 'relationship', id, user_id, embed_text FROM relationships
		 WHERE embed_text <> '' AND (embedding IS NULL OR embedding_model <> $1) ORDER BY id LIMIT $2)
		UNION ALL
		(SELECT 'graph_note', id, user_id, body FROM graph_notes
		 WHERE entity_id IS NOT NULL AND (expires_at IS NULL OR expires_at > now()) AND (embedding IS NULL OR embedding_model <> $1)
		 ORDER BY id LIMIT $2)
		LIMIT $2`, model, limit)
	if err != nil {
		return nil, fmt.Errorf("store unembedded: %w", translate(err))
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.Embeddable, error) {
		var e hearth.Embeddable
		return e, r.Scan(&e.Kind, &e.ID, &e.UserID, &e.Text)
	})
	if err != nil {
		return nil, fmt.Errorf("store unembedded: %w", translate(err))
	}
	return out, nil
}

// SaveEmbedding stores the embedding of e made by model. A row whose text
// changed since it was read (or that was deleted) is left alone and false
// is returned: the job embeds its new text on its next pass.
func (s *Store) SaveEmbedding(ctx context.Context, e hearth.Embeddable, model string, vec []float32) (bool, error) {
	if !slices.Contains(EmbeddingDimensions, len(vec)) {
		return false, fmt.Errorf("store save embedding: %w", hearth.Invalidf("%d dimensions; the database indexes %v", len(vec), EmbeddingDimensions))
	}
	var q string
	switch e.Kind {
	case "memory":
		q = `UPDATE facts SET embedding = $2::vector, embedding_model = $3 WHERE id = $1 AND deleted_at IS NULL AND ` + memoryEmbedText + ` = $4`
	case "note":
		q = `UPDATE notes SET embedding = $2::vector, embedding_model = $3 WHERE id = $1 AND deleted_at IS NULL AND ` + noteEmbedText + ` = $4`
	case "relationship":
		q = `UPDATE relationships SET embedding = $2::vector, embedding_model = $3 WHERE id = $1 AND embed_text = $4`
	case "graph_note":
		q = `UPDATE graph_notes SET embedding = $2::vector, embedding_model = $3 WHERE id = $1 AND body = $4`
	default:
		return false, fmt.Errorf("store save embedding: %w", hearth.Invalidf("unknown kind %q", e.Kind))
	}
	tag, err := s.pool.Exec(ctx, q, e.ID, pgvector.NewVector(vec), model, e.Text)
	if err != nil {
		return false, fmt.Errorf("store save embedding of %s %d: %w", e.Kind, e.ID, translate(err))
	}
	return tag.RowsAffected() == 1, nil
}

// SimilarMemories returns the user's live memories nearest to vec by
// cosine distance, nearest first, among those embedded by model and no
// farther than maxDistance (0 to 2); with about set, only memories about
// that subject (matched loosely, as FindMemories does). Who may see what
// is decided here, in the query, like FindMemories.
func (s *Store) SimilarMemories(ctx context.Context, userID int64, model string, vec []float32, about string, maxDistance float64, limit int) ([]hearth.Memory, error) {
	d := len(vec)
	if !slices.Contains(EmbeddingDimensions, d) {
		return nil, fmt.Errorf("store similar memories: %w", hearth.Invalidf("%d dimensions; the database indexes %v", d, EmbeddingDimensions))
	}
	if userID <= 0 {
		return nil, fmt.Errorf("store similar memories: %w", hearth.Invalidf("a memory search needs a user"))
	}
	// The cast and the vector_dims predicate match the index of that size.
	about = strings.TrimSpace(about)
	var out []hearth.Memory
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if err := iterativeScan(ctx, tx); err != nil {
			return err
		}
		// The viewer's facts are found by the permission outline first and
		// then measured exactly (OFFSET 0 keeps the planner from an HNSW
		// scan of everyone's facts that the filter would starve): a
		// household's facts are few, and nothing visible is missed.
		rows, err := tx.Query(ctx, fmt.Sprintf(`SELECT `+memoryColumns+` FROM (
			SELECT *, embedding::vector(%[1]d) <=> $3::vector(%[1]d) AS dist FROM (
				SELECT * FROM facts
				WHERE vector_dims(embedding) = %[1]d AND deleted_at IS NULL AND invalidated_at IS NULL
					AND `+visibleTo("$1", "")+` AND embedding_model = $2
					AND ($6 = '' OR about ILIKE $7 OR about %% $6)
				OFFSET 0) visible) measured
		WHERE dist <= $5
		ORDER BY dist LIMIT $4`, d),
			userID, model, pgvector.NewVector(vec), limitOf(limit), maxDistance, about, "%"+likeEscaper.Replace(about)+"%")
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.Memory, error) { return scanMemory(r) })
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store similar memories: %w", translate(err))
	}
	return out, nil
}

// SimilarNotes returns the user's live notes nearest to vec by cosine
// distance, nearest first, among those embedded by model and no farther
// than maxDistance (0 to 2). Like FindNotes, it returns only the user's
// own notes: the query decides.
func (s *Store) SimilarNotes(ctx context.Context, userID int64, model string, vec []float32, maxDistance float64, limit int) ([]hearth.Note, error) {
	d := len(vec)
	if !slices.Contains(EmbeddingDimensions, d) {
		return nil, fmt.Errorf("store similar notes: %w", hearth.Invalidf("%d dimensions; the database indexes %v", d, EmbeddingDimensions))
	}
	if userID <= 0 {
		return nil, fmt.Errorf("store similar notes: %w", hearth.Invalidf("a note search needs a user"))
	}
	var out []hearth.Note
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if err := iterativeScan(ctx, tx); err != nil {
			return err
		}
		// The cast and the vector_dims predicate match the index of that size.
		rows, err := tx.Query(ctx, fmt.Sprintf(`SELECT `+noteColumns+` FROM notes
		WHERE vector_dims(embedding) = %[1]d AND deleted_at IS NULL AND user_id = $1 AND embedding_model = $2
			AND embedding::vector(%[1]d) <=> $3::vector(%[1]d) <= $5
		ORDER BY embedding::vector(%[1]d) <=> $3::vector(%[1]d) LIMIT $4`, d),
			userID, model, pgvector.NewVector(vec), limitOf(limit), maxDistance)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.Note, error) { return scanNote(r) })
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store similar notes: %w", translate(err))
	}
	return out, nil
}

// iterativeScan lets an HNSW scan filtered by user keep going until the
// LIMIT is met: otherwise it stops after hnsw.ef_search candidates (40),
// most of them other users'. pgvector 0.8 has the setting; older
// pgvector has not, and then nothing is set. (The vector literal loads
// pgvector, at planning, before the setting is looked up: a fresh
// connection has not loaded it yet.) The setting lasts for tx.
func iterativeScan(ctx context.Context, tx pgx.Tx) error {
	_, err := tx.Exec(ctx, `SELECT set_config('hnsw.iterative_scan', 'strict_order', true)
		FROM (SELECT '[1]'::vector) loaded
		WHERE current_setting('hnsw.iterative_scan', true) IS NOT NULL`)
	return err
}
