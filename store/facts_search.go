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

// rrfK is reciprocal rank fusion's constant: a fact ranked r by one
// search adds 1/(rrfK + r). 60 is the value of the RRF paper, and keeps
// one search's top hit from outweighing agreement between several.
const rrfK = 60

// SearchMemories is hybrid retrieval over the facts viewer may see: the
// nearest by meaning (HNSW, with pgvector's iterative scan so that the
// permission filter never starves the result), full-text matches, and
// names matched by trigram against what a fact is about, each ranked on
// its own and fused by reciprocal rank fusion; importance and recency
// only break near-ties. The permission predicate is inside each search, so
// nothing the viewer may not see is ever ranked. vec may be nil (no
// embeddings), text may be empty; model names the embeddings to compare.
func (s *Store) SearchMemories(ctx context.Context, viewer int64, text, model string, vec []float32, limit int) ([]hearth.Memory, error) {
	if viewer <= 0 {
		return nil, fmt.Errorf("store search memories: %w", hearth.Invalidf("a memory search needs a user"))
	}
	text = strings.TrimSpace(text)
	d := len(vec)
	if d > 0 && !slices.Contains(EmbeddingDimensions, d) {
		return nil, fmt.Errorf("store search memories: %w", hearth.Invalidf("%d dimensions; the database indexes %v", d, EmbeddingDimensions))
	}
	k := max(limitOf(limit)*4, 40) // candidates per search
	var parts []string
	args := []any{viewer, text, k}
	visible := `fact_visible($1, user_id, family_id, tier, id) AND ` + currentFact
	if d > 0 {
		args = append(args, model, pgvector.NewVector(vec))
		parts = append(parts, fmt.Sprintf(`SELECT id, row_number() OVER (ORDER BY dist, id) AS r FROM (
			SELECT id, embedding::vector(%[1]d) <=> $5::vector(%[1]d) AS dist FROM facts
			WHERE vector_dims(embedding) = %[1]d AND embedding_model = $4 AND %[2]s
			ORDER BY dist LIMIT $3) nearest`, d, visible))
	}
	if text != "" {
		parts = append(parts, `SELECT id, row_number() OVER (ORDER BY ts_rank(search, q) DESC, id DESC) AS r
			FROM facts, websearch_to_tsquery('simple', $2) q
			WHERE search @@ q AND `+visible+` ORDER BY ts_rank(search, q) DESC, id DESC LIMIT $3`)
		parts = append(parts, `SELECT id, row_number() OVER (ORDER BY word_similarity(about, $2) DESC, id DESC) AS r
			FROM facts WHERE about <% $2 AND `+visible+` ORDER BY word_similarity(about, $2) DESC, id DESC LIMIT $3`)
	}
	if len(parts) == 0 {
		return nil, fmt.Errorf("store search memories: %w", hearth.Invalidf("a memory search needs words or a vector"))
	}
	args = append(args, limitOf(limit))
	q := `WITH ranked AS (` + "(" + strings.Join(parts, ") UNION ALL (") + ")" + `),
		fused AS (SELECT id, sum(1.0 / (` + fmt.Sprint(rrfK) + ` + r)) AS score FROM ranked GROUP BY id)
		SELECT ` + memoryColumns + ` FROM fused JOIN facts USING (id)
		ORDER BY score
		       + importance * 0.00005
		       + 0.0001 / (1 + extract(epoch FROM now() - learned_at) / 2592000) DESC, id DESC
		LIMIT $` + fmt.Sprint(len(args))
	var out []hearth.Memory
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if err := iterativeScan(ctx, tx); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, q, args...)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.Memory, error) { return scanMemory(r) })
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store search memories: %w", translate(err))
	}
	return out, nil
}
