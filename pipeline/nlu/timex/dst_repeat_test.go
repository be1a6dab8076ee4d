package timex

import (
	"testing"
	"time"
)

// A wall time that occurs twice when clocks fall back is its first
// occurrence in every zone; time.Date alone picks the second east of UTC.
func TestRepeatedHourIsFirstOccurrence(t *testing.T) {
	for _, tt := range []struct {
		zone, ref, want string
	}{
		{"Europe/Berlin", "2026-10-24T12:00:00+02:00", "2026-10-25T02:30:00+02:00"},
		{"America/New_York", "2026-10-31T12:00:00-04:00", "2026-11-01T01:30:00-04:00"},
	} {
		loc, _ := time.LoadLocation(tt.zone)
		ref, _ := time.Parse(time.RFC3339, tt.ref)
		text := "tomorrow at 2:30am"
		if tt.zone == "America/New_York" {
			text = "tomorrow at 1:30am"
		}
		m, ok := Parse(text, ref.In(loc), Options{})
		if !ok || m.Value.Format(time.RFC3339) != tt.want {
			t.Errorf("%s %q = %v (%v); want %s", tt.zone, text, m.Value.Format(time.RFC3339), ok, tt.want)
		}
	}
}
