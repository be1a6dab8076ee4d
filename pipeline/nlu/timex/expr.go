package timex

import "time"

// Expressions are built in two layers. A frame is a run of pieces (a date,
// a time of day, a part of day) joined by little words, like "tomorrow
// afternoon at 5" or "at 7:30 PM on Fri, Sep 20"; each piece fills its own
// slot, so any order works. Intervals combine two frames ("from 9:30 to 11
// on thursday") or bound one ("until 2pm", "by the end of the month").

// frame is what a run of pieces says, before resolution.
type frame struct {
	hasDate, hasClock, hasPOD bool
	date                      dpart
	clock                     clock
	pod                       partOfDay
	pieces                    int
	latent                    bool // the only piece is latent
	// dom is set when the frame is a lone number that could be a day of
	// month: "13" in "from 13 to 15 July".
	dom int
}

// piece is one slot-filling part of a frame.
type piece struct {
	f   frame
	end int
}

// podAt reads a part of day: "morning", "this evening", "tonight", "in
// the afternoon", "at night", "early morning", "late tonight", "after
// lunch", "afternoonish".
func (p *parser) podAt(i int) (partOfDay, int, bool) {
	j := i
	this, prefixed := false, false
	dayOff := 0
	switch p.word(j) {
	case "this", "tonight", "tonite":
		if p.word(j) == "this" {
			this, j = true, j+1
		}
	case "last":
		if w := p.word(j + 1); w == "night" || w == "evening" {
			this, dayOff, j = true, -1, j+1 // "last night" is yesterday's
		}
	case "in", "during":
		j = p.opt(j+1, "the")
		prefixed = true
	case "at":
		prefixed = true
		j = p.opt(j+1, "the")
	}
	var bounds [2]int
	mod := ""
	if mods, ok := podModifiers[p.word(j)]; ok {
		if b, ok := mods[p.word(j+1)]; ok {
			mod, bounds = p.word(j), b
			j++
		}
	}
	pd, ok := partOfDayWords[p.word(j)]
	if !ok {
		return partOfDay{}, i, false
	}
	if pd.from == 12 && pd.to == 14 && !prefixed && !this && mod == "" {
		// "lunch with Anna" is a meal, "at lunch" a time.
		return partOfDay{}, i, false
	}
	e := j + 1
	if p.is(e, "-") && p.glued(e) && p.word(e+1) == "ish" {
		e += 2
	}
	if mod != "" {
		pd.from, pd.to = bounds[0], bounds[1]
		prefixed = true
	}
	if this {
		pd.today, pd.dayOff = true, dayOff
	}
	if this || prefixed || pd.today {
		pd.latent = false
	}
	return pd, e, true
}

// pieceAt returns the longest piece at i.
func (p *parser) pieceAt(i int, strong bool) (piece, bool) {
	var best piece
	best.end = i
	if c, e, ok := p.clockAt(i, strong); ok && e > best.end {
		f := frame{hasClock: true, clock: c, latent: c.weak}
		if c.bare && c.h >= 1 && c.h <= 31 {
			f.dom = c.h
		}
		best = piece{f, e}
	}
	if pd, e, ok := p.podAt(i); ok && e > best.end {
		best = piece{frame{hasPOD: true, pod: pd, latent: pd.latent}, e}
	}
	if r, ok := p.dateAt(i); ok && (r.end > best.end || r.end == best.end && best.f.hasClock && best.f.latent && !r.latent) {
		best = piece{frame{hasDate: true, date: r.d, latent: r.latent, dom: r.dom}, r.end}
	}
	return best, best.end > i
}

// merge adds a piece to the frame; false when a slot is already taken.
func (f *frame) merge(g frame) bool {
	if f.pieces == 0 {
		*f = g
		f.pieces = 1
		return true
	}
	n := *f
	if g.hasDate {
		if n.hasDate {
			d, ok := mergeDate(n.date, g.date)
			if !ok {
				return false
			}
			n.date = d
		} else {
			n.date, n.hasDate = g.date, true
		}
	}
	if g.hasClock {
		if n.hasClock {
			return false
		}
		n.clock, n.hasClock = g.clock, true
	}
	if g.hasPOD {
		if n.hasPOD {
			return false
		}
		n.pod, n.hasPOD = g.pod, true
	}
	n.pieces++
	n.latent = false
	n.dom = 0
	*f = n
	return true
}

// frameAt reads a run of pieces starting at i. strong makes a bare number
// a time ("after 5").
func (p *parser) frameAt(i int, strong bool) (frame, int, bool) {
	var f frame
	j := i
	for {
		k := j
		if f.pieces > 0 {
			for p.is(k, ",") || p.word(k) == "of" {
				k++
			}
			if p.is(k, "'") && p.glued(k) && p.word(k+1) == "s" && p.glued(k+1) {
				k += 2 // a possessive: "tomorrow's 3pm", "friday's 9am"
			}
		}
		pc, ok := p.pieceAt(k, strong && f.pieces == 0)
		if ok && f.hasClock && f.clock.bare && pc.f.hasClock && !pc.f.clock.bare {
			// "water plant 4 tomorrow at 5pm": the sentence gives its
			// time, so the bare number before it belongs to the task.
			return frame{}, i, false
		}
		if !ok || !f.merge(pc.f) {
			break
		}
		j = pc.end
	}
	return f, j, f.pieces > 0
}

// readings lists the 24-hour readings of a clock hour, most likely first,
// given a part of day: without one, 7 to 11 in the morning first and 1 to
// 6 in the afternoon first.
func (c clock) readings(pd *partOfDay) []int {
	if c.ampm != 0 || c.h24 || c.h == 0 || c.h > 12 {
		return []int{c.to24()}
	}
	if pd != nil {
		switch pd.shift {
		case shiftMorning:
			if c.h == 12 {
				return []int{0}
			}
			return []int{c.h}
		case shiftPM:
			if c.h < 12 {
				return []int{c.h + 12}
			}
			return []int{12}
		case shiftEvening:
			if c.h < 12 {
				return []int{c.h + 12}
			}
			return []int{24}
		}
	}
	if c.h == 12 {
		return []int{0, 12}
	}
	if c.h <= 6 {
		// A waking hour, as a repeating reminder's ("every day at 5"):
		// "tomorrow at 5" is 5 PM; 1 to 6 in the morning is said so.
		return []int{c.h + 12, c.h}
	}
	return []int{c.h, c.h + 12}
}

// placeClock puts a clock on a day. Without a day it is the first reading
// whose hour has not ended yet, today or tomorrow; with a day, the first
// reading on that day not in the past, else the first reading.
func (p *parser) placeClock(c clock, day *time.Time, pd *partOfDay) time.Time {
	loc := p.loc
	if c.hasTZ {
		loc = time.FixedZone("", c.tzOff)
	}
	at := func(d time.Time, h int) time.Time {
		return wall(d.Year(), int(d.Month()), d.Day(), h, c.m, c.s, loc).In(p.loc)
	}
	hourStart := trunc(p.ref, Hour)
	rs := c.readings(pd)
	if day != nil {
		for _, h := range rs {
			if t := at(*day, h); !trunc(t, Hour).Before(hourStart) {
				return t
			}
		}
		return at(*day, rs[0])
	}
	for k := 0; k < 2; k++ {
		d := addDays(p.today, k)
		for _, h := range rs {
			if t := at(d, h); !trunc(t, Hour).Before(hourStart) {
				return t
			}
		}
	}
	return at(addDays(p.today, 1), rs[0])
}

// resolve turns a frame into a span.
func (p *parser) resolve(f frame) (span, bool) {
	var ds span
	if f.hasDate {
		var ok bool
		if ds, ok = p.resolveDate(f.date); !ok {
			return span{}, false
		}
	}
	var pd *partOfDay
	if f.hasPOD {
		pd = &f.pod
	}
	switch {
	case f.hasClock:
		var day *time.Time
		switch {
		case f.hasDate:
			d := dayStart(ds.start)
			day = &d
		case f.hasPOD && f.pod.today:
			d := addDays(p.today, f.pod.dayOff)
			day = &d
		}
		t := p.placeClock(f.clock, day, pd)
		g := f.clock.grain
		return span{start: t, end: next(t, g), g: g}, true
	case f.hasPOD:
		d := addDays(p.today, f.pod.dayOff)
		if f.hasDate {
			if ds.g > Day || ds.interval {
				return span{}, false
			}
			d = dayStart(ds.start)
		}
		start := wall(d.Year(), int(d.Month()), d.Day(), f.pod.from, 0, 0, p.loc)
		end := wall(d.Year(), int(d.Month()), d.Day(), f.pod.to, 0, 0, p.loc)
		return span{start: start, end: end, g: Hour, interval: true}, true
	case f.hasDate:
		return ds, true
	}
	return span{}, false
}

// candidate is a parsed expression at one position.
type candidate struct {
	s      span
	from   bool // From is set (intervals); for values always
	to     bool // To is set
	value  bool // a single value rather than an interval
	end    int
	latent bool
	// clockOnly: a time of day without a date (Match.ClockOnly).
	clockOnly bool
}

// best returns the longest expression starting at token i.
func (p *parser) best(i int) (Match, int, bool) {
	t := p.toks[i]
	if t.kind == tPunct && t.s != "@" || t.kind == tWord && !starters[t.s] {
		return Match{}, i, false
	}
	var c candidate
	if f, end, ok := p.frameAt(i, false); ok {
		if s, ok := p.resolve(f); ok {
			clockOnly := f.hasClock && !f.hasDate && !(f.hasPOD && f.pod.today)
			c = candidate{s: s, from: true, to: true, value: !s.interval, end: end, latent: f.latent, clockOnly: clockOnly}
		}
	}
	if ic, ok := p.intervalAt(i); ok && (ic.end > c.end || ic.end == c.end && c.latent && !ic.latent) {
		c = ic
	}
	if c.end <= i || c.latent && !p.opts.Latent {
		return Match{}, i, false
	}
	start, end := p.toks[i].start, p.toks[c.end-1].end
	m := Match{Start: start, End: end, Text: p.text[start:end], Grain: c.s.g, Latent: c.latent, ClockOnly: c.clockOnly}
	if c.value {
		m.Kind, m.Value = Value, c.s.start
	} else {
		m.Kind = Interval
		if c.from {
			m.From = c.s.start
		}
		if c.to {
			m.To = c.s.end
		}
	}
	return m, c.end, true
}
