package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/store/storetest"
)

// TestReclaimJobs: a restarted replica takes back exactly the jobs it was
// running when it died, not another live replica's, and not finished ones.
func TestReclaimJobs(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	jobs := []struct {
		state, by string
	}{
		{"running", "{hearth-0,hearth-1}"}, // retried on hearth-1, which died: reclaimed
		{"running", "{hearth-1}"},          // reclaimed
		{"running", "{hearth-1,hearth-2}"}, // now on hearth-2, alive: left alone
		{"completed", "{hearth-1}"},        // done: left alone
	}
	for _, j := range jobs {
		if _, err := st.Pool().Exec(ctx, `INSERT INTO river_job (kind, args, max_attempts, state, attempt, attempted_by, attempted_at, finalized_at)
			VALUES ('turn', '{}', 25, $1::river_job_state, 1, $2::text[], now(), CASE WHEN $1 = 'completed' THEN now() END)`, j.state, j.by); err != nil {
			t.Fatal(err)
		}
	}
	n, err := st.ReclaimJobs(ctx, "hearth-1")
	if err != nil || n != 2 {
		t.Fatalf("reclaimed %d (%v); want 2", n, err)
	}
	var available, running int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FILTER (WHERE state = 'available'), count(*) FILTER (WHERE state = 'running') FROM river_job`).Scan(&available, &running); err != nil {
		t.Fatal(err)
	}
	if available != 2 || running != 1 {
		t.Fatalf("%d available, %d running; want 2 and 1", available, running)
	}
	if n, err := st.ReclaimJobs(ctx, "hearth-1"); err != nil || n != 0 {
		t.Fatalf("reclaimed again: %d %v", n, err)
	}
}

// TestReclaimGivesUpSendClaims: a replica restarted under its id gives up
// the claims its previous run held on messages it was sending; it looks
// alive again, so no other replica would take them over before they aged.
func TestReclaimGivesUpSendClaims(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	c, err := st.SignIn(ctx, hearth.ChannelTelegram, "reclaim-user", "Reclaim", "reclaim-chat", "UTC")
	if err != nil {
		t.Fatal(err)
	}
	var msg int64
	if err := st.Pool().QueryRow(ctx, `INSERT INTO messages (conversation_id, sender, text) VALUES ($1, 'bot', 'hi') RETURNING id`, c.ConversationID).Scan(&msg); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"hearth-1", "hearth-2"} {
		if err := st.Heartbeat(ctx, id, 15*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	if ok, err := st.ClaimDelivery(ctx, msg, "hearth-1"); err != nil || !ok {
		t.Fatalf("first claim: %v %v", ok, err)
	}
	if ok, err := st.ClaimDelivery(ctx, msg, "hearth-2"); err != nil || ok {
		t.Fatalf("claim while hearth-1 holds it: %v %v; want refused", ok, err)
	}
	if _, err := st.ReclaimJobs(ctx, "hearth-1"); err != nil { // hearth-1 restarted
		t.Fatal(err)
	}
	if ok, err := st.ClaimDelivery(ctx, msg, "hearth-2"); err != nil || !ok {
		t.Fatalf("claim after hearth-1 restarted: %v %v; want taken", ok, err)
	}
}
