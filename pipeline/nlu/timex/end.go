package timex

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hearthbot/hearth/scheduler/recur"
)

// End is when a recurrence stops, as said after it: a last date, or a
// number of weeks or months counted from its first occurrence. The zero
// End is none.
type End struct {
	Date          recur.Date
	Weeks, Months int
}

// Last is the last date of a recurrence that ends so and first occurs on
// first; zero for no end.
func (e End) Last(first recur.Date) recur.Date {
	switch {
	case e.Weeks > 0:
		return first.AddDays(e.Weeks*7 - 1)
	case e.Months > 0:
		d := time.Date(first.Year, first.Month+time.Month(e.Months), first.Day, 12, 0, 0, 0, time.UTC)
		return recur.DateOf(d, time.UTC).AddDays(-1)
	}
	return e.Date
}

var (
	reUntil = regexp.MustCompile(`(?i)\b(?:until|till|til|through|thru)\s+`)
	reFor   = regexp.MustCompile(`(?i)\bfor\s+(?:the\s+next\s+)?(\d{1,2}|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(weeks?|months?)\b`)
)

// ParseEnd finds when a recurrence stops in text, what is left of a
// message once its recurrence is out, and returns it with text without
// it: "until December 24" (that day the last), "till the end of January",
// "for 4 weeks", "for the next 3 months". Dates are read from now, in its
// location. It never panics.
func ParseEnd(text string, now time.Time) (End, string) {
	if g := reFor.FindStringSubmatchIndex(text); g != nil {
		n, err := strconv.Atoi(text[g[2]:g[3]])
		if err != nil {
			n = slices.Index([]string{"", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"},
				strings.ToLower(text[g[2]:g[3]]))
		}
		if n > 0 {
			e := End{Weeks: n}
			if !strings.HasPrefix(strings.ToLower(text[g[4]:g[5]]), "week") {
				e = End{Months: n}
			}
			return e, strings.TrimSpace(text[:g[0]] + " " + text[g[1]:])
		}
	}
	g := reUntil.FindStringIndex(text)
	if g == nil {
		return End{}, text
	}
	for _, m := range Find(text[g[1]:], now, Options{}) {
		if m.Start != 0 {
			break
		}
		var last time.Time
		switch {
		case m.Kind == Value && m.Grain >= Day:
			last = m.Value
		case m.Kind == Interval && !m.To.IsZero():
			last = m.To.Add(-time.Nanosecond)
		default:
			return End{}, text
		}
		return End{Date: recur.DateOf(last, now.Location())}, strings.TrimSpace(text[:g[0]] + " " + text[g[1]+m.End:])
	}
	return End{}, text
}
