package turn

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/commands"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/stage"
)

// Short answers to an approval are read the same however they are typed:
// case, trailing punctuation, spacing, and a phone's curly apostrophe.
func TestShortAnswers(t *testing.T) {
	tests := []struct {
		text    string
		yes, no bool
	}{
		{"Yes!", true, false},
		{"  go   ahead ", true, false},
		{"don’t send it", false, true},
		{"Don't.", false, true},
		{"maybe later", false, false},
	}
	for _, tt := range tests {
		n := commands.Normalise(tt.text)
		if yes, no := slices.Contains(yesWords, n), slices.Contains(noWords, n); yes != tt.yes || no != tt.no {
			t.Errorf("%q → %q: yes %v, no %v; want %v, %v", tt.text, n, yes, no, tt.yes, tt.no)
		}
	}
}

// "Too late to undo" names the undo window as a person would.
func TestSpanWords(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "24 hours"},
		{24 * time.Hour, "24 hours"},
		{time.Hour, "hour"},
		{30 * time.Minute, "30 minutes"},
		{90 * time.Second, "1m30s"},
	}
	for _, tt := range tests {
		if got := spanWords(tt.d); got != tt.want {
			t.Errorf("spanWords(%s) = %q; want %q", tt.d, got, tt.want)
		}
	}
}

// TestUndone: an undo says what it did in the item's words: what was made
// is removed, what was deleted is back, a move or a rename is back to how
// it was.
func TestUndone(t *testing.T) {
	t.Parallel()
	z := time.FixedZone("CET", 3600)
	now := time.Date(2026, 3, 9, 9, 0, 0, 0, z) // a Monday
	c := stage.Context{Now: now, Location: z}
	tue := time.Date(2026, 3, 10, 14, 0, 0, 0, z)
	rec := func(k action.Kind, before, after any) action.Record {
		r := action.Record{Action: action.Action{Kind: k}}
		if before != nil {
			r.Before, _ = json.Marshal(before)
		}
		r.Result, _ = json.Marshal(after)
		return r
	}
	dentist := hearth.CalendarEvent{Title: "Dentist", Start: tue, End: tue.Add(time.Hour)}
	moved := dentist
	moved.Start, moved.End = tue.AddDate(0, 0, 1), tue.AddDate(0, 0, 1).Add(time.Hour)
	call := hearth.Task{Title: "Call mom", Due: tue}
	later, renamed, undated := call, call, call
	later.Due = tue.Add(time.Hour)
	renamed.Title = "Call dad"
	undated.Due = time.Time{}
	packing := hearth.Note{ID: 1, Title: "Packing list", Items: []hearth.ChecklistItem{{Text: "torch"}}}
	// noted is a change to a note, with its payload.
	noted := func(kind action.Kind, args any, after hearth.Note) action.Record {
		a, err := action.New(kind, args)
		if err != nil {
			t.Fatal(err)
		}
		r := rec(kind, nil, after)
		r.Action = a
		return r
	}
	for _, tt := range []struct {
		rec  action.Record
		want string
	}{
		{rec(action.CalendarUpdate, dentist, moved), "Undone: “Dentist” is back tomorrow at 2:00 PM."},
		{rec(action.TaskUpdate, call, later), "Undone: “Call mom” is due tomorrow at 2:00 PM again."},
		{rec(action.TaskUpdate, undated, call), "Undone: “Call mom” has no due date again."},
		{rec(action.TaskUpdate, call, renamed), "Undone: the task is called “Call mom” again."},
		{rec(action.TaskCreate, nil, call), "Undone: I removed the task “Call mom”."},
		{rec(action.CalendarDelete, dentist, dentist), "Undone: the event “Dentist” is back."},
		{rec(action.TaskComplete, call, call), "Undone: the task “Call mom” is open again."},
		{rec(action.MemoryStore, nil, hearth.Memory{Content: "Gate code 4471"}), "Undone: the memory “Gate code 4471”."},
		{noted(action.NoteAppend, action.NoteAppendArgs{ID: 1, Items: []hearth.ChecklistItem{{Text: "torch"}, {Text: "socks"}}}, packing), "Undone: I took torch and socks off the note “Packing list”."},
		{noted(action.NoteAppend, action.NoteAppendArgs{ID: 2, Text: "A book for dad."}, hearth.Note{ID: 2, Title: "Gift ideas"}), "Undone: I took “A book for dad” out of the note “Gift ideas”."},
		{noted(action.NoteRemove, action.NoteRemoveArgs{ID: 1, Items: []string{"socks"}}, packing), "Undone: I put socks back on the note “Packing list”."},
	} {
		if got := undone(tt.rec, c); got != tt.want {
			t.Errorf("undo %s: %q; want %q", tt.rec.Action.Kind, got, tt.want)
		}
	}
}
