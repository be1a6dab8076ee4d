// Package embedding keeps the embeddings of memories, notes, the memory
// graph's relationships and its notes on people and things up to date in
// the background: a River job, run periodically by the leader, embeds
// what has no embedding from the configured model yet (new rows, edited
// rows, rows embedded by an earlier model), in batches. Turns never embed
// stored data inline; they only embed their query (gather.Recall).
package embedding

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/llm"
)

// Queue is the River queue of embedding jobs; one worker is plenty.
const Queue = "embeddings"

// Args is the job: embed pending rows, a batch at a time, until none is
// left or MaxBatches batches were done (the next run continues).
type Args struct{}

// Kind is the job's stable name.
func (Args) Kind() string { return "embed_pending" }

// InsertOpts puts the job on its queue; a failed run is not retried, the
// next periodic run starts over.
func (Args) InsertOpts() river.InsertOpts { return river.InsertOpts{Queue: Queue, MaxAttempts: 1} }

// Store is what the job reads and writes.
type Store interface {
	Unembedded(ctx context.Context, model string, limit int) ([]hearth.Embeddable, error)
	SaveEmbedding(ctx context.Context, e hearth.Embeddable, model string, vec []float32) (bool, error)
	RecordUsage(ctx context.Context, rows []hearth.Usage) error
}

// Worker embeds pending memories, notes, relationships and graph notes.
type Worker struct {
	river.WorkerDefaults[Args]
	// Store lists pending rows and saves their vectors.
	Store Store
	// Embedder makes the vectors.
	Embedder llm.Embedder
	// Model names the embedding model and dimension; rows embedded under
	// another name are embedded again.
	Model string
	// Batch is how many texts one Embed call carries. Defaults to 32.
	Batch int
	// MaxBatches bounds one run. Defaults to 20.
	MaxBatches int
	// Log receives usage-recording failures; nil discards them.
	Log *slog.Logger
	// Now is the clock for usage rows. Defaults to time.Now.
	Now func() time.Time
}

var _ river.Worker[Args] = (*Worker)(nil)

// Timeout lets one run take longer than a turn: up to MaxBatches provider
// calls.
func (w *Worker) Timeout(*river.Job[Args]) time.Duration { return 5 * time.Minute }

// Work embeds until nothing is pending or the run's bound is reached.
func (w *Worker) Work(ctx context.Context, _ *river.Job[Args]) error {
	_, err := w.Run(ctx)
	return err
}

// Run is one pass; it returns how many rows it embedded.
func (w *Worker) Run(ctx context.Context) (int, error) {
	batch, maxBatches := w.Batch, w.MaxBatches
	if batch <= 0 {
		batch = 32
	}
	if maxBatches <= 0 {
		maxBatches = 20
	}
	now := time.Now
	if w.Now != nil {
		now = w.Now
	}
	ctx = llm.WithStage(ctx, "embed")
	done := 0
	for range maxBatches {
		todo, err := w.Store.Unembedded(ctx, w.Model, batch)
		if err != nil {
			return done, err
		}
		if len(todo) == 0 {
			return done, nil
		}
		texts := make([]string, len(todo))
		for i, e := range todo {
			texts[i] = e.Text
		}
		vecs, used, err := w.Embedder.Embed(ctx, texts)
		if rerr := w.Store.RecordUsage(ctx, []hearth.Usage{{Day: now().UTC(), Stage: "embed", Model: w.Model,
			Calls: used.Calls, InputTokens: used.InputTokens, Latency: used.Latency, Error: reason(err)}}); rerr != nil && w.Log != nil {
			w.Log.WarnContext(ctx, "recording embedding usage failed", "error", rerr)
		}
		if err != nil {
			return done, fmt.Errorf("embed %d texts: %w", len(texts), err)
		}
		if len(vecs) != len(todo) {
			return done, fmt.Errorf("embed: %d vectors for %d texts", len(vecs), len(todo))
		}
		saved := 0
		for i, e := range todo {
			ok, err := w.Store.SaveEmbedding(ctx, e, w.Model, vecs[i])
			if err != nil {
				return done, err
			}
			if ok {
				saved++
			}
		}
		done += saved
		if saved == 0 {
			// Every row changed under us: the next run sees the new text.
			return done, nil
		}
	}
	return done, nil
}

func reason(err error) string {
	if err == nil {
		return ""
	}
	return llm.Reason(err)
}

// Periodic is the job's schedule: every interval, on the leader only.
func Periodic(interval time.Duration) *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(interval), func() (river.JobArgs, *river.InsertOpts) {
		return Args{}, nil
	}, &river.PeriodicJobOpts{RunOnStart: true})
}
