// Package pipelinetest is the test kit for channel adapters: a real store
// on a private database, an Inbox on it (persist + enqueue, with a River
// client that only inserts), and the check that a refused request stored
// nothing.
package pipelinetest

import (
	"context"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/signal"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

// NewInbox opens a store on dbURL (a fresh migrated database when empty)
// and returns it with an Inbox whose River client inserts jobs but works
// none, so a test sees exactly what an adapter accepted.
func NewInbox(t testing.TB, dbURL string) (*store.Store, *pipeline.Inbox) {
	t.Helper()
	if dbURL == "" {
		dbURL = storetest.NewDatabase(t)
	}
	st, err := store.Open(context.Background(), dbURL, store.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	client, err := river.NewClient(riverpgxv5.New(st.Pool()), &river.Config{SkipUnknownJobCheck: true})
	if err != nil {
		t.Fatal(err)
	}
	return st, pipeline.NewInbox(st, client, nil)
}

// AssertNothingStored fails the test unless the database at dbURL holds
// no inbound event and no job: what a request answered with 503 (or any
// refusal) must leave behind.
func AssertNothingStored(t testing.TB, dbURL string) {
	t.Helper()
	direct, err := store.Open(context.Background(), dbURL, store.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	var events, jobs int
	err = direct.Pool().QueryRow(context.Background(),
		"SELECT (SELECT count(*) FROM inbound_events), (SELECT count(*) FROM river_job)").Scan(&events, &jobs)
	if err != nil {
		t.Fatal(err)
	}
	if events != 0 || jobs != 0 {
		t.Fatalf("%d events and %d jobs stored; want none", events, jobs)
	}
}

// Stored counts what st's database holds of accepted messages: inbound
// events, the users' transcript lines, and River jobs (with no worker
// running, the turns enqueued with them).
func Stored(t testing.TB, st *store.Store) (events, messages, jobs int) {
	t.Helper()
	err := st.Pool().QueryRow(context.Background(), `SELECT
		(SELECT count(*) FROM inbound_events),
		(SELECT count(*) FROM messages WHERE sender = 'user'),
		(SELECT count(*) FROM river_job)`).Scan(&events, &messages, &jobs)
	if err != nil {
		t.Fatal(err)
	}
	return events, messages, jobs
}

// BotReply stores out as a visible bot message in the conversation of
// (ch, userKey, convKey), the way a finished turn would, answering its
// oldest pending event, and returns the message id (for button clicks).
func BotReply(t testing.TB, st *store.Store, ch hearth.Channel, userKey, convKey string, out hearth.Outbound) int64 {
	t.Helper()
	ctx := context.Background()
	c, err := st.FindContact(ctx, ch, userKey, convKey)
	if err != nil {
		t.Fatal(err)
	}
	l, err := st.LeaseConversation(ctx, c.ConversationID, 0, "pipelinetest", time.Minute)
	if err != nil || !l.Leased || !l.Found {
		t.Fatalf("lease: %+v, %v", l, err)
	}
	ev := l.Event
	tx, err := st.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // after Commit this is a no-op
	if _, _, _, err := st.CompleteEventTx(ctx, tx, ev, "pipelinetest", []hearth.Outbound{out}, true, nil); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	msgs, err := st.Messages(ctx, c.ConversationID, 0, 10)
	if err != nil || len(msgs) == 0 || msgs[len(msgs)-1].From != hearth.FromBot {
		t.Fatalf("messages %+v, %v", msgs, err)
	}
	return msgs[len(msgs)-1].ID
}

// Subscriber is the part of a River client WaitForJobs listens on.
type Subscriber interface {
	Subscribe(kinds ...river.EventKind) (<-chan *river.Event, func())
}

// WaitForJobs waits until cond holds, checking it now and again each time
// one of client's jobs completes, fails, is snoozed or is cancelled, and
// fails the test after a generous deadline. Every effect a test waits for
// (a reply stored, a delivery sent to a fake platform, a trace committed)
// is the work of a job, so this waits on events, never for a fixed time.
func WaitForJobs(t testing.TB, client Subscriber, what string, cond func() bool) {
	t.Helper()
	WaitForJobsOf(t, []Subscriber{client}, what, cond)
}

// WaitForJobsOf is WaitForJobs for work shared by several clients (as
// replicas share a queue).
func WaitForJobsOf(t testing.TB, clients []Subscriber, what string, cond func() bool) {
	t.Helper()
	var woken signal.Signal
	for _, c := range clients {
		events, cancel := c.Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed,
			river.EventKindJobSnoozed, river.EventKindJobCancelled)
		defer cancel() // closes events, which ends the forwarding below
		go func() {
			for range events {
				woken.Notify()
			}
		}()
	}
	woken.Await(t, what, cond)
}

// Wait waits until cond holds, checking it now and again each time wake
// receives (a live stream's wake-ups, say), and fails the test after 20
// seconds. It never sleeps.
func Wait(t testing.TB, wake <-chan struct{}, what string, cond func() bool) {
	t.Helper()
	var woken signal.Signal
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case <-wake:
				woken.Notify()
			case <-done:
				return
			}
		}
	}()
	woken.Await(t, what, cond)
}
