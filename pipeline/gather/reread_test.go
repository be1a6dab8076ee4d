package gather

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/plan"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/stage/stagetest"
)

// taskList is a fake task source: the open tasks it holds.
type taskList []hearth.Task

func (l taskList) FindTasks(_ context.Context, f hearth.TaskFilter) ([]hearth.Task, error) {
	var out []hearth.Task
	for _, t := range l {
		if f.Status == "" || t.Status == f.Status {
			out = append(out, t)
		}
	}
	return out, nil
}

// TestDoneStatementCompletesTask checks that a statement of something done
// completes the open task it names, whatever the classifier made of it,
// and that any other statement is left as understood.
func TestDoneStatementCompletesTask(t *testing.T) {
	t.Parallel()
	z := stagetest.Zone(t, "America/New_York")
	now := time.Date(2026, 3, 10, 9, 0, 0, 0, z)
	tasks := taskList{
		{ID: 1, Title: "Pay rent", Status: hearth.TaskOpen},
		{ID: 2, Title: "Call mom", Status: hearth.TaskOpen, Due: time.Date(2026, 3, 10, 17, 0, 0, 0, z)},
		{ID: 3, Title: "Pick up the dry cleaning", Status: hearth.TaskOpen},
		{ID: 4, Title: "Submit the expense report", Status: hearth.TaskOpen},
		{ID: 5, Title: "Renew passport", Status: hearth.TaskDone},
		{ID: 6, Title: "Tidy the garage", Status: hearth.TaskOpen},
	}
	tests := []struct {
		text string
		want int64 // the task completed; 0: none, the turn is understood as before
	}{
		{"I paid the rent", 1},
		{"I called mom", 2},
		{"just called Mom!", 2},
		{"picked up the dry cleaning", 3},
		{"I finally submitted the expense report", 4},
		{"we tidied the garage", 6},
		// The task named, said to be done.
		{"the dry cleaning one is done", 3},
		{"the expense report is sorted", 4},
		// Not a task of the user's, or not done.
		{"I paid for lunch", 0},
		{"I called the plumber", 0},
		{"I renewed my passport", 0}, // already done
		{"I didn't call mom", 0},
		{"I need to pay the rent", 0},
		{"did I pay the rent?", 0},
		{"I started the expense report", 0},
		{"I love my mom", 0},
		{"dinner is done", 0},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			t.Parallel()
			before := stagetest.Classifier().Classify(tt.text, []nlu.Turn{}, now)
			u, err := Sources{Tasks: tasks}.Completion(context.Background(), before, tt.text, 1)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == 0 {
				if u.Intent != before.Intent || len(u.Domains) != len(before.Domains) {
					t.Fatalf("understood %s %v, want the classifier's %s %v", u.Intent, u.Domains, before.Intent, before.Domains)
				}
				if u.Intent == nlu.RequestAction && len(u.Domains) > 0 && u.Domains[0] == nlu.Task {
					c := stage.Context{Now: now, Location: z, Tasks: tasks}
					p, _ := plan.Planners()[nlu.Task].Plan(context.Background(), stage.PlanInput{Text: tt.text, Understanding: u, User: hearth.User{ID: 1}, Context: c})
					for _, a := range p.Actions {
						if a.Kind == action.TaskComplete {
							t.Fatalf("completed a task: %+v", p.Actions)
						}
					}
				}
				return
			}
			if u.Intent != nlu.RequestAction || len(u.Domains) != 1 || u.Domains[0] != nlu.Task || !u.RequiresAction {
				t.Fatalf("understood %s %v, want a task request", u.Intent, u.Domains)
			}
			c := stage.Context{Now: now, Location: z, Tasks: tasks}
			p, err := plan.Planners()[nlu.Task].Plan(context.Background(), stage.PlanInput{Text: tt.text, Understanding: u, User: hearth.User{ID: 1}, Context: c})
			if err != nil || len(p.Actions) != 1 || p.Actions[0].Kind != action.TaskComplete {
				t.Fatalf("plan %+v, %v; want one task.complete", p, err)
			}
			if a := mustDecode[action.TaskRefArgs](t, p.Actions[0]); a.ID != tt.want {
				t.Fatalf("completed %+v, want task %d", a, tt.want)
			}
		})
	}
}

// TestEventMoveWhateverTheDomain checks that a request to move one of the
// user's events reaches the calendar planner when the classifier named
// another domain ("the dentist" reads like a task), and that a move naming
// no event is left alone.
func TestEventMoveWhateverTheDomain(t *testing.T) {
	t.Parallel()
	z := stagetest.Zone(t, "America/New_York")
	at := func(d, h, m int) time.Time { return time.Date(2026, 3, d, h, m, 0, 0, z) }
	now := at(10, 9, 0)
	events := eventList{
		{ID: 40, Title: "Dentist appointment", Start: at(11, 10, 0), End: at(11, 11, 0)},
		{ID: 41, Title: "Dentist appointment", Start: at(17, 10, 0), End: at(17, 11, 0)},
	}
	tests := []struct {
		name   string
		text   string
		events eventList
		id     int64 // 0: not a calendar request
		start  time.Time
	}{
		{"one appointment", "move the dentist to Friday at 4", events[:1], 40, at(13, 16, 0)},
		{"two appointments: asks which", "move the dentist to Friday at 4", events, 0, time.Time{}},
		{"found by its date", "move tomorrow's dentist to 4pm", events, 40, at(11, 16, 0)},
		{"found by its time", "reschedule my 10am tomorrow to 3pm", events, 40, at(11, 15, 0)},
		{"no event named", "move the rent task to Friday", events, 0, time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			u := stagetest.Classifier().Classify(tt.text, []nlu.Turn{}, now)
			u, err := Sources{Calendar: tt.events}.EventMove(context.Background(), u, tt.text, 1, now)
			if err != nil {
				t.Fatal(err)
			}
			c := stage.Context{Now: now, Location: z, Events: tt.events}
			p, err := plan.Planners()[nlu.Calendar].Plan(context.Background(), stage.PlanInput{Text: tt.text, Understanding: u, Context: c})
			switch {
			case tt.text == "move the rent task to Friday":
				if slices.Contains(u.Domains, nlu.Calendar) {
					t.Fatalf("a task move became a calendar request: %v", u.Domains)
				}
			case tt.id == 0:
				if !slices.Equal(u.Domains, []nlu.Domain{nlu.Calendar}) || p.Question == nil || len(p.Question.Options) != 2 {
					t.Fatalf("domains %v, plan %+v, %v; want a question between the two appointments", u.Domains, p, err)
				}
			default:
				if err != nil || len(p.Actions) != 1 {
					t.Fatalf("domains %v, plan %+v, %v", u.Domains, p, err)
				}
				a := mustDecode[action.EventUpdateArgs](t, p.Actions[0])
				if a.ID != tt.id || !a.Update.Start.Equal(tt.start) {
					t.Fatalf("moved %+v; want event %d at %s", a, tt.id, tt.start)
				}
			}
		})
	}
}

func mustDecode[T any](t testing.TB, a action.Action) T {
	t.Helper()
	v, err := action.Decode[T](a)
	if err != nil {
		t.Fatalf("decode %s: %v", a.Kind, err)
	}
	return v
}

// eventList is a fake calendar: the events it holds, all of them.
type eventList []hearth.CalendarEvent

func (l eventList) FindEvents(context.Context, hearth.CalendarEventFilter) ([]hearth.CalendarEvent, error) {
	return l, nil
}

// noteList is a fake note source: the notes it holds.
type noteList []hearth.Note

func (l noteList) FindNotes(context.Context, hearth.NoteFilter) ([]hearth.Note, error) {
	return l, nil
}

// TestTickOffWhateverTheDomain checks that "tick off milk", naming no
// list, reaches the task planner when it names an open task and the list
// planner otherwise (when the user has lists), whatever the classifier
// made of it, and that the planners then act on the right item.
func TestTickOffWhateverTheDomain(t *testing.T) {
	t.Parallel()
	z := stagetest.Zone(t, "UTC")
	now := time.Date(2026, 3, 10, 9, 0, 0, 0, z)
	tasks := taskList{{ID: 1, Title: "Buy stamps", Status: hearth.TaskOpen}}
	lists := noteList{{ID: 7, Title: "Shopping list", Items: []hearth.ChecklistItem{{Text: "Milk"}, {Text: "eggs"}}}}
	tests := []struct {
		text  string
		notes noteList
		want  nlu.Domain // "": as the classifier understood it
		kind  action.Kind
	}{
		{"tick off milk", lists, nlu.Keep, action.NoteCheck},
		{"cross off eggs", lists, nlu.Keep, action.NoteCheck},
		{"tick off stamps", lists, nlu.Task, action.TaskComplete},
		{"remove the milk", lists, nlu.Keep, action.NoteRemove},
		{"take eggs off", lists, nlu.Keep, action.NoteRemove},
		{"delete the stamps", lists, "", ""},    // on no list: not this
		{"take the milk", lists, "", ""},        // no "off": not this
		{"tick off milk", nil, "", ""},          // no lists: nothing to tick off
		{"check my email", lists, "", ""},       // not a tick-off
		{"hey, how's it going?", lists, "", ""}, // nor this
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			t.Parallel()
			before := stagetest.Classifier().Classify(tt.text, []nlu.Turn{}, now)
			u, err := Sources{Tasks: tasks, Notes: tt.notes}.TickOff(context.Background(), before, tt.text, 1)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "" {
				if u.Intent != before.Intent || !slices.Equal(u.Domains, before.Domains) {
					t.Fatalf("understood %s %v, want the classifier's %s %v", u.Intent, u.Domains, before.Intent, before.Domains)
				}
				return
			}
			if u.Intent != nlu.RequestAction || !slices.Equal(u.Domains, []nlu.Domain{tt.want}) || !u.RequiresAction {
				t.Fatalf("understood %s %v, want a %s request", u.Intent, u.Domains, tt.want)
			}
			c := stage.Context{Now: now, Location: z, Tasks: tasks, Notes: tt.notes}
			p, err := plan.Planners()[tt.want].Plan(context.Background(), stage.PlanInput{Text: tt.text, Understanding: u, User: hearth.User{ID: 1}, Context: c})
			if err != nil || len(p.Actions) != 1 || p.Actions[0].Kind != tt.kind {
				t.Fatalf("plan %+v, %v; want one %s", p, err, tt.kind)
			}
		})
	}
}

// TestToldRoleIsRemembered checks that telling who someone is ("Sam is my
// brother") reaches the memory planner as a request, whatever the
// classifier made of it, and that other statements and questions do not.
func TestToldRoleIsRemembered(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	for text, told := range map[string]bool{
		"Sam is my brother":           true,
		"Priya is my manager":         true,
		"Lily is Emma's best friend":  true,
		"I love pizza":                false,
		"Anna was born in 1990":       true,
		"my son was born on May 3rd":  true,
		"when was Anna born?":         false,
		"I live in Berlin":            true,
		"Jon works at Initech":        true,
		"Jon no longer works at Acme": true,
		"Sam doesn't work for free":   false,
		"is Sam my brother?":          false,
		"who is my manager?":          false,
	} {
		before := stagetest.Classifier().Classify(text, []nlu.Turn{}, now)
		u := MemoryEdit(before, text)
		isRequest := u.Intent == nlu.RequestAction && slices.Equal(u.Domains, []nlu.Domain{nlu.Memory}) && u.RequiresAction
		if told != isRequest {
			t.Errorf("%q: understood %s %v; want a memory request: %v", text, u.Intent, u.Domains, told)
			continue
		}
		if !told {
			continue
		}
		p, err := plan.Planners()[nlu.Memory].Plan(context.Background(), stage.PlanInput{Text: text, Understanding: u, User: hearth.User{ID: 1}, Context: stage.Context{Now: now, Location: time.UTC}})
		if err != nil || len(p.Actions) == 0 {
			t.Errorf("%q: plan %+v, %v; want it remembered", text, p, err)
		}
	}
}

// TestListAdd: "add eggs", which the classifier takes for chat, is a
// request about the user's lists, also after a reply that asked
// something; a request that is a task is left as understood.
func TestListAdd(t *testing.T) {
	t.Parallel()
	chat := stage.Understanding{Intent: nlu.Chat, Domains: []nlu.Domain{}}
	for _, tt := range []struct {
		text string
		u    stage.Understanding
		keep bool
	}{
		{"add eggs", chat, true},
		{"add bread and butter", chat, true},
		{"add me", chat, false},
		{"how's it going?", chat, false},
		{"add eggs", stage.Understanding{Intent: nlu.Followup}, true},
		{"add call mom", stage.Understanding{Intent: nlu.RequestAction, Domains: []nlu.Domain{nlu.Task}}, false},
		{"also add eggs", stage.Understanding{Intent: nlu.Followup, Domains: []nlu.Domain{nlu.Keep}, RequiresAction: true}, false},
	} {
		u := ListAdd(tt.u, tt.text)
		got := u.Intent == nlu.RequestAction && slices.Equal(u.Domains, []nlu.Domain{nlu.Keep}) && u.RequiresAction
		if got != tt.keep {
			t.Errorf("ListAdd(%s, %q) = %s %v; want a list request: %v", tt.u.Intent, tt.text, u.Intent, u.Domains, tt.keep)
		}
	}
}

// TestRepeating: a habit with a time of day said to Hearth is for the
// calendar, whatever the intent stage made of it; a question, a habit
// with no time, a to-do given as an order and a reminder are not.
func TestRepeating(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 28, 19, 0, 0, 0, time.UTC)
	chat := stage.Understanding{Intent: nlu.Chat, Domains: []nlu.Domain{}}
	ask := stage.Understanding{Intent: nlu.AskInfo, Domains: []nlu.Domain{nlu.Calendar}}
	task := stage.Understanding{Intent: nlu.RequestAction, Domains: []nlu.Domain{nlu.Task}}
	memory := stage.Understanding{Intent: nlu.RequestAction, Domains: []nlu.Domain{nlu.Memory}}
	for _, tt := range []struct {
		text     string
		u        stage.Understanding
		calendar bool
	}{
		{"family movie night every Friday at 7pm", chat, true},
		{"I go swimming every Wednesday at 4pm", task, true},
		{"football on Tuesdays at 6pm", ask, true},
		{"every Tuesday I have choir at 7pm", ask, true},
		{"what's on every Monday at 9?", ask, false},
		{"when is yoga every week", ask, false},
		{"date night every Saturday", chat, false},
		{"water the plants every Monday at 9", task, false},
		{"I take my pills every day at 8am", memory, false},
		{"how are you", chat, false},
	} {
		u := Repeating(tt.u, tt.text, now)
		got := u.Intent == nlu.RequestAction && slices.Equal(u.Domains, []nlu.Domain{nlu.Calendar}) && u.RequiresAction
		if got != tt.calendar {
			t.Errorf("Repeating(%s %v, %q) = %s %v; want the calendar: %v", tt.u.Intent, tt.u.Domains, tt.text, u.Intent, u.Domains, tt.calendar)
		}
	}
}

// memoryList is a fake memory source: the facts whose content has every
// word of the query.
type memoryList []hearth.Memory

func (l memoryList) FindMemories(_ context.Context, f hearth.MemoryFilter) ([]hearth.Memory, error) {
	var out []hearth.Memory
	for _, m := range l {
		all := true
		for _, w := range strings.Fields(strings.ToLower(f.Query)) {
			all = all && strings.Contains(strings.ToLower(m.Content), w)
		}
		if all {
			out = append(out, m)
		}
	}
	return out, nil
}

// TestRecallWhateverTheClassifier checks that a question the classifier
// takes for small talk asks memory when a fact has its words or it asks
// after a code or a password, and that small talk, questions memory
// cannot answer and other intents do not.
func TestRecallWhateverTheClassifier(t *testing.T) {
	t.Parallel()
	facts := memoryList{{ID: 1, Content: "The wifi password is hunter2"}}
	chat := stage.Understanding{Intent: nlu.Chat, Domains: []nlu.Domain{}}
	tests := []struct {
		text   string
		u      stage.Understanding
		memory bool
	}{
		{"what's the wifi password?", chat, true},
		{"What is the WIFI password", chat, true},
		{"what's the garage code?", chat, true},        // not known, but only the user can have told it
		{"what's the capital of France?", chat, false}, // memory has no such fact
		{"how's it going?", chat, false},
		{"what is it?", chat, false}, // no words of its own
		{"the wifi password is slow", chat, false},
		{"what's the wifi password?", stage.Understanding{Intent: nlu.AskInfo, Domains: []nlu.Domain{nlu.Task}}, false},
	}
	for _, tt := range tests {
		u, err := Sources{Memories: facts}.Recall(context.Background(), tt.u, tt.text, 1)
		if err != nil {
			t.Fatal(err)
		}
		asks := u.Intent == nlu.AskInfo && slices.Equal(u.Domains, []nlu.Domain{nlu.Memory})
		if asks != tt.memory {
			t.Errorf("%q: understood %s %v; want a question to memory: %v", tt.text, u.Intent, u.Domains, tt.memory)
		}
	}
}

// TestForgetWhateverTheClassifier: "forget the dentist" is a request to
// memory when memory has the dentist, whatever the classifier made of it
// (a task "Forget the dentist" was once added), and never a task or an
// event to make when nothing is remembered by those words; "don't forget
// …" and "forget it" are left as understood.
func TestForgetWhateverTheClassifier(t *testing.T) {
	t.Parallel()
	facts := memoryList{{ID: 1, Content: "The dentist's phone number is 555 0100", About: "dentist"}}
	task := stage.Understanding{Intent: nlu.RequestAction, Domains: []nlu.Domain{nlu.Task}, RequiresAction: true}
	chat := stage.Understanding{Intent: nlu.Chat}
	tests := []struct {
		text   string
		u      stage.Understanding
		memory bool
	}{
		{"forget the dentist", task, true},
		{"Please forget about the dentist", chat, true},
		{"forget the milk", task, true}, // nothing remembered, but no to-do either: memory says so
		{"forget the milk", chat, false},
		{"forget about the meeting tomorrow", stage.Understanding{Intent: nlu.RequestAction, Domains: []nlu.Domain{nlu.Calendar}, RequiresAction: true}, true},
		{"don't forget the dentist", task, false},
		{"forget it", task, false},
		{"call the dentist", task, false},
	}
	for _, tt := range tests {
		u, err := Sources{Memories: facts}.Forget(context.Background(), tt.u, tt.text, 1)
		if err != nil {
			t.Fatal(err)
		}
		forgets := u.Intent == nlu.RequestAction && slices.Equal(u.Domains, []nlu.Domain{nlu.Memory})
		if forgets != tt.memory {
			t.Errorf("%q: understood %s %v; want a request to memory: %v", tt.text, u.Intent, u.Domains, tt.memory)
		}
	}
}

// TestStopsSeries: an end to something the user does is the cancellation
// of every one of a repeating event of that name; of a one-off event, or
// of nothing the user has, it is left as said.
func TestStopsSeries(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	piano := hearth.CalendarEvent{ID: 1, Title: "Piano", Series: "s1", Start: now.Add(30 * time.Hour), End: now.Add(31 * time.Hour)}
	choir := hearth.CalendarEvent{ID: 2, Title: "Choir", Series: "s2", Start: now.Add(50 * time.Hour), End: now.Add(51 * time.Hour)}
	yoga := hearth.CalendarEvent{ID: 3, Title: "Yoga", Start: now.Add(20 * time.Hour), End: now.Add(21 * time.Hour)}
	for _, tt := range []struct {
		text   string
		events eventList
		want   string
	}{
		{"stop piano", eventList{piano}, "cancel piano for good"},
		{"no more piano!", eventList{piano}, "cancel piano for good"},
		{"we've stopped going to choir", eventList{choir}, "cancel choir for good"},
		{"I quit my piano", eventList{piano}, "cancel piano for good"},
		{"no more yoga", eventList{yoga}, "no more yoga"},
		{"I quit swimming", nil, "I quit swimming"},
		{"stop reminding me about the bins", nil, "stop reminding me about the bins"},
		{"cancel piano", eventList{piano}, "cancel piano"},
	} {
		got, err := Sources{Calendar: tt.events}.StopsSeries(context.Background(), tt.text, 1, nil, now)
		if err != nil || got != tt.want {
			t.Errorf("StopsSeries(%q) = %q, %v; want %q", tt.text, got, err, tt.want)
		}
	}
}

// TestChangesFact: "change my locker to 214" restates the user's own fact
// about their locker with the new value, in that fact's words; a change
// of something no fact of theirs is about, a fact someone else told, and
// other requests are left as they are.
func TestChangesFact(t *testing.T) {
	t.Parallel()
	facts := memoryList{
		{ID: 1, UserID: 1, Content: "My locker is 114"},
		{ID: 2, UserID: 1, Content: "The wifi password is hunter2"},
		{ID: 3, UserID: 1, Content: "Our door codes are 1234 and 5678"},
		{ID: 4, UserID: 2, FamilyID: 9, Content: "My bike lock code is 0000"},
	}
	for _, tt := range []struct {
		text, want string
	}{
		{"change my locker to 214", "My locker is 214"},
		{"Please update my wifi password to swordfish.", "The wifi password is swordfish"},
		{"set the door codes to 4471 and 9000", "Our door codes are 4471 and 9000"},
		{"change my bike lock code to 1111", "change my bike lock code to 1111"},
		{"change the meeting to 3pm", "change the meeting to 3pm"},
		{"change my locker", "change my locker"},
		{"my locker is 214", "my locker is 214"},
	} {
		got, err := Sources{Memories: facts}.ChangesFact(context.Background(), tt.text, 1, nil, time.Time{})
		if err != nil || got != tt.want {
			t.Errorf("ChangesFact(%q) = %q, %v; want %q", tt.text, got, err, tt.want)
		}
	}
}

// TestDraftSpokenOf: "delete it" and "send it" right after a draft was
// saved are of that draft; after any other reply, or other words, the
// message is left as it is.
func TestDraftSpokenOf(t *testing.T) {
	t.Parallel()
	saved := []hearth.Message{{From: hearth.FromUser, Text: "draft an email to sam@example.com saying hi"},
		{From: hearth.FromBot, Text: "I saved a draft to sam@example.com: “Hi”. It's in your drafts whenever you're ready."}}
	task := []hearth.Message{{From: hearth.FromBot, Text: "Got it — I added “Call mom” to your tasks."}}
	for _, tt := range []struct {
		text   string
		recent []hearth.Message
		want   string
	}{
		{"delete it", saved, "delete that draft"},
		{"actually, scrap that", saved, "delete that draft"},
		{"send it off please", saved, "send that draft"},
		{"delete it", task, "delete it"},
		{"delete the dentist", saved, "delete the dentist"},
		{"send it", nil, "send it"},
	} {
		got, err := Sources{}.DraftSpokenOf(context.Background(), tt.text, 1, tt.recent, time.Time{})
		if err != nil || got != tt.want {
			t.Errorf("DraftSpokenOf(%q) = %q, %v; want %q", tt.text, got, err, tt.want)
		}
	}
}

// TestSetsIt: a time given to the thing just spoken of is a move of it;
// anything else given to "it" is left as it is.
func TestSetsIt(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct{ text, want string }{
		{"set it for next Friday", "move it to next Friday"},
		{"schedule that for 3pm", "move that to 3pm"},
		{"ok, make it due Monday", "move it to Monday"},
		{"make it for two people", "make it for two people"},
		{"set it to high priority", "set it to high priority"},
		{"set the table for Friday", "set the table for Friday"},
	} {
		got, err := Sources{}.SetsIt(context.Background(), tt.text, 1, nil, now)
		if err != nil || got != tt.want {
			t.Errorf("SetsIt(%q) = %q, %v; want %q", tt.text, got, err, tt.want)
		}
	}
}
