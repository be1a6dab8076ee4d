package timex

import (
	"time"
)

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
		// "31-Oct-74", "31/Oct/1974": a glued year after day, separator,
		// month and the same separator.
		if sep := p.word(end); (p.is(end, "-") || p.is(end, "/")) && sep == "" && p.glued(end) && p.glued(end+1) && end >= 3 && p.is(end-2, p.toks[end].s) && p.toks[end-3].kind == tNum {
			if n, ok := p.num(end+1, 4); ok {
				switch len(p.toks[end+1].s) {
				case 2:
					c.y, c.hasY = twoDigitYear(n), true
					return c, end + 2
				case 4:
					c.y, c.hasY = n, true
					return c, end + 2
				}
			}
		}
		return c, end
	}
	// "next March", "this April", "last December", "next March 3rd".
	if dir, ok := relWords[p.word(i)]; ok {
		if m, j, ok := p.monthWord(i + 1); ok {
			y := p.relativeMonthYear(m, dir)
			c := calDate{y: y, hasY: true, m: m, hasM: true}
			keep(dateResult{d: cal(c), end: j})
			if d, e, _, ok := p.dayOfMonth(p.opt(j, "the")); ok && d <= daysIn(y, m) && !p.is(e, ":") {
				c.d, c.hasD = d, true
				keep(dateResult{d: cal(c), end: e})
			}
		}
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
		// A bare month is a date when its name is only a month: "may"
		// and abbreviations ("mar", "sat") are words too.
		keep(dateResult{d: cal(c), end: j, latent: !on && (!plainMonth[p.word(i)] || verbLead[p.word(i-1)])})
		// "April next year", "March last year", "June this year".
		if dir, ok := relWords[p.word(j)]; ok && p.word(j+1) == "year" {
			keep(dateResult{d: cal(calDate{y: p.today.Year() + dir, hasY: true, m: m, hasM: true}), end: j + 2})
		}
	}
	// Day first: "15th of March", "15 february 2015", "the 15th", "4 of july".
	j := i
	the := false
	if k, ok := p.oneOf(j, "the"); ok {
		j, the = k, true
	}
	if d, e, ord, ok := p.dayOfMonth(j); ok {
		k := e
		if (p.is(k, "-") || p.is(k, "/")) && p.glued(k) {
			k++ // "31-Oct-74", "31/Oct/1974"
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

// plainMonth lists the month names that are rarely anything else: a bare
// one is a date in strict mode ("due October", "taxes are due March"). "may"
// (the verb), "jan" (the name) and short forms that are words stay latent.
var plainMonth = map[string]bool{
	"january": true, "february": true, "feb": true, "march": true, "april": true, "june": true,
	"july": true, "august": true, "aug": true, "september": true, "sept": true, "october": true,
	"oct": true, "november": true, "nov": true, "december": true, "dec": true,
}

// verbLead are words after which a month name is a verb ("want to march
// on", "we march at dawn").
var verbLead = map[string]bool{
	"to": true, "i": true, "we": true, "you": true, "they": true, "he": true, "she": true,
	"will": true, "would": true, "can": true, "could": true, "should": true, "must": true,
	"might": true, "lets": true, "s": true, "not": true, "dont": true, "t": true,
}

// relativeMonthYear is the year of "this/next/last <month>": this is the
// month's next occurrence (this month included), next the first one after
// this month, last the most recent one before this month.
func (p *parser) relativeMonthYear(m, dir int) int {
	y, cur := p.today.Year(), int(p.today.Month())
	switch {
	case dir > 0 && m <= cur:
		return y + 1
	case dir < 0 && m >= cur:
		return y - 1
	case dir == 0 && m < cur:
		return y + 1
	}
	return y
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
