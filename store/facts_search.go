package store

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/hearthbot/hearth"
)

// rrfK is reciprocal rank fusion's constant: a fact ranked r by one
// search adds 1/(rrfK + r). 60 is the value of the RRF paper, and keeps
// one search's top hit from outweighing agreement between several.
const rrfK = 60

// SearchMemories is hybrid retrieval over the facts viewer may see: the
// nearest by meaning (exact distances over the viewer's facts, which the
// permission outline's indexes find), full-text matches, and
// names matched by trigram against what a fact is about, each ranked on
// its own and fused by reciprocal rank fusion; importance and recency
// only break near-ties. The permission predicate is inside each search, so
// nothing the viewer may not see is ever ranked. vec may be nil (no
// embeddings), text may be empty; model names the embeddings to compare.
func (s *Store) SearchMemories(ctx context.Context, viewer int64, text, model string, vec []float32, limit int) ([]hearth.Memory, error) {
	q, args, err := searchMemoriesQuery(viewer, text, model, vec, limit)
	if err != nil {
		return nil, fmt.Errorf("store search memories: %w", err)
	}
	var out []hearth.Memory
	rows, err := s.pool.Query(ctx, q, args...)
	if err == nil {
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.Memory, error) { return scanMemory(r) })
	}
	if err != nil {
		return nil, fmt.Errorf("store search memories: %w", translate(err))
	}
	return out, nil
}

// searchMemoriesQuery builds SearchMemories' SQL and its arguments.
func searchMemoriesQuery(viewer int64, text, model string, vec []float32, limit int) (string, []any, error) {
	if viewer <= 0 {
		return "", nil, hearth.Invalidf("a memory search needs a user")
	}
	text = strings.TrimSpace(text)
	d := len(vec)
	if d > 0 && !slices.Contains(EmbeddingDimensions, d) {
		return "", nil, hearth.Invalidf("%d dimensions; the database indexes %v", d, EmbeddingDimensions)
	}
	k := max(limitOf(limit)*4, 40) // candidates per search
	args := []any{viewer, k}
	arg := func(v any) string { args = append(args, v); return "$" + strconv.Itoa(len(args)) }
	visible := visibleTo("$1", "") + ` AND ` + currentFact
	var parts []string
	if d > 0 {
		model, vector := arg(model), arg(pgvector.NewVector(vec))
		// Exact distances over the viewer's facts, found by the permission
		// outline's indexes (OFFSET 0 fences them from an HNSW scan of
		// everyone's facts that the filter would starve).
		parts = append(parts, fmt.Sprintf(`SELECT id, row_number() OVER (ORDER BY dist, id) AS r FROM (
			SELECT id, embedding::vector(%[1]d) <=> %[4]s::vector(%[1]d) AS dist FROM (
				SELECT id, embedding FROM facts
				WHERE vector_dims(embedding) = %[1]d AND embedding_model = %[3]s AND %[2]s
				OFFSET 0) visible
			ORDER BY dist LIMIT $2) nearest`, d, visible, model, vector))
	}
	if text != "" {
		t := arg(text)
		parts = append(parts, `SELECT id, row_number() OVER (ORDER BY ts_rank(search, q) DESC, id DESC) AS r
			FROM facts, `+textQuery(text, arg)+` q
			WHERE search @@ q AND `+visible+` ORDER BY ts_rank(search, q) DESC, id DESC LIMIT $2`)
		parts = append(parts, `SELECT id, row_number() OVER (ORDER BY word_similarity(about, `+t+`) DESC, id DESC) AS r
			FROM facts WHERE about <% `+t+` AND `+visible+` ORDER BY word_similarity(about, `+t+`) DESC, id DESC LIMIT $2`)
	}
	if len(parts) == 0 {
		return "", nil, hearth.Invalidf("a memory search needs words or a vector")
	}
	q := `WITH ranked AS (` + "(" + strings.Join(parts, ") UNION ALL (") + ")" + `),
		fused AS (SELECT id, sum(1.0 / (` + strconv.Itoa(rrfK) + ` + r)) AS score FROM ranked GROUP BY id)
		SELECT ` + memoryColumns + ` FROM fused JOIN facts USING (id)
		ORDER BY score
		       + importance * 0.00005
		       + 0.0001 / (1 + extract(epoch FROM now() - learned_at) / 2592000) DESC, id DESC
		LIMIT ` + arg(limitOf(limit)) + `
`
	return q, args, nil
}

// textQuery is the full-text query for a search's text, as SQL whose
// parameters arg adds. Plain words must all match, each as a prefix,
// since the 'simple' configuration the facts are indexed with does not
// stem ("when does my passport expire?" finds "my passport expires in
// June"); text in web-search syntax (a quoted phrase, an excluded -word,
// "or", or a hyphenated word) is read as such.
func textQuery(text string, arg func(any) string) string {
	if strings.ContainsAny(text, `"-`) || strings.Contains(" "+strings.ToLower(text)+" ", " or ") {
		return "websearch_to_tsquery('simple', " + arg(text) + ")"
	}
	return "to_tsquery('simple', " + arg(wordsQuery(text)) + ")"
}

// wordsQuery is plain words in to_tsquery syntax: all of them, each as a
// prefix but words of one or two letters, which match whole. Punctuation
// is dropped, so no input is a syntax error; no words at all is the empty
// query, which matches nothing.
func wordsQuery(text string) string {
	var terms []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if utf8.RuneCountInString(w) > 2 {
			w += ":*"
		}
		terms = append(terms, w)
	}
	return strings.Join(terms, " & ")
}
