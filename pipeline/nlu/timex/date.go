package timex

import "time"

// Date rules: "tomorrow", "next monday", "March 15th", "15/3", "2026-03-15",
// "Q3", "next month", "the first tuesday of october", holidays, and
// relative offsets ("in 2 hours", "3 fridays from now").

type dkind uint8

const (
	// dkCal is a possibly partial calendar date ("March 15", "the 15th",
	// "friday"), resolved to its next occurrence.
	dkCal dkind = iota + 1
	// dkSpan is a concrete period already placed relative to the
	// reference ("tomorrow", "next week", "Q3").
	dkSpan
)

// calDate holds the calendar fields an expression names.
type calDate struct {
	y, m, d          int
	hasY, hasM, hasD bool
	wd               time.Weekday
	hasWD            bool
}

// dpart is the date half of an expression.
type dpart struct {
	kind dkind
	cal  calDate
	sp   span
}

// span is a resolved time: [start, end) at a grain. interval marks
// expressions that denote a stretch of time rather than an instant at a
// grain (a part of day, a weekend, "end of the month").
type span struct {
	start, end time.Time
	g          Grain
	interval   bool
}

func (p *parser) periodSpan(t time.Time, g Grain) span {
	s := trunc(t, g)
	return span{start: s, end: next(s, g), g: g}
}

func spanDate(s span) dpart { return dpart{kind: dkSpan, sp: s} }

// dateResult is what a date rule recognised.
type dateResult struct {
	d      dpart
	end    int
	latent bool
	dom    int // a lone day-of-month number ("the 13th"), see frame.dom
}

// dateAt tries every date rule at i and keeps the longest.
func (p *parser) dateAt(i int) (dateResult, bool) {
	var best dateResult
	best.end = i
	try := func(r dateResult, ok bool) {
		if ok && r.end > best.end {
			best = r
		}
	}
	// Rules nest ("a week from next friday", "the week of march 3rd");
	// the depth bound keeps adversarial chains linear.
	if p.depth >= maxDepth {
		return best, false
	}
	p.depth++
	defer func() { p.depth-- }()
	j := i
	on := false
	if k, ok := p.oneOf(j, "on", "in", "of", "for", "during"); ok {
		j, on = k, true
	}
	if on {
		try(p.dateOffset(i)) // "in 2 hours" keeps its "in"
	}
	try(p.dateSeason(i))
	try(p.dateRelativeDay(j))
	try(p.dateWeekday(j))
	try(p.dateMonthDay(j, on))
	try(p.dateNumeric(j))
	try(p.dateYear(j, on))
	try(p.datePeriod(j))
	try(p.dateQuarter(j))
	try(p.dateNth(j))
	try(p.dateHoliday(j))
	try(p.dateOffset(j))
	try(p.dateUpcoming(j))
	if best.end == i || (on && best.end == j) {
		return best, false
	}
	if on && p.word(i) == "in" && best.latent {
		best.latent = false // "in May", "in 2014"
	}
	if on && p.word(i) == "on" && best.dom > 0 {
		best.latent = false // "on the 24"
	}
	return best, true
}

// dateRelativeDay reads "today", "tomorrow", "yesterday", "the day after
// tomorrow", "now".
func (p *parser) dateRelativeDay(i int) (dateResult, bool) {
	day := func(n, end int) (dateResult, bool) {
		return dateResult{d: spanDate(p.periodSpan(addDays(p.today, n), Day)), end: end}, true
	}
	switch p.word(i) {
	case "today", "tdy":
		return day(0, i+1)
	case "tomorrow", "tmrw", "tmr", "tomorow", "tommorow", "tommorrow":
		return day(1, i+1)
	case "yesterday", "yday":
		return day(-1, i+1)
	case "now", "atm", "asap":
		if p.word(i) == "asap" {
			return dateResult{}, false // an open interval, see intervalOpen
		}
		return dateResult{d: spanDate(span{start: trunc(p.ref, Second), end: trunc(p.ref, Second).Add(time.Second), g: Second}), end: i + 1}, true
	case "right", "just":
		if p.word(i+1) == "now" {
			r, _ := p.dateRelativeDay(i + 1)
			r.end = i + 2
			return r, true
		}
	}
	j := p.opt(i, "the")
	if p.word(j) == "day" {
		switch {
		case p.word(j+1) == "after" && p.word(j+2) == "tomorrow":
			return day(2, j+3)
		case p.word(j+1) == "before" && p.word(j+2) == "yesterday":
			return day(-2, j+3)
		}
	}
	if e, ok := p.phrase(i, "at the moment"); ok {
		now := trunc(p.ref, Second)
		return dateResult{d: spanDate(span{start: now, end: now.Add(time.Second), g: Second}), end: e}, true
	}
	return dateResult{}, false
}

// weekdayWord reads a weekday name, guarding abbreviations that are also
// ordinary words ("I sat down").
func (p *parser) weekdayWord(i int) (time.Weekday, int, bool) {
	w := p.word(i)
	wd, ok := weekdayWords[w]
	if !ok {
		return 0, i, false
	}
	if ambiguousWeekday[w] && weekdayGuard[p.word(i-1)] {
		return 0, i, false
	}
	j := i + 1
	if len(w) <= 4 && p.is(j, ".") && p.glued(j) {
		j++ // "fri."
	}
	return wd, j, true
}

// weekdayAfter returns the n-th day with weekday wd strictly after day
// (n >= 1), or strictly before it (n <= -1).
func weekdayAfter(day time.Time, wd time.Weekday, n int) time.Time {
	if n > 0 {
		delta := (int(wd)-int(day.Weekday())+6)%7 + 1
		return addDays(day, delta+7*(n-1))
	}
	delta := (int(day.Weekday())-int(wd)+6)%7 + 1
	return addDays(day, -delta+7*(n+1))
}

// weekdayOfWeek returns the day with weekday wd in the week (Monday first)
// that is k weeks from the reference's week.
func (p *parser) weekdayOfWeek(wd time.Weekday, k int) time.Time {
	monday := addDays(p.today, -mondayIndex(p.today.Weekday())+7*k)
	return addDays(monday, mondayIndex(wd))
}

// weekRel reads "this week", "next week", "last week", "the following week",
// "coming week" and returns the week offset.
func (p *parser) weekRel(i int) (int, int, bool) {
	j := p.opt(i, "the")
	dir, ok := relWords[p.word(j)]
	if !ok || p.word(j+1) != "week" {
		return 0, i, false
	}
	return dir, j + 2, true
}

// dateWeekday reads "friday", "this monday", "next tuesday", "last
// tuesday", "friday after next", "wednesday of next week", "sunday from
// last week".
func (p *parser) dateWeekday(i int) (dateResult, bool) {
	j := i
	dir, hasDir := 0, false
	if d, ok := relWords[p.word(j)]; ok {
		dir, hasDir, j = d, true, j+1
	}
	wd, j, ok := p.weekdayWord(j)
	if !ok {
		return dateResult{}, false
	}
	day := func(t time.Time, end int) (dateResult, bool) {
		return dateResult{d: spanDate(p.periodSpan(t, Day)), end: end}, true
	}
	if !hasDir {
		if p.word(j) == "after" && p.word(j+1) == "next" {
			return day(weekdayAfter(p.today, wd, 2), j+2)
		}
		k := p.opt(j, "of", "from", "in")
		if wk, e, ok := p.weekRel(k); ok {
			return day(p.weekdayOfWeek(wd, wk), e)
		}
		return dateResult{d: dpart{kind: dkCal, cal: calDate{wd: wd, hasWD: true}}, end: j}, true
	}
	switch {
	case dir == 0:
		// "this monday": the next one, as plain "monday".
		return day(weekdayAfter(p.today, wd, 1), j)
	case dir > 0:
		if p.word(i) == "coming" || p.word(i) == "upcoming" {
			return day(weekdayAfter(p.today, wd, 1), j)
		}
		return day(p.weekdayOfWeek(wd, 1), j)
	default:
		return day(weekdayAfter(p.today, wd, -1), j)
	}
}

// monthWord reads a month name, with an optional dot after abbreviations.
func (p *parser) monthWord(i int) (int, int, bool) {
	w := p.word(i)
	m, ok := monthWords[w]
	if !ok {
		return 0, i, false
	}
	j := i + 1
	if len(w) <= 4 && p.is(j, ".") && p.glued(j) {
		j++
	}
	return m, j, true
}

// dayOfMonth reads a day number: "15", "15th", "fifteenth", "the 15th".
// ordinal reports a written ordinal.
func (p *parser) dayOfMonth(i int) (d, end int, ordinal bool, ok bool) {
	if n, e, ok := p.ordinal(i); ok && n >= 1 && n <= 31 {
		return n, e, true, true
	}
	if n, ok := p.num(i, 2); ok && n >= 1 && n <= 31 {
		return n, i + 1, false, true
	}
	return 0, i, false, false
}

// dateMonthDay reads "March 15th", "15 of february", "the 15th of March
// 2015", "Mon, Feb13", "31-Oct-74", "October 2014", "March", "the 15th",
// "the ides of march".
func (p *parser) dateMonthDay(i int, on bool) (dateResult, bool) {
	var best dateResult
	best.end = i
	keep := func(r dateResult) {
		if r.end > best.end {
			best = r
		}
	}
	cal := func(c calDate) dpart { return dpart{kind: dkCal, cal: c} }
	withYear := func(c calDate, end int) (calDate, int) {
		if y, e, ok := p.yearSuffix(end); ok {
			c.y, c.hasY = y, true
			return c, e
		}
		// "31-Oct-74": a glued two-digit year after day-hyphen-month.
		if p.is(end, "-") && p.glued(end) && p.glued(end+1) && p.is(end-2, "-") && p.toks[end-3].kind == tNum {
			if n, ok := p.num(end+1, 2); ok && len(p.toks[end+1].s) == 2 {
				c.y, c.hasY = twoDigitYear(n), true
				return c, end + 2
			}
		}
		return c, end
	}
	// Month first: "March 15th", "march the 3rd", "March 2015", "March".
	if m, j, ok := p.monthWord(i); ok {
		c := calDate{m: m, hasM: true}
		k := p.opt(j, "the")
		if d, e, _, ok := p.dayOfMonth(k); ok && !(p.is(e, ":") || p.word(e) == "h" && p.glued(e)) {
			if !(d > 31) {
				c.d, c.hasD = d, true
				c2, e2 := withYear(c, e)
				keep(dateResult{d: cal(c2), end: e2})
			}
		}
		if y, e, ok := p.yearSuffix(j); ok {
			keep(dateResult{d: cal(calDate{y: y, hasY: true, m: m, hasM: true}), end: e})
		}
		if p.word(j) == "after" && p.word(j+1) == "next" {
			y := p.today.Year() + 1
			if m < int(p.today.Month()) {
				y++
			}
			keep(dateResult{d: cal(calDate{y: y, hasY: true, m: m, hasM: true}), end: j + 2})
		}
		keep(dateResult{d: cal(c), end: j, latent: !on})
	}
	// Day first: "15th of March", "15 february 2015", "the 15th", "4 of july".
	j := i
	the := false
	if k, ok := p.oneOf(j, "the"); ok {
		j, the = k, true
	}
	if d, e, ord, ok := p.dayOfMonth(j); ok {
		k := e
		if p.is(k, "-") && p.glued(k) {
			k++
		}
		k = p.opt(k, "of")
		if m, e2, ok := p.monthWord(k); ok && (k > e || p.word(k-1) == "of" || p.toks[k].sp || p.glued(k)) {
			c, e3 := withYear(calDate{m: m, hasM: true, d: d, hasD: true}, e2)
			keep(dateResult{d: cal(c), end: e3})
		}
		if ord || the {
			// a lone day of month: "the 15th", "on the first", "the 24".
			latent := !ord || (!on && p.toks[j].kind == tWord)
			keep(dateResult{d: cal(calDate{d: d, hasD: true}), end: e, latent: latent, dom: d})
		}
	}
	if e, ok := p.phrase(i, "the ides of"); ok {
		if m, e2, ok := p.monthWord(e); ok {
			d := 13
			switch m {
			case 3, 5, 7, 10:
				d = 15
			}
			keep(dateResult{d: cal(calDate{m: m, hasM: true, d: d, hasD: true}), end: e2})
		}
	}
	return best, best.end > i
}

// dateNumeric reads numeric dates: "2026-03-15", "2014/10", "10/31/74",
// "10.31.1974", "3/3/2015", "2/15", "2 - 15", "15/3". Month first, as in
// American usage, unless the first number cannot be a month.
func (p *parser) dateNumeric(i int) (dateResult, bool) {
	a, ok := p.num(i, 4)
	if !ok {
		return dateResult{}, false
	}
	sep := ""
	if j := i + 1; p.is(j, "/") || p.is(j, "-") || p.is(j, ".") {
		sep = p.toks[j].s
	}
	if sep == "" {
		return dateResult{}, false
	}
	b, ok := p.num(i+2, 2)
	if !ok {
		return dateResult{}, false
	}
	spaced := p.toks[i+1].sp || p.toks[i+2].sp
	if sep == "." && spaced {
		return dateResult{}, false
	}
	cal := func(c calDate, end int) (dateResult, bool) {
		if c.hasD && c.hasM && c.hasY && c.d > daysIn(c.y, c.m) || c.hasD && c.d > 31 {
			return dateResult{}, false
		}
		return dateResult{d: dpart{kind: dkCal, cal: c}, end: end}, true
	}
	aLen := len(p.toks[i].s)
	j := i + 3
	third := -1
	thirdLen := 0
	if (p.is(j, sep)) && p.glued(j) == !spaced && p.glued(j+1) == !spaced {
		if c, ok := p.num(j+1, 4); ok {
			third, thirdLen = c, len(p.toks[j+1].s)
		}
	}
	if aLen == 4 {
		// year first
		if b < 1 || b > 12 {
			return dateResult{}, false
		}
		if third >= 1 && third <= 31 && thirdLen <= 2 {
			return cal(calDate{y: a, m: b, d: third, hasY: true, hasM: true, hasD: true}, j+2)
		}
		if sep == "/" || sep == "-" {
			return cal(calDate{y: a, m: b, hasY: true, hasM: true}, i+3)
		}
		return dateResult{}, false
	}
	if aLen > 2 || a < 1 || b < 1 {
		return dateResult{}, false
	}
	m, d := a, b
	if m > 12 {
		m, d = d, m
	}
	if m > 12 || d > 31 {
		return dateResult{}, false
	}
	if third >= 0 && (thirdLen == 2 || thirdLen == 4) {
		y := third
		if thirdLen == 2 {
			y = twoDigitYear(third)
		}
		return cal(calDate{y: y, m: m, d: d, hasY: true, hasM: true, hasD: true}, j+2)
	}
	if sep == "." {
		return dateResult{}, false // "3.5" is a number, not a date
	}
	e := i + 3
	// "3-4pm", "9-11:30" and "1-8 september" are ranges, not dates.
	if sep == "-" {
		w := p.word(e)
		if w == "am" || w == "pm" || w == "a" || w == "p" || p.is(e, ":") || p.word(e) == "h" {
			return dateResult{}, false
		}
		if _, ok := monthWords[w]; ok {
			return dateResult{}, false
		}
	}
	return cal(calDate{m: m, d: d, hasM: true, hasD: true}, e)
}

// dateYear reads "2014", "in 2014", "2014 A.D.", "14 a.d.". A bare year is
// latent.
func (p *parser) dateYear(i int, on bool) (dateResult, bool) {
	y, e, ok := p.year(i)
	if !ok {
		return dateResult{}, false
	}
	hasEra := e > i+1
	return dateResult{d: dpart{kind: dkCal, cal: calDate{y: y, hasY: true}}, end: e, latent: !on && !hasEra}, true
}

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
		j := p.opt(i+1, "about", "around", "approximately", "roughly", "just")
		q, k, ok := p.quantity(j)
		if !ok {
			return dateResult{}, false
		}
		u, e, ok := p.unitAt(k)
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
	u, e, ok := p.unitAt(k)
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

// resolveCal places a partial calendar date on its next occurrence on or
// after the reference day.
func (p *parser) resolveCal(c calDate) (span, bool) {
	ty, tm, td := p.today.Year(), int(p.today.Month()), p.today.Day()
	day := func(y, m, d int) (span, bool) {
		if m < 1 || m > 12 || d < 1 || d > daysIn(y, m) {
			return span{}, false
		}
		return p.periodSpan(wall(y, m, d, 0, 0, 0, p.loc), Day), true
	}
	switch {
	case c.hasY && c.hasM && c.hasD:
		return day(c.y, c.m, c.d)
	case c.hasM && c.hasD && !c.hasY:
		y := ty
		if c.m < tm || c.m == tm && c.d < td {
			y++
		}
		for k := 0; k < 60; k++ {
			yy := y + k
			if c.d > daysIn(yy, c.m) {
				continue
			}
			if !c.hasWD || time.Date(yy, time.Month(c.m), c.d, 0, 0, 0, 0, time.UTC).Weekday() == c.wd {
				return day(yy, c.m, c.d)
			}
		}
		return span{}, false
	case c.hasD && !c.hasM && !c.hasY:
		y, m := ty, tm
		if c.d < td {
			m++
		}
		for k := 0; k < 60; k++ {
			yy, mm := y+(m-1+k)/12, (m-1+k)%12+1
			if c.d > daysIn(yy, mm) {
				continue
			}
			if !c.hasWD || time.Date(yy, time.Month(mm), c.d, 0, 0, 0, 0, time.UTC).Weekday() == c.wd {
				return day(yy, mm, c.d)
			}
		}
		return span{}, false
	case c.hasY && c.hasM:
		return p.periodSpan(wall(c.y, c.m, 1, 0, 0, 0, p.loc), Month), true
	case c.hasM:
		y := ty
		if c.m < tm {
			y++
		}
		return p.periodSpan(wall(y, c.m, 1, 0, 0, 0, p.loc), Month), true
	case c.hasY && !c.hasD:
		return p.periodSpan(wall(c.y, 1, 1, 0, 0, 0, p.loc), Year), true
	case c.hasWD:
		return p.periodSpan(weekdayAfter(p.today, c.wd, 1), Day), true
	}
	return span{}, false
}

func (p *parser) resolveDate(d dpart) (span, bool) {
	if d.kind == dkCal {
		return p.resolveCal(d.cal)
	}
	return d.sp, true
}

// mergeDate combines two partial calendar dates that name different fields:
// "Mon" + "February 18", "Jul 18" + "2014".
func mergeDate(a, b dpart) (dpart, bool) {
	if a.kind != dkCal || b.kind != dkCal {
		return a, false
	}
	x, y := a.cal, b.cal
	if x.hasY && y.hasY || x.hasM && y.hasM || x.hasD && y.hasD || x.hasWD && y.hasWD {
		return a, false
	}
	if y.hasY {
		x.y, x.hasY = y.y, true
	}
	if y.hasM {
		x.m, x.hasM = y.m, true
	}
	if y.hasD {
		x.d, x.hasD = y.d, true
	}
	if y.hasWD {
		x.wd, x.hasWD = y.wd, true
	}
	if x.hasY && x.hasD && !x.hasM {
		return a, false
	}
	return dpart{kind: dkCal, cal: x}, true
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
