package plan

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/stage/stagetest"
)

// TestPlanEventNote: a note put on an event is added after its notes, in
// one update of its description; where an event is, told or set, is its
// location, in one update. On an event others are invited to either is
// asked about first; a time is no place, and an event not there is said
// to be missing.
func TestPlanEventNote(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	start := c.Now.Add(48 * time.Hour)
	c.Events = []hearth.CalendarEvent{
		{ID: 1, Title: "Dentist", Start: start, End: start.Add(time.Hour)},
		{ID: 2, Title: "Budget review", Start: start, End: start.Add(time.Hour), Description: "Room 4", Attendees: []string{"ann@example.com"}},
		{ID: 3, Title: "Lunch with Sam", Start: start, End: start.Add(time.Hour)},
	}
	for _, tt := range []struct {
		text        string
		id          int64
		desc, place string
		risk        action.Risk
		missing     string
	}{
		{"add a note to the dentist appointment: bring the x-rays", 1, "bring the x-rays", "", action.Low, ""},
		{"note on the budget review meeting: print the slides", 2, "Room 4\nprint the slides", "", action.High, ""},
		{"add a note to the piano lesson: bring the music", 0, "", "", action.Low, "I couldn't find an event matching “piano lesson”"},
		{"lunch with Sam is at Luigi's", 3, "", "Luigi's", action.Low, ""},
		{"set the location of lunch with Sam to the Green Café", 3, "", "the Green Café", action.Low, ""},
		{"the venue for the budget review is room 5", 2, "", "room 5", action.High, ""},
		{"the budget review meeting has moved to the boardroom", 2, "", "the boardroom", action.High, ""},
		{"the piano lesson is at the music school", 0, "", "", action.Low, "I couldn't find an event matching “piano lesson”"},
	} {
		t.Run(tt.text, func(t *testing.T) {
			p := planText(t, tt.text, c)
			if tt.missing != "" {
				var de *stage.DetailsError
				if len(p.actions) != 0 || len(p.errs) != 1 || !errors.As(p.errs[0], &de) || !strings.Contains(de.Detail, tt.missing) {
					t.Fatalf("planned %v, errors %v; want one saying %q", kindsOf(p.actions), p.errs, tt.missing)
				}
				return
			}
			a := p.only(t, action.CalendarUpdate)
			u := decode[action.EventUpdateArgs](t, a)
			if got := u.Update; u.ID != tt.id || (got.Description != nil) != (tt.desc != "") || got.Description != nil && *got.Description != tt.desc ||
				(got.Location != nil) != (tt.place != "") || got.Location != nil && *got.Location != tt.place || got.Title != nil || got.Start != nil {
				t.Fatalf("update %+v; want event %d's notes %q, place %q and nothing else", u, tt.id, tt.desc, tt.place)
			}
			if r := action.RiskOf(a); r != tt.risk {
				t.Fatalf("risk %s; want %s", r, tt.risk)
			}
		})
	}
	for _, text := range []string{"lunch with Sam is at 2pm", "dinner is at 7", "Mum is at the hospital", "is lunch with Sam at Luigi's?",
		"email Sam that dinner is at Luigi's", "tell Ana the party is at the park"} {
		if ref, place, ok := nlu.EventPlace(text, c.Now); ok {
			t.Errorf("EventPlace(%q) = %q, %q; want no place told", text, ref, place)
		}
	}
}
