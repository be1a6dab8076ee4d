package store

import (
	"context"
	"strings"

	"github.com/jackc/pgx/v5"
)

// ExplainSearchMemories returns the plan, with actual times and buffers,
// of SearchMemories' query for these arguments: the benchmark logs it
// when HEARTH_BENCH_EXPLAIN is set.
func (s *Store) ExplainSearchMemories(ctx context.Context, viewer int64, text, model string, vec []float32, limit int) (string, error) {
	q, args, err := searchMemoriesQuery(viewer, text, model, vec, limit)
	if err != nil {
		return "", err
	}
	rows, _ := s.pool.Query(ctx, "EXPLAIN (ANALYZE, BUFFERS) "+q, args...)
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	return strings.Join(lines, "\n"), err
}
