package store_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

// BenchmarkFactSearch measures the second brain at household scale:
// HEARTH_BENCH_FACTS facts (default 2,000; the figure is 100,000)
// over one household of four per 100 facts, with 1,024-dimension vectors
// drawn around 100 cluster centres (uniform random vectors would make
// recall meaningless), every fact owned by a member or by the family and
// every member granting the others tier 3. It reports the ingestion rate
// (COPY, HNSW maintained as rows arrive), the latency of the permission-
// filtered hybrid search (SearchMemories) and of its search by meaning
// alone (vector-p50/p99), and recall@10 of the latter against an exact
// sequential scan under the same permission predicate. Run it with
//
//	HEARTH_BENCH_FACTS=100000 go test -run NONE -bench FactSearch -benchtime 1x -timeout 60m ./store/
//
// With HEARTH_BENCH_EXPLAIN=1 it also logs EXPLAIN (ANALYZE, BUFFERS) of
// one viewer's hybrid search before measuring.
func BenchmarkFactSearch(b *testing.B) {
	n := benchSize("HEARTH_BENCH_FACTS", 2000)
	const dims, clusters, queries = 1024, 100, 200
	ctx := context.Background()
	st, err := store.Open(ctx, storetest.NewDatabase(b), store.Config{MaxConns: 4})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	households := max(n/100, 1)

	// Households: four users each, one family, tier-3 grants both ways.
	_, err = st.Pool().Exec(ctx, `
		WITH u AS (
			INSERT INTO users (display_name, timezone)
			SELECT 'member ' || g, 'Europe/Berlin' FROM generate_series(1, $1 * 4) g RETURNING id
		), f AS (
			INSERT INTO families (name) SELECT 'family ' || g FROM generate_series(1, $1) g RETURNING id
		), fr AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM f),
		ur AS (SELECT id, (row_number() OVER (ORDER BY id) - 1) / 4 AS k FROM u)
		INSERT INTO family_members (family_id, user_id) SELECT fr.id, ur.id FROM ur JOIN fr USING (k)`, households)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := st.Pool().Exec(ctx, `
		INSERT INTO access_grants (target_id, viewer_id, tier)
		SELECT a.user_id, v.user_id, 3 FROM family_members a JOIN family_members v USING (family_id)
		WHERE a.user_id <> v.user_id`); err != nil {
		b.Fatal(err)
	}
	type member struct{ User, Family int64 }
	var members []member
	rows, _ := st.Pool().Query(ctx, `SELECT user_id, family_id FROM family_members ORDER BY user_id`)
	members, err = pgx.CollectRows(rows, pgx.RowToStructByPos[member])
	if err != nil {
		b.Fatal(err)
	}

	unitNorm := func(v []float32) []float32 {
		var s float64
		for _, x := range v {
			s += float64(x) * float64(x)
		}
		k := float32(1 / math.Sqrt(s))
		for i := range v {
			v[i] *= k
		}
		return v
	}
	centres := make([][]float32, clusters)
	for c := range centres {
		v := make([]float32, dims)
		for i := range v {
			v[i] = float32(rng.NormFloat64())
		}
		centres[c] = unitNorm(v)
	}
	near := func(c int, spread float64) []float32 {
		v := make([]float32, dims)
		for i := range v {
			v[i] = centres[c][i] + float32(rng.NormFloat64()*spread)
		}
		return unitNorm(v)
	}
	topics := []string{"school", "piano", "garden", "football", "dentist", "holiday", "birthday", "work", "house", "recipe"}
	facts := make([][]any, n)
	for i := range facts {
		m := members[rng.IntN(len(members))]
		var family any
		if rng.IntN(10) == 0 {
			family = m.Family
		}
		c := rng.IntN(clusters)
		facts[i] = []any{m.User, family, fmt.Sprintf("%s note %d about topic %d", topics[c%len(topics)], i, c),
			fmt.Sprintf("person %d", rng.IntN(50)), 1 + rng.IntN(4), 1 + rng.IntN(5), pgvector.NewVector(near(c, 0.02)), "bench"}
	}
	start := time.Now()
	copied, err := st.Pool().CopyFrom(ctx, pgx.Identifier{"facts"},
		[]string{"user_id", "family_id", "content", "about", "tier", "importance", "embedding", "embedding_model"}, pgx.CopyFromRows(facts))
	if err != nil || copied != int64(n) {
		b.Fatalf("copy: %d, %v", copied, err)
	}
	ingest := time.Since(start)
	if _, err := st.Pool().Exec(ctx, `ANALYZE facts`); err != nil {
		b.Fatal(err)
	}

	type query struct {
		viewer int64
		text   string
		vec    []float32
	}
	qs := make([]query, queries)
	for i := range qs {
		c := rng.IntN(clusters)
		qs[i] = query{members[rng.IntN(len(members))].User, topics[c%len(topics)], near(c, 0.03)}
	}
	// exact is the reference: a sequential scan of every fact, each
	// checked by fact_visible alone and measured (OFFSET 0 keeps any index
	// on the vectors out of it).
	exact := func(q query) []int64 {
		rows, _ := st.Pool().Query(ctx, `SELECT id FROM (
			SELECT id, embedding FROM facts
			WHERE vector_dims(embedding) = 1024 AND embedding_model = 'bench'
			  AND fact_visible($1, user_id, family_id, tier, id) AND deleted_at IS NULL AND invalidated_at IS NULL
			OFFSET 0) f
			ORDER BY embedding::vector(1024) <=> $2::vector(1024) LIMIT 10`, q.viewer, pgvector.NewVector(q.vec))
		ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil {
			b.Fatal(err)
		}
		return ids
	}
	if os.Getenv("HEARTH_BENCH_EXPLAIN") != "" {
		// Warm the caches the way the measured loop does, then show the plan
		// of one viewer's hybrid search.
		for _, q := range qs[:20] {
			if _, err := st.SearchMemories(ctx, q.viewer, q.text, "bench", q.vec, 10); err != nil {
				b.Fatal(err)
			}
		}
		plan, err := st.ExplainSearchMemories(ctx, qs[0].viewer, qs[0].text, "bench", qs[0].vec, 10)
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("hybrid search plan for viewer %d, %q:\n%s", qs[0].viewer, qs[0].text, plan)
	}
	var hybrid, ann []time.Duration
	hits, total := 0, 0
	b.ResetTimer()
	for b.Loop() {
		hybrid, ann, hits, total = hybrid[:0], ann[:0], 0, 0
		for _, q := range qs {
			t0 := time.Now()
			if _, err := st.SearchMemories(ctx, q.viewer, q.text, "bench", q.vec, 10); err != nil {
				b.Fatal(err)
			}
			hybrid = append(hybrid, time.Since(t0))
			t0 = time.Now()
			ms, err := st.SearchMemories(ctx, q.viewer, "", "bench", q.vec, 10)
			if err != nil {
				b.Fatal(err)
			}
			ann = append(ann, time.Since(t0))
			var got []int64
			for _, m := range ms {
				got = append(got, m.ID)
			}
			want := exact(q)
			for _, id := range want {
				if slices.Contains(got, id) {
					hits++
				}
			}
			total += len(want)
		}
	}
	b.StopTimer()
	pct := func(ds []time.Duration, p float64) float64 {
		s := slices.Clone(ds)
		slices.Sort(s)
		return float64(s[min(len(s)-1, int(p*float64(len(s))))].Microseconds()) / 1000
	}
	b.ReportMetric(float64(n)/ingest.Seconds(), "facts/s-ingest")
	b.ReportMetric(pct(hybrid, 0.5), "hybrid-p50-ms")
	b.ReportMetric(pct(hybrid, 0.99), "hybrid-p99-ms")
	b.ReportMetric(pct(ann, 0.5), "vector-p50-ms")
	b.ReportMetric(pct(ann, 0.99), "vector-p99-ms")
	b.ReportMetric(float64(hits)/float64(max(total, 1)), "recall@10")
	b.Logf("%d facts, %d households, %d queries: ingest %s", n, households, queries, ingest.Round(time.Millisecond))
}

// benchSize is the positive number in the environment variable name, or
// def: how a benchmark is run at full size.
func benchSize(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}
