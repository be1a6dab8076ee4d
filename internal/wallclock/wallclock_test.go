package wallclock

import (
	"testing"
	"time"
)

func TestTime(t *testing.T) {
	ny, _ := time.LoadLocation("America/New_York")
	berlin, _ := time.LoadLocation("Europe/Berlin")
	tests := []struct {
		name      string
		loc       *time.Location
		y         int
		mo        time.Month
		d, h, mi  int
		wantUTC   string
		wantLocal string
	}{
		{"ordinary", ny, 2026, 6, 1, 7, 30, "2026-06-01T11:30:00Z", "07:30 EDT"},
		{"spring gap, west", ny, 2026, 3, 8, 2, 30, "2026-03-08T07:30:00Z", "03:30 EDT"},
		{"spring gap, east", berlin, 2026, 3, 29, 2, 30, "2026-03-29T01:30:00Z", "03:30 CEST"},
		{"fall repeat, west: first", ny, 2026, 11, 1, 1, 30, "2026-11-01T05:30:00Z", "01:30 EDT"},
		{"fall repeat, east: first", berlin, 2026, 10, 25, 2, 30, "2026-10-25T00:30:00Z", "02:30 CEST"},
		{"after the repeat", berlin, 2026, 10, 25, 3, 30, "2026-10-25T02:30:00Z", "03:30 CET"},
		{"normalised day", berlin, 2026, 1, 32, 9, 0, "2026-02-01T08:00:00Z", "09:00 CET"},
	}
	for _, tt := range tests {
		got := Time(tt.y, tt.mo, tt.d, tt.h, tt.mi, 0, 0, tt.loc)
		if u := got.UTC().Format(time.RFC3339); u != tt.wantUTC {
			t.Errorf("%s: %s; want %s", tt.name, u, tt.wantUTC)
		}
		if l := got.Format("15:04 MST"); l != tt.wantLocal {
			t.Errorf("%s: local %s; want %s", tt.name, l, tt.wantLocal)
		}
	}
}
