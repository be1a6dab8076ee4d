package pipeline

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
)

// Queue names. Turns and deliveries have queues of their own so a slow
// platform cannot hold up understanding, and the reverse.
const (
	QueueTurns      = "turns"
	QueueDeliveries = "deliveries"
)

// MaxEventAttempts is how many times a turn is tried before the user gets
// an apology instead of an answer, so one poisonous message cannot block
// its conversation forever.
const MaxEventAttempts = 3

// TurnArgs is the job enqueued with every inbound event.
type TurnArgs struct {
	ConversationID int64 `json:"conversation_id"`
	EventID        int64 `json:"event_id"`
}

// Kind is the River job kind; stable across releases.
func (TurnArgs) Kind() string { return "turn" }

// InsertOpts puts turns on their own queue.
func (TurnArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueTurns, MaxAttempts: 10}
}

// TurnStore is what the turn worker needs from storage.
type TurnStore interface {
	// LockConversation takes the conversation's lock without waiting. ok is
	// false when another worker holds it; unlock must be called when ok.
	LockConversation(ctx context.Context, conversationID int64) (unlock func(), ok bool, err error)
	// NextEvent returns the conversation's oldest unprocessed event.
	NextEvent(ctx context.Context, conversationID int64) (Event, User, bool, error)
	// CompleteEvent marks the event processed and stores its replies in one
	// transaction, calling enqueue with the new message ids inside it.
	CompleteEvent(ctx context.Context, ev Event, replies []Outbound, enqueue func(ctx context.Context, tx pgx.Tx, messageIDs []int64) error) error
	// FailEvent records a failed attempt at the event.
	FailEvent(ctx context.Context, ev Event, reason string) error
}

// TurnWorker answers a conversation's events one at a time, in arrival
// order. Each job drains every pending event of its conversation under the
// conversation's lock; a job that finds the lock taken snoozes briefly, so
// a crashed holder's events are picked up again.
type TurnWorker struct {
	river.WorkerDefaults[TurnArgs]
	store   TurnStore
	handler Handler
	log     *slog.Logger
	metric  *Metrics
	// BusyDelay is how long a job waits when its conversation is being
	// worked by another job. Defaults to one second.
	BusyDelay time.Duration
}

// NewTurnWorker returns a worker that answers events with h.
func NewTurnWorker(store TurnStore, h Handler, log *slog.Logger, metrics *Metrics) *TurnWorker {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &TurnWorker{store: store, handler: h, log: log, metric: metrics, BusyDelay: time.Second}
}

// Work drains the conversation named by the job.
func (w *TurnWorker) Work(ctx context.Context, job *river.Job[TurnArgs]) error {
	convID := job.Args.ConversationID
	for {
		unlock, ok, err := w.store.LockConversation(ctx, convID)
		if err != nil {
			return err
		}
		if !ok {
			return river.JobSnooze(w.BusyDelay)
		}
		drained, err := w.drain(ctx, convID)
		unlock()
		if err != nil {
			return err
		}
		// An event committed between our last look and the unlock would
		// wait for its own snoozed job; look once more so it doesn't.
		if !drained {
			continue
		}
		_, _, pending, err := w.store.NextEvent(ctx, convID)
		if err != nil {
			return err
		}
		if !pending {
			return nil
		}
	}
}

// drain answers pending events until none are left. It returns false when
// it stopped early and should be called again.
func (w *TurnWorker) drain(ctx context.Context, convID int64) (bool, error) {
	for range 100 {
		ev, user, found, err := w.store.NextEvent(ctx, convID)
		if err != nil {
			return false, err
		}
		if !found {
			return true, nil
		}
		if err := w.answer(ctx, ev, user); err != nil {
			return false, err
		}
	}
	return false, nil
}

func (w *TurnWorker) answer(ctx context.Context, ev Event, user User) error {
	log := w.log.With("conversation_id", ev.ConversationID, "turn_id", ev.ID, "user_id", user.ID)
	start := time.Now()
	replies, err := w.handler.HandleTurn(ctx, Turn{Event: ev, User: user})
	if err != nil {
		if ev.Attempts+1 < MaxEventAttempts && ctx.Err() == nil {
			log.WarnContext(ctx, "turn failed; will retry", "attempt", ev.Attempts+1, "error", err)
			if ferr := w.store.FailEvent(ctx, ev, err.Error()); ferr != nil {
				return errors.Join(err, ferr)
			}
			w.metric.turn("retry", time.Since(start))
			return fmt.Errorf("turn %d: %w", ev.ID, err)
		}
		log.ErrorContext(ctx, "turn failed; giving up", "attempt", ev.Attempts+1, "error", err)
		replies = []Outbound{{Text: "Sorry — something went wrong on my side and I couldn't handle that. Could you try again in a moment?"}}
		w.metric.turn("failed", time.Since(start))
	} else {
		w.metric.turn("ok", time.Since(start))
	}
	err = w.store.CompleteEvent(ctx, ev, replies, func(ctx context.Context, tx pgx.Tx, ids []int64) error {
		client, err := river.ClientFromContextSafely[pgx.Tx](ctx)
		if err != nil {
			return fmt.Errorf("enqueue deliveries: %w", err)
		}
		for _, id := range ids {
			if _, err := client.InsertTx(ctx, tx, DeliverArgs{MessageID: id}, nil); err != nil {
				return fmt.Errorf("enqueue delivery of message %d: %w", id, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("complete turn %d: %w", ev.ID, err)
	}
	log.InfoContext(ctx, "turn answered", "replies", len(replies), "duration", time.Since(start))
	return nil
}
