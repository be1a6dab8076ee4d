package imports_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/commands"
	"github.com/hearthbot/hearth/imports"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/pipeline/pipelinetest"
	"github.com/hearthbot/hearth/store"
)

const passed = "(not an import)"

type testBundle struct {
	st    *store.Store
	inbox *pipeline.Inbox
	h     pipeline.Handler
	now   time.Time
}

func setup(t *testing.T, maxSteps int) *testBundle {
	t.Helper()
	st, inbox := pipelinetest.NewInbox(t, "")
	b := &testBundle{st: st, inbox: inbox, now: time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)}
	im := imports.New(imports.Config{Store: st, Now: func() time.Time { return b.now }, MaxSteps: maxSteps})
	var reg commands.Registry
	if err := reg.Register(im.Commands()...); err != nil {
		t.Fatal(err)
	}
	reg.RegisterButtons(imports.ButtonPrefix, im.Buttons())
	next := pipeline.HandlerFunc(func(context.Context, pipeline.Turn) (pipeline.Answer, error) { return pipeline.Reply(passed), nil })
	b.h = reg.Handler(im.Files(next))
	return b
}

// user is one person importing through the web chat.
type user struct {
	b    *testBundle
	key  string
	u    hearth.User
	conv int64
}

var seq atomic.Int64

func (b *testBundle) user(t *testing.T, name string) *user {
	t.Helper()
	key := fmt.Sprintf("%s-%d", strings.ToLower(name), seq.Add(1))
	c, err := b.st.SignIn(context.Background(), hearth.ChannelWebchat, key, name, key, "Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	return &user{b: b, key: key, u: c.User, conv: c.ConversationID}
}

// turn runs one turn and commits its writes, as the turn worker does.
func (u *user) turn(t *testing.T, ev hearth.InboundEvent) hearth.Outbound {
	t.Helper()
	ctx := context.Background()
	ev.ConversationID, ev.Channel = u.conv, hearth.ChannelWebchat
	ans, err := u.b.h.HandleTurn(ctx, pipeline.Turn{Event: ev, User: u.u})
	if err != nil {
		t.Fatalf("turn %+v: %v", ev, err)
	}
	tx, err := u.b.st.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // after Commit a no-op
	for _, w := range ans.Writes {
		if err := w(ctx, tx); err != nil {
			t.Fatalf("write of turn %+v: %v", ev, err)
		}
	}
	if err := u.b.st.Commit(ctx, tx); err != nil {
		t.Fatal(err)
	}
	if len(ans.Replies) != 1 {
		t.Fatalf("%d replies", len(ans.Replies))
	}
	return ans.Replies[0]
}

// send accepts a file as the web chat does and runs its turn.
func (u *user) send(t *testing.T, name, data string) (hearth.Outbound, int64) {
	t.Helper()
	r, err := u.b.inbox.Accept(context.Background(), hearth.Inbound{
		Channel: hearth.ChannelWebchat, ExternalID: fmt.Sprintf("file:%d", seq.Add(1)), ConversationKey: u.key, UserKey: u.key,
		Kind: hearth.KindFile, Text: name, File: &hearth.FileRef{Name: name, Data: []byte(data), Size: int64(len(data))},
	})
	if err != nil {
		t.Fatal(err)
	}
	return u.turn(t, hearth.InboundEvent{ID: r.EventID, Kind: hearth.KindFile, Text: name}), r.EventID
}

func (u *user) say(t *testing.T, text string) hearth.Outbound {
	t.Helper()
	return u.turn(t, hearth.InboundEvent{Kind: hearth.KindMessage, Text: text})
}

func (u *user) click(t *testing.T, m hearth.Outbound, label string) hearth.Outbound {
	t.Helper()
	for _, b := range m.Buttons {
		if b.Label == label {
			return u.turn(t, hearth.InboundEvent{Kind: hearth.KindButton, ButtonID: b.ID})
		}
	}
	t.Fatalf("%q has no button %q (%+v)", m.Text, label, m.Buttons)
	return hearth.Outbound{}
}

func has(t *testing.T, m hearth.Outbound, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(m.Text, p) {
			t.Fatalf("%q does not say %q", m.Text, p)
		}
	}
}

func (b *testBundle) count(t *testing.T, q string, args ...any) int {
	t.Helper()
	var n int
	if err := b.st.Pool().QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A calendar file whose event matches one the user has: updated on
// request, the other created; undo deletes what was created and puts the
// matched event back as it was.
func TestCalendarImportMergeAndUndo(t *testing.T) {
	t.Parallel()
	b := setup(t, 0)
	u := b.user(t, "Ada")
	ctx := context.Background()
	berlin, _ := time.LoadLocation("Europe/Berlin")
	start := time.Date(2026, 12, 2, 19, 0, 0, 0, berlin)
	choir, err := b.st.CreateEvent(ctx, "", hearth.CalendarEvent{UserID: u.u.ID, Title: "Choir", Start: start, End: start.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	ics := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" +
		"BEGIN:VEVENT\r\nUID:a\r\nSUMMARY:Choir\r\nDTSTART;TZID=Europe/Berlin:20261202T190000\r\nDTEND;TZID=Europe/Berlin:20261202T210000\r\nLOCATION:Hall\r\nEND:VEVENT\r\n" +
		"BEGIN:VEVENT\r\nUID:b\r\nSUMMARY:Dinner\r\nDTSTART:20261203T180000Z\r\nEND:VEVENT\r\n" +
		"END:VCALENDAR\r\n"
	q, _ := u.send(t, "cal.ics", ics)
	has(t, q, "calendar events", "1 row of these match", "the event “Choir”")
	sum := u.click(t, q, "Update them")
	has(t, sum, "1 new calendar event", "will be updated")
	done := u.click(t, sum, "Approve")
	has(t, done, "1 event, 1 updated")
	got, err := b.st.FindEvents(ctx, hearth.CalendarEventFilter{UserID: u.u.ID, From: start.Add(-time.Hour), To: start.Add(48 * time.Hour)})
	if err != nil || len(got) != 2 || got[0].ID != choir.ID || got[0].Location != "Hall" || !got[0].End.Equal(start.Add(2*time.Hour)) {
		t.Fatalf("events after import %+v (%v)", got, err)
	}
	if n := b.count(t, `SELECT count(*) FROM import_files f JOIN imports i ON i.event_id = f.event_id WHERE i.user_id = $1 AND f.content IS NULL`, u.u.ID); n != 1 {
		t.Error("the file's bytes are kept after the import")
	}
	// A second click on Approve changes nothing.
	has(t, u.click(t, sum, "Approve"), "already imported")

	has(t, u.say(t, "undo the import"), "Undone", "1 event, 1 updated")
	got, _ = b.st.FindEvents(ctx, hearth.CalendarEventFilter{UserID: u.u.ID, From: start.Add(-time.Hour), To: start.Add(48 * time.Hour)})
	if len(got) != 1 || got[0].Location != "" || !got[0].End.Equal(start.Add(time.Hour)) {
		t.Fatalf("events after undo %+v; want Choir as it was", got)
	}
	if n := b.count(t, `SELECT count(*) FROM audit_log WHERE user_id = $1 AND kind = 'import.undo'`, u.u.ID); n != 1 {
		t.Errorf("%d undo audit entries", n)
	}
}

// The step budget: after MaxSteps answers the unsure columns left are
// left out, and the summary says so. An import left past its expiry is
// over, and writes nothing.
func TestStepBudgetAndExpiry(t *testing.T) {
	t.Parallel()
	b := setup(t, 1)
	u := b.user(t, "Bo")
	q, _ := u.send(t, "people.csv", "Name,Colour,Pet,Shoe\nAnn,red,cat,38\nBob,blue,dog,44\n")
	has(t, q, "“Colour”")
	if l := q.Buttons[len(q.Buttons)-1].Label; l != "Ignore it and the 2 others" {
		t.Errorf("last button %q", l)
	}
	tier := u.click(t, q, "Keep as a note")
	// The match and tier questions are asked whatever the budget: they
	// decide what is written.
	has(t, tier, "2 facts don't say how private")
	sum := u.click(t, tier, "The whole family")
	has(t, sum, "left out after too many questions: Pet, Shoe", "Colour → a note")
	b.now = b.now.Add(25 * time.Hour)
	has(t, u.click(t, sum, "Approve"), "expired")
	if n := b.count(t, `SELECT count(*) FROM imports WHERE user_id = $1 AND state = 'expired'`, u.u.ID); n != 1 {
		t.Error("the import is not expired")
	}
	if n := b.count(t, `SELECT count(*) FROM facts WHERE user_id = $1`, u.u.ID); n != 0 {
		t.Errorf("%d facts written by an expired import", n)
	}
}

// A file whose kind is unclear is asked about; the answer re-reads the
// columns for that kind. A retried file turn finds the same import.
func TestKindQuestion(t *testing.T) {
	t.Parallel()
	b := setup(t, 0)
	u := b.user(t, "Cy")
	q, event := u.send(t, "list.txt", "Milk\nEggs\nBread\n")
	has(t, q, "What does “list.txt” hold?")
	again := u.turn(t, hearth.InboundEvent{ID: event, Kind: hearth.KindFile})
	has(t, again, "What does “list.txt” hold?")
	if n := b.count(t, `SELECT count(*) FROM imports WHERE user_id = $1`, u.u.ID); n != 1 {
		t.Fatalf("%d imports for one file event", n)
	}
	if n := b.count(t, `SELECT count(*) FROM turn_traces WHERE event_id = $1 AND intent = 'import'`, event); n != 1 {
		t.Errorf("%d traces of the file turn", n)
	}
	col := u.click(t, q, "To-dos")
	has(t, col, "“Column 1”", "the title")
	sum := u.click(t, col, "It's the title")
	has(t, sum, "3 new to-dos")
	has(t, u.click(t, sum, "Approve"), "3 to-dos")
	has(t, u.say(t, "continue the import"), "no import waiting")
	has(t, u.say(t, "something else"), passed)
}

// Contacts in a vCard need no questions; a file that can't be read is
// answered with its reason.
func TestVCardAndBrokenFiles(t *testing.T) {
	t.Parallel()
	b := setup(t, 0)
	u := b.user(t, "Di")
	sum, _ := u.send(t, "c.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann Lee\r\nBDAY:1980-03-15\r\nEMAIL:ann@example.com\r\nEND:VCARD\r\nBEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bob Roe\r\nTEL:+1 555 0101\r\nEND:VCARD\r\n")
	has(t, sum, "2 people, as 3 facts", "Nothing is written until you approve")
	has(t, u.click(t, sum, "Cancel"), "cancelled")
	has(t, u.click(t, sum, "Approve"), "cancelled; nothing was written")
	bad, _ := u.send(t, "x.pdf", "%PDF-1.4")
	has(t, bad, "I couldn't import “x.pdf”", "Nothing was changed")
	has(t, u.say(t, "undo the import"), "no import to undo")
}

// A to-do the user has is updated with the file's due date and priority,
// and undo puts it back; skipping leaves it alone.
func TestTaskMergeAndUndo(t *testing.T) {
	t.Parallel()
	b := setup(t, 0)
	u := b.user(t, "Eve")
	ctx := context.Background()
	rent, err := b.st.CreateTask(ctx, "", hearth.Task{UserID: u.u.ID, Title: "Pay rent"})
	if err != nil {
		t.Fatal(err)
	}
	file := "Task,Due,Priority\nPay rent,2026-12-01,high\nBuy stamps,,\n"
	q, _ := u.send(t, "todo.csv", file)
	has(t, q, "the to-do “Pay rent”")
	sum := u.click(t, q, "Update them")
	has(t, u.click(t, sum, "Approve"), "1 to-do, 1 updated")
	got, err := b.st.FindTasks(ctx, hearth.TaskFilter{UserID: u.u.ID, IncludeUndated: true})
	if err != nil || len(got) != 2 {
		t.Fatalf("tasks %+v (%v)", got, err)
	}
	for _, tk := range got {
		if tk.ID == rent.ID && (tk.Priority != 3 || tk.Due.IsZero() || !tk.AllDay) {
			t.Errorf("merged task %+v", tk)
		}
	}
	has(t, u.say(t, "undo the import"), "Undone")
	got, _ = b.st.FindTasks(ctx, hearth.TaskFilter{UserID: u.u.ID, IncludeUndated: true})
	if len(got) != 1 || got[0].ID != rent.ID || got[0].Priority != 0 || !got[0].Due.IsZero() || got[0].AllDay {
		t.Fatalf("tasks after undo %+v; want Pay rent as it was", got)
	}

	q, _ = u.send(t, "todo.csv", file)
	sum = u.click(t, q, "Skip them")
	has(t, sum, "1 new to-do", "will be skipped")
	has(t, u.click(t, sum, "Approve"), "1 to-do")
	if n := b.count(t, `SELECT count(*) FROM tasks WHERE id = $1 AND priority = 0 AND due IS NULL`, rent.ID); n != 1 {
		t.Error("a skipped match was changed")
	}
}

// Dates that read both ways (03/04/2026) are asked about once per
// column, with a value shown both ways, and read as answered.
func TestDateOrderQuestion(t *testing.T) {
	t.Parallel()
	b := setup(t, 0)
	u := b.user(t, "Flo")
	q, _ := u.send(t, "todo.csv", "Task,Due\nPay rent,03/04/2026\nCall Bo,05/06/2026\n")
	has(t, q, "How are the dates in “Due” written?", "03/04/2026")
	if len(q.Buttons) != 2 || q.Buttons[0].Label != "3 April 2026" || q.Buttons[1].Label != "4 March 2026" {
		t.Fatalf("buttons %+v", q.Buttons)
	}
	sum := u.click(t, q, "3 April 2026")
	has(t, sum, "Due → due (03/04/2026 is 3 April 2026)")
	has(t, u.click(t, sum, "Approve"), "2 to-dos")
	if n := b.count(t, `SELECT count(*) FROM tasks WHERE user_id = $1 AND (due AT TIME ZONE 'Europe/Berlin')::date IN ('2026-04-03', '2026-06-05')`, u.u.ID); n != 2 {
		t.Errorf("%d to-dos due on the dates read day first; want 2", n)
	}
}

// A new file sets the waiting import aside: its buttons say so, and its
// bytes are dropped.
func TestNewFileSetsTheOldAside(t *testing.T) {
	t.Parallel()
	b := setup(t, 0)
	u := b.user(t, "Gus")
	first, _ := u.send(t, "a.csv", "Name,Colour\nAnn,red\n")
	has(t, first, "“Colour”")
	second, _ := u.send(t, "b.csv", "Task\nPay rent\nCall Bo\n")
	has(t, second, "2 new to-dos")
	has(t, u.click(t, first, "Ignore it"), "“a.csv” expired")
	has(t, u.say(t, "continue the import"), "Back to “b.csv”")
	if n := b.count(t, `SELECT count(*) FROM import_files f JOIN imports i ON i.event_id = f.event_id WHERE i.user_id = $1 AND f.content IS NOT NULL`, u.u.ID); n != 1 {
		t.Errorf("%d files kept; want the open one's only", n)
	}
}
