package timex

import (
	"testing"
	"time"
)

// TestParseDuration: a length of time said as the whole text, and
// nothing else.
func TestParseDuration(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]time.Duration{
		"90 minutes": 90 * time.Minute, "an hour and a half": 90 * time.Minute, "two and a half hours": 150 * time.Minute,
		"1 hour 30 minutes": 90 * time.Minute, "half an hour": 30 * time.Minute, "2 hours long": 2 * time.Hour, "an hour": time.Hour,
		"45 mins": 45 * time.Minute, "a day": 24 * time.Hour,
		"3pm": 0, "a month": 0, "2 hours later": 0, "tomorrow": 0, "": 0, "0 minutes": 0, "hours": 0,
	} {
		got, ok := ParseDuration(text)
		if ok != (want != 0) || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", text, got, ok, want)
		}
	}
}

func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{"90 minutes", "an hour and a half", "1 hour 30 minutes", "9999999999 weeks", "half a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d, ok := ParseDuration(s); ok && (d < time.Second || d > 366*24*time.Hour) {
			t.Fatalf("ParseDuration(%q) = %v", s, d)
		}
	})
}
