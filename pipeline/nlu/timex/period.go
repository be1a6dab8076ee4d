package timex

import "time"

// Date rules for periods and offsets: "next week", "the weekend", "Q3",
// "the 2nd tuesday of march", holidays, "in 3 days", "a week from
// friday", seasons.

// periodUnit reads the unit of a period: "week", "month", "qtr", "yr",
// "weekend", "day", "hour".
func periodUnit(w string) (Grain, bool) {
	u, ok := unitWords[w]
	if !ok || u.n != 1 || w == "h" || w == "s" {
		return 0, false
	}
	switch w {
	case "weeks", "months", "years", "days", "hours", "quarters", "minutes", "seconds", "yrs", "qtrs", "wks", "mins", "secs", "hrs":
		return 0, false
	}
	return u.g, true
}

// datePeriod reads "this week", "next month", "last yr", "current year",
// "the following week", "around next week", "this weekend", "next season".
func (p *parser) datePeriod(i int) (dateResult, bool) {
	j := p.opt(i, "around", "about")
	j = p.opt(j, "the")
	dir, ok := relWords[p.word(j)]
	if !ok {
		if p.word(j) == "weekend" && j > i {
			return p.weekendOf(0, j+1)
		}
		return dateResult{}, false
	}
	w := p.word(j + 1)
	if w == "weekend" || w == "week" && p.word(j+2) == "end" {
		e := j + 2
		if w == "week" {
			e++
		}
		return p.weekendOf(dir, e)
	}
	g, ok := periodUnit(w)
	if !ok {
		return dateResult{}, false
	}
	t, ok := add(trunc(p.ref, g), g, int64(dir))
	if !ok {
		return dateResult{}, false
	}
	return dateResult{d: spanDate(p.periodSpan(t, g)), end: j + 2}, true
}

// weekendOf returns the weekend of the week k weeks away: Friday 18:00 to
// Monday 00:00, as Duckling defines it.
func (p *parser) weekendOf(k, end int) (dateResult, bool) {
	fri := p.weekdayOfWeek(time.Friday, k)
	return dateResult{d: spanDate(weekendFrom(fri)), end: end}, true
}

func weekendFrom(fri time.Time) span {
	start := wall(fri.Year(), int(fri.Month()), fri.Day(), 18, 0, 0, fri.Location())
	return span{start: start, end: addDays(dayStart(fri), 3), g: Hour, interval: true}
}

// dateQuarter reads "Q3", "q3 2014", "2018Q4", "3rd quarter", "the 4th qtr
// of 2018".
func (p *parser) dateQuarter(i int) (dateResult, bool) {
	q, y, hasY, e := 0, 0, false, i
	switch {
	case p.word(i) == "q" && p.glued(i+1):
		n, ok := p.num(i+1, 1)
		if !ok {
			return dateResult{}, false
		}
		q, e = n, i+2
	case p.toks != nil && i < len(p.toks) && p.toks[i].kind == tNum && len(p.toks[i].s) == 4 && p.word(i+1) == "q" && p.glued(i+1) && p.glued(i+2):
		n, ok := p.num(i+2, 1)
		if !ok {
			return dateResult{}, false
		}
		q, y, hasY, e = n, p.toks[i].n, true, i+3
	default:
		j := p.opt(i, "the")
		n, k, ok := p.ordinal(j)
		if !ok {
			return dateResult{}, false
		}
		if w := p.word(k); w != "quarter" && w != "qtr" {
			return dateResult{}, false
		}
		q, e = n, k+1
	}
	if q < 1 || q > 4 {
		return dateResult{}, false
	}
	if !hasY {
		k := p.opt(e, "of")
		if yy, e2, ok := p.yearSuffix(k); ok {
			y, hasY, e = yy, true, e2
		}
	}
	if !hasY {
		y = p.today.Year()
	}
	start := wall(y, 3*q-2, 1, 0, 0, 0, p.loc)
	return dateResult{d: spanDate(span{start: start, end: next(start, Quarter), g: Quarter}), end: e}, true
}

// monthTarget reads the month or year an ordinal refers to: "october",
// "october 2014", "the month", "last month", "the next month", "2018".
// It returns the period's start and its grain (Month or Year).
func (p *parser) monthTarget(i int) (time.Time, Grain, int, bool) {
	j := p.opt(i, "the")
	if m, e, ok := p.monthWord(j); ok {
		if y, e2, ok := p.yearSuffix(e); ok {
			return wall(y, m, 1, 0, 0, 0, p.loc), Month, e2, true
		}
		y := p.today.Year()
		if m < int(p.today.Month()) {
			y++
		}
		return wall(y, m, 1, 0, 0, 0, p.loc), Month, e, true
	}
	if w := p.word(j); w == "month" || w == "year" {
		g := Month
		if w == "year" {
			g = Year
		}
		return trunc(p.ref, g), g, j + 1, true
	}
	if dir, ok := relWords[p.word(j)]; ok {
		if g, ok := periodUnit(p.word(j + 1)); ok && (g == Month || g == Year) {
			t, _ := add(trunc(p.ref, g), g, int64(dir))
			return t, g, j + 2, true
		}
	}
	if y, e, ok := p.year(j); ok {
		return wall(y, 1, 1, 0, 0, 0, p.loc), Year, e, true
	}
	return time.Time{}, 0, i, false
}

// dateNth reads ordinal selections inside a month or year: "first tuesday
// of october", "last Monday of March", "third day of october", "the 5th last
// day of May", "last day in october 2015", "third last week of 2018",
// "20th of the next month", "last weekend of October", "the week of october
// 7th".
func (p *parser) dateNth(i int) (dateResult, bool) {
	j := p.opt(i, "the")
	if p.word(j) == "week" && p.word(j+1) == "of" {
		r, ok := p.dateAt(j + 2)
		if ok && r.d.kind == dkCal {
			if s, ok := p.resolveCal(r.d.cal); ok && s.g == Day {
				return dateResult{d: spanDate(p.periodSpan(s.start, Week)), end: r.end}, true
			}
		}
		return dateResult{}, false
	}
	n, k, ok := p.ordinal(j)
	if !ok {
		if p.word(j) != "last" {
			return dateResult{}, false
		}
		n, k = -1, j+1
	} else if p.word(k) == "last" {
		n, k = -n, k+1
	}
	var (
		wd    time.Weekday
		isWD  bool
		what  = ""
		after = k
	)
	if w, e, ok := p.weekdayWord(k); ok {
		wd, isWD, after = w, true, e
	} else if w := p.word(k); w == "week" && p.word(k+1) == "end" {
		what, after = "weekend", k+2
	} else if w == "day" || w == "week" || w == "weekend" {
		what, after = w, k+1
	}
	of, ok := p.oneOf(after, "of", "in")
	if !ok {
		return dateResult{}, false
	}
	start, g, end, ok := p.monthTarget(of)
	if !ok {
		return dateResult{}, false
	}
	if !isWD && what == "" {
		// "20th of the next month"
		if g != Month || n < 1 || n > daysIn(start.Year(), int(start.Month())) || k == j {
			return dateResult{}, false
		}
		return dateResult{d: spanDate(p.periodSpan(addDays(start, n-1), Day)), end: end}, true
	}
	periodEnd := next(start, g)
	var t time.Time
	switch {
	case isWD || what == "weekend":
		w := wd
		if what == "weekend" {
			w = time.Friday
		}
		if n > 0 {
			t = addDays(start, (int(w)-int(start.Weekday())+7)%7+7*(n-1))
		} else {
			last := addDays(periodEnd, -1)
			t = addDays(last, -((int(last.Weekday())-int(w)+7)%7)+7*(n+1))
		}
		if what == "weekend" {
			if t.Before(start) || !t.Before(periodEnd) {
				return dateResult{}, false
			}
			return dateResult{d: spanDate(weekendFrom(t)), end: end}, true
		}
	case what == "day":
		if n > 0 {
			t = addDays(start, n-1)
		} else {
			t = addDays(periodEnd, n)
		}
	case what == "week":
		// Weeks wholly inside the period, as Duckling counts them.
		first := addDays(start, (8-int(start.Weekday()))%7)
		if n > 0 {
			t = addDays(first, 7*(n-1))
		} else {
			lastMon := addDays(periodEnd, -7-mondayIndex(periodEnd.Weekday()))
			t = addDays(lastMon, 7*(n+1))
		}
		if t.Before(start) || addDays(t, 7).After(periodEnd) {
			return dateResult{}, false
		}
		return dateResult{d: spanDate(p.periodSpan(t, Week)), end: end}, true
	}
	if t.Before(start) || !t.Before(periodEnd) {
		return dateResult{}, false
	}
	return dateResult{d: spanDate(p.periodSpan(t, Day)), end: end}, true
}

// offsetGrain is the grain of "in N <unit>": one finer than the unit,
// because Duckling keeps sub-unit precision ("in 3 days" keeps the hour).
func offsetGrain(g Grain) Grain {
	switch g {
	case Second, Minute:
		return Second
	case Hour:
		return Minute
	case Day:
		return Hour
	case Week, Month, Quarter:
		return Day
	default:
		return Month
	}
}

// wholeUnits turns a fractional quantity of a unit into a whole number of
// a finer unit: 2.5 hours is 150 minutes.
func wholeUnits(q float64, u unit) (int64, Grain, bool) {
	q *= float64(u.n)
	g := u.g
	for q != float64(int64(q)) && g > Second {
		switch g {
		case Year:
			q, g = q*12, Month
		case Quarter:
			q, g = q*3, Month
		case Month:
			q, g = q*30, Day
		case Week:
			q, g = q*7, Day
		case Day:
			q, g = q*24, Hour
		default:
			q, g = q*60, g-1
		}
	}
	if q > 1e12 || q < 0 {
		return 0, 0, false
	}
	return int64(q + 0.5), g, true
}

// offsetFrom moves base by q units and returns the result at the offset
// grain, or at day grain when base is a day ("3 years from today").
func (p *parser) offsetFrom(base time.Time, baseIsDay bool, q float64, u unit, sign int64) (span, bool) {
	n, g, ok := wholeUnits(q, u)
	if !ok {
		return span{}, false
	}
	t, ok := add(base, g, sign*n)
	if !ok {
		return span{}, false
	}
	og := offsetGrain(g)
	if baseIsDay {
		og = Day
	}
	return p.periodSpan(t, og), true
}

// dateOffset reads "in 2 hours", "in a couple of days", "in 15'", "2 weeks
// from now", "a week from tomorrow", "3 days ago", "7 days hence", "3
// fridays from now", "2 thursdays ago", "a year from christmas".
func (p *parser) dateOffset(i int) (dateResult, bool) {
	if p.word(i) == "in" {
		j := p.opt(i+1, "about", "around", "approximately", "roughly", "just", "another")
		q, k, ok := p.quantity(j)
		if !ok {
			return dateResult{}, false
		}
		u, e, ok := p.unitAt(k)
		if dq, du, de, dok := p.durationAt(j); dok && de > e {
			q, u, e, ok = dq, du, de, true
		}
		switch {
		case ok:
		case p.is(k, "\"") && p.glued(k):
			u, e, ok = unit{Second, 1}, k+1, true
		case p.is(k, "'") && p.glued(k):
			u, e, ok = unit{Minute, 1}, k+1, true
		}
		if !ok {
			return dateResult{}, false
		}
		s, ok := p.offsetFrom(p.ref, false, q, u, 1)
		if !ok {
			return dateResult{}, false
		}
		return dateResult{d: spanDate(s), end: e}, true
	}
	q, k, ok := p.quantity(i)
	if !ok {
		return dateResult{}, false
	}
	// "3 fridays from now", "2 thursdays ago"
	if wd, e, ok := p.weekdayWord(k); ok && q >= 1 && q == float64(int(q)) && q < 10000 {
		n := int(q)
		switch {
		case p.word(e) == "from" && p.word(e+1) == "now", p.word(e) == "hence":
			end := e + 1
			if p.word(e) == "from" {
				end = e + 2
			}
			return dateResult{d: spanDate(p.periodSpan(weekdayAfter(p.today, wd, n), Day)), end: end}, true
		case p.word(e) == "ago":
			return dateResult{d: spanDate(p.periodSpan(weekdayAfter(p.today, wd, -n), Day)), end: e + 1}, true
		}
		return dateResult{}, false
	}
	q, u, e, ok := p.durationAt(i)
	if !ok {
		return dateResult{}, false
	}
	switch w := p.word(e); {
	case w == "ago" || w == "earlier" || w == "before" && p.word(e+1) == "now":
		end := e + 1
		if w == "before" {
			end++
		}
		s, ok := p.offsetFrom(p.ref, false, q, u, -1)
		return dateResult{d: spanDate(s), end: end}, ok
	case w == "hence" || w == "later" || w == "from" && p.word(e+1) == "now":
		end := e + 1
		if w == "from" {
			end++
		}
		s, ok := p.offsetFrom(p.ref, false, q, u, 1)
		return dateResult{d: spanDate(s), end: end}, ok
	case w == "from" || w == "after" || w == "before":
		// "a week from tomorrow", "a year from christmas", "2 days
		// before new year's eve": an offset from a day.
		r, ok := p.dateAt(e + 1)
		if !ok || r.latent {
			// "15 minutes from 1pm", "2 hours after noon": an offset
			// from a time of day.
			if f, fe, ok := p.frameAt(e+1, true); ok && f.hasClock {
				if base, ok := p.resolve(f); ok {
					sign := int64(1)
					if w == "before" {
						sign = -1
					}
					s, ok := p.offsetFrom(base.start, false, q, u, sign)
					if ok && s.g < Minute {
						s = p.periodSpan(s.start, Minute)
					}
					return dateResult{d: spanDate(s), end: fe}, ok
				}
			}
			return dateResult{}, false
		}
		base, ok := p.resolveDate(r.d)
		if !ok || base.g > Day && base.g != Week || base.interval {
			return dateResult{}, false
		}
		sign := int64(1)
		if w == "before" {
			sign = -1
		}
		s, ok := p.offsetFrom(base.start, true, q, u, sign)
		if ok && s.g < base.g {
			s = p.periodSpan(s.start, base.g)
		}
		return dateResult{d: spanDate(s), end: r.end}, ok
	}
	return dateResult{}, false
}

// unitSeconds is the length of the fixed units, which durations may mix
// ("an hour and 30 minutes").
var unitSeconds = map[Grain]float64{Second: 1, Minute: 60, Hour: 3600, Day: 86400, Week: 7 * 86400}

// durationAt reads an amount of time: "2 hours", "2 more minutes", "two
// and a half hours", "an hour and a half", "1 hour and 30 minutes", "a
// day and 2 hours". It returns the amount in the finest unit it names.
func (p *parser) durationAt(i int) (float64, unit, int, bool) {
	q, k, ok := p.quantity(i)
	if !ok {
		return 0, unit{}, i, false
	}
	k = p.opt(k, "more", "additional", "extra", "further")
	if p.word(k) == "and" {
		// "two and a half hours"
		if f, k2, ok := p.quantity(k + 1); ok && f < 1 && f > 0 {
			if _, _, ok := p.unitAt(k2); ok {
				q, k = q+f, k2
			}
		}
	}
	u, e, ok := p.unitAt(k)
	if !ok {
		return 0, unit{}, i, false
	}
	if e2, ok := p.phrase(e, "and a half"); ok {
		return q + 0.5, u, e2, true
	}
	j := e
	if p.word(j) == "and" || p.is(j, ",") {
		j++
	}
	q2, k2, ok := p.quantity(j)
	if !ok {
		return q, u, e, true
	}
	u2, e2, ok := p.unitAt(k2)
	big, ok1 := unitSeconds[u.g]
	small, ok2 := unitSeconds[u2.g]
	if !ok || !ok1 || !ok2 || u2.g >= u.g {
		return q, u, e, true
	}
	total := q*float64(u.n)*big/small + q2*float64(u2.n)
	return total, unit{u2.g, 1}, e2, true
}

// dateUpcoming reads "upcoming two weeks" and "2 upcoming days": the unit
// that many units ahead, as Duckling reads them.
func (p *parser) dateUpcoming(i int) (dateResult, bool) {
	j := i
	lead := false
	if k, ok := p.oneOf(j, "upcoming"); ok {
		j, lead = k, true
	}
	n, k, ok := p.cardinal(j, 10000)
	if !ok {
		return dateResult{}, false
	}
	if !lead {
		var ok bool
		if k, ok = p.oneOf(k, "upcoming"); !ok {
			return dateResult{}, false
		}
	}
	u, e, ok := p.unitAt(k)
	if !ok || u.n != 1 {
		return dateResult{}, false
	}
	t, ok := add(trunc(p.ref, u.g), u.g, int64(n))
	if !ok {
		return dateResult{}, false
	}
	return dateResult{d: spanDate(p.periodSpan(t, u.g)), end: e}, true
}

// seasons are meteorological approximations of the astronomical seasons,
// with Duckling's boundaries: [start, end) as month and day.
var seasons = map[string][4]int{
	"spring": {3, 20, 6, 21},
	"summer": {6, 21, 9, 24},
	"fall":   {9, 23, 12, 21}, "autumn": {9, 23, 12, 21},
	"winter": {12, 21, 3, 21},
}

// dateSeason reads "this summer", "next winter", "last fall", "summer":
// the season containing the reference (this), or the next/last one.
func (p *parser) dateSeason(i int) (dateResult, bool) {
	j := p.opt(i, "the")
	dir, hasDir := relWords[p.word(j)]
	if hasDir {
		j++
	}
	b, ok := seasons[p.word(j)]
	if !ok {
		return dateResult{}, false
	}
	in := func(y int) span {
		start := wall(y, b[0], b[1], 0, 0, 0, p.loc)
		ey := y
		if b[2] < b[0] {
			ey++
		}
		return span{start: start, end: wall(ey, b[2], b[3], 0, 0, 0, p.loc), g: Day, interval: true}
	}
	y := p.today.Year()
	s := in(y - 1)
	for !p.today.Before(s.end) {
		y++
		s = in(y - 1)
	}
	// s is the first occurrence that has not ended yet.
	switch {
	case hasDir && dir > 0 && !p.today.Before(s.start):
		s = in(y)
	case hasDir && dir < 0:
		if !p.today.Before(s.start) {
			s = in(y - 2)
		} else {
			s = in(y - 2)
		}
	}
	return dateResult{d: spanDate(s), end: j + 1, latent: !hasDir}, true
}
