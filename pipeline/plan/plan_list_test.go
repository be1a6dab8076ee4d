package plan

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
)

func TestPlanLists(t *testing.T) {
	notes := []hearth.Note{
		{ID: 1, Title: "Shopping list", Items: []hearth.ChecklistItem{{Text: "Milk"}, {Text: "eggs"}}},
		{ID: 2, Title: "Shopping list", Family: true, Items: []hearth.ChecklistItem{{Text: "bread"}, {Text: "milk", Done: true}}},
	}
	tests := []struct {
		text string
		kind action.Kind
		id   int64
		want any // the payload planned
	}{
		{"add tea to our shopping list", action.NoteAppend, 2, action.NoteAppendArgs{ID: 2, Title: "Shopping list", Items: []hearth.ChecklistItem{{Text: "tea"}}}},
		{"add tea to my shopping list", action.NoteAppend, 1, action.NoteAppendArgs{ID: 1, Title: "Shopping list", Items: []hearth.ChecklistItem{{Text: "tea"}}}},
		{"add to my shopping list: tea and rice", action.NoteAppend, 1, action.NoteAppendArgs{ID: 1, Title: "Shopping list", Items: []hearth.ChecklistItem{{Text: "tea"}, {Text: "rice"}}}},
		{"add tea to the family's grocery list", action.NoteCreate, 0, action.NoteCreateArgs{Title: "Grocery list", Family: true, Items: []hearth.ChecklistItem{{Text: "tea"}}}},
		{"cross the milk off my shopping list", action.NoteCheck, 1, action.NoteCheckArgs{ID: 1, Title: "Shopping list", Items: []string{"Milk"}, Done: true}},
		{"tick off bread on our shopping list", action.NoteCheck, 2, action.NoteCheckArgs{ID: 2, Title: "Shopping list", Items: []string{"bread"}, Done: true}},
		// Removed, not ticked: gone from the list.
		{"please remove eggs and milk from the shopping list", action.NoteRemove, 1, action.NoteRemoveArgs{ID: 1, Title: "Shopping list", Items: []string{"eggs", "Milk"}}},
		{"take the milk off our shopping list", action.NoteRemove, 2, action.NoteRemoveArgs{ID: 2, Title: "Shopping list", Items: []string{"milk"}}},
		{"remove everything from my shopping list", action.NoteRemove, 1, action.NoteRemoveArgs{ID: 1, Title: "Shopping list", Items: []string{"Milk", "eggs"}}},
		{"tick everything off our shopping list", action.NoteCheck, 2, action.NoteCheckArgs{ID: 2, Title: "Shopping list", Items: []string{"bread"}, Done: true}},
		{"delete bread from our shopping list", action.NoteRemove, 2, action.NoteRemoveArgs{ID: 2, Title: "Shopping list", Items: []string{"bread"}}},
		{"mark bread as done on our shopping list", action.NoteCheck, 2, action.NoteCheckArgs{ID: 2, Title: "Shopping list", Items: []string{"bread"}, Done: true}},
		{"untick milk on our shopping list", action.NoteCheck, 2, action.NoteCheckArgs{ID: 2, Title: "Shopping list", Items: []string{"milk"}, Done: false}},
		{"delete my shopping list", action.NoteDelete, 1, action.NoteRefArgs{ID: 1, Title: "Shopping list"}},
		{"please get rid of our shopping list", action.NoteDelete, 2, action.NoteRefArgs{ID: 2, Title: "Shopping list", Family: true}},
		// Cleared: everything still on it ticked off, the list kept.
		{"clear my shopping list", action.NoteCheck, 1, action.NoteCheckArgs{ID: 1, Title: "Shopping list", Items: []string{"Milk", "eggs"}, Done: true}},
		{"empty our shopping list", action.NoteCheck, 2, action.NoteCheckArgs{ID: 2, Title: "Shopping list", Items: []string{"bread"}, Done: true}},
		// No list named: the list that has it, not yet ticked off.
		{"tick off milk", action.NoteCheck, 1, action.NoteCheckArgs{ID: 1, Title: "Shopping list", Items: []string{"Milk"}, Done: true}},
		{"cross the bread off", action.NoteCheck, 2, action.NoteCheckArgs{ID: 2, Title: "Shopping list", Items: []string{"bread"}, Done: true}},
		{"remove the bread", action.NoteRemove, 2, action.NoteRemoveArgs{ID: 2, Title: "Shopping list", Items: []string{"bread"}}},
		{"take milk and eggs off", action.NoteRemove, 1, action.NoteRemoveArgs{ID: 1, Title: "Shopping list", Items: []string{"Milk", "eggs"}}},
		{"mark eggs and milk as bought", action.NoteCheck, 1, action.NoteCheckArgs{ID: 1, Title: "Shopping list", Items: []string{"eggs", "Milk"}, Done: true}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			in := stage.PlanInput{Text: tt.text, Understanding: stage.Understanding{Intent: nlu.RequestAction, Domains: []nlu.Domain{nlu.Keep}}, Context: stage.Context{Notes: notes}}
			p, err := planKeep(context.Background(), in)
			if err != nil || len(p.Actions) != 1 {
				t.Fatalf("plan %+v, %v", p, err)
			}
			want, _ := action.New(tt.kind, tt.want)
			if p.Actions[0].Kind != tt.kind || string(p.Actions[0].Payload) != string(want.Payload) {
				t.Fatalf("planned %s %s; want %s %s", p.Actions[0].Kind, p.Actions[0].Payload, tt.kind, want.Payload)
			}
		})
	}
	keep := stage.Understanding{Intent: nlu.RequestAction, Domains: []nlu.Domain{nlu.Keep}}
	// The family's list, started by someone else: said so, nothing planned.
	theirs := []hearth.Note{{ID: 5, UserID: 9, Title: "Camping list", Family: true}}
	if p, err := planKeep(context.Background(), stage.PlanInput{Text: "delete our camping list", User: hearth.User{ID: 1}, Understanding: keep, Context: stage.Context{Notes: theirs}}); err != nil || len(p.Actions) != 0 || p.Question == nil {
		t.Fatalf("deleting another member's family list planned %+v, %v; want it explained", p, err)
	}
	// Deleting a list there is not: nothing planned.
	if p, err := planKeep(context.Background(), stage.PlanInput{Text: "delete the packing list", Understanding: keep, Context: stage.Context{Notes: notes}}); err == nil || len(p.Actions) != 0 {
		t.Fatalf("deleting a missing list planned %+v, %v", p, err)
	}
	// On no list: nothing planned, the user told why.
	var de *stage.DetailsError
	if p, err := planKeep(context.Background(), stage.PlanInput{Text: "tick off tea", Understanding: keep, Context: stage.Context{Notes: notes}}); !errors.As(err, &de) || de.Detail != "which list: tea isn't on any of your lists" || len(p.Actions) != 0 || p.Question != nil {
		t.Fatalf("an item on no list planned %+v, %v; want why", p, err)
	}
	// A note named by what it says, not there.
	if _, err := planKeep(context.Background(), stage.PlanInput{Text: "delete the note about the dentist", Understanding: keep, Context: stage.Context{Notes: notes}}); !errors.As(err, &de) || de.Detail != "which note: I couldn't find a note about the dentist" {
		t.Fatalf("deleting a missing note: %v; want why", err)
	}
	// On two lists: which one?
	two := append(notes, hearth.Note{ID: 3, Title: "Camping", Items: []hearth.ChecklistItem{{Text: "Eggs"}}})
	p, err := planKeep(context.Background(), stage.PlanInput{Text: "tick off eggs", Understanding: keep, Context: stage.Context{Notes: two}})
	if err != nil || len(p.Actions) != 0 || p.Question == nil || len(p.Question.Options) != 2 ||
		p.Question.Options[0].Label != "Shopping list" || p.Question.Options[1].Label != "Camping" {
		t.Fatalf("an item on two lists planned %+v, %v; want a question with a button for each", p, err)
	}
	in := stage.PlanInput{Text: "cross milk off the packing list", Understanding: stage.Understanding{Intent: nlu.RequestAction, Domains: []nlu.Domain{nlu.Keep}}, Context: stage.Context{Notes: notes}}
	if p, err := planKeep(context.Background(), in); err == nil || len(p.Actions) != 0 {
		t.Fatalf("a missing list planned %+v, %v; want a question back", p, err)
	}
}

// TestPlanTakeOffTicked: an item ticked off can still be taken off the
// list without naming it ("tick off eggs", then "remove the eggs"); a
// list where it is still to get goes first; ticking it off again is
// still "not on any list".
func TestPlanTakeOffTicked(t *testing.T) {
	keep := stage.Understanding{Intent: nlu.RequestAction, Domains: []nlu.Domain{nlu.Keep}}
	shopping := hearth.Note{ID: 1, Title: "Shopping list", Items: []hearth.ChecklistItem{{Text: "eggs", Done: true}, {Text: "bread"}}}
	camping := hearth.Note{ID: 2, Title: "Camping", Items: []hearth.ChecklistItem{{Text: "Eggs"}}}
	tests := []struct {
		text  string
		notes []hearth.Note
		want  action.NoteRemoveArgs
	}{
		{"remove the eggs", []hearth.Note{shopping}, action.NoteRemoveArgs{ID: 1, Title: "Shopping list", Items: []string{"eggs"}}},
		{"take eggs and bread off", []hearth.Note{shopping}, action.NoteRemoveArgs{ID: 1, Title: "Shopping list", Items: []string{"eggs", "bread"}}},
		{"remove the eggs", []hearth.Note{shopping, camping}, action.NoteRemoveArgs{ID: 2, Title: "Camping", Items: []string{"Eggs"}}},
	}
	for _, tt := range tests {
		p, err := planKeep(context.Background(), stage.PlanInput{Text: tt.text, Understanding: keep, Context: stage.Context{Notes: tt.notes}})
		if err != nil || len(p.Actions) != 1 {
			t.Fatalf("%q: plan %+v, %v", tt.text, p, err)
		}
		want, _ := action.New(action.NoteRemove, tt.want)
		if p.Actions[0].Kind != action.NoteRemove || string(p.Actions[0].Payload) != string(want.Payload) {
			t.Fatalf("%q: planned %s %s; want %s", tt.text, p.Actions[0].Kind, p.Actions[0].Payload, want.Payload)
		}
	}
	var de *stage.DetailsError
	if p, err := planKeep(context.Background(), stage.PlanInput{Text: "tick off eggs", Understanding: keep, Context: stage.Context{Notes: []hearth.Note{shopping}}}); !errors.As(err, &de) || len(p.Actions) != 0 {
		t.Fatalf("ticking off a ticked item planned %+v, %v; want why not", p, err)
	}
	if !ListsHold([]hearth.Note{shopping}, []string{"eggs"}) || OnLists([]hearth.Note{shopping}, []string{"eggs"}) {
		t.Fatal("a ticked item: want held by the list, not on it to get")
	}
}

// TestPlanBareAdd: adding with no list named goes to the one list the
// user has, asks which of several (a button each), and starts a shopping
// list when they have none; "start a packing list with …" (or "add a
// packing list with …") starts that one.
func TestPlanBareAdd(t *testing.T) {
	t.Parallel()
	keep := stage.Understanding{Intent: nlu.RequestAction, Domains: []nlu.Domain{nlu.Keep}}
	shopping := hearth.Note{ID: 1, Title: "Shopping list", Items: []hearth.ChecklistItem{{Text: "Milk"}}}
	packing := hearth.Note{ID: 2, Title: "Packing list", Items: []hearth.ChecklistItem{{Text: "socks"}}}
	plain := hearth.Note{ID: 3, Title: "Wifi", Body: "The password is on the router"}
	items := []hearth.ChecklistItem{{Text: "Eggs"}, {Text: "bread"}}
	tests := []struct {
		name   string
		text   string
		notes  []hearth.Note
		kind   action.Kind
		want   any
		recent []hearth.Message
	}{
		{"no list", "add Eggs and bread", []hearth.Note{plain}, action.NoteCreate, action.NoteCreateArgs{Title: "Shopping list", Items: items}, nil},
		{"one list", "add Eggs and bread", []hearth.Note{plain, packing}, action.NoteAppend, action.NoteAppendArgs{ID: 2, Title: "Packing list", Items: items}, nil},
		{"a new list", "Start a packing list with Eggs and bread", []hearth.Note{shopping}, action.NoteCreate, action.NoteCreateArgs{Title: "Packing list", Items: items}, nil},
		{"a new list that exists", "make a shopping list: Eggs, bread", []hearth.Note{shopping, packing}, action.NoteAppend, action.NoteAppendArgs{ID: 1, Title: "Shopping list", Items: items}, nil},
		{"a new list for something", "create a packing list for the trip: Eggs, bread", []hearth.Note{shopping}, action.NoteCreate, action.NoteCreateArgs{Title: "Packing list", Items: items}, nil},
		{"a new list added", "add a packing list with Eggs and bread", []hearth.Note{shopping}, action.NoteCreate, action.NoteCreateArgs{Title: "Packing list", Items: items}, nil},
		// The list just spoken of, though it is still empty and another
		// has items.
		{"the list just started", "add Eggs and bread", []hearth.Note{packing, {ID: 4, Title: "Shopping list"}}, action.NoteAppend, action.NoteAppendArgs{ID: 4, Title: "Shopping list", Items: items},
			[]hearth.Message{{From: hearth.FromUser, Text: "start a shopping list"}, {From: hearth.FromBot, Text: "I started your shopping list. What should go on it?"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := planKeep(context.Background(), stage.PlanInput{Text: tt.text, Understanding: keep, Context: stage.Context{Notes: tt.notes, Recent: tt.recent}})
			if err != nil || len(p.Actions) != 1 {
				t.Fatalf("plan %+v, %v", p, err)
			}
			want, _ := action.New(tt.kind, tt.want)
			if p.Actions[0].Kind != tt.kind || string(p.Actions[0].Payload) != string(want.Payload) {
				t.Fatalf("planned %s %s; want %s %s", p.Actions[0].Kind, p.Actions[0].Payload, tt.kind, want.Payload)
			}
		})
	}
	p, err := planKeep(context.Background(), stage.PlanInput{Text: "add eggs", Understanding: keep, Context: stage.Context{Notes: []hearth.Note{shopping, plain, packing}}})
	if err != nil || len(p.Actions) != 0 || p.Question == nil || p.Question.Text != "Which list should I add eggs to?" ||
		len(p.Question.Options) != 2 || p.Question.Options[0].Label != "Shopping list" || p.Question.Options[1].Label != "Packing list" {
		t.Fatalf("two lists planned %+v, %v; want a question with a button for each", p, err)
	}
}

// TestPlanListRename: "rename the packing list to Spain trip" renames
// that list (it was taken for a note to make, then said to be not built);
// a family list's rename is asked about; a list not had is said so.
func TestPlanListRename(t *testing.T) {
	t.Parallel()
	keep := stage.Understanding{Intent: nlu.RequestAction, Domains: []nlu.Domain{nlu.Keep}}
	packing := hearth.Note{ID: 2, UserID: 1, Title: "Packing list", Items: []hearth.ChecklistItem{{Text: "socks"}}}
	shopping := hearth.Note{ID: 3, UserID: 1, Title: "Shopping list", Family: true, Items: []hearth.ChecklistItem{{Text: "milk"}}}
	notes := stage.Context{Notes: []hearth.Note{packing, shopping}}
	for _, tt := range []struct {
		text    string
		want    action.NoteRenameArgs
		missing string
	}{
		{"rename the packing list to Spain trip", action.NoteRenameArgs{ID: 2, Title: "Packing list", NewTitle: "Spain trip"}, ""},
		{"rename our shopping list to \"Groceries\"", action.NoteRenameArgs{ID: 3, Title: "Shopping list", NewTitle: "Groceries", Family: true}, ""},
		{"rename the gift ideas note to Christmas", action.NoteRenameArgs{}, "I couldn't find a gift ideas"},
		{"rename the packing list", action.NoteRenameArgs{}, "the new name"},
	} {
		p, err := planKeep(context.Background(), stage.PlanInput{Text: tt.text, Understanding: keep, User: hearth.User{ID: 1}, Context: notes})
		if tt.missing != "" {
			var de *stage.DetailsError
			if !errors.As(err, &de) || !strings.Contains(de.Detail, tt.missing) || len(p.Actions) != 0 {
				t.Errorf("%q: plan %+v, %v; want nothing done, saying %q", tt.text, p, err, tt.missing)
			}
			continue
		}
		if err != nil || len(p.Actions) != 1 || p.Actions[0].Kind != action.NoteRename {
			t.Fatalf("%q: plan %+v, %v; want one rename", tt.text, p, err)
		}
		if got := decode[action.NoteRenameArgs](t, p.Actions[0]); got != tt.want {
			t.Errorf("%q: %+v; want %+v", tt.text, got, tt.want)
		}
		if want := map[bool]action.Risk{false: action.Low, true: action.High}[tt.want.Family]; action.RiskOf(p.Actions[0]) != want {
			t.Errorf("%q: risk %v; want %v", tt.text, action.RiskOf(p.Actions[0]), want)
		}
	}
}

// TestPlanNoteThat: "note that …" makes a note of what follows; it asked
// what the note should say.
func TestPlanNoteThat(t *testing.T) {
	t.Parallel()
	keep := stage.Understanding{Intent: nlu.RequestAction, Domains: []nlu.Domain{nlu.Keep}}
	p, err := planKeep(context.Background(), stage.PlanInput{Text: "note that the bins go out on Tuesday night", Understanding: keep})
	if err != nil || len(p.Actions) != 1 || p.Actions[0].Kind != action.NoteCreate {
		t.Fatalf("plan %+v, %v; want a note", p, err)
	}
	if a, _ := action.Decode[action.NoteCreateArgs](p.Actions[0]); !strings.Contains(a.Body, "bins go out on Tuesday night") {
		t.Fatalf("note %+v", a)
	}
}

// TestPlanNoteDelete: a note named by what it says is deleted, the one
// whose words those are; several are a question with a button each, a
// family note another member started is not offered.
func TestPlanNoteDelete(t *testing.T) {
	t.Parallel()
	keep := stage.Understanding{Intent: nlu.RequestAction, Domains: []nlu.Domain{nlu.Keep}}
	notes := []hearth.Note{
		{ID: 1, UserID: 1, Body: "The plumber is coming Tuesday"},
		{ID: 2, UserID: 1, Body: "Plumber invoice is 240 euros"},
		{ID: 3, UserID: 1, Body: "Gate code 4471"},
		{ID: 4, UserID: 9, Family: true, Title: "Plumber numbers", Body: "call the plumber on 555 0100"},
	}
	for _, text := range []string{"delete the note about the gate code", "Please remove the gate code note.", "delete the note gate code", "remove my note called gate code"} {
		p, err := planKeep(context.Background(), stage.PlanInput{Text: text, User: hearth.User{ID: 1}, Understanding: keep, Context: stage.Context{Notes: notes}})
		want, _ := action.New(action.NoteDelete, action.NoteRefArgs{ID: 3})
		if err != nil || len(p.Actions) != 1 || string(p.Actions[0].Payload) != string(want.Payload) {
			t.Fatalf("%q planned %+v, %v; want note 3 deleted", text, p, err)
		}
	}
	p, err := planKeep(context.Background(), stage.PlanInput{Text: "delete the note about the plumber", User: hearth.User{ID: 1}, Understanding: keep, Context: stage.Context{Notes: notes}})
	if err != nil || len(p.Actions) != 0 || p.Question == nil || len(p.Question.Options) != 2 ||
		p.Question.Options[0].Label != "The plumber is coming Tuesday" || p.Question.Options[1].Label != "Plumber invoice is 240 euros" {
		t.Fatalf("two notes about the plumber planned %+v, %v; want a question with a button for each of one's own", p, err)
	}
	// Only another member's notes say it: not theirs to delete, and said so.
	theirs := []hearth.Note{notes[3], {ID: 5, UserID: 9, Family: true, Title: "Plumber quotes", Body: "the plumber quoted 240"}}
	p, err = planKeep(context.Background(), stage.PlanInput{Text: "delete the note about the plumber", User: hearth.User{ID: 1}, Understanding: keep, Context: stage.Context{Notes: theirs}})
	if err != nil || len(p.Actions) != 0 || p.Question == nil || len(p.Question.Options) != 0 || !strings.Contains(p.Question.Text, "Only whoever started") {
		t.Fatalf("others' notes planned %+v, %v; want it explained", p, err)
	}
}

// TestBareAddItems: a few list items with no list named, not a task, an
// event or a person.
func TestBareAddItems(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		text, want string
	}{
		{"add eggs", "eggs"},
		{"Add Oat milk and bread, please.", "Oat milk and bread"},
		{"put sunscreen, a hat and flip flops", "sunscreen, a hat and flip flops"},
		{"add milk to the shopping list", ""},
		{"add lunch with Sam on Friday", ""},
		{"add call mom", ""},
		{"add me", ""},
		{"add it", ""},
		{"add dentist tomorrow", ""},
		{"add the long overdue quarterly budget review", ""},
		{"eggs", ""},
	} {
		got, ok := BareAddItems(tt.text)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("BareAddItems(%q) = %q, %v; want %q", tt.text, got, ok, tt.want)
		}
	}
}

func TestTickOffReading(t *testing.T) {
	t.Parallel()
	tasks := []hearth.Task{{ID: 1, Title: "Buy stamps", Status: hearth.TaskOpen}}
	tests := []struct {
		text     string
		items    []string // TickOffItems; nil: not a tick-off without a list
		withTask bool     // CompletesTask
	}{
		{"tick off milk", []string{"milk"}, false},
		{"Please cross off the eggs and bread.", []string{"eggs", "bread"}, false},
		{"cross the milk off", []string{"milk"}, false},
		{"mark milk as bought", []string{"milk"}, false},
		{"tick off stamps", []string{"stamps"}, true},
		{"tick off milk on the shopping list", []string{"milk on the shopping list"}, false},
		{"check my email", nil, false},
		{"mark the report as done", nil, false},
	}
	for _, tt := range tests {
		items, ok := TickOffItems(tt.text)
		if ok != (tt.items != nil) || !slices.Equal(items, tt.items) {
			t.Errorf("TickOffItems(%q) = %q, %v; want %q", tt.text, items, ok, tt.items)
		}
		if got := CompletesTask(tt.text, tasks); got != tt.withTask {
			t.Errorf("CompletesTask(%q) = %v; want %v", tt.text, got, tt.withTask)
		}
	}
}

// TestPlanNoteAppend: words added to "that note" go to the note Hearth's
// last reply was about, to "the plumber note" to the note that says so,
// and nowhere (a question) when the note is not known: never a new note.
func TestPlanNoteAppend(t *testing.T) {
	t.Parallel()
	keep := stage.Understanding{Intent: nlu.RequestAction, Domains: []nlu.Domain{nlu.Keep}}
	notes := []hearth.Note{
		{ID: 1, UserID: 1, Body: "The plumber comes Friday"},
		{ID: 2, UserID: 1, Body: "Gate code 4471"},
		{ID: 3, UserID: 1, Title: "Shopping list", Items: []hearth.ChecklistItem{{Text: "milk"}}},
	}
	said := func(text string) []hearth.Message { return []hearth.Message{{From: hearth.FromBot, Text: text}} }
	for _, tt := range []struct {
		text   string
		recent []hearth.Message
		id     int64
		add    string
	}{
		{"add to that note: Bring the invoice", said("Got it — I saved a note: the plumber comes Friday."), 1, "Bring the invoice."},
		{"Add Bring the invoice to the plumber note", nil, 1, "Bring the invoice."},
		{"append to the note about the gate: it sticks in the rain", nil, 2, "It sticks in the rain."},
		{"add to my gate code note that the code changes in May", nil, 2, "The code changes in May."},
	} {
		p, err := planKeep(context.Background(), stage.PlanInput{Text: tt.text, User: hearth.User{ID: 1}, Understanding: keep, Context: stage.Context{Notes: notes, Recent: tt.recent}})
		want, _ := action.New(action.NoteAppend, action.NoteAppendArgs{ID: tt.id, Text: tt.add})
		if err != nil || len(p.Actions) != 1 || p.Actions[0].Kind != action.NoteAppend || string(p.Actions[0].Payload) != string(want.Payload) {
			t.Errorf("%q planned %+v, %v; want %s", tt.text, p, err, want.Payload)
		}
	}
	for _, text := range []string{"add to that note: hello", "add hello to the boiler note"} {
		p, err := planKeep(context.Background(), stage.PlanInput{Text: text, User: hearth.User{ID: 1}, Understanding: keep, Context: stage.Context{Notes: notes, Recent: said("Your shopping list has milk.")}})
		if !errors.Is(err, stage.ErrNeedDetails) || len(p.Actions) != 0 {
			t.Errorf("%q planned %+v, %v; want to be asked which note", text, p, err)
		}
	}
}

// TestPlanNamedNote: something added to a note or a list named by its
// title alone goes on it; a title the user has not is no note of theirs.
func TestPlanNamedNote(t *testing.T) {
	t.Parallel()
	keep := stage.Understanding{Intent: nlu.RequestAction, Domains: []nlu.Domain{nlu.Keep}}
	notes := []hearth.Note{
		{ID: 1, UserID: 1, Title: "Gift ideas", Body: "Scarf for mum"},
		{ID: 2, UserID: 1, Title: "Packing list", Items: []hearth.ChecklistItem{{Text: "socks"}}},
	}
	for _, tt := range []struct {
		text string
		want action.NoteAppendArgs
	}{
		{"Add a book for Dad to my gift ideas", action.NoteAppendArgs{ID: 1, Title: "Gift ideas", Text: "A book for Dad."}},
		{"please put a torch on my packing", action.NoteAppendArgs{ID: 2, Title: "Packing list", Items: []hearth.ChecklistItem{{Text: "torch"}}}},
		{"add a candle to gift ideas", action.NoteAppendArgs{ID: 1, Title: "Gift ideas", Text: "A candle."}},
	} {
		p, err := planKeep(context.Background(), stage.PlanInput{Text: tt.text, User: hearth.User{ID: 1}, Understanding: keep, Context: stage.Context{Notes: notes}})
		want, _ := action.New(action.NoteAppend, tt.want)
		if err != nil || len(p.Actions) != 1 || p.Actions[0].Kind != action.NoteAppend || string(p.Actions[0].Payload) != string(want.Payload) {
			t.Errorf("%q planned %+v, %v; want %s", tt.text, p, err, want.Payload)
		}
	}
	for _, text := range []string{"add flowers to my cart", "add a book to my wishlist", "add a book for dad", "add lunch to Friday"} {
		if item, n, ok := NamedNote(text, notes); ok {
			t.Errorf("NamedNote(%q) = %q, %q; want no note of the user's", text, item, n.Title)
		}
	}
}

// TestPlanEmptyList: "start a packing list" starts it empty and asks what
// goes on it, the answer read as "add … to my packing list"; a list of
// that name already there is only asked about.
func TestPlanEmptyList(t *testing.T) {
	t.Parallel()
	keep := stage.Understanding{Intent: nlu.RequestAction, Domains: []nlu.Domain{nlu.Keep}}
	for _, tt := range []struct {
		text, title string
	}{
		{"start a packing list", "Packing list"},
		{"Create a list called Holiday", "Holiday list"},
		{"make a new list for the trip", "The trip list"},
	} {
		p, err := planKeep(context.Background(), stage.PlanInput{Text: tt.text, Understanding: keep})
		want, _ := action.New(action.NoteCreate, action.NoteCreateArgs{Title: tt.title})
		if err != nil || len(p.Actions) != 1 || string(p.Actions[0].Payload) != string(want.Payload) || p.Question == nil || p.Question.Fill == nil {
			t.Fatalf("%q planned %+v, %v; want %s and a question", tt.text, p, err, want.Payload)
		}
		for _, answer := range []string{"socks and a charger", "add socks and a charger to it"} {
			if got, ok := Continue(*p.Question.Fill, answer); !ok || got != "add socks and a charger to my "+prose.LowerFirst(tt.title) {
				t.Errorf("%q, then %q: %q %v", tt.text, answer, got, ok)
			}
		}
	}
	p, err := planKeep(context.Background(), stage.PlanInput{Text: "start a packing list", Understanding: keep,
		Context: stage.Context{Notes: []hearth.Note{{ID: 1, Title: "Packing list"}}}})
	if err != nil || len(p.Actions) != 0 || p.Question == nil || !strings.HasPrefix(p.Question.Text, "You already have a packing list.") {
		t.Fatalf("a list already there planned %+v, %v", p, err)
	}
}

// TestToldBought: "I packed the socks" names what may be ticked off a
// list; only what is on one makes it a tick-off.
func TestToldBought(t *testing.T) {
	t.Parallel()
	items, ok := TickOffItems("I packed the socks and the charger")
	if !ok || !slices.Equal(items, []string{"socks", "charger"}) || !ToldBought("We just bought some milk") || ToldBought("tick off milk") {
		t.Fatalf("items %v %v", items, ok)
	}
	lists := []hearth.Note{{Title: "Packing list", Items: []hearth.ChecklistItem{{Text: "Socks"}, {Text: "charger", Done: true}}}}
	if !OnLists(lists, []string{"socks"}) || OnLists(lists, []string{"charger"}) || OnLists(lists, []string{"job"}) {
		t.Fatal("OnLists: socks on it, charger ticked off, the job never")
	}
}

// TestTheList checks that "the list" is the list Hearth just spoke of,
// or the only one the user has; with several and none spoken of, it asks.
func TestTheList(t *testing.T) {
	t.Parallel()
	shopping := hearth.Note{ID: 1, Title: "Shopping list", Items: []hearth.ChecklistItem{{Text: "bread"}, {Text: "milk"}}}
	packing := hearth.Note{ID: 2, Title: "Packing list", Items: []hearth.ChecklistItem{{Text: "socks"}}}
	spoke := []hearth.Message{{From: hearth.FromUser, Text: "what's on my packing list?"}, {From: hearth.FromBot, Text: "Your packing list has socks."}}
	tests := []struct {
		text   string
		notes  []hearth.Note
		recent []hearth.Message
		id     int64 // 0: asked which
	}{
		{"take milk off the list", []hearth.Note{shopping}, nil, 1},
		{"add eggs to the list", []hearth.Note{shopping}, nil, 1},
		{"add a charger to that list", []hearth.Note{shopping, packing}, spoke, 2},
		{"take milk off the list", []hearth.Note{shopping, packing}, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			t.Parallel()
			p := planText(t, tt.text, stage.Context{Notes: tt.notes, Recent: tt.recent})
			if tt.id == 0 {
				if len(p.actions) != 0 {
					t.Fatalf("planned %v; want which list asked", kindsOf(p.actions))
				}
				return
			}
			if len(p.actions) != 1 {
				t.Fatalf("planned %v (errs %v); want one change to list %d", kindsOf(p.actions), p.errs, tt.id)
			}
			var got struct{ ID int64 }
			if err := json.Unmarshal(p.actions[0].Payload, &got); err != nil || got.ID != tt.id {
				t.Fatalf("changed %s %s; want list %d", p.actions[0].Kind, p.actions[0].Payload, tt.id)
			}
		})
	}
}

// TestTitledNote checks that a note named as it is made keeps the name as
// its title and what follows the colon as its body.
func TestTitledNote(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]action.NoteCreateArgs{
		"create a note called gift ideas: scarf for mom": {Title: "Gift ideas", Body: "Scarf for mom."},
		"make a new note titled Wifi":                    {Title: "Wifi"},
	} {
		p := planText(t, text, stage.Context{})
		got := decode[action.NoteCreateArgs](t, p.only(t, action.NoteCreate))
		if got.Title != want.Title || got.Body != want.Body {
			t.Errorf("%q: made %+v; want %+v", text, got, want)
		}
	}
}

// TestRanOut checks that running out of something offers it for the
// shopping list, on a button, and adds nothing yet; what is no grocery
// is not offered.
func TestRanOut(t *testing.T) {
	t.Parallel()
	groceries := hearth.Note{ID: 4, Title: "Groceries", Items: []hearth.ChecklistItem{{Text: "bread"}}}
	packing := hearth.Note{ID: 5, Title: "Packing list", Items: []hearth.ChecklistItem{{Text: "socks"}}}
	p := planText(t, "we're out of coffee", stage.Context{Notes: []hearth.Note{packing, groceries}})
	if len(p.actions) != 0 || len(p.questions) != 1 || len(p.questions[0].Options) != 1 {
		t.Fatalf("planned %v, questions %+v; want one offer and nothing done", kindsOf(p.actions), p.questions)
	}
	q := p.questions[0]
	got := decode[action.NoteAppendArgs](t, q.Options[0].Actions[0])
	if !strings.Contains(q.Text, "coffee") || !strings.Contains(q.Text, "groceries") || got.ID != 4 || len(got.Items) != 1 || got.Items[0].Text != "coffee" {
		t.Fatalf("offer %q adds %+v; want coffee on the groceries", q.Text, got)
	}
	for text, want := range map[string]string{"I'm out of coffee": "coffee", "I've run out of shampoo": "shampoo", "I ran out of milk": "milk"} {
		if got, ok := ranOut(text); !ok || got != want {
			t.Errorf("ranOut(%q) = %q, %v; want %q", text, got, ok, want)
		}
	}
	for _, text := range []string{"we're out of time", "we are out of the house", "I'm out of the office"} {
		if _, ok := ranOut(text); ok {
			t.Errorf("ranOut(%q); want no list item", text)
		}
	}
}
