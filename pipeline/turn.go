package pipeline

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/hearthbot/hearth"
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
	// LeaseConversation takes or renews owner's exclusive right to answer
	// the conversation for ttl (Leased false when another owner holds it)
	// and returns its oldest unprocessed event, if any. When eventID (the
	// job's own; 0 for none) was answered already and owner does not hold
	// the lease, nothing is leased and Answered is set. A conversation
	// that is gone is hearth.ErrNotFound.
	LeaseConversation(ctx context.Context, conversationID, eventID int64, owner string, ttl time.Duration) (hearth.TurnLease, error)
	// ReleaseConversation ends owner's lease and reports whether events are
	// still waiting.
	ReleaseConversation(ctx context.Context, conversationID int64, owner string) (pending bool, err error)
	// Begin starts the transaction a turn commits in; the turn worker owns
	// it, so every write of the turn is visible in one function.
	Begin(ctx context.Context) (pgx.Tx, error)
	// CompleteEventTx marks the event processed and stores its replies in
	// tx. done is false when the event had been completed before (a
	// retried job): nothing was written then. When no other event of the
	// conversation is waiting it ends owner's lease (released). With
	// visible set the replies are stored delivered (visible in the
	// transcript) and no ids are returned; otherwise ids are the replies'
	// messages, still to be delivered.
	// trace, when set, is stored with them.
	CompleteEventTx(ctx context.Context, tx pgx.Tx, ev hearth.InboundEvent, owner string, replies []hearth.Outbound, visible bool, trace *hearth.Trace) (done, released bool, ids []int64, err error)
	// CompleteEvent is CompleteEventTx in a transaction of its own, for a
	// turn that commits nothing else: visible replies and no writes.
	CompleteEvent(ctx context.Context, ev hearth.InboundEvent, owner string, replies []hearth.Outbound, trace *hearth.Trace) (done, released bool, err error)
	// NotifyConversation tells live views of new messages in the
	// conversation, after the commit that stored them.
	NotifyConversation(ctx context.Context, conversationID int64) error
	// FailEvent records a failed attempt at the event.
	FailEvent(ctx context.Context, ev hearth.InboundEvent, reason string) error
}

// TurnWorker answers a conversation's events one at a time, in arrival
// order. Each job drains the pending events of its conversation while
// holding the conversation's lease; a job that finds the lease taken
// snoozes briefly and looks again, so an event whose holder crashed is
// answered once the lease runs out.
type TurnWorker struct {
	river.WorkerDefaults[TurnArgs]
	store   TurnStore
	handler Handler
	log     *slog.Logger
	metric  *Metrics
	// BusyDelay is how long a job waits when its conversation is being
	// worked by another job. Defaults to one second.
	BusyDelay time.Duration
	// Lease is how long a conversation stays claimed without renewal; it
	// is renewed before every event, so it bounds one turn, and it is how
	// long a crashed holder blocks its conversation. Defaults to two
	// minutes, longer than River's job timeout.
	Lease time.Duration
	// MaxDrain is how long one job keeps draining before it hands the rest
	// to a fresh run of itself, so a busy conversation never runs into the
	// job timeout. Defaults to 20 seconds.
	MaxDrain time.Duration
	// Backoff is the wait before retry number attempt (1-based) of a
	// failed turn. Defaults to DefaultBackoff.
	Backoff func(attempt int) time.Duration
	// Now is the clock retries are scheduled from. Defaults to time.Now.
	Now func() time.Time
	// Sender returns a channel's sender, to learn whether it delivers by
	// transcript (see TranscriptSender). Nil: every reply gets a deliver job.
	Sender func(hearth.Channel) (Sender, bool)
	// Slots, when set, is asked for a slot before each turn (see
	// Inbox.TurnSlot): acknowledging messages goes before answering them.
	Slots TurnSlots
}

// TurnSlots hands out the right to run one turn now.
type TurnSlots interface {
	TurnSlot(ctx context.Context) (release func(), err error)
}

// NewTurnWorker returns a worker that answers events with h.
func NewTurnWorker(store TurnStore, h Handler, log *slog.Logger, metrics *Metrics) *TurnWorker {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &TurnWorker{
		store: store, handler: h, log: log, metric: metrics,
		BusyDelay: time.Second, Lease: 2 * time.Minute, MaxDrain: 20 * time.Second,
		Backoff: DefaultBackoff, Now: time.Now,
	}
}

// NextRetry schedules a failed turn's next attempt with the worker's
// backoff; River's default (attempt⁴ seconds) keeps a user waiting.
func (w *TurnWorker) NextRetry(job *river.Job[TurnArgs]) time.Time {
	return w.Now().Add(w.Backoff(job.Attempt))
}

// Work drains the conversation named by the job.
func (w *TurnWorker) Work(ctx context.Context, job *river.Job[TurnArgs]) error {
	convID := job.Args.ConversationID
	owner := "job:" + strconv.FormatInt(job.ID, 10)
	started := w.Now()
	// The job's own event, until the first lease: a job that finds it
	// answered (drained by the turn of an earlier one) is done, unless it
	// holds the lease still (it answered, and died before it ended). After
	// that the job drains whatever is pending, its event answered or not.
	eventID := job.Args.EventID
	for {
		l, err := w.store.LeaseConversation(ctx, convID, eventID, owner, w.Lease)
		if errors.Is(err, hearth.ErrNotFound) {
			return nil // deleted with its events: nothing to answer
		}
		if err != nil {
			return err
		}
		if l.Answered {
			return nil
		}
		if !l.Leased {
			return river.JobSnooze(w.BusyDelay)
		}
		eventID = 0
		found := l.Found
		if found {
			released, err := w.answerInSlot(ctx, l.Event, l.User, owner)
			if err != nil {
				_, rerr := w.store.ReleaseConversation(context.WithoutCancel(ctx), convID, owner)
				return errors.Join(err, rerr)
			}
			if released {
				return nil // nothing else was waiting when the turn committed
			}
			if w.Now().Sub(started) <= w.MaxDrain {
				continue
			}
		}
		// Release, then look once more: an event that arrived while we held
		// the lease may have a job that is waiting for it (snoozed).
		pending, err := w.store.ReleaseConversation(context.WithoutCancel(ctx), convID, owner)
		if err != nil || !pending {
			return err
		}
		if found {
			// Drained for MaxDrain: the job goes on afresh (fresh timeout).
			// It may have answered others' events and not its own, and a
			// job ends only once its own event is answered or nothing is
			// pending: every pending event keeps a live job.
			return river.JobSnooze(0)
		}
	}
}

// answerInSlot answers once Slots gives the turn a slot.
func (w *TurnWorker) answerInSlot(ctx context.Context, ev hearth.InboundEvent, user hearth.User, owner string) (released bool, err error) {
	if w.Slots != nil {
		release, err := w.Slots.TurnSlot(ctx)
		if err != nil {
			return false, fmt.Errorf("turn %d: waiting for a slot: %w", ev.ID, err)
		}
		defer release()
	}
	return w.answer(ctx, ev, user, owner)
}

// answer runs one turn and commits its replies; released reports that the
// lease ended with it.
func (w *TurnWorker) answer(ctx context.Context, ev hearth.InboundEvent, user hearth.User, owner string) (released bool, err error) {
	log := w.log.With("conversation_id", ev.ConversationID, "turn_id", ev.ID, "user_id", user.ID)
	start := time.Now()
	ans, err := w.handler.HandleTurn(ctx, Turn{Event: ev, User: user})
	if err != nil {
		if ev.Attempts+1 < MaxEventAttempts && ctx.Err() == nil {
			log.WarnContext(ctx, "turn failed; will retry", "attempt", ev.Attempts+1, "error", err)
			if ferr := w.store.FailEvent(ctx, ev, err.Error()); ferr != nil {
				return false, errors.Join(err, ferr)
			}
			w.metric.turn("retry", time.Since(start))
			return false, fmt.Errorf("turn %d: %w", ev.ID, err)
		}
		log.ErrorContext(ctx, "turn failed; giving up", "attempt", ev.Attempts+1, "error", err)
		// What a failed handler meant to write is not committed.
		ans = Answer{Replies: []hearth.Outbound{{Text: "Sorry — something went wrong on my side and I couldn't handle that. Could you try again in a moment?"}}}
		w.metric.turn("failed", time.Since(start))
	} else {
		w.metric.turn("ok", time.Since(start))
	}
	visible := false
	if w.Sender != nil {
		if s, ok := w.Sender(ev.Channel); ok {
			_, visible = s.(TranscriptSender)
		}
	}
	released, err = w.commit(ctx, ev, owner, ans, visible)
	if err != nil {
		return false, fmt.Errorf("complete turn %d: %w", ev.ID, err)
	}
	log.InfoContext(ctx, "turn answered", "replies", len(ans.Replies), "duration", time.Since(start))
	return released, nil
}

// commit is a turn's unit of work, in one transaction: the event marked
// processed, the replies stored, a deliver job per reply that a platform
// must still be sent, and the writes the handler asked for.
func (w *TurnWorker) commit(ctx context.Context, ev hearth.InboundEvent, owner string, ans Answer, visible bool) (released bool, err error) {
	if len(ans.Writes) == 0 && (visible || len(ans.Replies) == 0) {
		// Nothing to deliver and nothing else to write: one statement,
		// which commits by itself (most turns).
		done, released, err := w.store.CompleteEvent(ctx, ev, owner, ans.Replies, ans.Trace)
		if err == nil && done {
			w.notify(ctx, ev, ans)
		}
		return released, err
	}
	client, err := river.ClientFromContextSafely[pgx.Tx](ctx)
	if err != nil {
		return false, fmt.Errorf("enqueue deliveries: %w", err)
	}
	tx, err := w.store.Begin(ctx)
	if err != nil {
		return false, err
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // after Commit this is a no-op
	done, released, ids, err := w.store.CompleteEventTx(ctx, tx, ev, owner, ans.Replies, visible, ans.Trace)
	if err != nil || !done {
		return false, err
	}
	for _, id := range ids {
		if _, err := client.InsertTx(ctx, tx, DeliverArgs{MessageID: id}, nil); err != nil {
			return false, fmt.Errorf("enqueue delivery of message %d: %w", id, err)
		}
	}
	for _, write := range ans.Writes {
		if err := write(ctx, tx); err != nil {
			return false, err
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return false, fmt.Errorf("commit: %w", err)
	}
	if visible {
		w.notify(ctx, ev, ans)
	}
	return released, nil
}

// notify tells live views of a turn's visible replies, after the commit
// that stored them (not in it: see store.NotifyConversation). A view not
// told sees them with the next message or when it reconnects.
func (w *TurnWorker) notify(ctx context.Context, ev hearth.InboundEvent, ans Answer) {
	if len(ans.Replies) == 0 {
		return
	}
	if err := w.store.NotifyConversation(ctx, ev.ConversationID); err != nil {
		w.log.WarnContext(ctx, "live views not told of a reply", "conversation_id", ev.ConversationID, "error", err)
	}
}
