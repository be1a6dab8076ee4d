package timex

import "time"

// Holidays by name: "thanksgiving 2014", "next halloween", "xmas".

// dateHoliday reads a holiday name with an optional "this/next/last" before
// it and a year after it: "thanksgiving 2014", "next halloween", "xmas".
func (p *parser) dateHoliday(i int) (dateResult, bool) {
	j := i
	dir, hasDir := 0, false
	if d, ok := relWords[p.word(j)]; ok {
		dir, hasDir, j = d, true, j+1
	}
	dateIn, e, ok := p.holidayName(j)
	if !ok {
		return dateResult{}, false
	}
	if y, e2, ok := p.yearSuffix(e); ok {
		t, ok := dateIn(y)
		if !ok {
			return dateResult{}, false
		}
		return dateResult{d: spanDate(p.periodSpan(t, Day)), end: e2}, true
	}
	y := p.today.Year()
	t, ok := dateIn(y)
	switch {
	case hasDir && dir < 0:
		if !ok || !t.Before(p.today) {
			t, ok = dateIn(y - 1)
		}
	default:
		if !ok || t.Before(p.today) {
			t, ok = dateIn(y + 1)
		}
	}
	if !ok {
		return dateResult{}, false
	}
	return dateResult{d: spanDate(p.periodSpan(t, Day)), end: e}, true
}

// holidayName matches the longest holiday name at i and returns how to
// place it in a given year.
func (p *parser) holidayName(i int) (func(int) (time.Time, bool), int, bool) {
	if !holidayFirst[p.word(i)] {
		return nil, i, false
	}
	best := i
	var fn func(int) (time.Time, bool)
	loc := p.loc
	for _, h := range fixedHolidays {
		for _, n := range h.names {
			if e, ok := p.phrase(i, n); ok && e > best {
				m, d := h.m, h.d
				best, fn = e, func(y int) (time.Time, bool) { return wall(y, m, d, 0, 0, 0, loc), true }
			}
		}
	}
	for _, h := range nthWeekdayHolidays {
		for _, n := range h.names {
			if e, ok := p.phrase(i, n); ok && e > best {
				h := h
				best, fn = e, func(y int) (time.Time, bool) {
					d := nthWeekdayOfMonth(y, h.m, h.wd, h.n)
					if d == 0 {
						return time.Time{}, false
					}
					return wall(y, h.m, d+h.plus, 0, 0, 0, loc), true
				}
			}
		}
	}
	for _, h := range easterHolidays {
		for _, n := range h.names {
			if e, ok := p.phrase(i, n); ok && e > best {
				days := h.days
				best, fn = e, func(y int) (time.Time, bool) {
					m, d := easter(y)
					return wall(y, m, d+days, 0, 0, 0, loc), true
				}
			}
		}
	}
	if fn == nil {
		return nil, i, false
	}
	// "christmas day" already includes "day"; "thanksgiving day" too.
	return fn, best, true
}
