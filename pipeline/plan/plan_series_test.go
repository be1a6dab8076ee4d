package plan

import (
	"context"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
)

// TestPlanSeriesDelete cancels a repeating event: asked whether the next
// one or every one when the user did not say, the day's alone when they
// named a day, every one when they said so.
func TestPlanSeriesDelete(t *testing.T) {
	t.Parallel()
	z := mustZone(t, "Europe/Berlin")
	at := func(d, h int) time.Time { return time.Date(2026, 12, d, h, 0, 0, 0, z) }
	swim := func(id int64, d int) hearth.CalendarEvent {
		return hearth.CalendarEvent{ID: id, UserID: 1, Title: "Kids' swimming", Start: at(d, 16), End: at(d, 17), Series: "7"}
	}
	c := stage.Context{Now: at(1, 9), Location: z, Events: []hearth.CalendarEvent{
		swim(11, 2), swim(12, 9), swim(13, 16),
		{ID: 20, UserID: 1, Title: "Dentist", Start: at(3, 10), End: at(3, 11)},
	}}
	ref := func(t *testing.T, a action.Action) action.EventRefArgs {
		t.Helper()
		if a.Kind != action.CalendarDelete {
			t.Fatalf("action %s, want %s", a.Kind, action.CalendarDelete)
		}
		return decode[action.EventRefArgs](t, a)
	}
	tests := []struct {
		text string
		// asked: a question whose options are the next one and every one.
		asked bool
		// else the one delete planned.
		id     int64
		series bool
	}{
		{text: "cancel swimming", asked: true},
		{text: "cancel the kids' swimming", asked: true},
		{text: "cancel swimming for good", id: 11, series: true},
		{text: "cancel all the swimming", id: 11, series: true},
		{text: "delete swimming, all of them", id: 11, series: true},
		{text: "cancel swimming on the 9th", id: 12},
		{text: "cancel swimming next Wednesday", id: 12},
		{text: "cancel the dentist", id: 20},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			t.Parallel()
			// The calendar's planner, as the runner calls it once it knows
			// the user has an event of the name (gather.Sources.EventMove).
			p, err := Planners()[nlu.Calendar].Plan(context.Background(), stage.PlanInput{Text: tt.text, Context: c,
				Understanding: stage.Understanding{Intent: nlu.RequestAction, Domains: []nlu.Domain{nlu.Calendar}}})
			if err != nil {
				t.Fatal(err)
			}
			if tt.asked {
				if len(p.Actions) != 0 || p.Question == nil || len(p.Question.Options) != 2 {
					t.Fatalf("actions %v, question %+v: want a question with two options", kindsOf(p.Actions), p.Question)
				}
				q := p.Question
				one, all := ref(t, q.Options[0].Actions[0]), ref(t, q.Options[1].Actions[0])
				if one.ID != 11 || one.Series || all.ID != 11 || !all.Series || q.Options[1].Label != "Every one" {
					t.Errorf("options %+v: want the next one (11) and every one", q.Options)
				}
				return
			}
			if len(p.Actions) != 1 {
				t.Fatalf("actions %v, question %+v: want one", kindsOf(p.Actions), p.Question)
			}
			got := ref(t, p.Actions[0])
			if got.ID != tt.id || got.Series != tt.series {
				t.Errorf("planned %+v, want event %d, series %v", got, tt.id, tt.series)
			}
		})
	}
}

// TestClockIn reads a time said apart from a rule as the recurrence
// grammar reads one.
func TestClockIn(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]string{
		"I have choir at 7pm": "19:00", "choir at 7": "07:00", "choir at 3": "15:00", "choir at 18:30": "18:30",
		"lunch at noon": "12:00", "choir at 6 am": "06:00", "choir": "",
	} {
		at, ok := clockIn(text)
		got := ""
		if ok {
			got = at.String()
		}
		if got != want {
			t.Errorf("clockIn(%q) = %q, want %q", text, got, want)
		}
	}
}
