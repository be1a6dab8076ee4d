package plan

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/stage/stagetest"
)

// TestPlanLength: a change of how long an event lasts keeps its start and
// moves its end, to a length or by an amount; "it" is the event just
// made; a task extended is due later; an end before the start, an
// all-day event and an event not there are said so.
func TestPlanLength(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t) // Tuesday, March 10, 2026, 9:00 in New York
	at := func(d, h, m int) time.Time { return time.Date(2026, 3, d, h, m, 0, 0, c.Location) }
	c.Events = []hearth.CalendarEvent{
		{ID: 1, Title: "Lunch with Sam", Start: at(13, 13, 0), End: at(13, 14, 0)},
		{ID: 2, Title: "Ski trip", Start: at(20, 0, 0), End: at(23, 0, 0), AllDay: true},
	}
	c.Tasks = []hearth.Task{{ID: 7, Title: "File the tax return", Status: hearth.TaskOpen, Due: at(13, 17, 0)}}
	justMade := []hearth.Message{{From: hearth.FromUser, Text: "lunch with Sam on Friday at 1pm"}, {From: hearth.FromBot, Text: "Added Lunch with Sam to your calendar for Friday at 1:00 PM."}}
	for _, tt := range []struct {
		text    string
		recent  []hearth.Message
		end     time.Time
		due     time.Time
		missing string
	}{
		{text: "make it an hour and a half", recent: justMade, end: at(13, 14, 30)},
		{text: "make lunch with Sam 2 hours long", end: at(13, 15, 0)},
		{text: "make lunch 30 minutes longer", end: at(13, 14, 30)},
		{text: "extend lunch with Sam by 15 minutes", end: at(13, 14, 15)},
		{text: "shorten lunch by half an hour", end: at(13, 13, 30)},
		{text: "extend the tax return by a week", due: at(20, 17, 0)},
		{text: "shorten lunch by 2 hours", missing: "would end before it starts"},
		{text: "make the ski trip 2 hours", missing: "is all day"},
		{text: "extend the piano lesson by an hour", missing: "I couldn't find an event matching “piano lesson”"},
	} {
		t.Run(tt.text, func(t *testing.T) {
			c := c
			c.Recent = tt.recent
			p := planText(t, tt.text, c)
			switch {
			case tt.missing != "":
				var de *stage.DetailsError
				if len(p.actions) != 0 || len(p.errs) == 0 || !errors.As(p.errs[0], &de) || !strings.Contains(de.Detail, tt.missing) {
					t.Fatalf("planned %v, errors %v; want one saying %q", kindsOf(p.actions), p.errs, tt.missing)
				}
			case !tt.due.IsZero():
				u := decode[action.TaskUpdateArgs](t, p.only(t, action.TaskUpdate))
				if u.ID != 7 || u.Update.Due == nil || !u.Update.Due.Equal(tt.due) {
					t.Fatalf("update %+v; want the task due %v", u, tt.due)
				}
			default:
				u := decode[action.EventUpdateArgs](t, p.only(t, action.CalendarUpdate))
				if u.ID != 1 || u.Update.End == nil || !u.Update.End.Equal(tt.end) || u.Update.Start != nil {
					t.Fatalf("update %+v; want lunch to end at %v, its start kept", u, tt.end)
				}
			}
		})
	}
}

// TestPlanNewEventLength: a length said of a new event is how long it
// lasts, and no word of its title.
func TestPlanNewEventLength(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	c.Events = nil // nothing in the way
	for text, want := range map[string]time.Duration{
		"schedule a call with Ben for 30 minutes on Friday at 9am": 30 * time.Minute,
		"lunch with Ana on Friday at 1pm for an hour and a half":   90 * time.Minute,
		"book a meeting with Ben on Friday at 10am for 2 hours":    2 * time.Hour,
		"dinner for two on Friday at 7pm":                          time.Hour, // no length said: an hour
	} {
		a := decode[action.EventCreateArgs](t, planText(t, text, c).only(t, action.CalendarCreate))
		if got := a.End.Sub(a.Start); got != want || strings.Contains(a.Title, " for ") && !strings.Contains(a.Title, "for two") || a.Start.Weekday() != time.Friday {
			t.Errorf("%q: %q %v–%v (%v); want %v long on Friday", text, a.Title, a.Start, a.End, got, want)
		}
	}
}
