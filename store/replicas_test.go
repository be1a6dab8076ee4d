package store_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

// silence makes replica id look silent for ago, as a clock would.
func silence(t *testing.T, st *store.Store, id string, ago time.Duration) {
	t.Helper()
	if _, err := st.Pool().Exec(context.Background(), `UPDATE replicas SET seen_at = now() - $2::interval WHERE id = $1`, id, ago); err != nil {
		t.Fatal(err)
	}
}

// TestTakeOverJobs: the running jobs of a replica silent past its
// stale_after go back to work, once, with an error entry saying why; a
// live replica's, a finished job and a job of an unknown replica stay.
func TestTakeOverJobs(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	for _, id := range []string{"alive", "dead", "slow"} {
		if err := st.Heartbeat(ctx, id, 15*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	silence(t, st, "dead", 16*time.Second)
	silence(t, st, "slow", 14*time.Second) // late, but not yet dead
	jobs := []struct {
		state, by string
		taken     bool
	}{
		{"running", "{dead}", true},
		{"running", "{alive,dead}", true}, // a retry that landed on the dead one
		{"running", "{dead,alive}", false},
		{"running", "{slow}", false},
		{"running", "{unknown}", false}, // River's own rescue is its backstop
		{"completed", "{dead}", false},
	}
	ids := make([]int64, len(jobs))
	for i, j := range jobs {
		if err := st.Pool().QueryRow(ctx, `INSERT INTO river_job (kind, args, max_attempts, state, attempt, attempted_by, attempted_at, finalized_at)
			VALUES ('turn', '{}', 25, $1::river_job_state, 1, $2::text[], now(), CASE WHEN $1 = 'completed' THEN now() END) RETURNING id`, j.state, j.by).Scan(&ids[i]); err != nil {
			t.Fatal(err)
		}
	}
	n, err := st.TakeOverJobs(ctx)
	if err != nil || n != 2 {
		t.Fatalf("took over %d (%v); want 2", n, err)
	}
	for i, j := range jobs {
		var state, lastErr string
		if err := st.Pool().QueryRow(ctx, `SELECT state::text, coalesce(errors[array_upper(errors, 1)]->>'error', '') FROM river_job WHERE id = $1`, ids[i]).Scan(&state, &lastErr); err != nil {
			t.Fatal(err)
		}
		if taken := state == "available"; taken != j.taken || taken != (lastErr == "replica dead stopped answering; its job was taken over") {
			t.Errorf("job %d (%s by %s): state %s, error %q; taken over: want %v", i, j.state, j.by, state, lastErr, j.taken)
		}
	}
	if n, err := st.TakeOverJobs(ctx); err != nil || n != 0 {
		t.Fatalf("took over again: %d %v", n, err)
	}
	// A replica silent for a day is forgotten once nothing of it runs:
	// its last job is taken over first, the row goes on the next sweep.
	silence(t, st, "alive", 25*time.Hour)
	if n, err := st.TakeOverJobs(ctx); err != nil || n != 1 {
		t.Fatalf("took over %d of the silent replica's jobs (%v); want 1", n, err)
	}
	if _, err := st.TakeOverJobs(ctx); err != nil {
		t.Fatal(err)
	}
	var left []string
	rows, _ := st.Pool().Query(ctx, `SELECT id FROM replicas ORDER BY id`)
	for rows.Next() {
		var id string
		rows.Scan(&id) //nolint:errcheck // checked by rows.Err
		left = append(left, id)
	}
	if rows.Err() != nil || len(left) != 2 || left[0] != "dead" || left[1] != "slow" {
		t.Fatalf("replicas left %v (%v); want [dead slow]", left, rows.Err())
	}
}

// TestClaimDelivery: one replica at a time may send a message; a dead
// replica's claim (or one older than any delivery job) can be taken, a
// released one too, and nothing is claimed once delivered.
func TestClaimDelivery(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	c, err := st.SignIn(ctx, hearth.ChannelTelegram, "claim-user", "Claim", "claim-chat", "UTC")
	if err != nil {
		t.Fatal(err)
	}
	var msg int64
	if err := st.Pool().QueryRow(ctx, `INSERT INTO messages (conversation_id, sender, text) VALUES ($1, 'bot', 'hi') RETURNING id`, c.ConversationID).Scan(&msg); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"a", "b"} {
		if err := st.Heartbeat(ctx, id, 15*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	claim := func(who string, want bool) {
		t.Helper()
		got, err := st.ClaimDelivery(ctx, msg, who)
		if err != nil || got != want {
			t.Fatalf("%s claims: %v (%v); want %v", who, got, err, want)
		}
	}
	claim("a", true)
	claim("b", false) // a is alive and sending
	claim("a", false) // a second run of the same delivery on a waits too: one sender per message
	if err := st.ReleaseDeliveries(ctx, "b", []int64{msg}); err != nil {
		t.Fatal(err)
	}
	claim("b", false) // b cannot release a's claim
	if err := st.ReleaseDeliveries(ctx, "a", []int64{msg}); err != nil {
		t.Fatal(err)
	}
	claim("b", true) // a gave up (its send failed)
	silence(t, st, "b", 16*time.Second)
	claim("a", true) // b died holding it
	if _, err := st.Pool().Exec(ctx, `UPDATE messages SET send_claimed_at = now() - interval '3 minutes' WHERE id = $1`, msg); err != nil {
		t.Fatal(err)
	}
	claim("c", true) // a lives but never finished (c has no heartbeat at all)
	if err := st.MarkDelivered(ctx, msg, "42"); err != nil {
		t.Fatal(err)
	}
	claim("c", false) // delivered: nothing to send
}

// TestClaimDeliveries: a job of several messages claims, in their order,
// those it may send now; the undelivered rest (behind an earlier message
// of their conversation, claimed by a live replica) are the others, and
// delivered messages and ids of no bot message are in neither.
func TestClaimDeliveries(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	conv := func(who string) int64 {
		c, err := st.SignIn(ctx, hearth.ChannelTelegram, who, who, who+"-chat", "UTC")
		if err != nil {
			t.Fatal(err)
		}
		return c.ConversationID
	}
	add := func(conv int64, sender string) int64 {
		var id int64
		if err := st.Pool().QueryRow(ctx, `INSERT INTO messages (conversation_id, sender, text) VALUES ($1, $2, 'hi') RETURNING id`, conv, sender).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	a, b, c := conv("a"), conv("b"), conv("c")
	aFirst, aSecond := add(a, "bot"), add(a, "bot") // aSecond waits for aFirst
	held := add(b, "bot")
	done := add(c, "bot")
	user := add(c, "user")
	free := add(c, "bot")
	if err := st.Heartbeat(ctx, "other", time.Minute); err != nil {
		t.Fatal(err)
	}
	if ok, err := st.ClaimDelivery(ctx, held, "other"); err != nil || !ok {
		t.Fatalf("other claims: %v %v", ok, err)
	}
	if err := st.MarkDelivered(ctx, done, "1"); err != nil {
		t.Fatal(err)
	}
	claimed, others, err := st.ClaimDeliveries(ctx, []int64{free, aSecond, held, done, user, aFirst, -1}, "me", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, d := range claimed {
		got = append(got, d.MessageID)
		if d.Text != "hi" || d.Channel != hearth.ChannelTelegram || d.ConversationKey == "" {
			t.Errorf("claimed %+v; want the message to send and where", d)
		}
	}
	if !slices.Equal(got, []int64{free, aFirst}) || !slices.Equal(others, []int64{aSecond, held}) {
		t.Fatalf("claimed %v, others %v; want [%d %d] and [%d %d]", got, others, free, aFirst, aSecond, held)
	}
	// Claimed now: a second run (of the same job, on the same replica) sends nothing.
	if claimed, _, err := st.ClaimDeliveries(ctx, []int64{free, aFirst}, "me", time.Hour); err != nil || len(claimed) != 0 {
		t.Fatalf("second run claimed %+v (%v); want none", claimed, err)
	}
	if err := st.ReleaseDeliveries(ctx, "me", []int64{free, aFirst}); err != nil {
		t.Fatal(err)
	}
	if claimed, _, err := st.ClaimDeliveries(ctx, []int64{free, aFirst}, "me", time.Hour); err != nil || len(claimed) != 2 {
		t.Fatalf("after release claimed %+v (%v); want both", claimed, err)
	}
}

// TestIdleTransactionsEnd: a session that keeps a transaction open without
// a statement (a replica paused mid-turn) is ended by the server after
// IdleInTransactionTimeout, so its row locks stop blocking the others and
// its commit fails instead of landing late.
func TestIdleTransactionsEnd(t *testing.T) {
	t.Parallel()
	dbURL := storetest.NewDatabase(t)
	ctx := context.Background()
	paused, err := store.Open(ctx, dbURL, store.Config{MaxConns: 2, IdleInTransactionTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer paused.Close()
	other, err := store.Open(ctx, dbURL, store.Config{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := other.Heartbeat(ctx, "row", time.Minute); err != nil {
		t.Fatal(err)
	}
	tx, err := paused.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // the session is gone
	if _, err := tx.Exec(ctx, `UPDATE replicas SET seen_at = now() WHERE id = 'row'`); err != nil {
		t.Fatal(err)
	}
	// The other session waits for the lock; it gets it once the server
	// has ended the idle transaction (20 s bound a failure).
	wait, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	start := time.Now()
	if err := other.Heartbeat(wait, "row", time.Minute); err != nil {
		t.Fatalf("the lock of the idle transaction was not released: %v", err)
	}
	if waited := time.Since(start); waited < 200*time.Millisecond {
		t.Fatalf("got the lock after %s: the transaction did not hold it", waited)
	}
	if err := tx.Commit(ctx); err == nil {
		t.Fatal("the ended transaction committed")
	}
}

// TestHeartbeatOwnConnection: a replica whose workers hold every
// connection of the pool still heartbeats (busy is not dead).
func TestHeartbeatOwnConnection(t *testing.T) {
	t.Parallel()
	dbURL := storetest.NewDatabase(t)
	ctx := context.Background()
	st, err := store.Open(ctx, dbURL, store.Config{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	held, err := st.Pool().Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	beat, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := st.Heartbeat(beat, "busy", time.Minute); err != nil {
		t.Fatalf("heartbeat with the pool exhausted: %v", err)
	}
}
