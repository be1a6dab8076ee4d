package respond

import (
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/stage/stagetest"
)

// TestRespondEventDetail: where an event is, how long it lasts and who
// is coming are answered from the event; a place asked of a thing is
// memory's; an event not there is said to be missing.
func TestRespondEventDetail(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t) // Tuesday, March 10, 2026, 9:00 in New York
	day := func(d, h, m int) time.Time { return time.Date(2026, 3, d, h, m, 0, 0, c.Location) }
	c.Events = []hearth.CalendarEvent{
		{ID: 1, Title: "Lunch with Sam", Start: day(13, 13, 0), End: day(13, 14, 30), Location: "Luigi's"},
		{ID: 2, Title: "Dentist", Start: day(12, 10, 0), End: day(12, 10, 45)},
		{ID: 3, Title: "Ski trip", Start: day(20, 0, 0), End: day(23, 0, 0), AllDay: true},
		{ID: 4, Title: "Night shift", Start: day(11, 22, 0), End: day(12, 6, 0), Attendees: []string{"ann@example.com"}},
	}
	c.Memories = []hearth.Memory{{ID: 1, Content: "My passport is in the top drawer"}}
	for _, tt := range []struct{ text, want string }{
		{"where is lunch with Sam?", "Lunch with Sam (on Friday at 1:00 PM) is at Luigi's."},
		{"where's the dentist?", "No place is set for Dentist (on Thursday at 10:00 AM)."},
		{"how long is lunch with Sam?", "Lunch with Sam is 1 hour 30 minutes: Friday from 1:00 PM to 2:30 PM."},
		{"how long does the dentist take?", "Dentist is 45 minutes: Thursday from 10:00 AM to 10:45 AM."},
		{"how long is the ski trip?", "Ski trip is 3 days: Fri, Mar 20 to Sun, Mar 22."},
		{"how long is the night shift?", "Night shift is 8 hours: from tomorrow at 10:00 PM to Thursday at 6:00 AM."},
		{"who's coming to the night shift?", "Invited to Night shift (tomorrow at 10:00 PM): ann@example.com."},
		{"where is my passport?", "Your passport is in the top drawer."},
		{"where is the piano lesson?", "I don't see “piano lesson” on your calendar, and you haven't told me where it is."},
		{"how long is the flight?", "I don't see “flight” on your calendar."},
	} {
		if got := respondTo(t, stage.RespondInput{Text: tt.text, Context: c}); !strings.HasPrefix(got, tt.want) {
			t.Errorf("%q:\n%s\nwant\n%s", tt.text, got, tt.want)
		}
	}
}

// TestRespondOccurrenceRemoved: one time of a repeating event cancelled is
// named by its day as people say it ("tomorrow at", "on Friday at").
func TestRespondOccurrenceRemoved(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t) // Tuesday, March 10, 2026
	del := mustAction(t, action.CalendarDelete, action.EventRefArgs{ID: 4, Title: "Standup"})
	for day, want := range map[int]string{11: "removed Standup tomorrow at 10:00 AM from your calendar", 13: "removed Standup on Friday at 10:00 AM from your calendar"} {
		e := hearth.CalendarEvent{ID: 4, Title: "Standup", Series: "s1", Start: time.Date(2026, 3, day, 10, 0, 0, 0, c.Location)}
		if d := describeOutcome(stage.Outcome{Action: del, Status: stage.Done, Result: e}, c); !strings.HasPrefix(d.past, want) {
			t.Errorf("%q; want %q…", d.past, want)
		}
	}
}
