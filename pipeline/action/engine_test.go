package action_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

type testBundle struct {
	store  *store.Store
	engine *action.Engine
	client *river.Client[pgx.Tx]
	turn   action.Turn
	other  int64
}

func setup(t *testing.T) *testBundle {
	t.Helper()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	e := action.NewEngine(st, &action.Executor{Tasks: st, Calendar: st, Notes: st, Mail: st, Memories: st}, nil)
	workers := river.NewWorkers()
	river.AddWorker(workers, action.NewWorker(e))
	client, err := river.NewClient(riverpgxv5.New(st.Pool()), &river.Config{Workers: workers, TestOnly: true, SkipUnknownJobCheck: true})
	if err != nil {
		t.Fatal(err)
	}
	e.Client = client
	b := &testBundle{store: st, engine: e, client: client}
	b.turn = b.newTurn(t, "ann")
	b.other = b.newTurn(t, "bob").UserID
	_ = ctx
	return b
}

// newTurn makes a user with a conversation and one inbound event.
func (b *testBundle) newTurn(t *testing.T, user string) action.Turn {
	t.Helper()
	inbox := pipeline.NewInbox(b.store, b.client, nil)
	r, err := inbox.Accept(context.Background(), hearth.Inbound{
		Channel: hearth.ChannelWebchat, ExternalID: user + time.Now().String(), ConversationKey: user, UserKey: user,
		UserName: user, Timezone: "UTC", Kind: hearth.KindMessage, Text: "hi",
	})
	if err != nil {
		t.Fatal(err)
	}
	return action.Turn{EventID: r.EventID, ConversationID: r.ConversationID, UserID: r.UserID}
}

func newAction(t *testing.T, k action.Kind, p any) action.Action {
	t.Helper()
	a, err := action.New(k, p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestRunIsIdempotentPerTurn(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	plan := []action.Action{
		newAction(t, action.TaskCreate, action.TaskCreateArgs{Title: "Call mom"}),
		newAction(t, action.MemoryStore, action.MemoryStoreArgs{Content: "Mom's birthday is May 2nd", About: "Mom", Category: hearth.MemoryPersonal}),
	}
	for range 2 {
		recs, err := b.engine.Run(ctx, b.turn, plan)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if r.State != action.StateDone {
				t.Fatalf("%s is %s (%s)", r.Action.Kind, r.State, r.Error)
			}
		}
	}
	tasks, _ := b.store.FindTasks(ctx, hearth.TaskFilter{UserID: b.turn.UserID, IncludeUndated: true})
	mems, _ := b.store.FindMemories(ctx, hearth.MemoryFilter{UserID: b.turn.UserID})
	if len(tasks) != 1 || len(mems) != 1 {
		t.Fatalf("running a turn's plan twice made %d tasks and %d memories; want 1 and 1", len(tasks), len(mems))
	}
	var audits int
	b.store.Pool().QueryRow(ctx, "SELECT count(*) FROM audit_log WHERE user_id = $1", b.turn.UserID).Scan(&audits) //nolint:errcheck // checked below
	if audits != 2 {
		t.Fatalf("%d audit entries; want one per executed action", audits)
	}
}

func TestApprovalFirstClickWins(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	send := newAction(t, action.EmailSend, action.EmailArgs{To: []string{"Sarah <sarah@example.com>"}, Subject: "Late", Body: "I'll be late."})
	recs, err := b.engine.Run(ctx, b.turn, []action.Action{send})
	if err != nil {
		t.Fatal(err)
	}
	if recs[0].State != action.StateAwaitingApproval || recs[0].ApprovalID == 0 || recs[0].Result == nil {
		t.Fatalf("send planned as %+v; want awaiting approval with its draft", recs[0])
	}
	id := recs[0].ApprovalID

	if _, _, err := b.engine.Decide(ctx, id, b.other, true); !errors.Is(err, action.ErrNotYours) {
		t.Fatalf("another user's approval: %v; want ErrNotYours", err)
	}
	const clicks = 8
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins, already := 0, 0
	for range clicks {
		wg.Go(func() {
			_, _, err := b.engine.Decide(ctx, id, b.turn.UserID, true)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				wins++
			case errors.Is(err, action.ErrAlreadyDecided):
				already++
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if wins != 1 || already != clicks-1 {
		t.Fatalf("%d wins, %d already-decided; want 1 and %d", wins, already, clicks-1)
	}
	sent, _ := b.store.FindEmails(ctx, b.turn.UserID, hearth.EmailSent, 10)
	if len(sent) != 1 {
		t.Fatalf("%d emails sent; want exactly 1", len(sent))
	}
	if _, _, err := b.engine.Decide(ctx, id, b.turn.UserID, false); !errors.Is(err, action.ErrAlreadyDecided) {
		t.Fatalf("cancel after approve: %v", err)
	}
}

func TestCancelledEmailDiscardsItsDraft(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	send := newAction(t, action.EmailSend, action.EmailArgs{To: []string{"sarah@example.com"}, Subject: "Late", Body: "I'll be late."})
	recs, err := b.engine.Run(ctx, b.turn, []action.Action{send})
	if err != nil {
		t.Fatal(err)
	}
	if drafts, _ := b.store.FindEmails(ctx, b.turn.UserID, hearth.EmailDraft, 10); len(drafts) != 1 {
		t.Fatalf("%d drafts awaiting approval; want 1", len(drafts))
	}
	if _, _, err := b.engine.Decide(ctx, recs[0].ApprovalID, b.turn.UserID, false); err != nil {
		t.Fatal(err)
	}
	if all, _ := b.store.FindEmails(ctx, b.turn.UserID, "", 10); len(all) != 0 {
		t.Fatalf("after Cancel the outbox holds %+v; want nothing", all)
	}
}

// TestSavedDraftSend: sending a saved draft sends that draft, only as
// the approval showed it; cancelled, it stays saved.
func TestSavedDraftSend(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	d, err := b.store.CreateDraft(ctx, "", hearth.Email{UserID: b.turn.UserID, To: []string{"sam@example.com"}, Subject: "Boiler", Body: "Fixed."})
	if err != nil {
		t.Fatal(err)
	}
	shown := action.EmailArgs{To: d.To, Subject: d.Subject, Body: d.Body, DraftID: d.ID}
	recs, err := b.engine.Run(ctx, b.turn, []action.Action{newAction(t, action.EmailSend, shown)})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.engine.Decide(ctx, recs[0].ApprovalID, b.turn.UserID, false); err != nil {
		t.Fatal(err)
	}
	if drafts, _ := b.store.FindEmails(ctx, b.turn.UserID, hearth.EmailDraft, 10); len(drafts) != 1 || drafts[0].ID != d.ID {
		t.Fatalf("after Cancel the drafts are %+v; want the saved one", drafts)
	}

	other := shown
	other.Body = "Not what is saved."
	turn := b.newTurn(t, "ann")
	recs, err = b.engine.Run(ctx, turn, []action.Action{newAction(t, action.EmailSend, other)})
	if err != nil {
		t.Fatal(err)
	}
	if _, rec, err := b.engine.Decide(ctx, recs[0].ApprovalID, turn.UserID, true); err == nil && rec.State != action.StateFailed {
		t.Fatalf("approving a send that showed other text than the draft's: %s; want it refused", rec.State)
	}
	if sent, _ := b.store.FindEmails(ctx, b.turn.UserID, hearth.EmailSent, 10); len(sent) != 0 {
		t.Fatalf("sent %+v; want nothing sent but what was shown", sent)
	}

	turn = b.newTurn(t, "ann")
	if recs, err = b.engine.Run(ctx, turn, []action.Action{newAction(t, action.EmailSend, shown)}); err != nil {
		t.Fatal(err)
	}
	if _, rec, err := b.engine.Decide(ctx, recs[0].ApprovalID, b.turn.UserID, true); err != nil || rec.State != action.StateDone {
		t.Fatalf("approve: %+v, %v", rec, err)
	}
	if sent, _ := b.store.FindEmails(ctx, b.turn.UserID, hearth.EmailSent, 10); len(sent) != 1 || sent[0].ID != d.ID {
		t.Fatalf("sent %+v; want the saved draft itself", sent)
	}
}

func TestExpiredApprovalIsRefused(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.engine.ApprovalTTL = time.Millisecond
	ctx := context.Background()
	recs, err := b.engine.Run(ctx, b.turn, []action.Action{newAction(t, action.CalendarDelete, action.EventRefArgs{ID: 1})})
	if err != nil {
		t.Fatal(err)
	}
	// Expire it in the database rather than waiting for the clock.
	if _, err := b.store.Pool().Exec(ctx, "UPDATE approvals SET expires_at = now() - interval '1 second' WHERE id = $1", recs[0].ApprovalID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.engine.Decide(ctx, recs[0].ApprovalID, b.turn.UserID, true); !errors.Is(err, action.ErrExpired) {
		t.Fatalf("late approval: %v; want ErrExpired", err)
	}
	if _, _, err := b.engine.Decide(ctx, recs[0].ApprovalID, b.turn.UserID, true); !errors.Is(err, action.ErrAlreadyDecided) {
		t.Fatalf("approval after expiry was recorded: %v", err)
	}
}

func TestTamperedPayloadIsNotExecuted(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	recs, err := b.engine.Run(ctx, b.turn, []action.Action{newAction(t, action.EmailSend, action.EmailArgs{To: []string{"Sarah <sarah@example.com>"}, Body: "Hi"})})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.store.Pool().Exec(ctx, `UPDATE actions SET payload = '{"to":["everyone@example.com"],"subject":"","body":"Hi"}' WHERE id = $1`, recs[0].ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.engine.Decide(ctx, recs[0].ApprovalID, b.turn.UserID, true); !errors.Is(err, action.ErrTampered) {
		t.Fatalf("Decide = %v; want ErrTampered", err)
	}
	if sent, _ := b.store.FindEmails(ctx, b.turn.UserID, hearth.EmailSent, 10); len(sent) != 0 {
		t.Fatal("a payload that changed after approval was sent")
	}
}

func TestBulkNeedsApproval(t *testing.T) {
	t.Parallel()
	var plan []action.Action
	for range action.BulkLimit + 1 {
		plan = append(plan, action.Action{Kind: action.TaskCreate, Payload: []byte(`{"title":"x"}`)})
	}
	for i, r := range action.Risks(plan) {
		if r != action.High {
			t.Fatalf("action %d of a bulk plan is %v; want high", i, r)
		}
	}
	tests := []struct {
		a    action.Action
		want action.Risk
	}{
		{action.Action{Kind: action.TaskCreate, Payload: []byte(`{"title":"x"}`)}, action.Low},
		{action.Action{Kind: action.CalendarCreate, Payload: []byte(`{"title":"x","start":"2026-01-01T10:00:00Z","end":"2026-01-01T11:00:00Z"}`)}, action.Low},
		{action.Action{Kind: action.CalendarCreate, Payload: []byte(`{"title":"x","start":"2026-01-01T10:00:00Z","end":"2026-01-01T11:00:00Z","attendees":["a@b.c"]}`)}, action.High},
		{action.Action{Kind: action.EmailSend, Payload: []byte(`{"to":["a"],"subject":"s","body":"b"}`)}, action.High},
		{action.Action{Kind: action.TaskDelete, Payload: []byte(`{"id":1}`)}, action.Low},
		{action.Action{Kind: action.CalendarDelete, Payload: []byte(`{"id":1}`)}, action.High},
		{action.Action{Kind: action.MemoryForget, Payload: []byte(`{"id":1}`)}, action.Low}, // one's own fact, named, with undo
	}
	for _, tt := range tests {
		if got := action.RiskOf(tt.a); got != tt.want {
			t.Errorf("RiskOf(%s %s) = %v; want %v", tt.a.Kind, tt.a.Payload, got, tt.want)
		}
	}
}

// A plan is stored once per turn: the low-risk action claimed, the
// high-risk one given its approval; planning the turn again returns the
// same rows and approval and claims nothing.
func TestPlanActionsOncePerTurn(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	plan := []action.Action{
		newAction(t, action.TaskCreate, action.TaskCreateArgs{Title: "Pack lunch"}),
		newAction(t, action.EmailSend, action.EmailArgs{To: []string{"Sarah <sarah@example.com>"}, Subject: "Lunch", Body: "Packed."}),
	}
	claimed, recs, err := b.store.PlanActions(ctx, b.turn.EventID, b.turn.ConversationID, b.turn.UserID, plan, action.Risks(plan), time.Hour)
	if err != nil || len(recs) != 2 {
		t.Fatalf("PlanActions = %v, %+v, %v", claimed, recs, err)
	}
	if len(claimed) != 1 || claimed[0] != recs[0].ID || recs[0].State != action.StateRunning || recs[0].Index != 0 {
		t.Fatalf("claimed %v, first %+v; want the task claimed and running", claimed, recs[0])
	}
	if recs[1].State != action.StateAwaitingApproval || recs[1].ApprovalID == 0 || recs[1].Risk != action.High || recs[1].Index != 1 {
		t.Fatalf("second %+v; want the email awaiting its approval", recs[1])
	}
	var hash string
	if err := b.store.Pool().QueryRow(ctx, "SELECT payload_hash FROM approvals WHERE id = $1", recs[1].ApprovalID).Scan(&hash); err != nil || hash != plan[1].Hash() {
		t.Fatalf("approval hash %q (%v); want the payload's", hash, err)
	}
	again, recs2, err := b.store.PlanActions(ctx, b.turn.EventID, b.turn.ConversationID, b.turn.UserID, plan, action.Risks(plan), time.Hour)
	if err != nil || len(again) != 0 || len(recs2) != 2 {
		t.Fatalf("planning again = %v, %+v, %v; want the stored rows, nothing claimed", again, recs2, err)
	}
	for i := range recs {
		if recs2[i].ID != recs[i].ID || recs2[i].ApprovalID != recs[i].ApprovalID {
			t.Fatalf("planning again: %+v; want %+v", recs2[i], recs[i])
		}
	}
	var approvals int
	if err := b.store.Pool().QueryRow(ctx, "SELECT count(*) FROM approvals a JOIN actions x ON x.id = a.action_id WHERE x.event_id = $1", b.turn.EventID).Scan(&approvals); err != nil || approvals != 1 {
		t.Fatalf("%d approvals (%v); want 1", approvals, err)
	}
}

// An action whose runner died is taken over once its claim is stale, and
// runs exactly once.
func TestStaleActionIsTakenOverOnce(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	a := newAction(t, action.TaskCreate, action.TaskCreateArgs{Title: "Water plants"})
	// Plan without executing: what a turn killed right after planning leaves.
	claimed, _, err := b.store.PlanActions(ctx, b.turn.EventID, b.turn.ConversationID, b.turn.UserID, []action.Action{a}, action.Risks([]action.Action{a}), time.Hour)
	if err != nil || len(claimed) != 1 {
		t.Fatalf("PlanActions claimed %v, %v", claimed, err)
	}
	// The crashed runner's claim goes stale; a backstop job finds it.
	b.engine.StaleAfter = time.Millisecond
	if _, err := b.store.Pool().Exec(ctx, "UPDATE actions SET claimed_at = now() - interval '1 minute' WHERE id = $1", claimed[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := b.client.Insert(ctx, action.ActionArgs{ActionID: claimed[0]}, nil); err != nil {
		t.Fatal(err)
	}
	worker := river.NewWorkers()
	river.AddWorker(worker, action.NewWorker(b.engine))
	runner, err := river.NewClient(riverpgxv5.New(b.store.Pool()), &river.Config{
		Workers: worker, TestOnly: true, FetchCooldown: 2 * time.Millisecond, FetchPollInterval: 20 * time.Millisecond,
		Queues: map[string]river.QueueConfig{action.QueueActions: {MaxWorkers: 2}},
	})
	if err != nil {
		t.Fatal(err)
	}
	events, cancel := runner.Subscribe(river.EventKindJobCompleted)
	defer cancel()
	if err := runner.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer runner.Stop(ctx) //nolint:errcheck // test teardown
	select {
	case <-events:
	case <-time.After(20 * time.Second):
		t.Fatal("the backstop job did not run")
	}
	tasks, _ := b.store.FindTasks(ctx, hearth.TaskFilter{UserID: b.turn.UserID, IncludeUndated: true})
	if len(tasks) != 1 || tasks[0].Title != "Water plants" {
		t.Fatalf("tasks %+v", tasks)
	}
	// The turn, retried, finds the action done and does not repeat it.
	recs, err := b.engine.Run(ctx, b.turn, []action.Action{a})
	if err != nil || recs[0].State != action.StateDone {
		t.Fatalf("rerun: %+v %v", recs, err)
	}
	if tasks, _ := b.store.FindTasks(ctx, hearth.TaskFilter{UserID: b.turn.UserID, IncludeUndated: true}); len(tasks) != 1 {
		t.Fatalf("%d tasks after the retried turn", len(tasks))
	}
}

// TestRetriedTurnRunsWhatItsEarlierAttemptLeftRunning: an attempt that
// claimed an action and died before recording its outcome (the database
// went away mid-way) leaves it running; the turn's retry runs it at once
// instead of replying without it, and only once.
func TestRetriedTurnRunsWhatItsEarlierAttemptLeftRunning(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	a := newAction(t, action.TaskCreate, action.TaskCreateArgs{Title: "Check the meter"})
	// Planned and claimed, never executed: what the failed attempt leaves.
	claimed, _, err := b.store.PlanActions(ctx, b.turn.EventID, b.turn.ConversationID, b.turn.UserID, []action.Action{a}, action.Risks([]action.Action{a}), time.Hour)
	if err != nil || len(claimed) != 1 {
		t.Fatalf("PlanActions claimed %v, %v", claimed, err)
	}
	for range 2 {
		recs, err := b.engine.Run(ctx, b.turn, []action.Action{a})
		if err != nil || len(recs) != 1 || recs[0].State != action.StateDone {
			t.Fatalf("retried turn: %+v %v; want the action done", recs, err)
		}
	}
	tasks, err := b.store.FindTasks(ctx, hearth.TaskFilter{UserID: b.turn.UserID, IncludeUndated: true})
	if err != nil || len(tasks) != 1 || tasks[0].Title != "Check the meter" {
		t.Fatalf("tasks %+v (%v); want the one task", tasks, err)
	}
}

func TestUndoRevertsTheLastAction(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	if _, err := b.engine.Run(ctx, b.turn, []action.Action{newAction(t, action.TaskCreate, action.TaskCreateArgs{Title: "Buy milk"})}); err != nil {
		t.Fatal(err)
	}
	// Another member of a shared chat has nothing of theirs to undo.
	if _, ok, err := b.engine.Undo(ctx, b.turn.ConversationID, b.other); ok || err != nil {
		t.Fatalf("another user's undo: ok=%v err=%v; want nothing to undo", ok, err)
	}
	rec, ok, err := b.engine.Undo(ctx, b.turn.ConversationID, b.turn.UserID)
	if err != nil || !ok || rec.Action.Kind != action.TaskCreate {
		t.Fatalf("Undo = %+v, %v, %v", rec, ok, err)
	}
	if tasks, _ := b.store.FindTasks(ctx, hearth.TaskFilter{UserID: b.turn.UserID, IncludeUndated: true}); len(tasks) != 0 {
		t.Fatalf("task still there after undo: %+v", tasks)
	}
	if _, ok, err := b.engine.Undo(ctx, b.turn.ConversationID, b.turn.UserID); ok || err != nil {
		t.Fatalf("second undo: ok=%v err=%v; want nothing to undo", ok, err)
	}
}

// Deleting one's own list is done at once and undone by "undo";
// deleting a list the family shares waits for approval.
func TestNoteDeleteAndUndo(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	n, err := b.store.CreateNote(ctx, "", hearth.Note{UserID: b.turn.UserID, Title: "Packing list", Items: []hearth.ChecklistItem{{Text: "rope"}}})
	if err != nil {
		t.Fatal(err)
	}
	recs, err := b.engine.Run(ctx, b.turn, []action.Action{newAction(t, action.NoteDelete, action.NoteRefArgs{ID: n.ID, Title: n.Title})})
	if err != nil || recs[0].ApprovalID != 0 || recs[0].State != action.StateDone {
		t.Fatalf("Run = %+v, %v; want it done at once", recs, err)
	}
	if got, _ := b.store.FindNotes(ctx, hearth.NoteFilter{UserID: b.turn.UserID}); len(got) != 0 {
		t.Fatalf("notes after the delete: %+v", got)
	}
	if rec, ok, err := b.engine.Undo(ctx, b.turn.ConversationID, b.turn.UserID); err != nil || !ok || rec.Action.Kind != action.NoteDelete {
		t.Fatalf("Undo = %+v, %v, %v", rec, ok, err)
	}
	if got, _ := b.store.FindNotes(ctx, hearth.NoteFilter{UserID: b.turn.UserID}); len(got) != 1 || got[0].Items[0].Text != "rope" {
		t.Fatalf("notes after the undo: %+v; want the list back", got)
	}
	family := newAction(t, action.NoteDelete, action.NoteRefArgs{ID: n.ID, Title: n.Title, Family: true})
	if action.RiskOf(family) != action.High {
		t.Fatal("deleting the family's list is not asked about")
	}
}

// An approved high-risk action is not taken back by a bare "undo" when
// taking it back would itself reach others (cancelling an event its
// attendees were invited to).
func TestUndoLeavesApprovedRiskAlone(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	start := time.Date(2026, 3, 10, 10, 0, 0, 0, time.UTC)
	invite := newAction(t, action.CalendarCreate, action.EventCreateArgs{Title: "Review", Start: start, End: start.Add(time.Hour), Attendees: []string{"sam@example.com"}})
	recs, err := b.engine.Run(ctx, b.turn, []action.Action{invite})
	if err != nil || recs[0].ApprovalID == 0 {
		t.Fatalf("Run = %+v, %v; want an approval", recs, err)
	}
	if _, _, err := b.engine.Decide(ctx, recs[0].ApprovalID, b.turn.UserID, true); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := b.engine.Undo(ctx, b.turn.ConversationID, b.turn.UserID); !ok || !errors.Is(err, action.ErrNotUndoable) {
		t.Fatalf("undo of an approved invitation: ok=%v err=%v; want ErrNotUndoable", ok, err)
	}
	if events, _ := b.store.FindEvents(ctx, hearth.CalendarEventFilter{UserID: b.turn.UserID, From: start.Add(-time.Hour), To: start.Add(2 * time.Hour)}); len(events) != 1 {
		t.Fatalf("events after the refused undo: %+v", events)
	}
}

func TestValidateRejectsBadPayloads(t *testing.T) {
	t.Parallel()
	tests := []action.Action{
		{Kind: "task.explode", Payload: []byte(`{}`)},
		{Kind: action.TaskCreate, Payload: []byte(`{}`)},
		{Kind: action.TaskCreate, Payload: []byte(`{"title":""}`)},
		{Kind: action.TaskCreate, Payload: []byte(`{"title":"x","priority":9}`)},
		{Kind: action.TaskCreate, Payload: []byte(`{"title":"x","surprise":true}`)},
		{Kind: action.CalendarCreate, Payload: []byte(`{"title":"x","start":"2026-01-02T10:00:00Z","end":"2026-01-01T10:00:00Z"}`)},
		{Kind: action.EmailSend, Payload: []byte(`{"to":[],"subject":"s","body":"b"}`)},
		{Kind: action.MemoryStore, Payload: []byte(`{"content":"x","category":"gossip"}`)},
		{Kind: action.NoteAppend, Payload: []byte(`{"id":1}`)},
		{Kind: action.TaskCreate, Payload: []byte(`not json`)},
	}
	for _, a := range tests {
		if err := a.Validate(); !errors.Is(err, hearth.ErrInvalid) {
			t.Errorf("Validate(%s %s) = %v; want an hearth.ErrInvalid error", a.Kind, a.Payload, err)
		}
	}
}

// flakyMail is the outbox with sends that fail as scripted first.
type flakyMail struct {
	*store.Store
	mu    sync.Mutex
	fail  []error
	sends int
}

func (f *flakyMail) SendEmail(ctx context.Context, userID, id int64) (hearth.Email, error) {
	f.mu.Lock()
	if len(f.fail) > 0 {
		err := f.fail[0]
		f.fail = f.fail[1:]
		f.mu.Unlock()
		return hearth.Email{}, err
	}
	f.sends++
	f.mu.Unlock()
	return f.Store.SendEmail(ctx, userID, id)
}

// TestRetry: only a send that failed without any effect (refused:
// hearth.ErrUnavailable) can be tried again, by its requester, once per
// try, with the approved payload.
func TestRetry(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tt := range []struct {
		name      string
		fail      error
		retryable bool
	}{
		{"refused", hearth.Errorf(hearth.EUnavailable, "the mail server didn't take the message"), true},
		{"fate unknown", hearth.Invalidf("I can't tell whether that email went out"), false},
		{"broken", errors.New("something else"), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := setup(t)
			mail := &flakyMail{Store: b.store, fail: []error{tt.fail}}
			b.engine = action.NewEngine(b.store, &action.Executor{Tasks: b.store, Calendar: b.store, Notes: b.store, Mail: mail, Memories: b.store}, nil)
			b.engine.Client = b.client
			send := newAction(t, action.EmailSend, action.EmailArgs{To: []string{"sam@example.com"}, Subject: "Hi", Body: "Hello"})
			recs, err := b.engine.Run(ctx, b.turn, []action.Action{send})
			if err != nil || len(recs) != 1 || recs[0].ApprovalID == 0 {
				t.Fatalf("run: %+v %v", recs, err)
			}
			ap, rec, err := b.engine.Decide(ctx, recs[0].ApprovalID, b.turn.UserID, true)
			if err != nil || rec.State != action.StateFailed || ap.State != action.ApprovalFailed || ap.Retryable != tt.retryable {
				t.Fatalf("decide: %+v %+v %v; want failed, retryable %v", ap, rec, err, tt.retryable)
			}
			if _, _, err := b.engine.Retry(ctx, ap.ID, b.other, 1); !errors.Is(err, action.ErrNotYours) {
				t.Fatalf("another user's try: %v", err)
			}
			_, rec, err = b.engine.Retry(ctx, ap.ID, b.turn.UserID, 1)
			if !tt.retryable {
				if !errors.Is(err, action.ErrNotRetryable) || mail.sends != 0 {
					t.Fatalf("try again: %v, %d sends; want ErrNotRetryable and none", err, mail.sends)
				}
				return
			}
			if err != nil || rec.State != action.StateDone || mail.sends != 1 {
				t.Fatalf("try again: %+v %v, %d sends", rec, err, mail.sends)
			}
			if e := rec.Result; !strings.Contains(string(e), "sam@example.com") {
				t.Fatalf("sent %s; want the approved email", e)
			}
			if _, _, err := b.engine.Retry(ctx, ap.ID, b.turn.UserID, 2); !errors.Is(err, action.ErrNotRetryable) || mail.sends != 1 {
				t.Fatalf("a try after success: %v, %d sends", err, mail.sends)
			}
		})
	}
}
