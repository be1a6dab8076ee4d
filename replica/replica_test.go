package replica

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river/rivertype"

	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

// clock is a monotonic test clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// TestFence: a replica works only while its newest heartbeat is younger
// than the fence (2/3 of StaleAfter); past it, what it runs is cancelled
// with ErrFenced and nothing new starts, also while the database cannot
// be reached; a heartbeat that gets through makes it live again.
func TestFence(t *testing.T) {
	t.Parallel()
	dbURL := storetest.NewDatabase(t)
	proxy, proxied := storetest.NewProxy(t, dbURL)
	ctx := context.Background()
	st, err := store.Open(ctx, proxied, store.Config{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	clk := &clock{now: time.Unix(1_700_000_000, 0)}
	l := New(Config{ID: "r1", Store: st, StaleAfter: 15 * time.Second, Now: clk.Now})
	if l.Interval() != 3*time.Second || l.Fence() != 10*time.Second {
		t.Fatalf("interval %s, fence %s; want 3s and 10s", l.Interval(), l.Fence())
	}
	mw := l.Middleware()
	job := &rivertype.JobRow{ID: 1}
	ran := func() error {
		return mw.Work(ctx, job, func(context.Context) error { return nil })
	}
	var snooze *rivertype.JobSnoozeError
	if err := l.Live(); !errors.Is(err, ErrFenced) {
		t.Fatalf("before any heartbeat Live = %v; want ErrFenced", err)
	}
	if err := ran(); !errors.As(err, &snooze) {
		t.Fatalf("a job before any heartbeat: %v; want it snoozed", err)
	}
	if err := l.Beat(ctx); err != nil {
		t.Fatal(err)
	}
	if err := l.Live(); err != nil {
		t.Fatalf("after a heartbeat Live = %v", err)
	}
	// A job running when the fence passes is cancelled, with the cause.
	started, cause := make(chan struct{}), make(chan error, 1)
	go func() {
		mw.Work(ctx, job, func(ctx context.Context) error { //nolint:errcheck // the cause is what is checked
			close(started)
			<-ctx.Done()
			cause <- context.Cause(ctx)
			return ctx.Err()
		})
	}()
	<-started
	clk.add(9 * time.Second)
	l.check()
	if err := l.Live(); err != nil {
		t.Fatalf("9 s after the heartbeat Live = %v; want live (fence 10 s)", err)
	}
	proxy.Cut()
	beat, cancel := context.WithTimeout(ctx, 2*time.Second)
	if err := l.Beat(beat); err == nil {
		t.Fatal("a heartbeat through a cut connection succeeded")
	}
	cancel()
	clk.add(time.Second)
	if err := l.Live(); !errors.Is(err, ErrFenced) {
		t.Fatalf("10 s after the last heartbeat Live = %v; want ErrFenced before the fence is even checked", err)
	}
	l.check()
	select {
	case err := <-cause:
		if !errors.Is(err, ErrFenced) {
			t.Fatalf("running job cancelled with %v; want ErrFenced", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the running job was not cancelled at the fence")
	}
	if err := ran(); !errors.As(err, &snooze) {
		t.Fatalf("a job while fenced: %v; want it snoozed", err)
	}
	proxy.Restore()
	if err := l.Beat(ctx); err != nil {
		t.Fatal(err)
	}
	if err := ran(); err != nil {
		t.Fatalf("a job after the heartbeat came back: %v", err)
	}
}

// TestSweepTakesOverADeadReplica: replica r2 heartbeats, stops (killed);
// r1's sweep takes r2's running job once r2 is silent past StaleAfter, not
// before.
func TestSweepTakesOverADeadReplica(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	r1 := New(Config{ID: "r1", Store: st, StaleAfter: 2 * time.Second})
	r2 := New(Config{ID: "r2", Store: st, StaleAfter: 2 * time.Second})
	for _, r := range []*Liveness{r1, r2} {
		if err := r.Beat(ctx); err != nil {
			t.Fatal(err)
		}
	}
	var id int64
	if err := st.Pool().QueryRow(ctx, `INSERT INTO river_job (kind, args, max_attempts, state, attempt, attempted_by, attempted_at)
		VALUES ('turn', '{}', 25, 'running', 1, '{r2}', now()) RETURNING id`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	if n, err := r1.Sweep(ctx); err != nil || n != 0 {
		t.Fatalf("swept %d (%v) while r2 is alive; want 0", n, err)
	}
	// r2 is silent from now on: its heartbeat is 3 s old in the database.
	if _, err := st.Pool().Exec(ctx, `UPDATE replicas SET seen_at = now() - interval '3 seconds' WHERE id = 'r2'`); err != nil {
		t.Fatal(err)
	}
	if err := r1.Beat(ctx); err != nil {
		t.Fatal(err)
	}
	if n, err := r1.Sweep(ctx); err != nil || n != 1 {
		t.Fatalf("swept %d (%v) after r2 went silent; want 1", n, err)
	}
}
