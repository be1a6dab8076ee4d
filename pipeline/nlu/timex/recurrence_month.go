package timex

import (
	"time"

	"github.com/hearthbot/hearth/scheduler/recur"
)

// The days of a month a recurrence names: "the 15th", "the last day",
// "the first Sunday", "March 15", and "of every month" after them.

// nthNames are the words that count the weekdays of a month.
var nthNames = map[string]int{"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3,
	"fourth": 4, "4th": 4, "fifth": 5, "5th": 5, "last": recur.LastDay}

// nthWeekday reads "first Sunday", "the last Friday", "on the 2nd
// Tuesday": a weekday of a month, counted.
func (p *rparser) nthWeekday(i int) (nth int, day time.Weekday, end int, ok bool) {
	j := p.skip(p.skip(i, "on"), "the")
	nth, ok = nthNames[p.word(j)]
	if !ok {
		return 0, 0, i, false
	}
	day, ok = weekdayWord(p.word(j + 1))
	if !ok {
		return 0, 0, i, false
	}
	return nth, day, j + 2, true
}

// ofMonth reads "of the month", "of every month", "of each other month"
// after a day of one, and the interval it names (1 unless "other" or a
// count). ok is false when there is none.
func (p *rparser) ofMonth(i int) (iv, end int, ok bool) {
	if !p.is(i, "of") {
		return 1, i, false
	}
	j := i + 1
	if p.is(j, "the") && p.is(j+1, "month") {
		return 1, j + 2, true
	}
	if !p.is(j, "every", "each") {
		return 1, i, false
	}
	iv, k := p.interval(j + 1)
	if !p.is(k, "month", "months") {
		return 1, i, false
	}
	return iv, k + 1, true
}

// monthDay reads "on the 15th", "the 1st", "on the last day", "15th".
func (p *rparser) monthDay(i int) (int, int, bool) {
	j := i
	if p.is(j, "on") {
		j++
	}
	if p.is(j, "the") {
		j++
	}
	if p.is(j, "last") {
		j++
		if p.is(j, "day") {
			j++
		}
		return recur.LastDay, j, true
	}
	d, ok := p.dayOfMonth(j)
	if !ok {
		return 0, i, false
	}
	j++
	if p.is(j, "day") {
		j++
	}
	return d, j, true
}

// date reads "March 15", "March 15th", "15 March", "the 15th of March",
// optionally after "on". It refuses days a month never has (February 30).
func (p *rparser) date(i int) (time.Month, int, int, bool) {
	j := i
	if p.is(j, "on") {
		j++
	}
	if m, ok := monthWord(p.word(j)); ok {
		if p.is(j+1, "the") {
			j++
		}
		if d, ok := p.dayOfMonth(j + 1); ok && d <= daysIn(2000, int(m)) {
			return m, d, j + 2, true
		}
		return 0, 0, i, false
	}
	if p.is(j, "the") {
		j++
	}
	if p.is(j, "last") && p.is(j+1, "day") && p.is(j+2, "of") {
		if m, ok := monthWord(p.word(j + 3)); ok {
			return m, recur.LastDay, j + 4, true
		}
	}
	d, ok := p.dayOfMonth(j)
	if !ok {
		return 0, 0, i, false
	}
	j++
	if p.is(j, "of") {
		j++
	}
	if m, ok := monthWord(p.word(j)); ok && d <= daysIn(2000, int(m)) {
		return m, d, j + 1, true
	}
	return 0, 0, i, false
}

// dayOfEveryMonth reads "on the 1st of every month", "the last day of each
// month", "the 15th of every other month", "the first Sunday of the
// month".
func (p *rparser) dayOfEveryMonth(i int) (recur.Rule, int, bool) {
	if !p.is(i, "on", "the") {
		return recur.Rule{}, i, false
	}
	if nth, d, j, ok := p.nthWeekday(i); ok {
		// "on the first Sunday of every month", "the last Friday of the
		// month": said of a weekday, "the month" is every month.
		iv, e, ok := p.ofMonth(j)
		if !ok {
			return recur.Rule{}, i, false
		}
		return recur.Rule{Freq: recur.Monthly, Interval: iv, Nth: nth, Weekdays: recur.WeekdaysOf(d), At: defaultAt}, e, true
	}
	d, j, ok := p.monthDay(i)
	if !ok || !p.is(j, "of") || !p.is(j+1, "every", "each") {
		return recur.Rule{}, i, false
	}
	iv, k := p.interval(j + 2)
	if !p.is(k, "month", "months") {
		return recur.Rule{}, i, false
	}
	return recur.Rule{Freq: recur.Monthly, Interval: iv, MonthDay: d, At: defaultAt}, k + 1, true
}
