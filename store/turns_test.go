package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/pipelinetest"
	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

// A conversation deleted with its events is not found, rather than
// leased by someone else: its turn job must not wait for it.
func TestLeaseGoneConversation(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	_, err := st.LeaseConversation(context.Background(), 424242, 0, "job:1", time.Minute)
	if !errors.Is(err, hearth.ErrNotFound) {
		t.Fatalf("err = %v; want hearth.ErrNotFound", err)
	}
}

// A refused lease gives its connection back before it looks whether the
// conversation is gone: on a pool of one it must not wait for itself.
func TestLeaseRefusedOnOneConnection(t *testing.T) {
	t.Parallel()
	url := storetest.NewDatabase(t)
	st, inbox := pipelinetest.NewInbox(t, url)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	rs := acceptMessages(t, inbox, webchatMessage("ann", "m1", "hello"))
	conv := rs[0].ConversationID
	if l, err := st.LeaseConversation(ctx, conv, 0, "job:1", time.Minute); err != nil || !l.Leased {
		t.Fatalf("first lease: %+v, %v", l, err)
	}
	one, err := store.Open(ctx, url, store.Config{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	if l, err := one.LeaseConversation(ctx, conv, 0, "job:2", time.Minute); err != nil || l.Leased {
		t.Fatalf("second lease: %+v, %v; want refused, at once", l, err)
	}
}

// A job whose event was answered already, by a turn that drained the
// conversation before it ran, is told so and takes no lease; one whose
// event still waits is refused while another holds the lease.
func TestLeaseOfAnsweredEvent(t *testing.T) {
	t.Parallel()
	st, inbox := pipelinetest.NewInbox(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	rs := acceptMessages(t, inbox, webchatMessage("ann", "m1", "hello m1"), webchatMessage("ann", "m2", "hello m2"), webchatMessage("ann", "m3", "hello m3"))
	conv := rs[0].ConversationID
	first, second, third := rs[0].EventID, rs[1].EventID, rs[2].EventID

	// The first job drains the first event and keeps the lease: the
	// others wait.
	l, err := st.LeaseConversation(ctx, conv, first, "job:1", time.Minute)
	if err != nil || !l.Leased || !l.Found || l.Answered || l.Event.ID != first {
		t.Fatalf("first job's lease: %+v, %v", l, err)
	}
	if done, released, err := st.CompleteEvent(ctx, l.Event, "job:1", []hearth.Outbound{{Text: "hi"}}, nil); err != nil || !done || released {
		t.Fatalf("complete the first: done %v, released %v, %v", done, released, err)
	}
	if l, err := st.LeaseConversation(ctx, conv, third, "job:3", time.Minute); err != nil || l.Leased || l.Answered {
		t.Fatalf("third job while the first holds the lease: %+v, %v; want refused", l, err)
	}
	// Its own event answered, the first job still holds the lease: run
	// again (it died before it ended), it drains on.
	l, err = st.LeaseConversation(ctx, conv, first, "job:1", time.Minute)
	if err != nil || !l.Leased || l.Answered || l.Event.ID != second {
		t.Fatalf("first job run again: %+v, %v; want the lease and the second event", l, err)
	}
	if _, _, err := st.CompleteEvent(ctx, l.Event, "job:1", []hearth.Outbound{{Text: "hi"}}, nil); err != nil {
		t.Fatal(err)
	}

	// The second event's job finds it answered, with the lease still
	// held: it takes nothing, and is done.
	l, err = st.LeaseConversation(ctx, conv, second, "job:2", time.Minute)
	if err != nil || !l.Answered || l.Leased || l.Found {
		t.Fatalf("second job: %+v, %v; want its event answered", l, err)
	}
	// The holder goes on undisturbed.
	l, err = st.LeaseConversation(ctx, conv, 0, "job:1", time.Minute)
	if err != nil || !l.Leased || l.Event.ID != third {
		t.Fatalf("first job's last lease: %+v, %v", l, err)
	}
	if _, released, err := st.CompleteEvent(ctx, l.Event, "job:1", []hearth.Outbound{{Text: "hi"}}, nil); err != nil || !released {
		t.Fatalf("complete the last: released %v, %v", released, err)
	}
	// Once all is answered and the lease is free, the third job still
	// takes nothing.
	if l, err := st.LeaseConversation(ctx, conv, third, "job:3", time.Minute); err != nil || !l.Answered || l.Leased {
		t.Fatalf("third job after the drain: %+v, %v; want its event answered", l, err)
	}
	if l, err := st.LeaseConversation(ctx, conv, 0, "job:4", time.Minute); err != nil || !l.Leased || l.Found {
		t.Fatalf("a lease after the drain: %+v, %v; want free, nothing pending", l, err)
	}
}
