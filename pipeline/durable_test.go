package pipeline_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/pipeline/pipelinetest"
	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

type testBundle struct {
	store   *store.Store
	inbox   *pipeline.Inbox
	turns   *pipeline.TurnWorker
	deliver *pipeline.DeliverWorker
	sent    *recordingSender
	// worker is the last started client, whose job events waitFor wakes on.
	worker *river.Client[pgx.Tx]
}

// setup gives each test its own database, a River client that is built but
// not started (so a test can accept events "before a crash"), and workers
// answering with h.
func setup(t *testing.T, h pipeline.Handler) *testBundle {
	t.Helper()
	st, _ := storetest.Open(t)
	b := &testBundle{store: st, sent: &recordingSender{}}
	b.turns = pipeline.NewTurnWorker(st, h, nil, nil)
	b.turns.Backoff = func(int) time.Duration { return time.Millisecond }
	b.turns.BusyDelay = 10 * time.Millisecond
	b.deliver = pipeline.NewDeliverWorker(st, map[hearth.Channel]pipeline.Sender{hearth.ChannelWebchat: b.sent}, nil, nil)
	b.deliver.Backoff = func(int) time.Duration { return time.Millisecond }
	b.inbox = pipeline.NewInbox(st, newClient(t, b, false), nil)
	return b
}

// newClient returns a River client for the bundle's database; a started
// client works turns and deliveries until the test ends.
func newClient(t *testing.T, b *testBundle, start bool) *river.Client[pgx.Tx] {
	t.Helper()
	return newPollingClient(t, b, start, 20*time.Millisecond)
}

// newPollingClient is newClient polling for jobs every poll.
func newPollingClient(t *testing.T, b *testBundle, start bool, poll time.Duration) *river.Client[pgx.Tx] {
	t.Helper()
	workers := river.NewWorkers()
	river.AddWorker(workers, b.turns)
	river.AddWorker(workers, b.deliver)
	cfg := &river.Config{Workers: workers, TestOnly: true, FetchCooldown: 2 * time.Millisecond, FetchPollInterval: poll}
	if start {
		cfg.Queues = map[string]river.QueueConfig{
			pipeline.QueueTurns:      {MaxWorkers: 8},
			pipeline.QueueDeliveries: {MaxWorkers: 4},
		}
	}
	c, err := river.NewClient(riverpgxv5.New(b.store.Pool()), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if start {
		if err := c.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		b.worker = c
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := c.Stop(ctx); err != nil {
				t.Errorf("stop river: %v", err)
			}
		})
	}
	return c
}

// recordingSender remembers what it sent and fails the first FailFirst
// sends.
type recordingSender struct {
	mu        sync.Mutex
	FailFirst int
	// FailWith is the error of the first FailFirst calls (a 502 if nil).
	FailWith error
	calls    int
	sent     []hearth.Delivery
}

func (s *recordingSender) Send(_ context.Context, d hearth.Delivery) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	if s.calls <= s.FailFirst {
		if s.FailWith != nil {
			return "", s.FailWith
		}
		return "", errors.New("platform said 502")
	}
	s.sent = append(s.sent, d)
	return fmt.Sprintf("platform-%d", d.MessageID), nil
}

func (s *recordingSender) snapshot() (calls int, sent []hearth.Delivery) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls, append([]hearth.Delivery(nil), s.sent...)
}

// waitFor waits until cond holds, looking again each time a job of the
// started client finishes (see pipelinetest.WaitForJobs).
func (b *testBundle) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	pipelinetest.WaitForJobs(t, b.worker, what, cond)
}

func message(user, id, text string) hearth.Inbound {
	return hearth.Inbound{
		Channel: hearth.ChannelWebchat, ExternalID: id, ConversationKey: user, UserKey: user,
		UserName: user, Timezone: "Europe/Berlin", Kind: hearth.KindMessage, Text: text,
	}
}

// countingHandler replies with the text it was given and counts turns.
type countingHandler struct {
	mu    sync.Mutex
	seen  map[int64][]string // conversation → texts in the order handled
	busy  map[int64]int
	maxIn int
	calls atomic.Int64
}

func newCountingHandler() *countingHandler {
	return &countingHandler{seen: map[int64][]string{}, busy: map[int64]int{}}
}

func (h *countingHandler) HandleTurn(ctx context.Context, t pipeline.Turn) (pipeline.Answer, error) {
	h.calls.Add(1)
	conv := t.Event.ConversationID
	h.mu.Lock()
	h.busy[conv]++
	h.maxIn = max(h.maxIn, h.busy[conv])
	h.seen[conv] = append(h.seen[conv], t.Event.Text)
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		h.busy[conv]--
		h.mu.Unlock()
	}()
	return pipeline.Reply("re: " + t.Event.Text), nil
}

func (h *countingHandler) handled(conv int64) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.seen[conv]...)
}

func TestDuplicateDeliveryIsOneTurn(t *testing.T) {
	t.Parallel()
	h := newCountingHandler()
	b := setup(t, h)
	ctx := context.Background()

	first, err := b.inbox.Accept(ctx, message("ann", "evt-1", "hello"))
	if err != nil {
		t.Fatal(err)
	}
	second, err := b.inbox.Accept(ctx, message("ann", "evt-1", "hello"))
	if err != nil {
		t.Fatalf("a duplicate must be acknowledged, got %v", err)
	}
	if first.Duplicate || !second.Duplicate {
		t.Fatalf("Duplicate flags = %v, %v; want false, true", first.Duplicate, second.Duplicate)
	}
	if second.EventID != first.EventID || second.MessageID != first.MessageID {
		t.Fatalf("duplicate receipt %+v does not name the first event %+v", second, first)
	}

	newClient(t, b, true)
	var msgs []hearth.Message
	b.waitFor(t, "the reply to be visible", func() bool {
		msgs, err = b.store.Messages(ctx, first.ConversationID, 0, 100)
		return err == nil && len(msgs) >= 2
	})
	if _, sent := b.sent.snapshot(); len(msgs) != 2 || h.calls.Load() != 1 || len(sent) != 1 {
		t.Fatalf("got %d transcript messages and %d turns; want 2 and 1", len(msgs), h.calls.Load())
	}
}

// An event acknowledged by a process that died before working it is
// answered by the next process: the job was committed with the event.
func TestAcknowledgedEventSurvivesCrash(t *testing.T) {
	t.Parallel()
	h := newCountingHandler()
	b := setup(t, h) // the inbox's client is never started: it "crashes" after acknowledging
	ctx := context.Background()
	r, err := b.inbox.Accept(ctx, message("bob", "evt-crash", "are you there?"))
	if err != nil {
		t.Fatal(err)
	}
	if h.calls.Load() != 0 {
		t.Fatal("nothing may be processed inside Accept")
	}

	newClient(t, b, true) // a fresh process
	b.waitFor(t, "the reply", func() bool { _, sent := b.sent.snapshot(); return len(sent) == 1 })
	_, sent := b.sent.snapshot()
	if sent[0].ConversationID != r.ConversationID || sent[0].Text != "re: are you there?" {
		t.Fatalf("delivered %+v", sent[0])
	}
}

// The turn job of a conversation deleted (with its events) before the
// job ran ends; it used to take the missing conversation for a busy one
// and look again every second, for good.
func TestTurnOfDeletedConversationEnds(t *testing.T) {
	t.Parallel()
	h := newCountingHandler()
	b := setup(t, h) // accepted by a process that stops before the turn
	ctx := context.Background()
	r, err := b.inbox.Accept(ctx, message("dora", "evt-gone", "hello"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.store.Pool().Exec(ctx, `DELETE FROM conversations WHERE id = $1`, r.ConversationID); err != nil {
		t.Fatal(err)
	}
	newClient(t, b, true)
	b.waitFor(t, "the turn job to end", func() bool {
		var state string
		err := b.store.Pool().QueryRow(ctx, `SELECT state::text FROM river_job WHERE kind = 'turn'`).Scan(&state)
		return err == nil && state == "completed"
	})
	if h.calls.Load() != 0 {
		t.Fatalf("%d turns handled; want none", h.calls.Load())
	}
}

// Turns of one conversation run one at a time in arrival order, while
// different conversations proceed in parallel.
func TestTurnsAreOrderedPerConversation(t *testing.T) {
	t.Parallel()
	h := newCountingHandler()
	b := setup(t, h)
	newClient(t, b, true)
	ctx := context.Background()

	const conversations, perConversation = 6, 12
	convIDs := make([]int64, conversations)
	var wg sync.WaitGroup
	errs := make(chan error, conversations)
	for c := range conversations {
		wg.Go(func() {
			user := fmt.Sprintf("user%d", c)
			for i := range perConversation {
				r, err := b.inbox.Accept(ctx, message(user, fmt.Sprintf("%s-%d", user, i), fmt.Sprintf("m%02d", i)))
				if err != nil {
					errs <- err
					return
				}
				convIDs[c] = r.ConversationID
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	b.waitFor(t, "every turn", func() bool { return h.calls.Load() == conversations*perConversation })
	for c, id := range convIDs {
		got := h.handled(id)
		for i, text := range got {
			if want := fmt.Sprintf("m%02d", i); text != want {
				t.Fatalf("conversation %d handled %v; want m00..m%02d in order", c, got, perConversation-1)
			}
		}
	}
	if h.maxIn != 1 {
		t.Fatalf("a conversation had %d turns in flight at once; want 1", h.maxIn)
	}
}

// Messages arriving at the same instant for one conversation are each
// answered exactly once, never two at a time.
func TestConcurrentArrivalsInOneConversation(t *testing.T) {
	t.Parallel()
	h := newCountingHandler()
	b := setup(t, h)
	newClient(t, b, true)
	ctx := context.Background()

	const n = 24
	var wg sync.WaitGroup
	var conv atomic.Int64
	for i := range n {
		wg.Go(func() {
			r, err := b.inbox.Accept(ctx, message("cara", fmt.Sprintf("c-%d", i), fmt.Sprintf("burst %d", i)))
			if err != nil {
				t.Error(err)
				return
			}
			conv.Store(r.ConversationID)
		})
	}
	wg.Wait()
	b.waitFor(t, "every reply", func() bool { _, sent := b.sent.snapshot(); return len(sent) == n })
	if got := len(h.handled(conv.Load())); got != n || h.calls.Load() != n {
		t.Fatalf("handled %d turns (%d calls); want %d, each once", got, h.calls.Load(), n)
	}
	if h.maxIn != 1 {
		t.Fatalf("%d turns of one conversation ran at once", h.maxIn)
	}
}

func TestFailingSenderDeliversExactlyOnce(t *testing.T) {
	t.Parallel()
	b := setup(t, newCountingHandler())
	b.sent.FailFirst = 2
	newClient(t, b, true)
	ctx := context.Background()
	r, err := b.inbox.Accept(ctx, message("dan", "evt-retry", "ping"))
	if err != nil {
		t.Fatal(err)
	}
	var msgs []hearth.Message
	b.waitFor(t, "the reply to become visible", func() bool {
		msgs, err = b.store.Messages(ctx, r.ConversationID, 0, 10)
		return err == nil && len(msgs) == 2
	})
	calls, sent := b.sent.snapshot()
	if calls != 3 || len(sent) != 1 {
		t.Fatalf("sender called %d times with %d successes; want 3 and 1", calls, len(sent))
	}
	d, err := b.store.Delivery(ctx, msgs[1].ID)
	if err != nil {
		t.Fatal(err)
	}
	if d.PlatformMessageID != fmt.Sprintf("platform-%d", msgs[1].ID) || d.DeliveredAt.IsZero() {
		t.Fatalf("delivery record %+v lacks the platform id", d)
	}
	// A retried or duplicated deliver job finds the message delivered.
	if err := b.store.MarkDelivered(ctx, msgs[1].ID, "other"); err != nil {
		t.Fatal(err)
	}
	if d2, _ := b.store.Delivery(ctx, msgs[1].ID); d2.PlatformMessageID != d.PlatformMessageID {
		t.Fatalf("second MarkDelivered overwrote the platform id: %q", d2.PlatformMessageID)
	}
}

// A conversation's replies reach the platform in the order they were
// written, even when the first one's delivery fails and is retried while
// the second one's job is ready.
func TestRepliesAreDeliveredInOrder(t *testing.T) {
	t.Parallel()
	b := setup(t, newCountingHandler())
	b.sent.FailFirst = 1
	newClient(t, b, true)
	ctx := context.Background()
	for i, text := range []string{"first", "second", "third"} {
		if _, err := b.inbox.Accept(ctx, message("fay", fmt.Sprintf("evt-order-%d", i), text)); err != nil {
			t.Fatal(err)
		}
	}
	b.waitFor(t, "three replies sent", func() bool { _, sent := b.sent.snapshot(); return len(sent) == 3 })
	_, sent := b.sent.snapshot()
	for i := 1; i < len(sent); i++ {
		if sent[i].MessageID < sent[i-1].MessageID {
			t.Fatalf("message %d reached the platform before message %d", sent[i].MessageID, sent[i-1].MessageID)
		}
	}
}

// A platform's rate limit is waited out as long as it asked (an hour here),
// not by the worker's own backoff (a millisecond in these tests), and the
// wait costs the message none of its attempts.
func TestRateLimitedDeliveryWaitsAsAsked(t *testing.T) {
	t.Parallel()
	b := setup(t, newCountingHandler())
	b.sent.FailFirst = 1
	b.sent.FailWith = &hearth.RetryAfterError{After: time.Hour, Err: errors.New("429 Too Many Requests")}
	client := newClient(t, b, true)
	ctx := context.Background()
	before := time.Now()
	if _, err := b.inbox.Accept(ctx, message("erin", "evt-429", "ping")); err != nil {
		t.Fatal(err)
	}
	var job *rivertype.JobRow
	b.waitFor(t, "the rate-limited delivery to be put off", func() bool {
		res, err := client.JobList(ctx, river.NewJobListParams().Kinds(pipeline.DeliverArgs{}.Kind()).States(rivertype.JobStateScheduled))
		if err != nil || len(res.Jobs) == 0 {
			return false
		}
		job = res.Jobs[0]
		return true
	})
	if calls, sent := b.sent.snapshot(); calls != 1 || len(sent) != 0 {
		t.Fatalf("sender called %d times, %d sent; want one refused call", calls, len(sent))
	}
	if wait := job.ScheduledAt.Sub(before); wait < 59*time.Minute || wait > 61*time.Minute {
		t.Fatalf("next try in %s; want the hour the platform asked for", wait)
	}
	if job.Attempt >= job.MaxAttempts {
		t.Fatalf("attempt %d of %d: the wait must not use up the message's attempts", job.Attempt, job.MaxAttempts)
	}
}

// A turn that keeps failing is tried MaxEventAttempts times, then the user
// gets an apology and the conversation moves on.
func TestFailingTurnApologisesAndMovesOn(t *testing.T) {
	t.Parallel()
	var calls atomic.Int64
	b := setup(t, pipeline.HandlerFunc(func(ctx context.Context, turn pipeline.Turn) (pipeline.Answer, error) {
		calls.Add(1)
		if turn.Event.Text == "poison" {
			return pipeline.Answer{}, errors.New("model exploded")
		}
		return pipeline.Reply("fine"), nil
	}))
	newClient(t, b, true)
	ctx := context.Background()
	r, err := b.inbox.Accept(ctx, message("eve", "p1", "poison"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.inbox.Accept(ctx, message("eve", "p2", "after")); err != nil {
		t.Fatal(err)
	}
	// The turns answered in order: the apology was written first, then the
	// next turn's answer (TestRepliesAreDeliveredInOrder checks that they
	// also reach the platform in that order).
	var replies []string
	b.waitFor(t, "both replies delivered", func() bool {
		msgs, err := b.store.Messages(ctx, r.ConversationID, 0, 10)
		if err != nil {
			t.Fatal(err)
		}
		slices.SortFunc(msgs, func(a, b hearth.Message) int { return cmp.Compare(a.ID, b.ID) })
		replies = nil
		for _, m := range msgs {
			if m.From == hearth.FromBot {
				replies = append(replies, m.Text)
			}
		}
		return len(replies) == 2
	})
	if len(replies) != 2 || replies[0] == "fine" || replies[1] != "fine" {
		t.Fatalf("bot lines %q: want an apology, then the next turn's answer", replies)
	}
	if got := calls.Load(); got != pipeline.MaxEventAttempts+1 {
		t.Fatalf("handler called %d times; want %d tries of the poison and 1 of the next", got, pipeline.MaxEventAttempts+1)
	}
}

func TestAcceptRejectsBadInput(t *testing.T) {
	t.Parallel()
	b := setup(t, newCountingHandler())
	ctx := context.Background()
	good := message("fay", "ok-1", "hi")
	r, err := b.inbox.Accept(ctx, good)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		mutate func(*hearth.Inbound)
	}{
		{"no channel", func(in *hearth.Inbound) { in.Channel = "" }},
		{"no event id", func(in *hearth.Inbound) { in.ExternalID = "" }},
		{"no user", func(in *hearth.Inbound) { in.UserKey = "" }},
		{"empty text", func(in *hearth.Inbound) { in.Text = "  " }},
		{"invalid utf-8", func(in *hearth.Inbound) { in.Text = "\xff\xfe" }},
		{"too long", func(in *hearth.Inbound) { in.Text = string(make([]byte, pipeline.MaxTextBytes+1)) }},
		{"unknown zone", func(in *hearth.Inbound) { in.Timezone = "Mars/Olympus" }},
		{"host zone", func(in *hearth.Inbound) { in.Timezone = "Local" }},
		{"unknown kind", func(in *hearth.Inbound) { in.Kind = "sticker" }},
		{"unsupported without a description", func(in *hearth.Inbound) { in.Kind, in.Text = hearth.KindUnsupported, " " }},
		{"click without button", func(in *hearth.Inbound) { in.Kind = hearth.KindButton; in.MessageID = r.MessageID }},
		{"click on a user message", func(in *hearth.Inbound) {
			in.Kind, in.MessageID, in.ButtonID = hearth.KindButton, r.MessageID, "thanks"
		}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := good
			in.ExternalID = fmt.Sprintf("bad-%d", i)
			tt.mutate(&in)
			_, err := b.inbox.Accept(ctx, in)
			if !errors.Is(err, hearth.ErrInvalid) || hearth.ErrorMessage(err) == "" {
				t.Fatalf("Accept = %v; want an hearth.ErrInvalid error with a reason", err)
			}
		})
	}
	var events int
	if err := b.store.Pool().QueryRow(ctx, "SELECT count(*) FROM inbound_events").Scan(&events); err != nil {
		t.Fatal(err)
	}
	if events != 1 {
		t.Fatalf("%d events stored; bad input must store nothing", events)
	}
}

// A job that has drained for MaxDrain goes on afresh: with a cap that
// every turn exceeds, each message is still answered, once and in order,
// though a job may answer others' messages before its own.
func TestDrainCapGoesOnAfresh(t *testing.T) {
	t.Parallel()
	h := newCountingHandler()
	b := setup(t, h)
	b.turns.MaxDrain = -1 // every job hands over after one turn
	ctx := context.Background()
	const n = 12
	var conv int64
	for i := range n {
		r, err := b.inbox.Accept(ctx, message("dora", fmt.Sprintf("d-%d", i), fmt.Sprintf("m%02d", i)))
		if err != nil {
			t.Fatal(err)
		}
		conv = r.ConversationID
	}
	newClient(t, b, true)
	b.waitFor(t, "every turn", func() bool { return h.calls.Load() == n })
	got := h.handled(conv)
	for i, text := range got {
		if want := fmt.Sprintf("m%02d", i); text != want {
			t.Fatalf("handled %v; want m00..m%02d, each once, in order", got, n-1)
		}
	}
	if len(got) != n || h.maxIn != 1 {
		t.Fatalf("handled %d turns, %d at once; want %d, one at a time", len(got), h.maxIn, n)
	}
}
