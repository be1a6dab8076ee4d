package timex

import (
	"strings"
	"time"
)

// Time-of-day rules: "5pm", "17:30", "noon", "a quarter past 1",
// "nine fifty nine a m", "15h00", "at 1030".

// clock is a time of day as written, before it is placed on a day.
type clock struct {
	h, m, s int
	grain   Grain
	ampm    int8 // 0 unknown, amAM, amPM
	h24     bool // written as a 24-hour time ("15:15", "09:30", "16h", "noon")
	weak    bool // a bare number or bare spelled time: latent on its own
	bare    bool // nothing but digits: could also be a day of month
	packed  bool // "1030": only a time after "at" or with am/pm
	hasTZ   bool
	tzOff   int // seconds east of UTC when hasTZ
}

const (
	amAM int8 = 1
	amPM int8 = 2
)

// ambiguous reports an hour that could be am or pm.
func (c clock) ambiguous() bool { return c.ampm == 0 && !c.h24 && c.h >= 1 && c.h <= 12 }

// to24 returns the hour on a 24-hour clock when am/pm is known.
func (c clock) to24() int {
	switch {
	case c.ampm == amPM && c.h < 12:
		return c.h + 12
	case c.ampm == amAM && c.h == 12:
		return 0
	}
	return c.h
}

// clockAt reads a time of day with its optional prefix ("at", "@", "for",
// "around") and suffix (time zone, "sharp", "approximately"). strong makes
// a bare number count as a time (after "from", "until", ...).
func (p *parser) clockAt(i int, strong bool) (clock, int, bool) {
	j := i
	prefixed := strong
	for {
		if p.is(j, "@") {
			j, prefixed = j+1, true
			continue
		}
		if k, ok := p.oneOf(j, "at"); ok {
			j, prefixed = k, true
			continue
		}
		if k, ok := p.oneOf(j, "around", "approximately", "approx", "circa", "roughly"); ok {
			// "around 1030", "around 3": a time, like "at".
			j, prefixed = k, true
			continue
		}
		if k, ok := p.oneOf(j, "about"); ok {
			j = k
			continue
		}
		break
	}
	atPrefix := prefixed && !strong
	forPrefix := false
	if k, ok := p.oneOf(j, "for"); ok && j == i {
		j, forPrefix = k, true
	}
	c, end, ok := p.clockCore(j)
	if !ok {
		return clock{}, i, false
	}
	if c.bare && !prefixed && countingNouns[p.word(j-1)] {
		return clock{}, i, false // "plant number 4", "room 12", "page 3"
	}
	if c.weak && !prefixed && !forPrefix && p.word(i-1) == "for" {
		return clock{}, i, false // "dinner for two on Saturday": how many, not when
	}
	if c.packed && c.ampm == 0 && !atPrefix && !p.ish(end) {
		return clock{}, i, false // "2014", "Pay ABC 2000"
	}
	if p.is(end, "-") && p.glued(end) && p.glued(end+1) && p.is(end+2, "-") && p.glued(end+2) {
		return clock{}, i, false // "650-650-6500" is a phone number
	}
	if prefixed && !forPrefix {
		// "at 12 15": a second bare number after "at" gives the minutes.
		if c.weak && c.grain == Hour && !c.h24 && c.ampm == 0 {
			if m, ok := p.num(end, 2); ok && len(p.toks[end].s) == 2 && m < 60 {
				c.m, c.grain, end = m, Minute, end+1
				c, end = p.clockAMPM(c, end)
			}
		}
		c.weak = false
	}
	if forPrefix && c.weak {
		return clock{}, i, false
	}
	// suffixes
	if off, ok := zoneOffsets[p.word(end)]; ok && p.word(end) != "z" {
		// Duckling reports times with a zone at minute grain.
		c.hasTZ, c.tzOff, end = true, off, end+1
		c.weak, c.bare, c.grain = false, false, min(c.grain, Minute)
	}
	end = p.opt(end, "sharp", "approximately", "approx")
	// "3ish", "3-ish", "10:30 ish": an approximate time is still a time.
	k := end
	if p.is(k, "-") && p.glued(k) {
		k++
	}
	if p.word(k) == "ish" {
		c.weak, c.bare, c.packed, end = false, false, false, k+1
	}
	return c, end, true
}

// ish reports an "ish" ("3ish", "3-ish") at token i.
func (p *parser) ish(i int) bool {
	if p.is(i, "-") && p.glued(i) {
		i++
	}
	return p.word(i) == "ish"
}

// countingNouns are words after which a bare number counts things or
// names them ("plant number 4", "room 12") rather than telling the time.
var countingNouns = map[string]bool{
	"number": true, "no": true, "#": true, "room": true, "gate": true, "page": true, "pages": true,
	"chapter": true, "step": true, "item": true, "level": true, "floor": true, "row": true,
	"seat": true, "table": true, "bus": true, "route": true, "apartment": true, "apt": true,
	"unit": true, "suite": true, "exit": true, "platform": true, "track": true, "lesson": true,
	"part": true, "episode": true, "season": true, "question": true, "problem": true,
	"version": true, "volume": true, "aisle": true, "lane": true, "box": true, "order": true,
	"size": true, "grade": true, "class": true, "team": true, "line": true, "bed": true,
}

// clockCore reads the time itself.
func (p *parser) clockCore(i int) (clock, int, bool) {
	var best clock
	bestEnd := i
	try := func(c clock, end int, ok bool) {
		if ok && end > bestEnd {
			best, bestEnd = c, end
		}
	}
	try(p.clockNamed(i))
	try(p.clockRelative(i))
	try(p.clockDigits(i))
	try(p.clockWords(i))
	return best, bestEnd, bestEnd > i
}

// clockNamed reads "noon", "midday", "mid day", "midnight".
func (p *parser) clockNamed(i int) (clock, int, bool) {
	switch p.word(i) {
	case "noon", "midday":
		return clock{h: 12, grain: Hour, h24: true}, i + 1, true
	case "midnight":
		return clock{h: 0, grain: Hour, h24: true}, i + 1, true
	case "mid":
		if p.word(i+1) == "day" {
			return clock{h: 12, grain: Hour, h24: true}, i + 2, true
		}
	}
	return clock{}, i, false
}

// clockAMPM reads an am/pm marker after a time: "am", "p.m.", "a m", and
// the one-letter "a"/"p" glued to the number. A one-letter marker leaves
// the time weak ("7p" is latent in Duckling's data; "at 7p" is not).
func (p *parser) clockAMPM(c clock, i int) (clock, int) {
	if c.h > 12 || c.h24 && c.h == 0 {
		return c, i
	}
	w := p.word(i)
	var v int8
	switch w {
	case "am", "a":
		v = amAM
	case "pm", "p":
		v = amPM
	default:
		return c, i
	}
	j := i + 1
	if p.is(j, ".") && p.glued(j) {
		j++
	}
	full := len(w) == 2
	if !full {
		switch {
		case p.word(j) == "m" && (j > i+1 || p.glued(j) || !p.glued(i)):
			// "a.m.", "am" split as "a m", "nine a m"
			j++
			if p.is(j, ".") && p.glued(j) {
				j++
			}
			full = true
		case !p.glued(i):
			return c, i // "at 3 a day" is not am
		default:
			j = i + 1 // "7p", "3:18a": keep a dot after it out of the span
		}
	}
	c.ampm = v
	c.h24 = false
	if full || c.grain < Hour {
		c.weak = false
	}
	return c, j
}

// oclock reads "o'clock", "oclock", "o clock".
func (p *parser) oclock(i int) (int, bool) {
	if p.word(i) == "oclock" {
		return i + 1, true
	}
	if p.word(i) == "o" {
		j := i + 1
		if p.is(j, "'") {
			j++
		}
		if p.word(j) == "clock" {
			return j + 1, true
		}
	}
	return i, false
}

// clockDigits reads "17:30", "5:30:10 pm", "15h00", "16h", "1030",
// "330 p.m.", "5pm", "5", "5 o'clock".
func (p *parser) clockDigits(i int) (clock, int, bool) {
	n, ok := p.num(i, 4)
	if !ok {
		return clock{}, i, false
	}
	digits := len(p.toks[i].s)
	if digits >= 3 {
		h, m := n/100, n%100
		if h > 24 || m > 59 {
			return clock{}, i, false
		}
		c := clock{h: h, m: m, grain: Minute, h24: h > 12 || digits == 4 && h < 10, weak: true, packed: true}
		c, end := p.clockAMPM(c, i+1)
		return c, end, true
	}
	if n > 24 {
		return clock{}, i, false
	}
	c := clock{h: n, grain: Hour, h24: n > 12 || n == 0 || digits == 2 && n < 10}
	j := i + 1
	if p.is(j, ".") && p.glued(j) && p.glued(j+1) {
		// "7.30pm", "at 19.45": a dot between hour and minutes, as
		// written in Britain and much of Europe. Only with am/pm after it
		// or "at", "by", "from", "until" before it: alone, "7.30" is as
		// likely a price or a decimal.
		if m, ok := p.num(j+1, 2); ok && len(p.toks[j+1].s) == 2 && m < 60 {
			dotted := c
			dotted.m, dotted.grain = m, Minute
			if c2, e := p.clockAMPM(dotted, j+2); e > j+2 {
				return c2, e, true
			}
			switch p.word(i - 1) {
			case "at", "by", "from", "until", "till", "before", "after", "around":
				return dotted, j + 2, true
			}
		}
	}
	switch {
	case p.is(j, ":") && p.glued(j) && p.glued(j+1):
		m, ok := p.num(j+1, 2)
		if !ok || len(p.toks[j+1].s) != 2 || m > 59 {
			return clock{}, i, false
		}
		c.m, c.grain, j = m, Minute, j+2
		if p.is(j, ":") && p.glued(j) && p.glued(j+1) {
			if s, ok := p.num(j+1, 2); ok && len(p.toks[j+1].s) == 2 && s < 60 {
				c.s, c.grain, j = s, Second, j+2
			}
		}
	case p.word(j) == "h" && p.glued(j):
		// "15h00", "16h": French-style 24-hour times, minute grain.
		c.h24, c.grain, j = true, Minute, j+1
		if m, ok := p.num(j, 2); ok && p.glued(j) && len(p.toks[j].s) == 2 && m < 60 {
			c.m, j = m, j+1
		}
		return c, j, true
	default:
		c.weak = true
		if e, ok := p.oclock(j); ok {
			c.weak = false
			return c, e, true
		}
		if c2, e := p.clockAMPM(c, j); e > j {
			return c2, e, true
		}
		c.bare = true
		return c, j, true
	}
	c, j = p.clockAMPM(c, j)
	return c, j, true
}

// hourWord reads an hour in words: "three", "twelve", "twenty-three".
func (p *parser) hourWord(i int) (int, int, bool) {
	return p.cardinal(i, 24)
}

// minuteWords reads the minutes of a spelled time: "thirty", "fifteen",
// "fifty nine", "twenty-three", "o three", "zero three", "oh five".
func (p *parser) minuteWords(i int) (int, int, bool) {
	switch p.word(i) {
	case "o", "oh", "ou", "zero":
		j := i + 1
		if p.is(j, "-") {
			j++
		}
		if u, ok := smallNumbers[p.word(j)]; ok && u >= 1 && u <= 9 {
			return u, j + 1, true
		}
		return 0, i, false
	}
	if p.toks[i].kind == tNum {
		return 0, i, false
	}
	n, end, ok := p.cardinal(i, 59)
	if !ok || n < 10 {
		return 0, i, false
	}
	return n, end, true
}

// clockWords reads "three", "ten thirty", "ten-thirty", "twelve o three",
// "seven thirty p.m.", "nine o'clock".
func (p *parser) clockWords(i int) (clock, int, bool) {
	if p.toks == nil || i >= len(p.toks) || p.toks[i].kind != tWord {
		return clock{}, i, false
	}
	h, j, ok := p.hourWord(i)
	if !ok || h > 12 && h != 0 && !(h <= 24) {
		return clock{}, i, false
	}
	c := clock{h: h, grain: Hour, h24: h > 12, weak: true}
	if h == 0 {
		return clock{}, i, false
	}
	if e, ok := p.oclock(j); ok {
		c.weak = false
		return c, e, true
	}
	k := j
	if p.is(k, "-") {
		k++
	}
	if k < len(p.toks) {
		if m, e, ok := p.minuteWords(k); ok {
			c.m, c.grain, j = m, Minute, e
		}
	}
	c, j = p.clockAMPM(c, j)
	return c, j, true
}

// hourRef reads the hour of a relative time ("past 3pm", "to noon").
func (p *parser) hourRef(i int) (clock, int, bool) {
	if c, e, ok := p.clockNamed(i); ok {
		return c, e, true
	}
	if n, ok := p.num(i, 2); ok && n <= 24 {
		c := clock{h: n, grain: Hour, h24: n > 12 || n == 0}
		c, e := p.clockAMPM(c, i+1)
		return c, e, true
	}
	if h, j, ok := p.hourWord(i); ok && h >= 1 && h <= 12 {
		c := clock{h: h, grain: Hour}
		c, e := p.clockAMPM(c, j)
		return c, e, true
	}
	return clock{}, i, false
}

// clockRelative reads "a quarter past 1", "half past three pm",
// "20 minutes to 2pm", "15 to noon", "at 20 past 3pm".
func (p *parser) clockRelative(i int) (clock, int, bool) {
	j := i
	mins, explicit := 0, false
	switch {
	case p.word(j) == "a" && p.word(j+1) == "quarter":
		mins, explicit, j = 15, true, j+2
	case p.word(j) == "quarter":
		mins, explicit, j = 15, true, j+1
	case p.word(j) == "half":
		mins, explicit, j = 30, true, j+1
		if c, e, ok := p.hourRef(j); ok && p.word(j) != "past" && !(p.word(j) == "an" || p.word(j) == "a") {
			// "half three" is half past three, as said in Britain.
			if _, _, unit := p.unitAt(e); c.h >= 1 && c.h <= 12 && !unit || c.ampm != 0 {
				c.m, c.grain = 30, Minute
				return c, e, true
			}
		}
	default:
		n, e, ok := p.cardinal(j, 59)
		if !ok || n == 0 {
			return clock{}, i, false
		}
		mins, j = n, e
		if k, ok := p.oneOf(j, "minutes", "minute", "mins", "min"); ok {
			j, explicit = k, true
		}
		// "twenty after 3pm", "ten to six": minutes in words that a
		// clock face shows are a time, not a count or a range.
		if !explicit && p.toks[i].kind == tWord && n%5 == 0 && n < 60 && !p.rangeLead(i) {
			explicit = true
		}
	}
	dir := 0
	switch p.word(j) {
	case "past":
		dir = 1
	case "after":
		if explicit || p.pmAhead(j+1) {
			dir = 1
		}
	case "to", "till", "before", "of":
		dir = -1
	}
	if dir == 0 {
		return clock{}, i, false
	}
	c, e, ok := p.hourRef(j + 1)
	if !ok {
		return clock{}, i, false
	}
	if named := p.word(j+1) == "noon" || p.word(j+1) == "midnight"; dir < 0 && !explicit && !named {
		// "10 to 11" is more often a range than 10:50; only accept it
		// when the minutes are unmistakable or the hour is noon/midnight.
		return clock{}, i, false
	}
	c.grain = Minute
	if dir > 0 {
		c.m = mins
	} else {
		if c.ampm != 0 {
			c.h, c.ampm, c.h24 = c.to24(), 0, true
		}
		h := c.h - 1
		switch {
		case h < 0:
			h = 23
		case h == 0 && !c.h24:
			h = 12
		}
		c.h, c.m = h, 60-mins
		if c.h24 && c.h <= 12 && c.h != 0 {
			// "quarter to noon" is 11:45 in the morning, not ambiguous.
			c.ampm, c.h24 = amAM, false
			if c.h == 12 {
				c.ampm = amPM
			}
		}
	}
	return c, e, true
}

// rangeLead reports that the words before token i open a range ("from
// ten to six", "between five and ten"), where "ten to six" is not 5:50.
func (p *parser) rangeLead(i int) bool {
	switch p.word(i - 1) {
	case "from", "between":
		return true
	}
	return false
}

// pmAhead reports an hour with am/pm at token i ("3pm", "3 p.m."), which
// makes "20 after 3pm" a time.
func (p *parser) pmAhead(i int) bool {
	c, _, ok := p.hourRef(i)
	return ok && c.ampm != 0
}

// ParseClock reads text that is only a time of day ("6:45", "6.45",
// "7pm", "18h30", "noon", "half past six") and returns it on a 24-hour
// clock. A bare hour ("7") is read as written. It is the clock grammar of
// Find, for settings that take a time ("send my briefing at 6:45").
func ParseClock(text string) (hour, minute int, ok bool) {
	text = strings.TrimSpace(text)
	// "6.45" is a time here, where nothing else could be meant.
	if i := strings.IndexByte(text, '.'); i > 0 && i+1 < len(text) && isDigit(text[i-1]) && isDigit(text[i+1]) {
		text = text[:i] + ":" + text[i+1:]
	}
	p := newParser(text, time.Time{}, Options{})
	c, end, found := p.clockCore(0)
	if !found || c.hasTZ {
		return 0, 0, false
	}
	if end < len(p.toks) {
		c, end = p.clockAMPM(c, end)
	}
	if e, ok := p.oclock(end); ok {
		end = e
	}
	if end != len(p.toks) || c.h > 23 || c.m > 59 || c.ampm != 0 && (c.h < 1 || c.h > 12) {
		return 0, 0, false
	}
	return c.to24(), c.m, true
}
