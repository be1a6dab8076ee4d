package timex

import (
	"time"

	"github.com/hearthbot/hearth/internal/wallclock"
)

// Calendar arithmetic in the reference's location. Days, months and years
// are always moved by rebuilding the wall clock with time.Date, never by
// adding multiples of 24 hours, so results stay right across DST changes.

// wall returns the instant with the given wall-clock fields in loc, with
// Hearth's one rule for DST (see package wallclock): a skipped wall time
// moves forward by the gap, a repeated one is its first occurrence.
func wall(y, mo, d, h, mi, s int, loc *time.Location) time.Time {
	return wallclock.Time(y, time.Month(mo), d, h, mi, s, 0, loc)
}

func dayStart(t time.Time) time.Time {
	return wall(t.Year(), int(t.Month()), t.Day(), 0, 0, 0, t.Location())
}

func addDays(t time.Time, n int) time.Time {
	return wall(t.Year(), int(t.Month()), t.Day()+n, t.Hour(), t.Minute(), t.Second(), t.Location())
}

func daysIn(y, m int) int {
	return time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// addMonths moves by whole months and clamps the day to the target month's
// length: one month after January 31 is the last day of February.
func addMonths(t time.Time, n int) time.Time {
	y, m := t.Year(), int(t.Month())-1+n
	y += m / 12
	m %= 12
	if m < 0 {
		m += 12
		y--
	}
	m++
	d := t.Day()
	if dim := daysIn(y, m); d > dim {
		d = dim
	}
	return wall(y, m, d, t.Hour(), t.Minute(), t.Second(), t.Location())
}

// maxUnits bounds offsets so that arithmetic cannot overflow and results
// stay within a few thousand years of the reference.
var maxUnits = [...]int64{
	Second: 3_000_000_000, Minute: 50_000_000, Hour: 800_000,
	Day: 3_000_000, Week: 400_000, Month: 100_000, Quarter: 30_000, Year: 8_000,
}

// add moves t by n units of grain g: seconds, minutes and hours as
// elapsed time, larger units on the calendar. ok is false when n is too
// large.
func add(t time.Time, g Grain, n int64) (time.Time, bool) {
	if n > maxUnits[g] || n < -maxUnits[g] {
		return time.Time{}, false
	}
	switch g {
	case Second:
		return t.Add(time.Duration(n) * time.Second), true
	case Minute:
		return t.Add(time.Duration(n) * time.Minute), true
	case Hour:
		return t.Add(time.Duration(n) * time.Hour), true
	case Day:
		return addDays(t, int(n)), true
	case Week:
		return addDays(t, 7*int(n)), true
	case Month:
		return addMonths(t, int(n)), true
	case Quarter:
		return addMonths(t, 3*int(n)), true
	default:
		return addMonths(t, 12*int(n)), true
	}
}

// trunc returns the start of the grain containing t. Sub-day grains are cut
// on the wall clock by elapsed time so that the repeated hour of a DST
// fall-back keeps its own offset.
func trunc(t time.Time, g Grain) time.Time {
	switch g {
	case Second:
		return t.Add(-time.Duration(t.Nanosecond()))
	case Minute:
		return t.Add(-time.Duration(t.Second())*time.Second - time.Duration(t.Nanosecond()))
	case Hour:
		return t.Add(-time.Duration(t.Minute())*time.Minute - time.Duration(t.Second())*time.Second - time.Duration(t.Nanosecond()))
	case Day:
		return dayStart(t)
	case Week:
		return addDays(dayStart(t), -mondayIndex(t.Weekday()))
	case Month:
		return wall(t.Year(), int(t.Month()), 1, 0, 0, 0, t.Location())
	case Quarter:
		return wall(t.Year(), (int(t.Month())-1)/3*3+1, 1, 0, 0, 0, t.Location())
	default:
		return wall(t.Year(), 1, 1, 0, 0, 0, t.Location())
	}
}

// next returns the start of the grain after the one starting at t.
func next(t time.Time, g Grain) time.Time {
	r, _ := add(t, g, 1)
	return r
}

// mondayIndex numbers weekdays from Monday = 0, because weeks start on
// Monday.
func mondayIndex(w time.Weekday) int { return (int(w) + 6) % 7 }

// nthWeekdayOfMonth returns the day of month of the n-th weekday wd in the
// month (n >= 1), or of the -n-th from the end (n <= -1); 0 if none.
func nthWeekdayOfMonth(y, m int, wd time.Weekday, n int) int {
	dim := daysIn(y, m)
	if n > 0 {
		first := time.Date(y, time.Month(m), 1, 0, 0, 0, 0, time.UTC).Weekday()
		d := 1 + (int(wd)-int(first)+7)%7 + 7*(n-1)
		if d > dim {
			return 0
		}
		return d
	}
	last := time.Date(y, time.Month(m), dim, 0, 0, 0, 0, time.UTC).Weekday()
	d := dim - (int(last)-int(wd)+7)%7 + 7*(n+1)
	if d < 1 {
		return 0
	}
	return d
}

// easter returns the month and day of Western Easter Sunday in year y
// (anonymous Gregorian algorithm).
func easter(y int) (int, int) {
	a := y % 19
	b, c := y/100, y%100
	d, e := b/4, b%4
	f := (b + 8) / 25
	g := (b - f + 1) / 3
	h := (19*a + b - d - g + 15) % 30
	i, k := c/4, c%4
	l := (32 + 2*e + 2*i - h - k) % 7
	m := (a + 11*h + 22*l) / 451
	month := (h + l - 7*m + 114) / 31
	day := (h+l-7*m+114)%31 + 1
	return month, day
}
