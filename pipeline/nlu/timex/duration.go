package timex

import (
	"math"
	"time"
)

// ParseDuration reads a length of time said as the whole of text: "90
// minutes", "an hour and a half", "two and a half hours", "1 hour 30
// minutes", "half an hour", "2 hours long". Months and years have no fixed
// length and are not read; ok is false for anything else, and for no time
// at all.
func ParseDuration(text string) (time.Duration, bool) {
	p := newParser(text, time.Time{}, Options{})
	q, u, e, ok := p.durationAt(0)
	if !ok {
		return 0, false
	}
	e = p.opt(e, "long")
	for e < len(p.toks) && (p.is(e, ".") || p.is(e, "!")) {
		e++
	}
	secs, fixed := unitSeconds[u.g]
	if e != len(p.toks) || !fixed || u.n < 1 {
		return 0, false
	}
	d := q * float64(u.n) * secs
	if !(d >= 1) || d > 366*86400 || math.IsInf(d, 0) {
		return 0, false
	}
	return time.Duration(math.Round(d)) * time.Second, true
}
