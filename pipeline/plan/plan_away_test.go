package plan

import (
	"testing"
	"time"

	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/stage"
)

// TestPlanDaysOff: days off said in the words of work or holidays are an
// all-day event over every day they cover, named as a calendar shows
// them.
func TestPlanDaysOff(t *testing.T) {
	t.Parallel()
	z := mustZone(t, "Europe/Berlin")
	c := stage.Context{Now: time.Date(2026, 11, 29, 16, 0, 0, 0, z), Location: z} // a Sunday
	day := func(m time.Month, d int) time.Time { return time.Date(2026, m, d, 0, 0, 0, 0, z) }
	for _, tt := range []struct {
		text       string
		title      string
		start, end time.Time
	}{
		{"I'm out of the office from December 20 to January 3", "Out of the office", day(12, 20), time.Date(2027, 1, 4, 0, 0, 0, 0, z)},
		{"we're on holiday next week", "Holiday", day(11, 30), day(12, 7)},
		{"I'll be on leave until the 14th", "On leave", day(11, 29), day(12, 14)},
		{"I'm on vacation from Monday to Wednesday", "Vacation", day(11, 30), day(12, 3)},
		{"I'm off work on Friday", "Off work", day(12, 4), day(12, 5)},
	} {
		p := planText(t, tt.text, c)
		e := decode[action.EventCreateArgs](t, p.only(t, action.CalendarCreate))
		if e.Title != tt.title || !e.AllDay || !e.Start.Equal(tt.start) || !e.End.Equal(tt.end) {
			t.Errorf("%q: %q %v–%v all day %v; want %q %v–%v", tt.text, e.Title, e.Start, e.End, e.AllDay, tt.title, tt.start, tt.end)
		}
	}
}
