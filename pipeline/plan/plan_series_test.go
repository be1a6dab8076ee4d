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

// swimming is a calendar of one repeating event, the kids' swimming on
// Wednesdays in December 2026 at 16:00 (events 11, 12, 13 on the 2nd, 9th
// and 16th), read on Tuesday the 1st at 9:00; at(d, h) is that month's
// day d at hour h.
func swimming(t *testing.T) (stage.Context, func(d, h int) time.Time) {
	t.Helper()
	z := mustZone(t, "Europe/Berlin")
	at := func(d, h int) time.Time { return time.Date(2026, 12, d, h, 0, 0, 0, z) }
	swim := func(id int64, d int) hearth.CalendarEvent {
		return hearth.CalendarEvent{ID: id, UserID: 1, Title: "Kids' swimming", Start: at(d, 16), End: at(d, 17), Series: "7"}
	}
	return stage.Context{Now: at(1, 9), Location: z, Events: []hearth.CalendarEvent{swim(11, 2), swim(12, 9), swim(13, 16)}}, at
}

// calendarRequest plans text as a request to the calendar, as the runner
// does once it knows the user has an event of the name
// (gather.Sources.EventMove).
func calendarRequest(text string, c stage.Context) (stage.Plan, error) {
	return planCalendar(context.Background(), stage.PlanInput{Text: text, Context: c,
		Understanding: stage.Understanding{Intent: nlu.RequestAction, Domains: []nlu.Domain{nlu.Calendar}}})
}

// TestPlanSeriesDelete cancels a repeating event: asked whether the next
// one or every one when the user did not say, the day's alone when they
// named a day, every one when they said so.
func TestPlanSeriesDelete(t *testing.T) {
	t.Parallel()
	c, at := swimming(t)
	c.Events = append(c.Events, hearth.CalendarEvent{ID: 20, UserID: 1, Title: "Dentist", Start: at(3, 10), End: at(3, 11)})
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
		// refused: no event then; an error asks which.
		refused bool
	}{
		{text: "cancel swimming", asked: true},
		{text: "cancel the kids' swimming", asked: true},
		{text: "cancel swimming for good", id: 11, series: true},
		{text: "cancel all the swimming", id: 11, series: true},
		{text: "delete swimming, all of them", id: 11, series: true},
		{text: "cancel swimming on the 9th", id: 12},
		{text: "cancel swimming next Wednesday", id: 12},
		{text: "skip swimming on the 9th", id: 12},
		{text: "skip swimming next Wednesday", id: 12},
		// No swimming that day: nothing cancelled (another week's once was).
		{text: "cancel swimming on the 10th", refused: true},
		{text: "cancel swimming next Thursday", refused: true},
		{text: "cancel the dentist", id: 20},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			t.Parallel()
			p, err := calendarRequest(tt.text, c)
			if tt.refused {
				if err == nil || !strings.Contains(err.Error(), "couldn't find Kids' swimming") {
					t.Fatalf("planned %v (%+v), %v; want it refused", kindsOf(p.Actions), p.Question, err)
				}
				return
			}
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

// TestPlanSeriesMove moves a repeating event: to another time of day,
// every one from the next one or from the first of next week; to
// another day, the next one alone (Hearth cannot move a rule's day yet,
// and asks, offering the next one, when every one was asked for).
func TestPlanSeriesMove(t *testing.T) {
	t.Parallel()
	c, at := swimming(t)
	tests := []struct {
		text string
		// asked: a question offering the next one alone.
		asked  bool
		id     int64
		series bool
		start  time.Time
		// refused: no occurrence on the day named.
		refused bool
	}{
		{text: "move swimming to 5pm from now on", id: 11, series: true, start: at(2, 17)},
		{text: "move swimming to 5pm from next week", id: 12, series: true, start: at(9, 17)},
		{text: "move swimming to 5pm starting next week", id: 12, series: true, start: at(9, 17)},
		{text: "move swimming to Thursday", id: 11, start: at(3, 16)},
		{text: "move swimming to Thursdays from now on", asked: true, id: 11, start: at(3, 16)},
		{text: "move swimming on the 9th to 6pm", id: 12, start: at(9, 18)},
		{text: "move swimming on the 10th to 6pm", refused: true},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			t.Parallel()
			p, err := calendarRequest(tt.text, c)
			if tt.refused {
				if err == nil {
					t.Fatalf("planned %v (%+v); want it refused", kindsOf(p.Actions), p.Question)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			acts := p.Actions
			if tt.asked {
				if len(acts) != 0 || p.Question == nil || len(p.Question.Options) != 1 || !strings.Contains(p.Question.Text, "not to another day") {
					t.Fatalf("actions %v, question %+v: want a question offering the next one", kindsOf(acts), p.Question)
				}
				acts = p.Question.Options[0].Actions
			}
			if len(acts) != 1 || acts[0].Kind != action.CalendarUpdate {
				t.Fatalf("actions %v, question %+v: want one move", kindsOf(acts), p.Question)
			}
			a := decode[action.EventUpdateArgs](t, acts[0])
			if a.ID != tt.id || a.Series != tt.series || a.Update.Start == nil || !a.Update.Start.Equal(tt.start) {
				t.Errorf("planned %+v (start %v), want event %d, series %v, at %v", a, a.Update.Start, tt.id, tt.series, tt.start)
			}
			// The reply says from when, when the user did.
			if said := strings.Contains(tt.text, "next week"); (a.Starting != nil) != said || said && !a.Starting.Equal(tt.start) {
				t.Errorf("starting %v; want %v when the user said next week", a.Starting, tt.start)
			}
		})
	}
}
