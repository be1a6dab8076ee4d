package timex

import "time"

// Interval rules: ranges ("from 9:30 to 11", "July 13-15", "3-4pm"), open
// intervals ("until 2pm", "after 5", "since 2014", "ASAP"), deadlines ("by
// 2pm", "by the end of the month"), spans ("next 3 days", "last 2 weeks"),
// parts of periods ("end of the month", "beginning of next week", "mid
// March", "rest of the week") and durations ("4pm for 30 mins").

// intervalAt returns the longest interval starting at i.
func (p *parser) intervalAt(i int) (candidate, bool) {
	var best candidate
	best.end = i
	keep := func(c candidate, ok bool) {
		if ok && c.end > best.end {
			best = c
		}
	}
	keep(p.intervalRange(i))
	keep(p.intervalOpen(i))
	keep(p.intervalBy(i))
	keep(p.intervalNextN(i))
	keep(p.intervalBoundaryAt(i))
	keep(p.intervalFor(i))
	return best, best.end > i
}

// rangeSeps are the words between the two ends of a range, by the word
// that introduced it.
var rangeSeps = map[string][]string{
	"":        {"-", "to", "thru", "through", "till", "til", "until", "untill", "/"},
	"from":    {"-", "to", "thru", "through", "till", "til", "until", "untill"},
	"between": {"and", "-", "to"},
	"later":   {"but before", "and before"},
}

// intervalRange reads "A - B", "from A to B", "between A and B", "later
// than A but before B".
func (p *parser) intervalRange(i int) (candidate, bool) {
	j, intro := i, ""
	switch p.word(i) {
	case "from", "between":
		j, intro = i+1, p.word(i)
	case "later":
		if p.word(i+1) != "than" {
			return candidate{}, false
		}
		j, intro = i+2, "later"
	}
	a, k, ok := p.frameAt(j, intro != "")
	if !ok {
		return candidate{}, false
	}
	sepEnd := -1
	for _, sep := range rangeSeps[intro] {
		if e, ok := p.phrase(k, sep); ok {
			sepEnd = e
			break
		}
		if p.is(k, sep) {
			if sep == "/" && intro == "" && !(a.hasDate && a.hasClock) {
				continue // "2/15" is a date, not a range
			}
			sepEnd = k + 1
			break
		}
	}
	if sepEnd < 0 {
		return candidate{}, false
	}
	b, e, ok := p.frameAt(sepEnd, true)
	if !ok {
		return candidate{}, false
	}
	// b is read with strong set, so a bare number there is not latent
	// by itself; "10 - 11" alone is still only two numbers.
	latent := intro == "" && a.latent && (b.latent || b.lone())
	if intro == "" && p.is(k, "/") && !(b.hasDate && b.hasClock) {
		return candidate{}, false
	}
	s, ok := p.combine(a, b)
	if !ok {
		return candidate{}, false
	}
	return candidate{s: s, from: true, to: true, end: e, latent: latent}, true
}

// lone reports a frame that is a single bare number.
func (f frame) lone() bool { return f.pieces == 1 && f.dom > 0 }

// combine resolves the two ends of a range, letting each lend the other
// what it leaves out: "13 to 15 July" (month), "3-4pm" (pm), "9:30 - 11:00
// on Thursday" (day), "9:30 - 11:00 CST" (zone).
func (p *parser) combine(a, b frame) (span, bool) {
	calWithDay := func(f frame) bool {
		return f.hasDate && !f.hasClock && f.date.kind == dkCal && f.date.cal.hasD
	}
	if a.lone() && calWithDay(b) {
		c := b.date.cal
		c.d, c.hasWD = a.dom, false
		a = frame{hasDate: true, date: dpart{kind: dkCal, cal: c}, pieces: 1}
	}
	if b.lone() && calWithDay(a) {
		c := a.date.cal
		c.d, c.hasWD = b.dom, false
		b = frame{hasDate: true, date: dpart{kind: dkCal, cal: c}, pieces: 1}
	}
	if a.hasClock && b.hasClock {
		if !a.hasDate && b.hasDate {
			a.date, a.hasDate = b.date, true
		}
		if !b.hasDate && a.hasDate {
			b.date, b.hasDate = a.date, true
		}
		if !a.hasPOD && b.hasPOD {
			a.pod, a.hasPOD = b.pod, true
		}
		if !b.hasPOD && a.hasPOD {
			b.pod, b.hasPOD = a.pod, true
		}
		if b.clock.hasTZ && !a.clock.hasTZ {
			a.clock.hasTZ, a.clock.tzOff = true, b.clock.tzOff
		}
		if a.clock.hasTZ && !b.clock.hasTZ {
			b.clock.hasTZ, b.clock.tzOff = true, a.clock.tzOff
		}
		if a.clock.ambiguous() && b.clock.ampm != 0 {
			a.clock.ampm = amAM
			if b.clock.ampm == amPM && a.clock.h%12+12 <= b.clock.to24() {
				a.clock.ampm = amPM
			}
		}
		if b.clock.ambiguous() && a.clock.ampm != 0 {
			b.clock.ampm = amAM
			if b.clock.h%12 < a.clock.to24() {
				b.clock.ampm = amPM
			}
		}
	}
	// Two times with no day ("between 1 and 3pm") are today's unless the
	// whole range is already over.
	floating := a.hasClock && !a.hasDate && !(a.hasPOD && a.pod.today)
	if floating {
		a.date, a.hasDate = spanDate(p.periodSpan(p.today, Day)), true
	}
	s, ok := p.combineResolved(a, b)
	if ok && floating && !s.end.After(p.ref) {
		a.date = spanDate(p.periodSpan(addDays(p.today, 1), Day))
		if !b.hasDate || b.date.kind == dkSpan && b.date.sp.start.Equal(p.today) {
			b.hasDate = false
		}
		s, ok = p.combineResolved(a, b)
	}
	return s, ok
}

// combineResolved resolves the ends of a range once each lent the other
// what it lacked, and puts the end after the start.
func (p *parser) combineResolved(a, b frame) (span, bool) {
	sa, ok := p.resolve(a)
	if !ok {
		return span{}, false
	}
	if b.hasClock && !b.hasDate && !(b.hasPOD && b.pod.today) {
		// Put the end on the start's day, then after the start.
		b.date = spanDate(p.periodSpan(sa.start, Day))
		b.hasDate = true
	}
	sb, ok := p.resolve(b)
	if !ok {
		return span{}, false
	}
	if b.hasClock && sb.start.Before(sa.start) {
		if b.clock.ambiguous() {
			b.clock.ampm = amPM
			if s, ok := p.resolve(b); ok {
				sb = s
			}
		}
		if sb.start.Before(sa.start) && b.date.kind == dkSpan {
			b.date = spanDate(p.periodSpan(addDays(b.date.sp.start, 1), Day))
			if s, ok := p.resolve(b); ok {
				sb = s
			}
		}
	}
	g := sa.g
	if sb.g < g {
		g = sb.g
	}
	end := sb.end
	if !sb.interval {
		end = next(sb.start, g)
	}
	if !end.After(sa.start) {
		return span{}, false
	}
	return span{start: sa.start, end: end, g: g, interval: true}, true
}

// openWords introduce open intervals: +1 from the time on, -1 up to it.
var openWords = []struct {
	phrase string
	dir    int
}{
	{"until", -1}, {"untill", -1}, {"till", -1}, {"til", -1}, {"before", -1},
	{"through", -1}, {"thru", -1}, {"up to", -1}, {"no later than", -1},
	{"after", 1}, {"since", 1}, {"from", 1}, {"starting", 1}, {"starting from", 1},
	{"starting at", 1}, {"later than", 1}, {"anytime after", 1}, {"any time after", 1},
	{"not before", 1}, {"no earlier than", 1},
}

// intervalOpen reads "until 2pm", "after 5", "since 2014", "ASAP".
func (p *parser) intervalOpen(i int) (candidate, bool) {
	now := trunc(p.ref, Second)
	if p.word(i) == "asap" {
		return candidate{s: span{start: now, g: Second}, from: true, end: i + 1}, true
	}
	if e, ok := p.phrase(i, "as soon as possible"); ok {
		return candidate{s: span{start: now, g: Second}, from: true, end: e}, true
	}
	var best candidate
	best.end = i
	for _, ow := range openWords {
		j, ok := p.phrase(i, ow.phrase)
		if !ok || j <= best.end {
			continue
		}
		f, e, ok := p.frameAt(j, true)
		if !ok || e <= best.end {
			continue
		}
		s, ok := p.resolve(f)
		if !ok {
			continue
		}
		if ow.dir < 0 {
			best = candidate{s: span{end: s.start, g: s.g}, to: true, end: e}
		} else {
			best = candidate{s: span{start: s.start, g: s.g}, from: true, end: e}
		}
	}
	return best, best.end > i
}

// intervalBy reads deadlines: "by 2pm" is from now until 2pm; "by the end
// of the month" until the month ends.
func (p *parser) intervalBy(i int) (candidate, bool) {
	j, ok := p.oneOf(i, "by")
	if !ok {
		return candidate{}, false
	}
	var (
		to  time.Time
		end int
	)
	if c, ok := p.intervalBoundaryAt(j); ok && c.to {
		to, end = c.s.end, c.end
	}
	if f, e, ok := p.frameAt(j, true); ok && e > end {
		if s, ok := p.resolve(f); ok {
			to, end = s.start, e
			if s.interval {
				to = s.end
			}
		}
	}
	now := trunc(p.ref, Second)
	if end == 0 || !to.After(now) {
		return candidate{}, false
	}
	return candidate{s: span{start: now, end: to, g: Second}, from: true, to: true, end: end}, true
}

// intervalNextN reads "next 3 days", "the last two weeks", "past 2
// hours", "next few days": whole units after (or before) the current one.
func (p *parser) intervalNextN(i int) (candidate, bool) {
	j := p.opt(i, "the", "within")
	dir := 0
	switch p.word(j) {
	case "next", "coming", "following":
		dir = 1
	case "last", "past", "previous":
		dir = -1
	default:
		return candidate{}, false
	}
	q, k, ok := p.quantity(j + 1)
	if !ok || q != float64(int64(q)) || q < 1 {
		return candidate{}, false
	}
	u, e, ok := p.unitAt(k)
	if !ok {
		return candidate{}, false
	}
	n := int64(q) * int64(u.n)
	base := trunc(p.ref, u.g)
	var from, to time.Time
	var ok1, ok2 bool
	if dir > 0 {
		from, ok1 = add(base, u.g, 1)
		to, ok2 = add(base, u.g, 1+n)
	} else {
		from, ok1 = add(base, u.g, -n)
		to, ok2 = base, true
	}
	if !ok1 || !ok2 {
		return candidate{}, false
	}
	return candidate{s: span{start: from, end: to, g: u.g}, from: true, to: true, end: e}, true
}

// boundaryAbbrevs are the office shorthands for parts of periods.
var boundaryAbbrevs = map[string]struct {
	part string
	g    Grain
}{
	"eom": {"end", Month}, "bom": {"beginning", Month},
	"eoy": {"end", Year}, "boy": {"beginning", Year},
	"eow": {"end", Week}, "bow": {"beginning", Week},
	"eod": {"end", Day},
}

// boundaryPart reads "beginning", "start", "end", "middle", "mid", "rest".
func boundaryPart(w string) string {
	switch w {
	case "beginning", "begining", "start", "early":
		return "beginning"
	case "end", "late":
		return "end"
	case "middle", "mid":
		return "middle"
	case "rest":
		return "rest"
	}
	return ""
}

// periodTarget reads the period a boundary refers to: "the month", "next
// week", "around next week", "April", "2012", "the year", "year", "today".
func (p *parser) periodTarget(i int) (time.Time, Grain, int, bool) {
	j := p.opt(i, "the")
	switch p.word(j) {
	case "week", "month", "year", "day", "quarter":
		g, _ := periodUnit(p.word(j))
		return trunc(p.ref, g), g, j + 1, true
	case "today":
		return p.today, Day, j + 1, true
	}
	if r, ok := p.datePeriod(i); ok && r.d.kind == dkSpan && !r.d.sp.interval {
		return r.d.sp.start, r.d.sp.g, r.end, true
	}
	if t, g, e, ok := p.monthTarget(i); ok {
		return t, g, e, true
	}
	return time.Time{}, 0, i, false
}

// intervalBoundaryAt reads "end of the month", "at the beginning of next
// week", "mid March", "EOM", "rest of the week".
func (p *parser) intervalBoundaryAt(i int) (candidate, bool) {
	j := p.opt(i, "at", "in", "around", "towards", "toward")
	j = p.opt(j, "the")
	if ab, ok := boundaryAbbrevs[p.word(j)]; ok {
		s, ok := p.boundary(ab.part, trunc(p.ref, ab.g), ab.g)
		return candidate{s: s, from: true, to: true, end: j + 1}, ok
	}
	part := boundaryPart(p.word(j))
	if part == "" {
		return candidate{}, false
	}
	k := j + 1
	if p.is(k, "-") && p.glued(k) {
		k++
	}
	k = p.opt(k, "of")
	start, g, e, ok := p.periodTarget(k)
	if !ok {
		return candidate{}, false
	}
	s, ok := p.boundary(part, start, g)
	return candidate{s: s, from: true, to: true, end: e}, ok
}

// boundary returns a part of the period [start, next(start, g)) with
// Duckling's proportions: a month's beginning is days 1-10, its middle
// 11-20 and its end from the 21st; a year's beginning is January to
// March and its end September to December; a week's beginning is Monday
// to Wednesday and its end Friday to Sunday.
func (p *parser) boundary(part string, start time.Time, g Grain) (span, bool) {
	end := next(start, g)
	mk := func(a, b time.Time, gg Grain) (span, bool) {
		return span{start: a, end: b, g: gg, interval: true}, true
	}
	switch g {
	case Month:
		switch part {
		case "beginning":
			return mk(start, addDays(start, 10), Day)
		case "middle":
			return mk(addDays(start, 10), addDays(start, 20), Day)
		case "end":
			return mk(addDays(start, 20), end, Day)
		case "rest":
			return mk(p.today, end, Day)
		}
	case Year:
		switch part {
		case "beginning":
			return mk(start, addMonths(start, 3), Month)
		case "middle":
			return mk(addMonths(start, 4), addMonths(start, 8), Month)
		case "end":
			return mk(addMonths(start, 8), end, Month)
		case "rest":
			return mk(trunc(p.ref, Month), end, Month)
		}
	case Week:
		switch part {
		case "beginning":
			return mk(start, addDays(start, 3), Day)
		case "middle":
			return mk(addDays(start, 2), addDays(start, 4), Day)
		case "end":
			return mk(addDays(start, 4), end, Day)
		case "rest":
			// Duckling ends "rest of the week" before Sunday.
			return mk(p.today, addDays(start, 6), Day)
		}
	case Day:
		switch part {
		case "end":
			return mk(wall(start.Year(), int(start.Month()), start.Day(), 17, 0, 0, p.loc), end, Hour)
		case "rest":
			now := trunc(p.ref, Second)
			return mk(now, end, Second)
		}
	}
	return span{}, false
}

// intervalFor reads "4pm for 30 mins", "from 18th Dec for 10 days", "for
// 30' starting from 4pm": the end is inclusive at the duration's grain.
func (p *parser) intervalFor(i int) (candidate, bool) {
	duration := func(j int) (int64, Grain, int, bool) {
		j, ok := p.oneOf(j, "for")
		if !ok {
			return 0, 0, 0, false
		}
		q, k, ok := p.quantity(j)
		if !ok {
			return 0, 0, 0, false
		}
		u, e, ok := p.unitAt(k)
		switch {
		case ok:
		case p.is(k, "'") && p.glued(k):
			u, e, ok = unit{Minute, 1}, k+1, true
		case p.is(k, "\"") && p.glued(k):
			u, e, ok = unit{Second, 1}, k+1, true
		}
		if !ok {
			return 0, 0, 0, false
		}
		n, g, ok := wholeUnits(q, u)
		return n, g, e, ok
	}
	build := func(f frame, n int64, g Grain, end int) (candidate, bool) {
		s, ok := p.resolve(f)
		if !ok {
			return candidate{}, false
		}
		last, ok := add(s.start, g, n)
		if !ok {
			return candidate{}, false
		}
		return candidate{s: span{start: s.start, end: next(last, g), g: g}, from: true, to: true, end: end}, true
	}
	if n, g, e, ok := duration(i); ok {
		j := e
		if k, ok := p.oneOf(j, "starting", "beginning", "from"); ok {
			j = p.opt(k, "from", "at", "on")
			if f, e2, ok := p.frameAt(j, true); ok {
				return build(f, n, g, e2)
			}
		}
		return candidate{}, false
	}
	j := p.opt(i, "from", "starting")
	f, e, ok := p.frameAt(j, j > i)
	if !ok {
		return candidate{}, false
	}
	n, g, e2, ok := duration(e)
	if !ok {
		return candidate{}, false
	}
	return build(f, n, g, e2)
}
