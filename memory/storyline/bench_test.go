package storyline_test

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/hearthbot/hearth/memory/storyline"
	"github.com/hearthbot/hearth/store/storetest"
)

// BenchmarkNightlyJobs runs the nightly and weekly work over
// HEARTH_BENCH_NODES synthetic nodes (default 2,000 so `make bench` stays
// short; the figure is at 100,000): users in four time zones with
// 100 nodes each, a third of them mentioned on 3 to 7
// days (those become storylines; each pair of them shares two sources,
// so themes form), 20,000 graph notes of which half expired. One
// iteration is a cold night in every zone: delete the expired notes,
// promote every zone's storylines and describe its relationships, group
// every zone's themes; then a
// second, warm night (nothing new) is timed too and reported as
// warm-ms. Run it once:
//
//	HEARTH_BENCH_NODES=100000 go test -run NONE -bench NightlyJobs -benchtime 1x ./memory/storyline/
func BenchmarkNightlyJobs(b *testing.B) {
	nodes := 2000
	if v := os.Getenv("HEARTH_BENCH_NODES"); v != "" {
		var err error
		if nodes, err = strconv.Atoi(v); err != nil {
			b.Fatal(err)
		}
	}
	st, _ := storetest.Open(b)
	ctx := context.Background()
	now := time.Date(2026, 3, 8, 12, 0, 0, 0, time.UTC)
	users := max(nodes/100, 1)
	setup := []string{
		`INSERT INTO users (display_name, timezone)
		 SELECT 'u' || i, (ARRAY['Europe/Rome', 'America/New_York', 'Asia/Tokyo', 'UTC'])[1 + i % 4] FROM generate_series(1, $1) i`,
		`INSERT INTO entities (user_id, kind, name, mention_sources, mention_days, first_mentioned_at, last_mentioned_at)
		 SELECT u.id, (ARRAY['person', 'project', 'concept', 'place'])[1 + k % 4], 'node ' || k,
			CASE WHEN k % 3 = 0 THEN 3 + k % 5 ELSE 1 END, CASE WHEN k % 3 = 0 THEN 3 + k % 5 ELSE 1 END,
			$2::timestamptz - interval '20 days', $2::timestamptz - (k % 10) * interval '1 day'
		 FROM users u, generate_series(1, $3) k`,
		`INSERT INTO entity_mentions (entity_id, source, day, at)
		 SELECT e.id, 'u' || e.user_id || '-' || (split_part(e.name, ' ', 2)::int / 6) || '-' || s, ($2::date - s), $2::timestamptz - s * interval '1 day'
		 FROM entities e, generate_series(1, 2) s WHERE e.mention_days > 1`,
		`INSERT INTO graph_notes (user_id, entity_id, body, lifetime, expires_at)
		 SELECT e.user_id, e.id, 'note', 'week', $2::timestamptz + CASE WHEN e.id % 2 = 0 THEN interval '-1 day' ELSE interval '1 day' END
		 FROM entities e WHERE e.id % 5 = 0`,
	}
	per := nodes / users
	for i, q := range setup {
		var args []any
		switch i {
		case 0:
			args = []any{users}
		case 1:
			args = []any{nil, now, per}
			q = `WITH _ AS (SELECT $1::int) ` + q
		default:
			args = []any{nil, now}
			q = `WITH _ AS (SELECT $1::int) ` + q
		}
		if _, err := st.Pool().Exec(ctx, q, args...); err != nil {
			b.Fatalf("setup %d: %v", i, err)
		}
	}
	if _, err := st.Pool().Exec(ctx, `ANALYZE`); err != nil {
		b.Fatal(err)
	}
	zones, err := st.TimeZones(ctx)
	if err != nil {
		b.Fatal(err)
	}
	jobs := storyline.New(st, storyline.Config{})
	night := func() (promoted, grouped int) {
		if _, err := st.DeleteExpiredGraphNotes(ctx, now); err != nil {
			b.Fatal(err)
		}
		for _, z := range zones {
			n, err := jobs.Promote(ctx, z, now)
			if err != nil {
				b.Fatal(err)
			}
			promoted += n
			if _, err := st.ConsolidateDescriptions(ctx, z, now); err != nil {
				b.Fatal(err)
			}
		}
		for _, z := range zones {
			n, err := jobs.Group(ctx, z, now)
			if err != nil {
				b.Fatal(err)
			}
			grouped += n
		}
		return promoted, grouped
	}
	var warm time.Duration
	for b.Loop() {
		b.StopTimer()
		if _, err := st.Pool().Exec(ctx, `DELETE FROM storylines; DELETE FROM themes`); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		p, g := night()
		b.StopTimer()
		if p == 0 || g == 0 {
			b.Fatalf("promoted %d, grouped %d", p, g)
		}
		b.ReportMetric(float64(p), "storylines")
		t0 := time.Now()
		if p, g := night(); p != 0 || g != 0 {
			b.Fatalf("warm night changed %d storylines, %d themes", p, g)
		}
		warm = time.Since(t0)
		b.StartTimer()
	}
	b.ReportMetric(float64(warm.Milliseconds()), "warm-ms")
	b.ReportMetric(float64(nodes), "nodes")
}
