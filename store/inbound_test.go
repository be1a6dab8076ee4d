package store_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/pipeline/pipelinetest"
)

// acceptMessages accepts ins as an adapter does, one by one.
func acceptMessages(t *testing.T, inbox *pipeline.Inbox, ins ...hearth.Inbound) []hearth.Receipt {
	t.Helper()
	rs := make([]hearth.Receipt, len(ins))
	for i, in := range ins {
		var err error
		if rs[i], err = inbox.Accept(context.Background(), in); err != nil {
			t.Fatal(err)
		}
	}
	return rs
}

func webchatMessage(user, id, text string) hearth.Inbound {
	return hearth.Inbound{Channel: hearth.ChannelWebchat, ExternalID: id, ConversationKey: user, UserKey: user,
		UserName: user, Kind: hearth.KindMessage, Text: text}
}

// StoreMessages stores known senders' messages with their turn jobs and
// River's notification, leaves new senders to the caller, and stores
// nothing of a group that fails.
func TestStoreMessages(t *testing.T) {
	t.Parallel()
	st, inbox := pipelinetest.NewInbox(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	first := acceptMessages(t, inbox, webchatMessage("ann", "ann-0", "hello"))[0] // with its turn job

	listener, err := st.Pool().Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer listener.Release()
	if _, err := listener.Exec(ctx, `LISTEN "public.river_insert"`); err != nil {
		t.Fatal(err)
	}

	job := hearth.TurnJob{Kind: "turn", Queue: "turns", MaxAttempts: 10, Notify: true}
	rs, known, err := st.StoreMessages(ctx, []hearth.Inbound{
		webchatMessage("ann", "ann-1", "one"),
		webchatMessage("bob", "bob-1", "first words"),
		webchatMessage("ann", "ann-1", "one"), // sent twice
		webchatMessage("ann", "ann-0", "hello"),
	}, job)
	if err != nil {
		t.Fatal(err)
	}
	if want := []bool{true, false, true, true}; !slices.Equal(known, want) {
		t.Fatalf("known = %v, want %v (bob is new)", known, want)
	}
	if rs[0].Duplicate || rs[0].EventID == 0 || rs[0].MessageID == 0 || rs[0].ConversationID != first.ConversationID {
		t.Fatalf("new message's receipt %+v", rs[0])
	}
	if !rs[2].Duplicate || rs[2].EventID != rs[0].EventID || !rs[3].Duplicate || rs[3].EventID != first.EventID {
		t.Fatalf("copies' receipts %+v, %+v: want duplicates of %d and %d", rs[2], rs[3], rs[0].EventID, first.EventID)
	}
	if ev, msgs, jobs := pipelinetest.Stored(t, st); ev != 2 || msgs != 2 || jobs != 2 {
		t.Fatalf("stored %d events, %d messages, %d jobs; want 2 of each (nothing of bob's)", ev, msgs, jobs)
	}
	var args json.RawMessage
	var kind, queue, state string
	var attempts int
	err = st.Pool().QueryRow(ctx, `SELECT args, kind, queue, max_attempts, state FROM river_job ORDER BY id DESC LIMIT 1`).Scan(&args, &kind, &queue, &attempts, &state)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		ConversationID int64 `json:"conversation_id"`
		EventID        int64 `json:"event_id"`
	}
	if err := json.Unmarshal(args, &got); err != nil || got.ConversationID != rs[0].ConversationID || got.EventID != rs[0].EventID ||
		kind != "turn" || queue != "turns" || attempts != 10 || state != "available" {
		t.Fatalf("job %s %s %s %d %s; want the message's turn", args, kind, queue, attempts, state)
	}
	n, err := listener.Conn().WaitForNotification(ctx)
	if err != nil || n.Payload != `{"queue": "turns"}` {
		t.Fatalf("notification %+v, %v; want River's insert notification for turns", n, err)
	}

	t.Run("a failing group stores nothing", func(t *testing.T) {
		bad := webchatMessage("ann", "ann-bad", "broken")
		bad.Payload = json.RawMessage(`{"not json`)
		if _, _, err := st.StoreMessages(ctx, []hearth.Inbound{webchatMessage("ann", "ann-2", "two"), bad}, job); err == nil {
			t.Fatal("a group with a broken payload was stored")
		}
		if ev, msgs, jobs := pipelinetest.Stored(t, st); ev != 2 || msgs != 2 || jobs != 2 {
			t.Fatalf("stored %d events, %d messages, %d jobs; want still 2 of each", ev, msgs, jobs)
		}
		button := webchatMessage("ann", "ann-3", "")
		button.Kind = hearth.KindButton
		if _, _, err := st.StoreMessages(ctx, []hearth.Inbound{button}, job); err == nil {
			t.Fatal("a button click was taken for a message")
		}
	})

	t.Run("without notification", func(t *testing.T) {
		job.Notify = false
		if _, _, err := st.StoreMessages(ctx, []hearth.Inbound{webchatMessage("ann", "ann-4", "four")}, job); err != nil {
			t.Fatal(err)
		}
		// A notification would be delivered with the commit, before
		// StoreMessages returned; a LISTEN round trip collects it.
		if _, err := listener.Exec(ctx, `SELECT 1`); err != nil {
			t.Fatal(err)
		}
		short, cancel := context.WithTimeout(ctx, time.Millisecond)
		defer cancel()
		if n, err := listener.Conn().WaitForNotification(short); err == nil {
			t.Fatalf("notified %+v, want no notification", n)
		}
	})
}
