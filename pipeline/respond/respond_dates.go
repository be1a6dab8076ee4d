package respond

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
)

// Questions about the calendar itself, which need no look-up: "what's
// the date on Sunday?", "what day is the 15th?", "how long until
// Christmas?". The date is timex's reading, in the user's zone.
var (
	// "what week is it?", "what's the week number?" (ISO 8601's).
	reWeekNumber = regexp.MustCompile(`^(?:so |and |ok )?(?:what(?:'s|s| is) the (?:current )?week(?: number)?|what week(?: number)? is (?:it|this)(?: today| now)?|which week is (?:it|this))\s*[?.!]*$`)
	reDateOf     = regexp.MustCompile(`^(?:so |and |ok )?(?:what(?:'s|s| is) the date|what date is|which date is|what day is|what day of the week is)\s+(.+?)\s*[?.!]*$`)
)

// dateAnswer answers lc (lower-cased) when it asks which date or weekday
// a day is, or how far off it is; ok is false for anything else,
// including a day timex cannot read ("until my birthday").
func dateAnswer(lc string, c stage.Context) (string, bool) {
	if c.Now.IsZero() {
		return "", false
	}
	now := stage.UserNow(c)
	// day is the one day s names, as said, and its date.
	day := func(s string) (string, time.Time, bool) {
		m, ok := nlu.OneDay(strings.TrimSuffix(s, " this year"), now) // "what day is Christmas this year?"
		return strings.TrimPrefix(m.Text, "on "), m.Value.In(now.Location()), ok
	}
	if g := reDateOf.FindStringSubmatch(lc); g != nil {
		said, d, ok := day(g[1])
		if !ok {
			return "", false
		}
		lcSaid := strings.ToLower(said)
		switch {
		case strings.Contains(lcSaid, strings.ToLower(d.Weekday().String())):
			// "Sunday is November 29", not "Sunday is Sunday, …".
			return fmt.Sprintf("%s is %s.", prose.UpperFirst(said), d.Format("January 2, 2006")), true
		case strings.Contains(lcSaid, strings.ToLower(d.Month().String())):
			return fmt.Sprintf("%s is a %s.", prose.UpperFirst(said), d.Format("Monday (2006)")), true
		}
		return fmt.Sprintf("%s is %s.", prose.UpperFirst(said), d.Format("Monday, January 2, 2006")), true
	}
	if reWeekNumber.MatchString(lc) {
		_, w := now.ISOWeek()
		monday := now.AddDate(0, 0, -(int(now.Weekday())+6)%7)
		return fmt.Sprintf("It's week %d (%s to %s).", w, monday.Format("Monday, Jan 2"), monday.AddDate(0, 0, 6).Format("Monday, Jan 2")), true
	}
	if what, ok := nlu.Until(lc); ok {
		_, d, ok := day(what)
		if !ok {
			return "", false
		}
		n := stage.DaysBetween(now, d)
		switch {
		case n < 0:
			return "", false
		case n == 0:
			return "That's today (" + d.Format("Monday, January 2") + ").", true
		case n == 1:
			return "Just one day: it's tomorrow (" + d.Format("Monday, January 2") + ").", true
		}
		s := fmt.Sprintf("%d days, until %s", n, d.Format("Monday, January 2"))
		s = strings.ToUpper(s[:1]) + s[1:]
		if n >= 14 {
			s += fmt.Sprintf(" (%d weeks and %d days)", n/7, n%7)
		}
		return s + ".", true
	}
	return "", false
}
