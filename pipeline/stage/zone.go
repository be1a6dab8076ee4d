package stage

import (
	"time"

	"github.com/hearthbot/hearth/pipeline/nlu/timex"
)

// userZone is the user's zone for a turn.
func UserZone(c Context) *time.Location {
	if c.Location != nil {
		return c.Location
	}
	if !c.Now.IsZero() {
		return c.Now.Location()
	}
	return time.UTC
}

// userNow is the turn's instant in the user's zone.
func UserNow(c Context) time.Time { return c.Now.In(UserZone(c)) }

// midnightIn is the start of t's date in zone z.
func MidnightIn(t time.Time, z *time.Location) time.Time {
	t = t.In(z)
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, z)
}

// zoneOf is the zone to show t in: the user's, or t's own when the turn
// has none (DoneFallback, which has no Context).
func zoneOf(t time.Time, c Context) *time.Location {
	if c.Location == nil && c.Now.IsZero() {
		return t.Location()
	}
	return UserZone(c)
}

// daysBetween counts calendar days from a to b (dates, not 24-hour
// spans, so a DST change does not shift it).
func DaysBetween(a, b time.Time) int {
	da := time.Date(a.Year(), a.Month(), a.Day(), 12, 0, 0, 0, time.UTC)
	db := time.Date(b.Year(), b.Month(), b.Day(), 12, 0, 0, 0, time.UTC)
	return int(db.Sub(da).Hours() / 24)
}

// dayLabel names t's date the way people do: "today", "tomorrow",
// "yesterday", a weekday within the coming week ("Saturday"), else
// "Mon, Mar 16" (with the year when it is not this year's).
func DayLabel(t time.Time, c Context) string {
	z := zoneOf(t, c)
	t = t.In(z)
	if !c.Now.IsZero() {
		n := c.Now.In(z)
		switch d := DaysBetween(n, t); {
		case d == 0:
			return "today"
		case d == 1:
			return "tomorrow"
		case d == -1:
			return "yesterday"
		case d > 1 && d < 7:
			return t.Format("Monday")
		}
		if t.Year() != n.Year() {
			return t.Format("Mon, Jan 2, 2006")
		}
	}
	return t.Format("Mon, Jan 2")
}

// clockOf is a time of day: "5:00 PM".
func ClockOf(t time.Time, c Context) string { return t.In(zoneOf(t, c)).Format("3:04 PM") }

// formatWhen is a date and, unless allDay, a time: "tomorrow at 5:00
// PM", "Saturday at 7:00 PM", "Mon, Mar 16".
func FormatWhen(t time.Time, allDay bool, c Context) string {
	if allDay {
		return DayLabel(t, c)
	}
	return DayLabel(t, c) + " at " + ClockOf(t, c)
}

// whenPhrase is formatWhen as it follows a verb: "tomorrow at 5:00 PM",
// "on Saturday at 7:00 PM".
func WhenPhrase(t time.Time, allDay bool, c Context) string {
	s := FormatWhen(t, allDay, c)
	switch DayLabel(t, c) {
	case "today", "tomorrow", "yesterday":
		return s
	}
	return "on " + s
}

// Span is the time range a message is about: the date it names, or for a
// question without one, the coming week.
func Span(m *timex.Match, now time.Time, question bool) (time.Time, time.Time) {
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
	if m == nil {
		if question {
			return day, day.AddDate(0, 0, 7)
		}
		return day, day.AddDate(0, 0, 30)
	}
	if m.Kind == timex.Interval {
		from, to := m.From, m.To
		if from.IsZero() {
			from = now
		}
		if to.IsZero() {
			to = from.AddDate(0, 0, 7)
		}
		return from, to
	}
	v := m.Value
	start := time.Date(v.Year(), v.Month(), v.Day(), 0, 0, 0, 0, v.Location())
	switch m.Grain {
	case timex.Week:
		return start, start.AddDate(0, 0, 7)
	case timex.Month:
		return start, start.AddDate(0, 1, 0)
	case timex.Quarter:
		return start, start.AddDate(0, 3, 0)
	case timex.Year:
		return start, start.AddDate(1, 0, 0)
	}
	return start, start.AddDate(0, 0, 1)
}
