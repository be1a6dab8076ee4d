package plan

// Reading an hour said without its half of the day: for a new event, the
// way people schedule; for a move, the reading nearer the item's time.

import (
	"strings"
	"time"

	"github.com/hearthbot/hearth/pipeline/words"
)

// fixClock reads an hour said without am/pm the way people schedule
// events: "12:30" is lunchtime, "at 3" is in the afternoon, "at 7" for a
// dinner is in the evening.
func fixClock(t time.Time, said string, evening bool) time.Time {
	if saysHalfOfDay(said) {
		return t
	}
	h := t.Hour()
	switch {
	case h == 0, h >= 1 && h <= 6, h >= 7 && h <= 11 && evening:
		return time.Date(t.Year(), t.Month(), t.Day(), h+12, t.Minute(), 0, 0, t.Location())
	}
	return t
}

// saysHalfOfDay reports whether said names the half of the day its hour
// is in ("11pm", "7 in the morning", "tonight").
func saysHalfOfDay(said string) bool {
	lc := words.ASCIILower(said)
	for _, w := range []string{"am", "pm", "a.m.", "p.m.", "morning", "noon", "midnight", "afternoon", "evening", "tonight", "night"} {
		if words.ContainsWord(lc, w) || strings.Contains(lc, w) && (w == "am" || w == "pm") && endsWithDigitThen(lc, w) {
			return true
		}
	}
	return false
}

// movedClock is the time of day on old's date that an hour said alone
// moves an item at old to ("move it to 11"): of the hour's two readings,
// the one nearer the item's own time (a 10am call moves to 11am, a 9pm
// dinner to 10pm), whatever the time is now; at equal distance, the
// reading fixClock gives (at, read so already). An hour with its half of
// the day said ("11pm") is read as said.
func movedClock(at time.Time, said string, old time.Time) time.Time {
	on := func(h int) time.Time {
		return time.Date(old.Year(), old.Month(), old.Day(), h, at.Minute(), 0, 0, old.Location())
	}
	read := on(at.Hour())
	if saysHalfOfDay(said) {
		return read
	}
	other := on((at.Hour() + 12) % 24)
	if other.Sub(old).Abs() < read.Sub(old).Abs() {
		return other
	}
	return read
}

// endsWithDigitThen reports whether suffix follows a digit in s ("5pm").
func endsWithDigitThen(s, suffix string) bool {
	for i := strings.Index(s, suffix); i >= 0; {
		if i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
			return true
		}
		j := strings.Index(s[i+1:], suffix)
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}
