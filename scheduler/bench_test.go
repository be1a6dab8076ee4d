package scheduler_test

import (
	"context"
	"log/slog"
	"os"
	"runtime"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/scheduler"
	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

// BenchmarkBriefings delivers one morning's daily briefings to
// HEARTH_BENCH_USERS synthetic users (default 2,000 so `make bench` stays
// short; the target is 100,000 in under 5 minutes), all due at the
// same 07:30 in Europe/Berlin, each with two events, three tasks, a
// birthday, a memory about an attendee and a family of four who see each
// other's events (six family events per briefing), through the real path: the
// planner (sync + enqueue), the fire jobs (compose, store the message,
// enqueue its delivery) and the deliver jobs, to a fake channel that only
// counts. It reports the first sync of all those rows (an hour before),
// the time to enqueue at 07:30, the time from then until the last is
// delivered, and the peak Go heap and process RSS. Run it once:
//
//	HEARTH_BENCH_USERS=100000 go test -run NONE -bench Briefings -benchtime 1x -timeout 30m ./scheduler/
func BenchmarkBriefings(b *testing.B) {
	n := 2000
	if v := os.Getenv("HEARTH_BENCH_USERS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			b.Fatalf("HEARTH_BENCH_USERS=%q is not a positive number", v)
		}
	}
	ctx := context.Background()
	dbURL := storetest.NewDatabase(b)
	st, err := store.Open(ctx, dbURL, store.Config{MaxConns: 40})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()

	berlin, _ := time.LoadLocation("Europe/Berlin")
	// The latest 07:30 in Berlin before now, so the scheduler's clock can
	// say it is that morning while the database agrees the users existed.
	now := time.Now().In(berlin)
	at := time.Date(now.Year(), now.Month(), now.Day(), 7, 30, 0, 0, berlin)
	if at.After(now) {
		at = at.AddDate(0, 0, -1)
	}
	day := time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, berlin)
	seedStart := time.Now()
	if err := st.SeedBriefingUsers(ctx, "bench", n, "Europe/Berlin", day); err != nil {
		b.Fatal(err)
	}
	// A morning's briefings run on tables autovacuum has analysed; the
	// bulk load just made has no statistics yet, and the plans made for it
	// (the briefing reads are planned once per connection) would scan
	// every fact for each user's meeting prep until autovacuum came round.
	if err := st.Analyze(ctx); err != nil {
		b.Fatal(err)
	}
	b.Logf("seeded %d users in %s", n, time.Since(seedStart).Round(time.Millisecond))

	var sent atomic.Int64
	all := make(chan struct{}) // closed by the n-th delivery
	clock := &clock{t: at}
	sched := scheduler.New(scheduler.Config{Store: st, Now: clock.Now, Log: slog.New(slog.DiscardHandler)})
	workers := river.NewWorkers()
	sched.Workers(workers)
	river.AddWorker(workers, pipeline.NewDeliverWorker(st, map[hearth.Channel]pipeline.Sender{
		"bench": pipeline.SenderFunc(func(context.Context, hearth.Delivery) (string, error) {
			k := sent.Add(1)
			if k == int64(n) {
				close(all)
			}
			return strconv.FormatInt(k, 10), nil
		}),
	}, nil, nil))
	client, err := river.NewClient(riverpgxv5.New(st.Pool()), &river.Config{
		Workers: workers, Logger: slog.New(slog.DiscardHandler),
		FetchCooldown: 5 * time.Millisecond, FetchPollInterval: 20 * time.Millisecond,
		Queues: map[string]river.QueueConfig{
			scheduler.QueueScheduler: {MaxWorkers: 16},
			pipeline.QueueDeliveries: {MaxWorkers: 16},
		},
	})
	if err != nil {
		b.Fatal(err)
	}

	peakHeap := watchHeap(b)
	b.ResetTimer()
	// An hour before: the planner syncs the new users, tasks and
	// birthdays (in production this happens bit by bit as they are
	// written); nothing is due yet.
	clock.Set(at.Add(-time.Hour))
	syncStart := time.Now()
	if _, err := sched.Plan(ctx, client); err != nil {
		b.Fatal(err)
	}
	synced := time.Since(syncStart)
	clock.Set(at)
	start := time.Now()
	stats, err := sched.Plan(ctx, client)
	if err != nil {
		b.Fatal(err)
	}
	enqueued := time.Since(start)
	if stats.Planned != n || stats.Jobs < n/32 {
		b.Fatalf("planned %+v; want %d occurrences, in jobs of at most 32", stats, n)
	}
	if err := client.Start(ctx); err != nil {
		b.Fatal(err)
	}
	defer client.Stop(context.WithoutCancel(ctx)) //nolint:errcheck // benchmark teardown
	select {
	case <-all:
	case <-time.After(30 * time.Minute):
		b.Fatalf("only %d of %d briefings delivered in 30 minutes", sent.Load(), n)
	}
	delivered := time.Since(start)
	b.StopTimer()
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru) //nolint:errcheck // Linux always answers
	b.ReportMetric(synced.Seconds(), "s-first-sync")
	b.ReportMetric(stats.EnqueueTook.Seconds(), "s-enqueue")
	b.ReportMetric(delivered.Seconds(), "s-delivered")
	b.ReportMetric(float64(n)/delivered.Seconds(), "briefings/s")
	b.ReportMetric(float64(peakHeap())/(1<<20), "MiB-peak-heap")
	b.ReportMetric(float64(ru.Maxrss)/1024, "MiB-max-rss")
	b.Logf("%d users: first sync %s; the 07:30 planner run took %s (re-sync %s, enqueue %s: %d due, %d jobs); all delivered %s after it began",
		n, synced.Round(time.Millisecond), enqueued.Round(time.Millisecond), stats.SyncTook.Round(time.Millisecond),
		stats.EnqueueTook.Round(time.Millisecond), stats.Planned, stats.Jobs, delivered.Round(time.Millisecond))

	var dup int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) - count(DISTINCT conversation_id) FROM messages WHERE sender = 'bot'`).Scan(&dup); err != nil {
		b.Fatal(err)
	}
	if dup != 0 {
		b.Fatalf("%d users got more than one briefing", dup)
	}
	var family int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM messages WHERE sender = 'bot' AND text LIKE '%Family updates%'`).Scan(&family); err != nil {
		b.Fatal(err)
	}
	if family != n {
		b.Fatalf("%d of %d briefings have a Family section", family, n)
	}
}

// watchHeap samples the heap until the benchmark ends and returns a
// function giving the peak seen.
func watchHeap(b *testing.B) func() uint64 {
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	b.Cleanup(func() { close(stop); <-done })
	return func() uint64 { return peak.Load() }
}
