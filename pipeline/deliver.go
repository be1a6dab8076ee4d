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
	"github.com/riverqueue/river/rivertype"
)

// DeliverArgs is the job that sends one stored bot message, or several
// (More). The message ids are its idempotency key: the job is unique by
// them, and a message already delivered is never sent again.
type DeliverArgs struct {
	MessageID int64 `json:"message_id"`
	// More are further messages the job sends after MessageID: the
	// messages a scheduler job pushes to as many users at once (a
	// morning's briefings) go out in one job, claimed with one statement,
	// not a job each. One that cannot go straight away (an earlier
	// message of its conversation on its way, a failed send) is handed to
	// a job of its own, which waits and retries for it alone.
	More []int64 `json:"more,omitempty"`
	// Edit marks a re-delivery of a message that changed after it was
	// sent (an answered prompt), to platforms that can edit (see Editor).
	// Version tells successive edits of one message apart.
	Edit    bool  `json:"edit,omitempty"`
	Version int64 `json:"version,omitempty"`
}

// Kind is the River job kind; stable across releases.
func (DeliverArgs) Kind() string { return "deliver" }

// InsertOpts puts deliveries on their own queue, unique per message.
func (DeliverArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueDeliveries, MaxAttempts: 20, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// edit re-delivers a changed message where the platform can edit it. A
// message not yet sent needs nothing: its send carries the new text.
func (w *DeliverWorker) edit(ctx context.Context, log *slog.Logger, d hearth.Delivery) error {
	if d.DeliveredAt.IsZero() || d.PlatformMessageID == "" {
		return nil
	}
	editor, ok := w.senders[d.Channel].(Editor)
	if !ok {
		return nil
	}
	if err := editor.Edit(ctx, d); err != nil {
		if errors.Is(err, hearth.ErrPermanent) {
			log.WarnContext(ctx, "edit refused by the platform", "error", err)
			return river.JobCancel(err)
		}
		if wait, ok := retryAfter(err); ok {
			log.WarnContext(ctx, "edit rate limited; waiting as asked", "retry_after", wait, "error", err)
			return river.JobSnooze(wait)
		}
		return fmt.Errorf("edit message %d: %w", d.MessageID, err)
	}
	return nil
}

// awaitEarlier holds d back while an earlier message of its conversation
// is still on its way, for up to OrderWait.
func (w *DeliverWorker) awaitEarlier(ctx context.Context, log *slog.Logger, d hearth.Delivery) error {
	if w.OrderWait < 0 {
		return nil
	}
	wait := w.OrderWait
	if wait == 0 {
		wait = 10 * time.Second
	}
	deadline := time.Now().Add(wait)
	for {
		pending, err := w.store.EarlierUndelivered(ctx, d.ConversationID, d.MessageID, orderWindow)
		if err != nil {
			return fmt.Errorf("deliver message %d: %w", d.MessageID, err)
		}
		if !pending {
			return nil
		}
		if !time.Now().Before(deadline) {
			log.WarnContext(ctx, "an earlier message of the conversation is still undelivered; sending this one anyway", "waited", wait)
			return nil
		}
		t := time.NewTimer(orderPoll)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// retryAfter is how long a platform asked to wait before the next try.
func retryAfter(err error) (time.Duration, bool) {
	var ra *hearth.RetryAfterError
	if errors.As(err, &ra) && ra.After > 0 {
		return ra.After, true
	}
	return 0, false
}

// A Sender puts a message on one platform and returns the platform's id
// for it. Errors wrapping ErrPermanent are not retried.
type Sender interface {
	Send(ctx context.Context, d hearth.Delivery) (platformMessageID string, err error)
}

// A TranscriptSender is a Sender whose platform is Hearth's own
// transcript (the web chat): a reply is delivered by being committed
// visible, so the turn does that in its own transaction and no deliver job
// is needed. Checked at run time, like http.Flusher.
type TranscriptSender interface {
	Sender
	DeliversByTranscript()
}

// An Editor is a Sender that can change a message it sent (Telegram's
// editMessageText, Slack's chat.update), so an answered prompt shows its
// outcome and loses its buttons. Checked at run time.
type Editor interface {
	Sender
	Edit(ctx context.Context, d hearth.Delivery) error
}

// SenderFunc adapts a function to a Sender.
type SenderFunc func(ctx context.Context, d hearth.Delivery) (string, error)

// Send calls f(ctx, d).
func (f SenderFunc) Send(ctx context.Context, d hearth.Delivery) (string, error) { return f(ctx, d) }

// DeliveryStore is what the deliver worker needs from storage.
type DeliveryStore interface {
	// TakeDelivery reads a bot message for its job with, in the same round
	// trip, whether an earlier message of the conversation written within
	// window is undelivered and, when claim is set and none is, the claim
	// to send it (ClaimDelivery). A message not found is hearth.ErrNotFound.
	TakeDelivery(ctx context.Context, messageID int64, claimant string, window time.Duration, claim bool) (d hearth.Delivery, earlier, claimed bool, err error)
	// MarkDelivered records the platform id and makes the message visible
	// in the transcript; a second call for the same message does nothing.
	MarkDelivered(ctx context.Context, messageID int64, platformMessageID string) error
	// NotifyConversation tells live views of a new message, after the
	// write that made it visible (see store.NotifyConversation).
	NotifyConversation(ctx context.Context, conversationID int64) error
	// EarlierUndelivered reports whether the conversation has a bot
	// message older than messageID, written within window, that is not
	// delivered yet.
	EarlierUndelivered(ctx context.Context, conversationID, messageID int64, window time.Duration) (bool, error)
	// ClaimDelivery claims an undelivered message for claimant (a
	// replica) to send; false while another live replica holds it, or
	// once it is delivered. ReleaseDelivery gives an unsent claim up.
	ClaimDelivery(ctx context.Context, messageID int64, claimant string) (bool, error)
	ReleaseDeliveries(ctx context.Context, claimant string, messageIDs []int64) error
	// ClaimDeliveries claims, in one statement, those of several messages
	// that can be sent now (see TakeDelivery); others are the undelivered
	// rest.
	ClaimDeliveries(ctx context.Context, ids []int64, claimant string, window time.Duration) (claimed []hearth.Delivery, others []int64, err error)
}

// Delivery order. Each message has its own job and they run in parallel,
// so a reply could overtake the one before it (an apology after a failed
// turn, then the next answer). A message waits, up to OrderWait, for the
// conversation's earlier messages of the last orderWindow; a predecessor
// that keeps failing delays the ones after it by OrderWait at most, and
// one older than orderWindow never holds anything up.
const (
	orderWindow = 10 * time.Minute
	orderPoll   = 25 * time.Millisecond
)

// DeliverWorker sends stored bot messages through the Sender of their
// channel, retrying failures with exponential backoff.
type DeliverWorker struct {
	river.WorkerDefaults[DeliverArgs]
	store   DeliveryStore
	senders map[hearth.Channel]Sender
	log     *slog.Logger
	metric  *Metrics
	// Backoff is the wait before retry number attempt (1-based). Defaults
	// to 1s doubling up to 5 minutes.
	Backoff func(attempt int) time.Duration
	// Now is the clock retries are scheduled from. Defaults to time.Now.
	Now func() time.Time
	// OrderWait is how long a message waits for the conversation's
	// earlier ones to be delivered before it is sent anyway. Defaults to
	// 10 seconds; negative turns the wait off.
	OrderWait time.Duration
	// Live reports whether this process may still act for its jobs (see
	// package replica); it is asked right before a message is handed to
	// its platform, and a non-nil answer sends nothing. Nil: always.
	Live func() error
}

// NewDeliverWorker returns a worker sending through senders by channel.
func NewDeliverWorker(store DeliveryStore, senders map[hearth.Channel]Sender, log *slog.Logger, metrics *Metrics) *DeliverWorker {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &DeliverWorker{store: store, senders: senders, log: log, metric: metrics, Backoff: DefaultBackoff, Now: time.Now, OrderWait: 10 * time.Second}
}

// DefaultBackoff doubles from one second and stops growing at five minutes.
func DefaultBackoff(attempt int) time.Duration {
	if attempt < 1 {
		attempt = 1
	}
	if attempt > 9 {
		return 5 * time.Minute
	}
	return min(time.Second<<(attempt-1), 5*time.Minute)
}

// NextRetry schedules the next attempt with the worker's backoff.
func (w *DeliverWorker) NextRetry(job *river.Job[DeliverArgs]) time.Time {
	return w.Now().Add(w.Backoff(job.Attempt))
}

// Work sends the job's messages unless they were delivered already.
func (w *DeliverWorker) Work(ctx context.Context, job *river.Job[DeliverArgs]) error {
	if len(job.Args.More) > 0 && !job.Args.Edit {
		return w.workMany(ctx, job)
	}
	// Two runs of this job can overlap (a replica taken for dead that was
	// only slow): the claim lets one of them send. Most messages have
	// nothing before them on the way and no one else sending them: one
	// statement reads, checks and claims.
	claimant := claimantOf(job.JobRow)
	window := orderWindow
	if w.OrderWait < 0 {
		window = 0
	}
	d, earlier, claimed, err := w.store.TakeDelivery(ctx, job.Args.MessageID, claimant, window, !job.Args.Edit)
	if errors.Is(err, hearth.ErrNotFound) {
		return river.JobCancel(err)
	}
	if err != nil {
		return err
	}
	log := w.log.With("conversation_id", d.ConversationID, "message_id", d.MessageID, "channel", d.Channel)
	if job.Args.Edit {
		return w.edit(ctx, log, d)
	}
	if !d.DeliveredAt.IsZero() {
		return nil
	}
	sender, ok := w.senders[d.Channel]
	if !ok {
		w.metric.delivery(d.Channel, "no_sender")
		err := fmt.Errorf("deliver message %d: no sender for channel %q", d.MessageID, d.Channel)
		if claimed {
			err = errors.Join(err, w.release(ctx, claimant, d.MessageID))
		}
		return river.JobCancel(err)
	}
	if earlier {
		if err := w.awaitEarlier(ctx, log, d); err != nil {
			return err
		}
		if claimed, err = w.store.ClaimDelivery(ctx, d.MessageID, claimant); err != nil {
			return fmt.Errorf("deliver message %d: %w", d.MessageID, err)
		}
	}
	if !claimed {
		// Another replica is sending it: look again later (delivered by
		// then, or its claim given up).
		return river.JobSnooze(time.Second)
	}
	if w.Live != nil {
		if err := w.Live(); err != nil {
			return errors.Join(fmt.Errorf("deliver message %d: %w", d.MessageID, err), w.release(ctx, claimant, d.MessageID))
		}
	}
	platformID, err := sender.Send(ctx, d)
	if err != nil {
		if rerr := w.release(ctx, claimant, d.MessageID); rerr != nil {
			log.WarnContext(ctx, "could not give up the claim on an unsent message", "error", rerr)
		}
		if errors.Is(err, hearth.ErrPermanent) {
			log.ErrorContext(ctx, "delivery failed permanently", "error", err)
			w.metric.delivery(d.Channel, "permanent_failure")
			return river.JobCancel(err)
		}
		if wait, ok := retryAfter(err); ok {
			log.WarnContext(ctx, "delivery rate limited; waiting as asked", "retry_after", wait, "error", err)
			w.metric.delivery(d.Channel, "rate_limited")
			return river.JobSnooze(wait)
		}
		log.WarnContext(ctx, "delivery failed; will retry", "attempt", job.Attempt, "error", err)
		w.metric.delivery(d.Channel, "retry")
		return fmt.Errorf("deliver message %d: %w", d.MessageID, err)
	}
	return w.record(ctx, log, sender, d, platformID)
}

// record notes that d's platform has it (as platformID), tells live views
// and counts it.
func (w *DeliverWorker) record(ctx context.Context, log *slog.Logger, sender Sender, d hearth.Delivery, platformID string) error {
	if err := w.store.MarkDelivered(ctx, d.MessageID, platformID); err != nil {
		// The platform has the message; a retry would send it again. Say so
		// loudly: this is the one window where a duplicate can appear.
		log.ErrorContext(ctx, "delivered but not recorded", "platform_message_id", platformID, "error", err)
		return fmt.Errorf("record delivery of message %d: %w", d.MessageID, err)
	}
	// Live views are the web chat's, of its own conversations: the
	// platforms' conversations have none to tell.
	if _, ok := sender.(TranscriptSender); ok {
		if err := w.store.NotifyConversation(ctx, d.ConversationID); err != nil {
			log.WarnContext(ctx, "live views not told of a delivered message", "error", err)
		}
	}
	w.metric.delivery(d.Channel, "ok")
	return nil
}

// release gives up the claims on messages that were not sent, even when
// the job's context has ended.
func (w *DeliverWorker) release(ctx context.Context, claimant string, messageIDs ...int64) error {
	if len(messageIDs) == 0 {
		return nil
	}
	return w.store.ReleaseDeliveries(context.WithoutCancel(ctx), claimant, messageIDs)
}

// workMany sends the messages of a job of several, one after the other,
// each claimed (all with one statement) and recorded as delivered as soon
// as its platform has it. What a single message's job does when it
// cannot send straight away — wait for the conversation's earlier
// message, snooze while another replica holds it, retry with backoff,
// wait out a rate limit — a message of this job gets by being handed to
// a job of its own (scheduled when the wait would end), so the others do
// not wait with it and nothing is sent twice. The job fails (and is
// retried, its delivered messages skipped) only when it cannot hand them
// over or record a delivery, or its run ends.
func (w *DeliverWorker) workMany(ctx context.Context, job *river.Job[DeliverArgs]) error {
	claimant := claimantOf(job.JobRow)
	window := orderWindow
	if w.OrderWait < 0 {
		window = 0
	}
	ids := append([]int64{job.Args.MessageID}, job.Args.More...)
	claimed, others, err := w.store.ClaimDeliveries(ctx, ids, claimant, window)
	if err != nil {
		return fmt.Errorf("deliver messages: %w", err)
	}
	now := w.Now()
	var alone []river.InsertManyParams
	handOver := func(at time.Time, ids ...int64) {
		opts := &river.InsertOpts{}
		if at.After(now) {
			opts.ScheduledAt = at
		}
		for _, id := range ids {
			alone = append(alone, river.InsertManyParams{Args: DeliverArgs{MessageID: id}, InsertOpts: opts})
		}
	}
	handOver(now, others...)
	// unsent gives up the claims from claimed[i] on, when the run stops.
	unsent := func(i int) error {
		ids := make([]int64, 0, len(claimed)-i)
		for _, d := range claimed[i:] {
			ids = append(ids, d.MessageID)
		}
		return w.release(ctx, claimant, ids...)
	}
	for i, d := range claimed {
		log := w.log.With("conversation_id", d.ConversationID, "message_id", d.MessageID, "channel", d.Channel)
		if err := ctx.Err(); err != nil {
			return errors.Join(fmt.Errorf("deliver messages: %w", err), unsent(i))
		}
		sender, ok := w.senders[d.Channel]
		if !ok {
			// Its own job says so and gives up.
			if err := w.release(ctx, claimant, d.MessageID); err != nil {
				return errors.Join(err, unsent(i+1))
			}
			handOver(now, d.MessageID)
			continue
		}
		if w.Live != nil {
			if err := w.Live(); err != nil {
				return errors.Join(fmt.Errorf("deliver messages: %w", err), unsent(i))
			}
		}
		platformID, err := sender.Send(ctx, d)
		if err != nil {
			if rerr := w.release(ctx, claimant, d.MessageID); rerr != nil {
				return errors.Join(rerr, unsent(i+1))
			}
			switch wait, limited := retryAfter(err); {
			case errors.Is(err, hearth.ErrPermanent):
				log.ErrorContext(ctx, "delivery failed permanently", "error", err)
				w.metric.delivery(d.Channel, "permanent_failure")
			case limited:
				// The platform will refuse the rest too until then.
				log.WarnContext(ctx, "delivery rate limited; waiting as asked", "retry_after", wait, "error", err)
				w.metric.delivery(d.Channel, "rate_limited")
				if rerr := unsent(i + 1); rerr != nil {
					return rerr
				}
				for _, rest := range claimed[i:] {
					handOver(now.Add(wait), rest.MessageID)
				}
				return w.insertAlone(ctx, alone)
			default:
				log.WarnContext(ctx, "delivery failed; will retry on its own", "error", err)
				w.metric.delivery(d.Channel, "retry")
				handOver(now.Add(w.Backoff(1)), d.MessageID)
			}
			continue
		}
		if err := w.record(ctx, log, sender, d, platformID); err != nil {
			return errors.Join(err, unsent(i+1))
		}
	}
	return w.insertAlone(ctx, alone)
}

// insertAlone enqueues the jobs of their own a job of several messages
// hands some to.
func (w *DeliverWorker) insertAlone(ctx context.Context, params []river.InsertManyParams) error {
	if len(params) == 0 {
		return nil
	}
	client, err := river.ClientFromContextSafely[pgx.Tx](ctx)
	if err != nil {
		return fmt.Errorf("deliver messages: hand over %d: %w", len(params), err)
	}
	if _, err := client.InsertMany(ctx, params); err != nil {
		return fmt.Errorf("deliver messages: hand over %d: %w", len(params), err)
	}
	return nil
}

// claimantOf names who runs job: the replica (River client) that fetched
// it last, or the job itself outside a client.
func claimantOf(job *rivertype.JobRow) string {
	if n := len(job.AttemptedBy); n > 0 {
		return job.AttemptedBy[n-1]
	}
	return "job:" + strconv.FormatInt(job.ID, 10)
}

// EnqueueEdits inserts, in tx, the jobs that carry edited messages to
// their platforms; version (the turn that edited them) keeps a later edit
// from being taken for a duplicate of this one.
func EnqueueEdits(ctx context.Context, tx pgx.Tx, messageIDs []int64, version int64) error {
	if len(messageIDs) == 0 {
		return nil
	}
	client, err := river.ClientFromContextSafely[pgx.Tx](ctx)
	if err != nil {
		return fmt.Errorf("enqueue edits: %w", err)
	}
	for _, id := range messageIDs {
		if _, err := client.InsertTx(ctx, tx, DeliverArgs{MessageID: id, Edit: true, Version: version}, nil); err != nil {
			return fmt.Errorf("enqueue edit of message %d: %w", id, err)
		}
	}
	return nil
}
