package stages

import (
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
)

// TestPlanEventMoveKeepsItsDate checks that moving an event to a time of
// day keeps the event's own date, and that a date naming the event
// ("tomorrow's dentist") only finds it: the new date is the one after
// "to", when there is one.
func TestPlanEventMoveKeepsItsDate(t *testing.T) {
	t.Parallel()
	z := mustZone(t, "America/New_York")
	at := func(d, h, m int) time.Time { return time.Date(2026, 3, d, h, m, 0, 0, z) }
	dentist := hearth.Event{ID: 40, Title: "Dentist appointment", Start: at(11, 10, 0), End: at(11, 11, 0)}
	later := hearth.Event{ID: 41, Title: "Dentist appointment", Start: at(17, 10, 0), End: at(17, 11, 0)}
	lunch := hearth.Event{ID: 42, Title: "Lunch with Sam", Start: at(11, 12, 30), End: at(11, 13, 30)}
	tests := []struct {
		text      string
		now       time.Time
		events    []hearth.Event
		id        int64
		start     time.Time
		wantClock time.Duration // the event's length is kept
	}{
		{"move my dentist appointment tomorrow to 4pm", at(10, 9, 0), []hearth.Event{dentist, lunch}, 40, at(11, 16, 0), time.Hour},
		{"Move my dentist appointment tomorrow to 4pm", at(10, 17, 30), []hearth.Event{dentist, lunch}, 40, at(11, 16, 0), time.Hour},
		{"move my dentist appointment tomorrow to 4pm", at(10, 9, 0), []hearth.Event{dentist, later, lunch}, 40, at(11, 16, 0), time.Hour},
		{"push the dentist appointment to 4pm", at(10, 9, 0), []hearth.Event{dentist, lunch}, 40, at(11, 16, 0), time.Hour},
		{"push the dentist appointment to 8am", at(10, 9, 0), []hearth.Event{dentist, lunch}, 40, at(11, 8, 0), time.Hour},
		{"move the dentist appointment to Friday at 4", at(10, 9, 0), []hearth.Event{dentist, lunch}, 40, at(13, 16, 0), time.Hour},
		{"move my dentist appointment to Friday at 4pm", at(10, 9, 0), []hearth.Event{dentist, lunch}, 40, at(13, 16, 0), time.Hour},
		{"move my dentist appointment tomorrow to Friday", at(10, 9, 0), []hearth.Event{dentist, later, lunch}, 40, at(13, 10, 0), time.Hour},
		{"move tomorrow's dentist appointment to 4pm", at(10, 9, 0), []hearth.Event{dentist, later, lunch}, 40, at(11, 16, 0), time.Hour},
		{"reschedule my 10am appointment tomorrow to 3pm", at(10, 9, 0), []hearth.Event{dentist, later, lunch}, 40, at(11, 15, 0), time.Hour},
		{"move the dentist appointment to Friday", at(10, 9, 0), []hearth.Event{dentist, lunch}, 40, at(13, 10, 0), time.Hour},
		{"move tomorrow's 10am appointment to 3pm", at(10, 9, 0), []hearth.Event{dentist, later, lunch}, 40, at(11, 15, 0), time.Hour},
		{"move my 12:30 tomorrow to 1pm", at(10, 9, 0), []hearth.Event{dentist, lunch}, 42, at(11, 13, 0), time.Hour},
		{"move lunch with Sam to 1pm", at(10, 9, 0), []hearth.Event{dentist, lunch}, 42, at(11, 13, 0), time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			t.Parallel()
			c := Context{Now: tt.now, Location: z, Events: tt.events}
			p := planText(t, tt.text, c)
			a := decode[action.EventUpdateArgs](t, p.only(t, action.CalendarUpdate))
			if a.ID != tt.id || a.Update.Start == nil || a.Update.End == nil {
				t.Fatalf("got %+v", a)
			}
			if !a.Update.Start.Equal(tt.start) || a.Update.End.Sub(*a.Update.Start) != tt.wantClock {
				t.Errorf("moved to %s – %s, want %s for %s", a.Update.Start.In(z), a.Update.End.In(z), tt.start, tt.wantClock)
			}
		})
	}
}
