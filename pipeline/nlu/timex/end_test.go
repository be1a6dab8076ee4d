package timex

import (
	"testing"
	"time"

	"github.com/hearthbot/hearth/scheduler/recur"
)

// TestParseEnd reads when a recurrence stops and what is left without it.
func TestParseEnd(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 28, 19, 0, 0, 0, time.UTC)
	first := recur.Date{Year: 2026, Month: time.December, Day: 4}
	for _, tt := range []struct {
		text, rest, last string // last: "" for no end
	}{
		{"team standup until December 24", "team standup", "2026-12-24"},
		{"standup till Christmas", "standup", "2026-12-25"},
		{"yoga through the end of January", "yoga", "2027-01-31"},
		{"movie night for 4 weeks", "movie night", "2026-12-31"},
		{"movie night for the next three months", "movie night", "2027-03-03"},
		{"to water the plants until the 20th", "to water the plants", "2026-12-20"},
		{"walk through the park", "walk through the park", ""},
		{"for good", "for good", ""},
		{"coffee for 2", "coffee for 2", ""},
		{"", "", ""},
	} {
		end, rest := ParseEnd(tt.text, now)
		last := end.Last(first)
		got := ""
		if !last.IsZero() {
			got = last.String()
		}
		if rest != tt.rest || got != tt.last {
			t.Errorf("ParseEnd(%q) = %q, last %q; want %q, %q", tt.text, rest, got, tt.rest, tt.last)
		}
	}
}

// FuzzParseEnd: any text, no panic, and what is left is never longer.
func FuzzParseEnd(f *testing.F) {
	for _, s := range []string{"standup until December 24", "for 4 weeks", "till the end of the year", "until", "for 99 months"} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 28, 19, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		end, rest := ParseEnd(s, now)
		if len(rest) > len(s) {
			t.Fatalf("ParseEnd(%q) left %q", s, rest)
		}
		_ = end.Last(recur.Date{Year: 2026, Month: time.December, Day: 1})
	})
}
