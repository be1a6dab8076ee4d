// Package replica lets several Hearth processes share one database and
// survive the death of any of them without doing anything twice.
//
// Each replica heartbeats a row (its River client id, HEARTH_REPLICA_ID
// when set) every StaleAfter/5. Every replica, after each heartbeat, puts
// the running jobs of replicas silent for longer than their StaleAfter
// back to work, so a killed replica's turns are answered seconds later
// instead of after River's stuck-job rescue (a minute and more).
//
// A replica that is only slow (a network cut to the database, a paused
// process) must not go on working what another replica has taken over. So
// it fences itself: once its newest successful heartbeat was sent more
// than Fence (2/3 of StaleAfter) ago, by its own monotonic clock, it
// cancels every job it is running (Middleware) and refuses to hand
// anything to a platform (Live), well before the others may take its
// work. What it could still commit is idempotent by key (a turn's replies
// by its event, actions by (turn, index) claims, sends by ClaimSend).
package replica

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// DefaultStaleAfter is how long a replica may be silent before the others
// take its running jobs over, unless configured (HEARTH_REPLICA_STALE_AFTER).
const DefaultStaleAfter = 15 * time.Second

// ErrFenced is why a replica stopped working its jobs: it could not show
// the database it was alive in time, so they may be someone else's now.
var ErrFenced = errors.New("replica fenced: no heartbeat reached the database in time, so its jobs may have been taken over")

// Store is what liveness keeps in the database.
type Store interface {
	// Heartbeat records that replica id is alive, and the silence after
	// which it is dead.
	Heartbeat(ctx context.Context, id string, staleAfter time.Duration) error
	// TakeOverJobs makes the running jobs of dead replicas available
	// again and returns how many.
	TakeOverJobs(ctx context.Context) (int64, error)
}

// Config configures a Liveness.
type Config struct {
	// ID is the replica's River client id. Required.
	ID string
	// Store keeps heartbeats. Required.
	Store Store
	// StaleAfter is the silence after which the other replicas take this
	// one's running jobs over. Defaults to DefaultStaleAfter.
	StaleAfter time.Duration
	// Log receives take-overs and fencing. Defaults to discarding.
	Log *slog.Logger
	// Now is the clock freshness is judged by; it must be monotonic (as
	// time.Now is). Defaults to time.Now.
	Now func() time.Time
}

// Liveness is one replica's heartbeat, take-over sweep and fence.
type Liveness struct {
	cfg Config

	mu     sync.Mutex
	last   time.Time // when the newest successful heartbeat was sent
	live   context.Context
	cancel context.CancelCauseFunc
}

// New returns the liveness of replica cfg.ID, fenced until its first
// heartbeat succeeds.
func New(cfg Config) *Liveness {
	if cfg.StaleAfter <= 0 {
		cfg.StaleAfter = DefaultStaleAfter
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	l := &Liveness{cfg: cfg}
	l.live, l.cancel = context.WithCancelCause(context.Background())
	l.cancel(ErrFenced)
	return l
}

// Interval is how often the replica heartbeats: StaleAfter/5, so a few
// heartbeats may fail before anything happens.
func (l *Liveness) Interval() time.Duration { return l.cfg.StaleAfter / 5 }

// Fence is how long after its newest successful heartbeat was sent the
// replica stops working: 2/3 of StaleAfter. The others wait StaleAfter
// after that heartbeat reached the database (later than it was sent), so
// the replica stops at least StaleAfter/3 before its jobs can be taken.
func (l *Liveness) Fence() time.Duration { return l.cfg.StaleAfter * 2 / 3 }

// Beat sends one heartbeat; on success the fence moves forward (and a
// fenced replica works again).
func (l *Liveness) Beat(ctx context.Context) error {
	sent := l.cfg.Now()
	if err := l.cfg.Store.Heartbeat(ctx, l.cfg.ID, l.cfg.StaleAfter); err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if sent.After(l.last) {
		l.last = sent
	}
	if l.live.Err() != nil && l.cfg.Now().Sub(l.last) < l.Fence() {
		l.live, l.cancel = context.WithCancelCause(context.Background())
		l.cfg.Log.Info("replica is live", "replica", l.cfg.ID)
	}
	return nil
}

// Live returns nil while the replica may act for its jobs, else ErrFenced.
// Checked right before anything leaves Hearth (a message to a platform),
// so a replica resuming from a pause does not act before its fence has
// cancelled its jobs.
func (l *Liveness) Live() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.live.Err() != nil || l.cfg.Now().Sub(l.last) >= l.Fence() {
		return ErrFenced
	}
	return nil
}

// check fences the replica when its newest heartbeat is too old:
// every job it runs is cancelled with ErrFenced.
func (l *Liveness) check() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.live.Err() == nil && l.cfg.Now().Sub(l.last) >= l.Fence() {
		l.cancel(ErrFenced)
		l.cfg.Log.Warn("replica fenced: no heartbeat reached the database in time; its running jobs are cancelled",
			"replica", l.cfg.ID, "last_heartbeat", l.last, "fence", l.Fence())
	}
}

// current is the context every job of the replica's live period hangs
// from; it ends with ErrFenced.
func (l *Liveness) current() context.Context {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.live
}

// Sweep takes over the running jobs of dead replicas.
func (l *Liveness) Sweep(ctx context.Context) (int64, error) {
	n, err := l.cfg.Store.TakeOverJobs(ctx)
	if err == nil && n > 0 {
		l.cfg.Log.Info("took over the running jobs of a replica that stopped answering", "jobs", n, "by", l.cfg.ID)
	}
	return n, err
}

// Run heartbeats and sweeps every Interval, and checks the fence twice as
// often (a heartbeat may hang on a cut connection), until ctx ends.
func (l *Liveness) Run(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(l.Interval() / 2)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				l.check()
			}
		}
	})
	t := time.NewTicker(l.Interval())
	defer t.Stop()
	for {
		beat, cancel := context.WithTimeout(ctx, l.Interval())
		if err := l.Beat(beat); err != nil && ctx.Err() == nil {
			l.cfg.Log.Warn("heartbeat failed", "replica", l.cfg.ID, "error", err)
		} else if _, err := l.Sweep(beat); err != nil && ctx.Err() == nil {
			l.cfg.Log.Warn("take-over sweep failed", "replica", l.cfg.ID, "error", err)
		}
		cancel()
		select {
		case <-ctx.Done():
			wg.Wait()
			return
		case <-t.C:
		}
	}
}

// Middleware binds every job's context to the replica's live period: a
// job does not start while the replica is fenced (it is snoozed for
// another replica or a later moment), and a running one is cancelled, with
// ErrFenced as its cause, the moment the replica fences itself.
func (l *Liveness) Middleware() rivertype.WorkerMiddleware {
	return river.WorkerMiddlewareFunc(func(ctx context.Context, job *rivertype.JobRow, doInner func(context.Context) error) error {
		if err := l.Live(); err != nil {
			return river.JobSnooze(l.Interval())
		}
		ctx, cancel := context.WithCancelCause(ctx)
		defer cancel(nil)
		stop := context.AfterFunc(l.current(), func() { cancel(ErrFenced) })
		defer stop()
		return doInner(ctx)
	})
}
