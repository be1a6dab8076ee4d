package action_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
)

// copiesOf counts the rows of every table that could hold a fact's text
// (the fact, its shares, the action records, approvals, audit entries,
// open questions, and the conversation) whose JSON form contains s.
func copiesOf(t *testing.T, b *testBundle, s string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, table := range []string{"facts", "fact_shares", "actions", "approvals", "audit_log", "open_questions", "inbound_events", "messages"} {
		var n int
		if err := b.store.Pool().QueryRow(context.Background(),
			`SELECT count(*) FROM `+table+` r WHERE strpos(to_jsonb(r)::text, substr(to_json($1::text)::text, 2, length(to_json($1::text)::text) - 2)) > 0`, s).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			out[table] = n
		}
	}
	return out
}

// shares counts the share rows of one fact.
func shares(t *testing.T, b *testBundle, factID int64) int {
	t.Helper()
	var n int
	if err := b.store.Pool().QueryRow(context.Background(), `SELECT count(*) FROM fact_shares WHERE fact_id = $1`, factID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// snapshot is every action record and audit entry as text, to show a
// second erase changes nothing.
func snapshot(t *testing.T, b *testBundle) string {
	t.Helper()
	var s string
	if err := b.store.Pool().QueryRow(context.Background(), `SELECT
		(SELECT COALESCE(string_agg(a::text, E'\n' ORDER BY id), '') FROM actions a) || E'\n' ||
		(SELECT COALESCE(string_agg(l::text, E'\n' ORDER BY id), '') FROM audit_log l)`).Scan(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

// "Forget that" is undone within the undo window; once the window has
// passed, the erase job leaves no copy of the fact anywhere, "undo" says
// it is too late, and erasing again changes nothing.
func TestForgetIsErasedAfterTheUndoWindow(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	const secret = `The "alarm" code is 4417`
	now := time.Now()
	b.engine.Now = func() time.Time { return now }
	eraser := &action.EraseWorker{Store: b.store, Now: func() time.Time { return now }}

	recs, err := b.engine.Run(ctx, b.turn, []action.Action{newAction(t, action.MemoryStore, action.MemoryStoreArgs{Content: secret, Category: hearth.MemoryPersonal, Tier: hearth.TierPrivate})})
	if err != nil || recs[0].State != action.StateDone {
		t.Fatalf("remember: %+v, %v", recs, err)
	}
	var m hearth.Memory
	if err := json.Unmarshal(recs[0].Result, &m); err != nil || m.ID == 0 {
		t.Fatalf("remembered %s: %v", recs[0].Result, err)
	}
	// The conversation quotes it: the request and the reply.
	if _, err := b.store.Pool().Exec(ctx, `UPDATE inbound_events SET text = 'remember that ' || $2, payload = jsonb_build_object('text', 'remember that ' || $2) WHERE id = $1`, b.turn.EventID, secret); err != nil {
		t.Fatal(err)
	}
	if _, err := b.store.Pool().Exec(ctx, `INSERT INTO messages (conversation_id, sender, text, buttons) VALUES ($1, 'bot', 'Got it: “' || $2 || '”.', jsonb_build_array(jsonb_build_object('label', 'Private: ' || $2)))`, b.turn.ConversationID, secret); err != nil {
		t.Fatal(err)
	}
	// A question about it ("how private is it?") carries it in its options.
	if _, err := b.store.Pool().Exec(ctx, `INSERT INTO open_questions (event_id, conversation_id, question, state)
		VALUES ($1, $2, jsonb_build_object('options', jsonb_build_array(jsonb_build_object('label', 'Private', 'content', $3::text))), 'answered')`,
		b.turn.EventID, b.turn.ConversationID, secret); err != nil {
		t.Fatal(err)
	}
	// "Tell Bob too": a share row, in a family of two.
	if _, err := b.store.Pool().Exec(ctx, `WITH f AS (INSERT INTO families (name) VALUES ('home') RETURNING id)
		INSERT INTO family_members (family_id, user_id) SELECT f.id, u FROM f, unnest($1::bigint[]) u`,
		[]int64{b.turn.UserID, b.other}); err != nil {
		t.Fatal(err)
	}
	if err := b.store.ShareMemory(ctx, b.turn.UserID, m.ID, b.other); err != nil {
		t.Fatal(err)
	}
	forget := func() {
		t.Helper()
		recs, err := b.engine.Run(ctx, b.newTurn(t, "ann"), []action.Action{newAction(t, action.MemoryForget, action.MemoryRefArgs{ID: m.ID, Content: secret})})
		if err != nil || recs[0].State != action.StateDone {
			t.Fatalf("forget: %+v, %v", recs, err)
		}
	}

	// Inside the window, undo brings it back, shares and all.
	forget()
	now = now.Add(time.Hour)
	if rec, ok, err := b.engine.Undo(ctx, b.turn.ConversationID, b.turn.UserID); err != nil || !ok || rec.Action.Kind != action.MemoryForget {
		t.Fatalf("undo within the window = %+v, %v, %v", rec, ok, err)
	}
	if got := copiesOf(t, b, secret); got["facts"] != 1 || shares(t, b, m.ID) != 1 {
		t.Fatalf("after undo, copies = %v, shares %d; want the fact back, shared", got, shares(t, b, m.ID))
	}

	// Forgotten again; before the window has passed nothing is erased.
	forget()
	if n, err := eraser.Run(ctx); n != 0 || err != nil {
		t.Fatalf("erase within the window = %d, %v; want nothing", n, err)
	}
	if got := copiesOf(t, b, secret); got["facts"] != 0 || got["actions"] == 0 || got["audit_log"] == 0 {
		t.Fatalf("within the window, copies = %v; want the fact gone and the undo copy kept", got)
	}

	// After the window: every copy is erased.
	now = now.Add(action.DefaultUndoWindow + time.Minute)
	if n, err := eraser.Run(ctx); n != 1 || err != nil {
		t.Fatalf("erase after the window = %d, %v; want 1", n, err)
	}
	if got := copiesOf(t, b, secret); len(got) != 0 || shares(t, b, m.ID) != 0 {
		t.Fatalf("after the window, copies of the forgotten fact: %v, shares %d", got, shares(t, b, m.ID))
	}
	var kind string
	var payload json.RawMessage
	if err := b.store.Pool().QueryRow(ctx, `SELECT kind, payload FROM actions
		WHERE user_id = $1 AND kind = 'memory.forget' AND state = 'done' AND erased_at IS NOT NULL`, b.turn.UserID).Scan(&kind, &payload); err != nil {
		t.Fatalf("the record that something was forgotten: %v", err)
	}
	t.Logf("left: %s %s", kind, payload)
	var reply string
	if err := b.store.Pool().QueryRow(ctx, `SELECT text FROM messages WHERE conversation_id = $1 AND sender = 'bot'`, b.turn.ConversationID).Scan(&reply); err != nil || reply != "Got it: “[forgotten]”." {
		t.Fatalf("the reply that quoted it: %q, %v", reply, err)
	}

	if _, ok, err := b.engine.Undo(ctx, b.turn.ConversationID, b.turn.UserID); !ok || !errors.Is(err, action.ErrTooLate) {
		t.Fatalf("undo after the window: ok=%v err=%v; want ErrTooLate", ok, err)
	}
	// A longer window configured later finds nothing to restore.
	b.engine.UndoWindow = 1000 * time.Hour
	if _, ok, err := b.engine.Undo(ctx, b.turn.ConversationID, b.turn.UserID); !ok || !errors.Is(err, action.ErrTooLate) {
		t.Fatalf("undo of an erased forget: ok=%v err=%v; want ErrTooLate", ok, err)
	}

	before := snapshot(t, b)
	if n, err := eraser.Run(ctx); n != 0 || err != nil {
		t.Fatalf("second erase = %d, %v; want nothing", n, err)
	}
	if after := snapshot(t, b); after != before {
		t.Fatalf("a second erase changed the records:\n%s\n---\n%s", before, after)
	}
}

// Undo of any action is refused once the window has passed.
func TestUndoAfterTheWindowIsTooLate(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	now := time.Now()
	b.engine.Now = func() time.Time { return now }
	b.engine.UndoWindow = 30 * time.Minute
	if _, err := b.engine.Run(ctx, b.turn, []action.Action{newAction(t, action.TaskCreate, action.TaskCreateArgs{Title: "Buy milk"})}); err != nil {
		t.Fatal(err)
	}
	now = now.Add(31 * time.Minute)
	if _, ok, err := b.engine.Undo(ctx, b.turn.ConversationID, b.turn.UserID); !ok || !errors.Is(err, action.ErrTooLate) {
		t.Fatalf("undo after the window: ok=%v err=%v; want ErrTooLate", ok, err)
	}
	if tasks, _ := b.store.FindTasks(ctx, hearth.TaskFilter{UserID: b.turn.UserID, IncludeUndated: true}); len(tasks) != 1 {
		t.Fatalf("tasks after a refused undo: %+v", tasks)
	}
}

// Erasers running at once (replicas, or a run overlapping the next) erase
// each forget once between them.
func TestErasersAtOnceEraseEachForgetOnce(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	const forgets = 6
	for i := range forgets {
		recs, err := b.engine.Run(ctx, b.newTurn(t, "ann"), []action.Action{newAction(t, action.MemoryStore, action.MemoryStoreArgs{Content: "fact " + string(rune('a'+i)), Category: hearth.MemoryPersonal})})
		if err != nil || recs[0].State != action.StateDone {
			t.Fatalf("remember: %+v, %v", recs, err)
		}
		var m hearth.Memory
		if err := json.Unmarshal(recs[0].Result, &m); err != nil {
			t.Fatal(err)
		}
		if recs, err := b.engine.Run(ctx, b.newTurn(t, "ann"), []action.Action{newAction(t, action.MemoryForget, action.MemoryRefArgs{ID: m.ID})}); err != nil || recs[0].State != action.StateDone {
			t.Fatalf("forget: %+v, %v", recs, err)
		}
	}
	later := func() time.Time { return time.Now().Add(action.DefaultUndoWindow + time.Hour) }
	var wg sync.WaitGroup
	counts := make([]int, 3)
	for i := range counts {
		w := &action.EraseWorker{Store: b.store, Now: later, Batch: 1}
		wg.Go(func() {
			n, err := w.Run(ctx)
			if err != nil {
				t.Error(err)
			}
			counts[i] = n
		})
	}
	wg.Wait()
	if total := counts[0] + counts[1] + counts[2]; total != forgets {
		t.Fatalf("erasers at once erased %v = %d; want %d in all", counts, total, forgets)
	}
	var left int
	if err := b.store.Pool().QueryRow(ctx, `SELECT count(*) FROM actions WHERE kind = 'memory.forget' AND erased_at IS NULL`).Scan(&left); err != nil || left != 0 {
		t.Fatalf("forgets left unerased: %d, %v", left, err)
	}
}

// TestForgottenRelationshipNotesAreErased: forgetting a fact forgets the
// relationship it stated and the notes on it; undo within the window
// brings the notes back, and after the window the erase job leaves no
// copy of them (the forget's record, the message that told the note and
// the reply that quoted it).
func TestForgottenRelationshipNotesAreErased(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	now := time.Now()
	e := action.NewEngine(b.store, &action.Executor{Memories: b.store, Relationships: b.store, Now: func() time.Time { return now }}, nil)
	e.Client, e.Now = b.client, func() time.Time { return now }
	eraser := &action.EraseWorker{Store: b.store, Now: func() time.Time { return now }}
	const body = "terrified of the big grey pony"
	recs, err := e.Run(ctx, b.turn, []action.Action{newAction(t, action.MemoryStore, action.MemoryStoreArgs{Content: "Emma loves horses", About: "Emma",
		Category: hearth.MemoryPersonal, Relationship: &action.RelationshipArgs{From: action.EndArgs{Name: "Emma", Kind: hearth.EntityPerson},
			To: action.EndArgs{Name: "horses", Kind: hearth.EntityConcept}, Label: "loves", Attitude: 5, Confirmed: true}})})
	if err != nil || recs[0].State != action.StateDone {
		t.Fatalf("remember: %+v, %v", recs, err)
	}
	var m hearth.Memory
	var out action.RelationshipOutcome
	if err := errors.Join(json.Unmarshal(recs[0].Result, &m), json.Unmarshal(recs[0].Before, &out)); err != nil || out.Relationship.ID == 0 {
		t.Fatalf("remembered %s %s: %v", recs[0].Result, recs[0].Before, err)
	}
	// "note on Emma and horses: …", told in a message, quoted in the reply.
	noteTurn := b.newTurn(t, "ann")
	if _, err := b.store.AddGraphNote(ctx, hearth.GraphNote{AddedBy: b.turn.UserID, RelationshipID: out.Relationship.ID, Body: body,
		Lifetime: hearth.LifetimeForever, SourceEventID: noteTurn.EventID}, now); err != nil {
		t.Fatal(err)
	}
	if _, err := b.store.Pool().Exec(ctx, `UPDATE inbound_events SET text = 'note on Emma and horses: ' || $2 WHERE id = $1`, noteTurn.EventID, body); err != nil {
		t.Fatal(err)
	}
	if _, err := b.store.Pool().Exec(ctx, `INSERT INTO messages (conversation_id, sender, text) VALUES ($1, 'bot', 'Noted on Emma → horses: “' || $2 || '”.')`,
		noteTurn.ConversationID, body); err != nil {
		t.Fatal(err)
	}
	notes := func() int {
		t.Helper()
		var n int
		if err := b.store.Pool().QueryRow(ctx, `SELECT count(*) FROM graph_notes WHERE body = $1`, body).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	forget := func() {
		t.Helper()
		recs, err := e.Run(ctx, b.newTurn(t, "ann"), []action.Action{newAction(t, action.MemoryForget, action.MemoryRefArgs{ID: m.ID, Content: m.Content})})
		if err != nil || recs[0].State != action.StateDone {
			t.Fatalf("forget: %+v, %v", recs, err)
		}
	}
	forget()
	if notes() != 0 {
		t.Fatal("the note outlived its relationship")
	}
	if _, ok, err := e.Undo(ctx, b.turn.ConversationID, b.turn.UserID); err != nil || !ok {
		t.Fatalf("undo of the forget: %v %v", ok, err)
	}
	if notes() != 1 {
		t.Fatal("undo of the forget did not bring the note back")
	}
	forget()
	now = now.Add(action.DefaultUndoWindow + time.Minute)
	if n, err := eraser.Run(ctx); n != 1 || err != nil {
		t.Fatalf("erase after the window = %d, %v; want 1", n, err)
	}
	if got := copiesOf(t, b, body); len(got) != 0 || notes() != 0 {
		t.Fatalf("after the window, copies of the note: %v, %d notes", got, notes())
	}
}
