package timex

import (
	"github.com/hearthbot/hearth/scheduler/recur"

	"testing"
	"time"
	"unicode/utf8"
)

// FuzzParseRecurrence checks that ParseRecurrence never panics, that spans lie within the text
// on token boundaries, that every rule it returns is valid once anchored,
// and that Next and Between on it terminate. Only the seeds run in the
// normal suite; go test -fuzz=FuzzParseRecurrence explores further.
func FuzzParseRecurrence(f *testing.F) {
	for _, s := range []string{
		"remind me every Monday at 9 to water the plants",
		"every weekday at 8:30", "every day at 7am", "every other Tuesday",
		"on the 1st of every month", "every month on the 15th", "every year on March 15",
		"daily", "weekly on Fridays", "every morning", "every evening at 7",
		"at 7am every day do yoga", "every 2 weeks on Tue and Thu", "every 1000 years",
		"every 3 months on the last day at noon", "yearly on feb 29", "every 15th of the month",
		"every day at 9 for 10000 times", "every 9999 days", "every 2nd tuesday",
		"", "every", "every every every", "at at at 12:99pm", "on the 31st of every 999 months",
		"\xff\xfeevery\x00monday", "every 0 days", "every 1 day at 00:00",
	} {
		f.Add(s)
	}
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		r, sp, ok := ParseRecurrence(text)
		if !ok {
			return
		}
		if sp.Start < 0 || sp.End > len(text) || sp.Start >= sp.End {
			t.Fatalf("span %v out of bounds for %d bytes", sp, len(text))
		}
		if utf8.ValidString(text) && !utf8.ValidString(text[sp.Start:sp.End]) {
			t.Fatalf("span %v splits a rune", sp)
		}
		now := time.Date(2026, 3, 8, 1, 59, 0, 0, ny)
		r.Start = recur.DateOf(now, ny)
		if err := r.Validate(); err != nil {
			t.Fatalf("Parse(%q) = %+v, invalid once anchored: %v", text, r, err)
		}
		_ = r.String()
		if n, ok := r.Next(now, ny); ok && !n.After(now) {
			t.Fatalf("Next(%v) = %v, not after", now, n)
		}
		if got := r.Between(now, now.AddDate(5, 0, 0), ny); len(got) > recur.MaxBetween {
			t.Fatalf("Between returned %d > %d", len(got), recur.MaxBetween)
		}
	})
}
