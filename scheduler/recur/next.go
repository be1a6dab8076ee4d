package recur

import (
	"iter"
	"slices"
	"time"

	"github.com/hearthbot/hearth/internal/wallclock"
)

// MaxBetween caps the number of instants Between returns, so a wide window
// over a dense rule (catch-up after a long outage, a listing far ahead)
// stays bounded.
const MaxBetween = 1000

// Civil-date arithmetic on day numbers (days since 1970-01-01), so dates
// are stepped as calendar days and never as 24-hour durations.

func dayNum(d Date) int64 {
	// Midnight UTC is an exact multiple of a day, so the division is exact
	// for dates before 1970 too.
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC).Unix() / 86400
}

func fromDayNum(n int64) Date {
	y, m, d := time.Unix(n*86400, 0).UTC().Date()
	return Date{y, m, d}
}

func weekdayOf(n int64) time.Weekday {
	// 1970-01-01 was a Thursday.
	return time.Weekday(((n+4)%7 + 7) % 7)
}

// mondayOf returns the day number of the Monday starting n's week.
func mondayOf(n int64) int64 { return n - int64((weekdayOf(n)+6)%7) }

func daysIn(y int, m time.Month) int { return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day() }

var lastDate = Date{9999, time.December, 31}

// At returns the instant of wall-clock time at on date d in loc, with the
// package's DST rules: a time skipped by a spring-forward gap moves forward
// by the gap's length (02:30 → 03:30), a time repeated by a fall-back
// resolves to its first (earlier) instant. It returns the zero time when loc
// is nil.
func At(d Date, at TimeOfDay, loc *time.Location) time.Time {
	if loc == nil {
		return time.Time{}
	}
	return wallclock.Time(d.Year, d.Month, d.Day, at.Hour, at.Minute, 0, 0, loc)
}

// dates yields the dates r fires on, in order, from the first one on or
// after from (or after Start, whichever is later) to Until. It stops on its
// own when a rule can no longer fire: after Until, after year 9999, or
// after scanning a full 400-year Gregorian cycle of periods without an
// occurrence (a yearly February 29 rule whose interval only reaches common
// years). r must be valid.
func (r Rule) dates(from Date) iter.Seq[Date] {
	return func(yield func(Date) bool) {
		iv := int64(r.interval())
		anchor := r.Start
		if anchor.IsZero() {
			anchor = from
		} else if from.before(anchor) {
			from = anchor
		}
		if iv > 1 && !r.Start.IsZero() {
			// The phase is counted from the first matching date on or
			// after Start, not from Start's own week or month (RFC 5545),
			// so "every other Tuesday" said on a Wednesday fires the
			// coming Tuesday rather than skipping it.
			first, ok := r.firstOnOrAfterStart()
			if !ok {
				return
			}
			anchor = first
			if from.before(first) {
				from = first
			}
		}
		lo := dayNum(from)
		hi := dayNum(lastDate)
		if !r.Until.IsZero() {
			hi = dayNum(r.Until)
		}
		switch r.Freq {
		case Daily:
			a, n := dayNum(anchor), lo
			if off := (n - a) % iv; off != 0 {
				n += iv - off
			}
			for ; n <= hi; n += iv {
				if !yield(fromDayNum(n)) {
					return
				}
			}
		case Weekly:
			set := r.Weekdays
			if set == 0 {
				set = WeekdaysOf(anchor.Weekday())
			}
			aw, w := mondayOf(dayNum(anchor)), mondayOf(lo)
			if off := ((w - aw) / 7) % iv; off != 0 {
				w += (iv - off) * 7
			}
			for ; w <= hi; w += 7 * iv {
				for n := w; n < w+7; n++ {
					if n > hi {
						return
					}
					if n >= lo && set.Has(weekdayOf(n)) && !yield(fromDayNum(n)) {
						return
					}
				}
			}
		case Monthly, Yearly:
			// Periods are months (or years, as 12 months). A period whose
			// month lacks the day is skipped. Month lengths repeat every
			// 4800 months (one 400-year Gregorian cycle), so the periods a
			// rule visits repeat after at most 4800 of them (400 for yearly
			// rules, whose month is fixed): that many empty periods in a row
			// mean the rule can never fire.
			step := iv
			if r.Freq == Yearly {
				step *= 12
			}
			am := int64(anchor.Year)*12 + int64(anchor.Month) - 1
			m := int64(from.Year)*12 + int64(from.Month) - 1
			limit := 4800
			if r.Freq == Yearly {
				// Align on the anchor's month; a date in from's year that
				// has already passed is dropped by the n < lo check below.
				m = int64(from.Year)*12 + am%12
				limit = 400
			}
			if off := (m - am) % step; off != 0 {
				m += step - off
			}
			for empty := 0; empty < limit; m += step {
				y, mo := int(m/12), time.Month(m%12+1)
				if r.Freq == Yearly && r.Month != 0 {
					mo = r.Month
				}
				if y > lastDate.Year {
					return
				}
				day := r.MonthDay
				switch {
				case r.Nth != 0:
					day = nthWeekday(y, mo, r.Weekdays.Days()[0], r.Nth)
				case day == 0:
					day = anchor.Day
				case day == LastDay:
					day = daysIn(y, mo)
				}
				if day == 0 || day > daysIn(y, mo) {
					empty++
					continue
				}
				n := dayNum(Date{y, mo, day})
				if n > hi {
					return
				}
				if n < lo {
					continue
				}
				empty = 0
				if !yield(Date{y, mo, day}) {
					return
				}
			}
		}
	}
}

// firstOnOrAfterStart returns the first date on or after Start that r
// would fire on if its interval were 1, keeping Start's weekday, day and
// month as the defaults they are for r.
func (r Rule) firstOnOrAfterStart() (Date, bool) {
	one := r
	one.Interval, one.Count, one.Until = 1, 0, Date{}
	if one.Freq == Weekly && one.Weekdays == 0 {
		one.Weekdays = WeekdaysOf(r.Start.Weekday())
	}
	if one.Freq == Monthly && one.MonthDay == 0 {
		one.MonthDay = r.Start.Day
	}
	if one.Freq == Yearly {
		if one.Month == 0 {
			one.Month = r.Start.Month
		}
		if one.MonthDay == 0 {
			one.MonthDay = r.Start.Day
		}
	}
	for d := range one.dates(r.Start) {
		return d, true
	}
	return Date{}, false
}

// instants yields r's occurrences in loc in order, starting at most a day
// before after's local date (a gap can move an occurrence past midnight),
// honouring Count by counting from Start.
func (r Rule) instants(after time.Time, loc *time.Location) iter.Seq[time.Time] {
	return func(yield func(time.Time) bool) {
		near := dayNum(DateOf(after, loc)) - 1
		from := fromDayNum(near)
		if r.Count > 0 {
			from = r.Start
		}
		n := 0
		for d := range r.dates(from) {
			n++
			if r.Count > 0 && n > r.Count {
				return
			}
			if dayNum(d) < near || slices.Contains(r.Skip, d) {
				// Counted but certainly not after after (skip
				// resolving), or skipped.
				continue
			}
			if !yield(At(d, r.At, loc)) {
				return
			}
		}
	}
}

// Next returns the first occurrence of r strictly after after, computed on
// local dates in loc, and false when there is none (the rule has ended,
// is invalid, or loc is nil — there is no host-zone fallback).
func (r Rule) Next(after time.Time, loc *time.Location) (time.Time, bool) {
	if loc == nil || r.Validate() != nil {
		return time.Time{}, false
	}
	for t := range r.instants(after, loc) {
		if t.After(after) {
			return t.In(loc), true
		}
	}
	return time.Time{}, false
}

// Between returns the occurrences t of r with from < t <= to, in order and
// in loc, at most MaxBetween of them (the earliest). The half-open window
// matches Next: catching up from the last fired instant to now returns
// exactly the occurrences not yet fired. It returns nil for an invalid rule
// or a nil loc.
func (r Rule) Between(from, to time.Time, loc *time.Location) []time.Time {
	if loc == nil || !to.After(from) || r.Validate() != nil {
		return nil
	}
	var out []time.Time
	for t := range r.instants(from, loc) {
		if t.After(to) || len(out) == MaxBetween {
			break
		}
		if t.After(from) {
			out = append(out, t.In(loc))
		}
	}
	return out
}

// LeadTimes returns the reminder instants for a date-only deadline: for
// each n in days, n days before the due date at the local time at in loc
// (DST-correct as At), keeping only those strictly after now, sorted and
// without duplicates. Days outside 0..3660 are ignored.
//
// Only due's year, month and day as recorded in its own location are used:
// a date-only deadline has no instant, and a Postgres date scanned by pgx
// arrives as midnight UTC, which converted to New York would be the day
// before. It returns nil for an invalid at or a nil loc.
func LeadTimes(due time.Time, days []int, at TimeOfDay, loc *time.Location, now time.Time) []time.Time {
	if loc == nil || !at.Valid() {
		return nil
	}
	dueDay := dayNum(DateOf(due, nil))
	var out []time.Time
	for _, n := range days {
		if n < 0 || n > 3660 {
			continue
		}
		t := At(fromDayNum(dueDay-int64(n)), at, loc)
		if t.After(now) {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b time.Time) int { return a.Compare(b) })
	return slices.CompactFunc(out, time.Time.Equal)
}

// nthWeekday is the day of month mo of year y that is its nth weekday d
// (LastDay: the last), or 0 when the month has no such day (a fifth).
func nthWeekday(y int, mo time.Month, d time.Weekday, nth int) int {
	first := weekdayOf(dayNum(Date{y, mo, 1}))
	day := 1 + (int(d)-int(first)+7)%7
	if nth == LastDay {
		for day+7 <= daysIn(y, mo) {
			day += 7
		}
		return day
	}
	day += 7 * (nth - 1)
	if day > daysIn(y, mo) {
		return 0
	}
	return day
}
