package respond

import (
	"testing"
	"time"

	"github.com/hearthbot/hearth/pipeline/stage"
)

// TestDateAnswer answers questions about the calendar itself in the
// user's zone, and leaves alone what names no day it can read.
func TestDateAnswer(t *testing.T) {
	t.Parallel()
	z, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	c := stage.Context{Now: time.Date(2026, 11, 28, 18, 30, 0, 0, z), Location: z}
	for _, tt := range []struct{ q, want string }{
		{"what's the date on sunday?", "Sunday is November 29, 2026."},
		{"what day is the 15th?", "The 15th is Tuesday, December 15, 2026."},
		{"what day of the week is december 24?", "December 24 is a Thursday (2026)."},
		{"how long until christmas?", "27 days, until Friday, December 25 (3 weeks and 6 days)."},
		{"how many days till tomorrow", "Just one day: it's tomorrow (Sunday, November 29)."},
		{"how long until my birthday?", ""},
		{"what's the date?", ""},
		{"what day is christmas this year?", "Christmas is Friday, December 25, 2026."},
		{"what week is it?", "It's week 48 (Monday, Nov 23 to Sunday, Nov 29)."},
		{"what's the week number?", "It's week 48 (Monday, Nov 23 to Sunday, Nov 29)."},
		{"what week is the party?", ""},
		{"how long until the meeting ends", ""},
	} {
		got, ok := dateAnswer(tt.q, c)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("dateAnswer(%q) = %q, %v; want %q", tt.q, got, ok, tt.want)
		}
	}
}

// FuzzDateAnswer: whatever is asked, dateAnswer answers or declines; it
// never panics and never answers with nothing.
func FuzzDateAnswer(f *testing.F) {
	for _, s := range []string{"how long until christmas?", "what day is the 15th?", "what's the date on ", "how many weeks until", "what day is 31 feb"} {
		f.Add(s)
	}
	c := stage.Context{Now: time.Date(2026, 11, 28, 18, 30, 0, 0, time.UTC), Location: time.UTC}
	f.Fuzz(func(t *testing.T, q string) {
		if got, ok := dateAnswer(q, c); ok && got == "" {
			t.Fatalf("dateAnswer(%q) answered with nothing", q)
		}
	})
}
