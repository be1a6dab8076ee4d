package googletest

import (
	"slices"
	"testing"
	"time"

	calendar "google.golang.org/api/calendar/v3"
)

// TestOccurrences expands the monthly rules Hearth writes the way Google
// does: the nth weekday (from the end when negative) and a day of the
// month, skipping months without it.
func TestOccurrences(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		start, rule string
		want        []string
	}{
		{"2026-12-03T20:00:00+01:00", "RRULE:FREQ=MONTHLY;BYDAY=1TH;COUNT=4", []string{"2026-12-03", "2027-01-07", "2027-02-04", "2027-03-04"}},
		{"2026-12-25T09:00:00+01:00", "RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=4", []string{"2026-12-25", "2027-01-29", "2027-02-26", "2027-03-26"}},
		{"2026-12-31T09:00:00+01:00", "RRULE:FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=3", []string{"2026-12-31", "2027-01-31", "2027-02-28"}},
		{"2027-01-31T09:00:00+01:00", "RRULE:FREQ=MONTHLY;BYMONTHDAY=31;COUNT=3", []string{"2027-01-31", "2027-03-31", "2027-05-31"}},
	} {
		ev := &calendar.Event{Start: &calendar.EventDateTime{DateTime: tt.start, TimeZone: "Europe/Berlin"},
			End: &calendar.EventDateTime{DateTime: tt.start, TimeZone: "Europe/Berlin"}, Recurrence: []string{tt.rule}}
		var got []string
		for _, o := range occurrences(ev) {
			got = append(got, o.Format(time.DateOnly))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s from %s: %v, want %v", tt.rule, tt.start, got, tt.want)
		}
	}
}
