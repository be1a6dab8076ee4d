package memory

import (
	"context"
	"log/slog"
	"strconv"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline"
)

// MentionStore is what CountMentions reads and writes: it records a
// mention, from source at at, of each node userID may see that text names.
type MentionStore interface {
	CountMentions(ctx context.Context, userID int64, text, source string, at time.Time) ([]int64, error)
}

// CountMentions feeds the memory graph's mention counters: every message
// (typed or transcribed) counts as one source for each node it names,
// then the turn goes on to next. A retried turn counts nothing twice (a
// source counts once per node), and a failure to count is logged, never
// the turn's failure. A message is dated by its arrival, else by now
// (nil: time.Now).
func CountMentions(st MentionStore, log *slog.Logger, now func() time.Time, next pipeline.Handler) pipeline.Handler {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if now == nil {
		now = time.Now
	}
	return pipeline.HandlerFunc(func(ctx context.Context, t pipeline.Turn) (pipeline.Answer, error) {
		if t.Event.Kind == hearth.KindMessage && t.Event.Text != "" && t.User.ID > 0 {
			if err := countMentions(ctx, st, t, now); err != nil {
				log.WarnContext(ctx, "counting mentions failed", "error", err, "event_id", t.Event.ID)
			}
		}
		return next.HandleTurn(ctx, t)
	})
}

func countMentions(ctx context.Context, st MentionStore, t pipeline.Turn, now func() time.Time) error {
	at := t.Event.ReceivedAt
	if at.IsZero() {
		at = now()
	}
	_, err := st.CountMentions(ctx, t.User.ID, t.Event.Text, "event:"+strconv.FormatInt(t.Event.ID, 10), at)
	return err
}
