package timex

import (
	"strings"
	"time"
)

// Dates written in numbers ("3/12", "2026-03-15", "10.31.1974"), and
// which number is the day.

// dateNumeric reads numeric dates: "2026-03-15", "2014/10", "10/31/74",
// "10.31.1974", "3/3/2015", "2/15", "2 - 15", "15/3". Month first, as in
// American usage, unless the first number cannot be a month — or the
// reference's zone is where the day comes first (dayFirst).
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
	spaced := i+2 < len(p.toks) && (p.toks[i+1].sp || p.toks[i+2].sp)
	if y, ok := p.num(i+2, 4); ok && len(p.toks[i+2].s) == 4 && sep != "." && !spaced && len(p.toks[i].s) <= 2 && a >= 1 && a <= 12 && y >= 1900 && y < 2200 {
		// "2/2013", "10-2026": a month and a year.
		if !(p.is(i+3, sep) && p.glued(i+3)) {
			return dateResult{d: dpart{kind: dkCal, cal: calDate{y: y, m: a, hasY: true, hasM: true}}, end: i + 3}, true
		}
	}
	b, ok := p.num(i+2, 2)
	if !ok {
		return dateResult{}, false
	}
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
	if dayFirst(p.loc) {
		m, d = b, a // "3/12" in Berlin is the 3rd of December
	}
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

// dayFirst reports a zone whose people write the day before the month
// ("3/12" is the 3rd of December in Europe, Africa, Australia and New
// Zealand). Elsewhere, and for UTC or a bare offset, the month comes
// first, as timex has always read it.
func dayFirst(loc *time.Location) bool {
	if loc == nil {
		return false
	}
	name := loc.String()
	for _, p := range []string{"Europe/", "Africa/", "Australia/", "Atlantic/"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return name == "Pacific/Auckland"
}
