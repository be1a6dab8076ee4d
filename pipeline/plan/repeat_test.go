package plan

import (
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/stage"
)

func TestAskBeforeRepeating(t *testing.T) {
	t.Parallel()
	z := time.FixedZone("UTC-5", -5*3600)
	at := func(d, h int) time.Time { return time.Date(2026, 3, d, h, 0, 0, 0, z) }
	c := stage.Context{Now: at(10, 9), Location: z,
		Tasks: []hearth.Task{
			{ID: 1, Title: "Call mom", Status: hearth.TaskOpen, Due: at(11, 17)},
			{ID: 2, Title: "Buy milk", Status: hearth.TaskOpen},
			{ID: 3, Title: "Pay rent", Status: hearth.TaskDone, Due: at(11, 9)},
			{ID: 4, Title: "Water plants", Status: hearth.TaskOpen, Due: time.Date(2026, 3, 12, 0, 0, 0, 0, z), AllDay: true},
		},
		Events: []hearth.CalendarEvent{{ID: 9, Title: "Dentist", Start: at(13, 15), End: at(13, 16)}},
	}
	task := func(title string, due time.Time, allDay bool) action.Action {
		return mustNew(t, action.TaskCreate, action.TaskCreateArgs{Title: title, Due: due, AllDay: allDay})
	}
	event := func(title string, start time.Time) action.Action {
		return mustNew(t, action.CalendarCreate, action.EventCreateArgs{Title: title, Start: start, End: start.Add(time.Hour)})
	}
	tests := []struct {
		name string
		acts []action.Action
		ask  string // the question; "": the plan is left as it is
	}{
		{"the same task", []action.Action{task("call Mom ", at(11, 17), false)}, "You already have “Call mom”, due tomorrow at 5:00 PM. Add it again?"},
		{"the same undated task", []action.Action{task("Buy milk", time.Time{}, false)}, "You already have “Buy milk”. Add it again?"},
		{"an all-day task on the same date", []action.Action{task("Water plants", at(12, 12), true)}, "You already have “Water plants”, due Thursday. Add it again?"},
		{"the same event", []action.Action{event("dentist", at(13, 15))}, "You already have Dentist on your calendar for Friday at 3:00 PM. Add it again?"},
		{"both again", []action.Action{task("Call mom", at(11, 17), false), event("Dentist", at(13, 15))}, "You already have “Call mom”, due tomorrow at 5:00 PM and Dentist on your calendar for Friday at 3:00 PM. Add them again?"},
		{"another time", []action.Action{task("Call mom", at(11, 18), false)}, ""},
		{"a done task is not had", []action.Action{task("Pay rent", at(11, 9), false)}, ""},
		{"another event", []action.Action{event("Dentist", at(14, 15))}, ""},
		{"something new beside it", []action.Action{task("Call mom", at(11, 17), false), task("Call dad", at(11, 17), false)}, ""},
		{"not a creation", []action.Action{mustNew(t, action.TaskComplete, action.TaskRefArgs{ID: 1, Title: "Call mom"})}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := AskBeforeRepeating(stage.Plan{Actions: tt.acts, Understood: "x"}, c)
			if tt.ask == "" {
				if p.Question != nil || len(p.Actions) != len(tt.acts) {
					t.Fatalf("plan %+v; want it as it was", p)
				}
				return
			}
			if len(p.Actions) != 0 || p.Question == nil || p.Question.Text != tt.ask {
				t.Fatalf("plan %+v; want the question %q", p, tt.ask)
			}
			if o := p.Question.Options; len(o) != 1 || len(o[0].Actions) != len(tt.acts) || o[0].Actions[0].Kind != tt.acts[0].Kind {
				t.Fatalf("options %+v; want one that does it anyway", o)
			}
		})
	}
	// A plan that already asks is left alone.
	q := stage.Plan{Question: &stage.Question{Text: "Which one?"}, Actions: []action.Action{task("Buy milk", time.Time{}, false)}}
	if p := AskBeforeRepeating(q, c); p.Question.Text != "Which one?" {
		t.Fatalf("a question was replaced: %+v", p)
	}
}

func mustNew(t *testing.T, kind action.Kind, payload any) action.Action {
	t.Helper()
	a, err := action.New(kind, payload)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
