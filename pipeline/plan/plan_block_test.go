package plan

import (
	"testing"
	"time"

	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/stage"
)

// TestPlanBlockOut: time blocked out is an event named for what it is
// for ("Busy" when not said), over a part of the day's usual hours, the
// length said, or the whole day; never a task called "Block out …".
func TestPlanBlockOut(t *testing.T) {
	t.Parallel()
	z := mustZone(t, "Europe/Berlin")
	c := stage.Context{Now: time.Date(2026, 11, 29, 16, 0, 0, 0, z), Location: z} // a Sunday
	at := func(d, h, m int) time.Time { return time.Date(2026, 12, d, h, m, 0, 0, z) }
	for _, tt := range []struct {
		text       string
		title      string
		start, end time.Time
		allDay     bool
	}{
		{"block out Friday afternoon for focus time", "Focus time", at(4, 13, 0), at(4, 17, 0), false},
		{"block 2 hours tomorrow morning for the tax return", "Tax return", time.Date(2026, 11, 30, 9, 0, 0, 0, z), time.Date(2026, 11, 30, 11, 0, 0, 0, z), false},
		{"block off Tuesday", "Busy", at(1, 0, 0), at(2, 0, 0), true},
		{"please block out time for the gym on Wednesday", "Gym", at(2, 0, 0), at(3, 0, 0), true},
		{"block Thursday at 3 for half an hour for the dentist", "Dentist", at(3, 15, 0), at(3, 15, 30), false},
		{"block Sam's number tomorrow", "", time.Time{}, time.Time{}, false}, // no time blocked
	} {
		p := planText(t, tt.text, c)
		if tt.title == "" {
			for _, pl := range p.plans {
				for _, a := range pl.Actions {
					if a.Kind == action.CalendarCreate {
						if e := decode[action.EventCreateArgs](t, a); e.Title == "Busy" {
							t.Errorf("%q: blocked out time: %+v", tt.text, e)
						}
					}
				}
			}
			continue
		}
		e := decode[action.EventCreateArgs](t, p.only(t, action.CalendarCreate))
		if e.Title != tt.title || e.AllDay != tt.allDay || !e.Start.Equal(tt.start) || !e.End.Equal(tt.end) {
			t.Errorf("%q: %q %v–%v all day %v; want %q %v–%v %v", tt.text, e.Title, e.Start.In(z), e.End.In(z), e.AllDay, tt.title, tt.start, tt.end, tt.allDay)
		}
	}
}
