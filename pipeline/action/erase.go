package action

import (
	"context"
	"time"

	"github.com/riverqueue/river"
)

// EraseArgs is the job that makes "forget that" final: once a forget is
// older than the undo window, it erases the copy of the fact kept for
// undo and every other copy in action records, approvals and audit
// entries (Store.EraseForgotten), leaving a content-free record that
// something was forgotten.
type EraseArgs struct{}

// Kind is the job's stable name.
func (EraseArgs) Kind() string { return "erase_forgotten" }

// InsertOpts puts the job on the actions queue; a failed run is not
// retried, the next periodic run starts over.
func (EraseArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueActions, MaxAttempts: 1}
}

// Eraser is what the erase job needs of the store.
type Eraser interface {
	EraseForgotten(ctx context.Context, cutoff time.Time, limit int) (int, error)
}

// EraseWorker runs the erase job.
type EraseWorker struct {
	river.WorkerDefaults[EraseArgs]
	// Store erases.
	Store Eraser
	// Window is the undo window; forgets older than it are erased.
	// Defaults to DefaultUndoWindow.
	Window time.Duration
	// Now is the clock. Defaults to time.Now.
	Now func() time.Time
	// Batch is how many forgets one transaction erases. Defaults to 100.
	Batch int
}

var _ river.Worker[EraseArgs] = (*EraseWorker)(nil)

// Work erases until no forget past its window is left.
func (w *EraseWorker) Work(ctx context.Context, _ *river.Job[EraseArgs]) error {
	_, err := w.Run(ctx)
	return err
}

// Run is one pass; it returns how many forgets it erased. Running it again
// erases nothing more.
func (w *EraseWorker) Run(ctx context.Context) (int, error) {
	now, window, batch := time.Now, w.Window, w.Batch
	if w.Now != nil {
		now = w.Now
	}
	if window <= 0 {
		window = DefaultUndoWindow
	}
	if batch <= 0 {
		batch = 100
	}
	cutoff := now().Add(-window)
	total := 0
	for {
		n, err := w.Store.EraseForgotten(ctx, cutoff, batch)
		total += n
		if err != nil || n < batch {
			return total, err
		}
	}
}

// ErasePeriodic is the erase job's schedule: every interval, on the
// leader only (River runs periodic jobs on the elected leader).
func ErasePeriodic(interval time.Duration) *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(interval), func() (river.JobArgs, *river.InsertOpts) {
		return EraseArgs{}, nil
	}, &river.PeriodicJobOpts{RunOnStart: true})
}
