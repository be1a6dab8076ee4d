package pipeline_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/store/storetest"
)

// TestDeliveryClaims: two runs of one delivery job cannot both send (a
// replica taken for dead that was only slow): the message is claimed by
// the replica sending it; a live holder makes the other run wait, a
// replica that may no longer act (fenced) sends nothing and gives its
// claim up, as a failed send does; once delivered nothing is sent again.
func TestDeliveryClaims(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	c, err := st.SignIn(ctx, hearth.ChannelWebchat, "claims", "Claims", "claims", "UTC")
	if err != nil {
		t.Fatal(err)
	}
	tx, err := st.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	msg, _, _, _, err := st.StoreScheduledTx(ctx, tx, c.User.ID, "claims-test", hearth.Outbound{Text: "hello"})
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"r1", "r2"} {
		if err := st.Heartbeat(ctx, id, time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	sent := &recordingSender{}
	w := pipeline.NewDeliverWorker(st, map[hearth.Channel]pipeline.Sender{hearth.ChannelWebchat: sent}, nil, nil)
	w.OrderWait = -1
	run := func(replica string) error {
		return w.Work(ctx, &river.Job[pipeline.DeliverArgs]{
			JobRow: &rivertype.JobRow{ID: 7, Attempt: 1, AttemptedBy: []string{replica}},
			Args:   pipeline.DeliverArgs{MessageID: msg},
		})
	}
	var snooze *rivertype.JobSnoozeError
	fenced := errors.New("fenced")

	// r1 is fenced: nothing is sent, and its claim is given up.
	w.Live = func() error { return fenced }
	if err := run("r1"); !errors.Is(err, fenced) {
		t.Fatalf("fenced run: %v; want the fence's error", err)
	}
	// r2 (live) holds a claim while it sends: r1's run waits.
	if ok, err := st.ClaimDelivery(ctx, msg, "r2"); err != nil || !ok {
		t.Fatalf("r2 claims after r1 gave up: %v %v; want claimed", ok, err)
	}
	w.Live = nil
	if err := run("r1"); !errors.As(err, &snooze) {
		t.Fatalf("run while r2 holds the claim: %v; want a snooze", err)
	}
	if calls, _ := sent.snapshot(); calls != 0 {
		t.Fatalf("%d sends while fenced or not holding the claim; want 0", calls)
	}
	// r2's run that held it ends without sending (the claim given up);
	// a second run of a job never shares a claim, even on one replica.
	if err := st.ReleaseDeliveries(ctx, "r2", []int64{msg}); err != nil {
		t.Fatal(err)
	}
	// A failed send gives the claim up too.
	sent.FailFirst = 1
	if err := run("r2"); err == nil {
		t.Fatal("a failed send returned no error")
	}
	if err := run("r1"); err != nil {
		t.Fatalf("r1 after r2's failed send: %v", err)
	}
	if err := run("r2"); err != nil {
		t.Fatalf("r2 after the delivery: %v", err)
	}
	if calls, got := sent.snapshot(); calls != 2 || len(got) != 1 {
		t.Fatalf("%d sends, %d delivered; want 2 calls (one failed) and one delivery", calls, len(got))
	}
}
