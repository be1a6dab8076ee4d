// Package timex is Hearth's one date language: it finds and resolves
// English date and time expressions ("tomorrow at 5pm", "friday after
// next", "from 9:30 to 11 on thursday") relative to a reference instant in
// the user's IANA time zone, reads recurrences ("every other Tuesday at
// 8", ParseRecurrence, into recur rules) and clock times (ParseClock), and
// holds the one table of month and weekday names (MonthNamed,
// WeekdayNamed). Nothing else in Hearth parses dates.
//
// It is pure and deterministic: no I/O, no globals that change, no clock
// of its own. The reference instant (and its *time.Location) is the only
// notion of "now", so the same text and reference always give the same
// answer.
//
// # Conventions
//
// The rules follow Duckling's English conventions, because the evaluation
// data comes from Duckling's corpus:
//
//   - Weeks start on Monday.
//   - "monday" and "this monday" are the next Monday strictly after the
//     reference day; "next monday" is the Monday of next week; "last
//     monday" is the most recent Monday strictly before the reference day.
//   - A bare time that has already started today ("at 3am" at 04:30) means
//     the next occurrence (tomorrow); a time whose hour is the current hour
//     ("at 4:23" at 04:30) stays today. An hour without am/pm ("at 5")
//     takes the first reading (05:00 or 17:00) that is not in the past.
//   - Relative offsets keep sub-unit precision and are reported one grain
//     finer than their unit: "in 2 hours" is exactly two hours later at
//     minute grain; "in 3 days" is at hour grain.
//   - Intervals have an exclusive end one grain after the last included
//     value: "9:30 - 11:00" ends at 11:01 at minute grain, "July 13-15"
//     ends on July 16. Open intervals ("until 2pm", "after 5") have a zero
//     time on the open side; their bound is the start of the named time.
//   - Two-digit years are 19xx from 50 up and 20xx below 50 ("10/31/74" is
//     1974).
//
// # Daylight saving time
//
// Calendar arithmetic rebuilds wall-clock times with time.Date in the
// reference's location (a day is never 24 hours). A wall-clock time that
// does not exist because the clocks jump forward (02:30 on a spring-forward
// day in New York) is moved forward by the length of the gap, to 03:30
// daylight time, like java.time and Python's zoneinfo. Go's time.Date on its
// own would answer 01:30 standard time, an instant before the requested one,
// which is the wrong side for a reminder. A wall-clock time that occurs
// twice when clocks fall back resolves to its first occurrence, in every
// zone (time.Date alone picks the second one east of UTC).
package timex

import (
	"fmt"
	"time"
)

// Grain is the precision of a resolved time: "5pm" has hour grain,
// "5:30pm" minute grain, "March" month grain.
type Grain int

// The grains, finest first.
const (
	Second Grain = iota
	Minute
	Hour
	Day
	Week
	Month
	Quarter
	Year
)

var grainNames = [...]string{"second", "minute", "hour", "day", "week", "month", "quarter", "year"}

// String returns the lower-case name of the grain ("second" … "year").
func (g Grain) String() string {
	if g >= 0 && int(g) < len(grainNames) {
		return grainNames[g]
	}
	return fmt.Sprintf("Grain(%d)", int(g))
}

// ParseGrain returns the Grain named by s ("second" … "year"), the inverse
// of Grain.String.
func ParseGrain(s string) (Grain, bool) {
	for i, n := range grainNames {
		if n == s {
			return Grain(i), true
		}
	}
	return 0, false
}

// Kind says whether a Match is a single instant or an interval.
type Kind int

// The kinds of Match.
const (
	Value Kind = iota
	Interval
)

// String returns "value" or "interval".
func (k Kind) String() string {
	switch k {
	case Value:
		return "value"
	case Interval:
		return "interval"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Match is one date/time expression found in a text and its resolution.
type Match struct {
	// Start and End are the byte offsets of the expression in the input
	// text; Text is text[Start:End].
	Start, End int
	Text       string
	Kind       Kind
	// Value is the instant when Kind is Value, truncated to Grain, in the
	// reference's location.
	Value time.Time
	// From (inclusive) and To (exclusive) bound the interval when Kind is
	// Interval. A zero time means the interval is open on that side: "until
	// 2pm" has a zero From, "after 5" a zero To.
	From, To time.Time
	Grain    Grain
	// Latent marks weak readings that need Options.Latent: a bare number
	// ("7"), a bare month ("May"), a bare part of day ("afternoon").
	Latent bool
	// ClockOnly marks a time of day said without a date ("4pm", "at 3 in
	// the afternoon"): its date is only the default (today, or tomorrow
	// once the time has passed), which a caller that knows the day meant
	// (moving an event keeps the event's own date) may replace. "Tonight
	// at 8", "Friday at 4" and "in 2 hours" name their date.
	ClockOnly bool
}

// Options tune the parser. The zero value is the strict default.
type Options struct {
	// Latent also returns latent readings (bare numbers as hours, bare
	// month names, bare years, bare parts of day). Defaults to false,
	// because in running text "I have 7 cats" or "you may" are not dates.
	Latent bool
}

// Find returns all non-overlapping date/time expressions in text, left to
// right, resolved relative to ref in ref's location. At each position the
// longest expression wins.
func Find(text string, ref time.Time, opts Options) []Match {
	p := newParser(text, ref, opts)
	var out []Match
	for i := 0; i < len(p.toks); {
		m, end, ok := p.best(i)
		if !ok {
			i++
			continue
		}
		out = append(out, m)
		i = end
	}
	return out
}

// Parse returns the best expression in text: the longest one, the earliest
// among equally long ones. It reports false when there is none.
func Parse(text string, ref time.Time, opts Options) (Match, bool) {
	var best Match
	found := false
	for _, m := range Find(text, ref, opts) {
		if !found || m.End-m.Start > best.End-best.Start {
			best, found = m, true
		}
	}
	return best, found
}
