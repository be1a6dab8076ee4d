package plan

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
)

// TestPartlyNamedEventAsks: an event found by only some of the words
// that named it is asked about before it is cancelled or moved ("cancel
// lunch with Sam" once cancelled the Team lunch at once); one named by
// all of them, or by them and a word like "appointment", is acted on.
func TestPartlyNamedEventAsks(t *testing.T) {
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	c := stage.Context{Now: now, Location: time.UTC, Events: []hearth.CalendarEvent{
		{ID: 2, Title: "Team lunch", Start: now.Add(50 * time.Hour), End: now.Add(51 * time.Hour)},
	}}
	for _, tt := range []struct {
		text string
		kind action.Kind
		asks bool
	}{
		{"cancel lunch with Sam", action.CalendarDelete, true},
		{"move lunch with Sam to 1pm", action.CalendarUpdate, true},
		{"cancel the team lunch", action.CalendarDelete, false},
		{"cancel my lunch appointment", action.CalendarDelete, false},
		{"move the lunch to 1pm", action.CalendarUpdate, false},
	} {
		in := stage.PlanInput{Text: tt.text, Understanding: stage.Understanding{Intent: nlu.RequestAction, Domains: []nlu.Domain{nlu.Calendar}}, Context: c}
		p, err := planCalendar(context.Background(), in)
		if err != nil {
			t.Fatalf("%q: %v", tt.text, err)
		}
		acts := p.Actions
		if tt.asks {
			if len(acts) != 0 || p.Question == nil || len(p.Question.Options) != 1 || !strings.Contains(p.Question.Text, "Did you mean Team lunch") {
				t.Fatalf("%q: planned %+v; want the Team lunch asked about", tt.text, p)
			}
			acts = p.Question.Options[0].Actions
		} else if p.Question != nil {
			t.Fatalf("%q: asked %q; want it done", tt.text, p.Question.Text)
		}
		if len(acts) != 1 || acts[0].Kind != tt.kind {
			t.Fatalf("%q: actions %+v; want one %s", tt.text, acts, tt.kind)
		}
	}
}

// TestPartlyNamedTaskAsks: the same for tasks: "delete the call with Bo"
// when only "Call the dentist" is open asks first; "delete the dentist
// task" and "mark the dentist call as done" act.
func TestPartlyNamedTaskAsks(t *testing.T) {
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	c := stage.Context{Now: now, Location: time.UTC, Tasks: []hearth.Task{{ID: 4, Title: "Call the dentist", Status: hearth.TaskOpen}}}
	for _, tt := range []struct {
		text string
		kind action.Kind
		asks bool
	}{
		{"delete the call with Bo", action.TaskDelete, true},
		{"delete the dentist task", action.TaskDelete, false},
		{"mark the dentist call as done", action.TaskComplete, false},
	} {
		in := stage.PlanInput{Text: tt.text, Understanding: stage.Understanding{Intent: nlu.RequestAction, Domains: []nlu.Domain{nlu.Task}}, Context: c}
		p, err := planTask(context.Background(), in)
		if err != nil {
			t.Fatalf("%q: %v", tt.text, err)
		}
		acts := p.Actions
		if tt.asks {
			if len(acts) != 0 || p.Question == nil || len(p.Question.Options) != 1 || !strings.Contains(p.Question.Text, "Did you mean Call the dentist") {
				t.Fatalf("%q: planned %+v; want the dentist call asked about", tt.text, p)
			}
			acts = p.Question.Options[0].Actions
		} else if p.Question != nil {
			t.Fatalf("%q: asked %q; want it done", tt.text, p.Question.Text)
		}
		if len(acts) != 1 || acts[0].Kind != tt.kind {
			t.Fatalf("%q: actions %+v; want one %s", tt.text, acts, tt.kind)
		}
	}
}

// TestEventOfSomeoneElse: an event told as someone's ("the kids have
// football on Saturday at 10", "Mia has a party on Friday at 3") is named
// as theirs, as a repeating one is; it was "Kids have football".
func TestEventOfSomeoneElse(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	c := stage.Context{Now: now, Location: time.UTC}
	for text, want := range map[string]string{
		"the kids have football on Saturday at 10":            "Kids' football",
		"Mia has a party on Friday at 3":                      "Mia's party",
		"my son Leo has football practice every Tuesday at 5": "Leo's football practice",
		"I have a haircut on Friday at 3":                     "Haircut",
		// Told of, with its time: an event, not a question about Friday.
		"Mia's school play is on Friday at 6pm":      "Mia's school play",
		"dinner with the Smiths is on Saturday at 7": "Dinner with the Smiths",
		"add lunch to Friday at 1pm":                 "Lunch",
	} {
		p := planText(t, text, c)
		if a := decode[action.EventCreateArgs](t, p.only(t, action.CalendarCreate)); a.Title != want {
			t.Errorf("%q: titled %q; want %q", text, a.Title, want)
		}
	}
}

// TestCantMakeAsks: news that the user will miss one of their events asks
// whether to cancel it (a button that does); it was taken for a new event
// of that name. Of an event they do not have, nothing is planned.
func TestCantMakeAsks(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	dentist := hearth.CalendarEvent{ID: 7, Title: "Dentist", Start: now.Add(29 * time.Hour), End: now.Add(30 * time.Hour)}
	cal := stage.Understanding{Intent: nlu.RequestAction, Domains: []nlu.Domain{nlu.Calendar}}
	in := stage.PlanInput{Text: "I can't make the dentist tomorrow", Understanding: cal, Context: stage.Context{Now: now, Location: time.UTC, Events: []hearth.CalendarEvent{dentist}}}
	p, err := planCalendar(context.Background(), in)
	if err != nil || len(p.Actions) != 0 || p.Question == nil || len(p.Question.Options) != 1 || !strings.Contains(p.Question.Text, "Shall I cancel Dentist") {
		t.Fatalf("plan %+v, %v; want the dentist asked about", p, err)
	}
	if a := p.Question.Options[0].Actions; len(a) != 1 || a[0].Kind != action.CalendarDelete {
		t.Fatalf("the button does %+v; want the dentist cancelled", a)
	}
	in.Text = "I can't make swimming tomorrow"
	if p, _ := planCalendar(context.Background(), in); len(p.Actions) != 0 || p.Question != nil {
		t.Fatalf("plan %+v; want nothing for an event the user does not have", p)
	}
}
