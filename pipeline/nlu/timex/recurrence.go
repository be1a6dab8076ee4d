package timex

import (
	"github.com/hearthbot/hearth/scheduler/recur"

	"strconv"
	"strings"
	"time"
)

// Span is the byte range [Start, End) of a phrase in the parsed text.
type Span struct {
	Start, End int
}

// Default times of day when a phrase names no clock time (see the package
// documentation).
var (
	defaultAt = recur.TimeOfDay{Hour: 9, Minute: 0}
)

// partOfDay maps "morning" and friends to their default time and to
// whether a bare hour after them is in the afternoon.
func dayPartAt(w string) (recur.TimeOfDay, bool, bool) {
	switch strings.TrimSuffix(w, "s") {
	case "morning":
		return recur.TimeOfDay{Hour: 8, Minute: 0}, false, true
	case "afternoon":
		return recur.TimeOfDay{Hour: 15, Minute: 0}, true, true
	case "evening":
		return recur.TimeOfDay{Hour: 19, Minute: 0}, true, true
	case "night":
		return recur.TimeOfDay{Hour: 21, Minute: 0}, true, true
	}
	return recur.TimeOfDay{}, false, false
}

type rtoken struct {
	s          string // lower-cased ASCII
	start, end int
}

func isAlnum(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// tokenize splits text into runs of ASCII letters and digits, keeping ':'
// and '.' between digits ("8:30", "9.30"). Everything else, including
// non-ASCII bytes, separates tokens, so byte offsets stay exact.
func rtokenize(text string) []rtoken {
	var toks []rtoken
	for i := 0; i < len(text); {
		if !isAlnum(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) {
			c := text[j]
			if isAlnum(c) || (c == ':' || c == '.') && isDigit(text[j-1]) && j+1 < len(text) && isDigit(text[j+1]) {
				j++
				continue
			}
			break
		}
		toks = append(toks, rtoken{strings.ToLower(text[i:j]), i, j})
		i = j
	}
	return toks
}

type rparser struct {
	toks []rtoken
	text string
}

func (p *rparser) word(i int) string {
	if i < 0 || i >= len(p.toks) {
		return ""
	}
	return p.toks[i].s
}

func (p *rparser) is(i int, words ...string) bool {
	w := p.word(i)
	for _, x := range words {
		if w == x {
			return true
		}
	}
	return false
}

func weekdayWord(w string) (time.Weekday, bool) {
	if d, ok := weekdayWords[w]; ok {
		return d, true
	}
	// Plurals of the full names only: "mons" or "sats" are not days.
	if len(w) > 6 && strings.HasSuffix(w, "days") {
		d, ok := weekdayWords[w[:len(w)-1]]
		return d, ok
	}
	return 0, false
}

// number reads a small cardinal ("3", "three").
func (p *rparser) number(i int) (int, bool) {
	w := p.word(i)
	if n, ok := smallNumbers[w]; ok {
		return n, true
	}
	if w == "" || len(w) > 4 {
		return 0, false
	}
	n, err := strconv.Atoi(w)
	return n, err == nil
}

// dayOfMonth reads "15th", "1st", "first", "15" (1–31). A day followed by
// a weekday ("the 2nd Tuesday") is a different, unsupported pattern, so it
// is refused rather than half-matched.
func (p *rparser) dayOfMonth(i int) (int, bool) {
	w := p.word(i)
	n, ok := ordinalWords[w]
	if !ok {
		digits := strings.TrimRight(w, "stndrh")
		if len(digits) == 0 || len(digits) > 2 || (len(digits) != len(w) && len(w)-len(digits) != 2) {
			return 0, false
		}
		v, err := strconv.Atoi(digits)
		if err != nil {
			return 0, false
		}
		n = v
	}
	if n < 1 || n > 31 {
		return 0, false
	}
	if _, wd := weekdayWord(p.word(i + 1)); wd {
		return 0, false
	}
	return n, true
}

// weekdays reads "monday", "mondays", "mon, wed and fri".
func (p *rparser) weekdays(i int) (recur.Weekdays, int, bool) {
	var set recur.Weekdays
	j := i
	for {
		d, ok := weekdayWord(p.word(j))
		if !ok {
			break
		}
		set |= 1 << d
		j++
		if p.is(j, "and", "or") {
			if _, ok := weekdayWord(p.word(j + 1)); ok {
				j++
			}
		}
	}
	return set, j, set != 0
}

// clock reads a clock time at token i ("9", "9:30", "9.30", "7am",
// "7 pm", "8:30pm", "9 o'clock", "noon", "midnight") with timex's one
// clock grammar, and maps where it ended back onto the recurrence's
// tokens. pm is 1 for pm, -1 for am, 0 when not said.
func (p *rparser) clock(i int) (h, m, pm, end int, ok bool) {
	if i < 0 || i >= len(p.toks) {
		return 0, 0, 0, i, false
	}
	off := p.toks[i].start
	// In a recurrence "9.15" is a clock time (elsewhere it may be a date):
	// the dot becomes a colon, which keeps every offset.
	text := p.text[off:]
	if t := p.toks[i].s; strings.Contains(t, ".") {
		text = strings.Replace(t, ".", ":", 1) + text[len(t):]
	}
	tp := newParser(text, time.Time{}, Options{})
	c, e, found := tp.clockCore(0)
	if !found || c.hasTZ || c.grain > Minute && c.grain != Hour {
		return 0, 0, 0, i, false
	}
	if e < len(tp.toks) {
		c, e = tp.clockAMPM(c, e)
	}
	if e < len(tp.toks) && tp.word(e) == "o" && tp.word(e+1) == "clock" {
		e += 2
	}
	stop := off + tp.toks[e-1].end
	end = i
	for end < len(p.toks) && p.toks[end].end <= stop {
		end++
	}
	if end == i || p.toks[end-1].end != stop {
		return 0, 0, 0, i, false
	}
	switch {
	case c.ampm == amPM:
		pm = 1
	case c.ampm == amAM:
		pm = -1
	case c.h24 && c.h == 12:
		pm = 1
	case c.h24 && c.h == 0:
		pm = -1
	}
	if pm != 0 && (c.h < 0 || c.h > 12) || c.h > 23 || c.m > 59 {
		return 0, 0, 0, i, false
	}
	return c.h, c.m, pm, end, true
}

// timeOfDay reads a time phrase at i: "at 9", "at 8:30pm", "7am", "at
// noon", "in the morning", "morning", "at 7 in the evening", "morning at
// 6". hint says which half of the day a bare hour is in when the phrase
// itself does not: -1 morning, +1 afternoon or evening, 0 unknown (from
// "every evening" before it).
func (p *rparser) timeOfDay(i, hint int) (recur.TimeOfDay, int, bool) {
	if t, h, e, ok := p.podAfter(i); ok {
		if t2, e2, ok := p.clockPhrase(e, h); ok {
			return t2, e2, true
		}
		return t, e, true
	}
	return p.clockPhrase(i, hint)
}

// clockPhrase reads "at 9", "at 9 in the evening", "7am", "8:30". A bare
// number without "at" is not a time ("every 2 weeks 3 times").
func (p *rparser) clockPhrase(i, hint int) (recur.TimeOfDay, int, bool) {
	j := i
	at := p.is(j, "at", "by")
	if at {
		j++
	}
	h, m, pm, end, ok := p.clock(j)
	if !ok {
		return recur.TimeOfDay{}, i, false
	}
	if !at && pm == 0 && !strings.ContainsAny(p.word(j), ":.") {
		return recur.TimeOfDay{}, i, false
	}
	if _, h2, e, ok := p.podAfter(end); ok {
		hint, end = h2, e
	}
	switch {
	case pm == 1 && h < 12:
		h += 12
	case pm == -1 && h == 12:
		h = 0
	case pm != 0:
	case hint > 0 && h < 12:
		h += 12
	case hint == 0 && h >= 1 && h <= 6:
		// A bare "at 5" for a reminder is far more often 17:00 than 05:00.
		h += 12
	}
	return recur.TimeOfDay{Hour: h, Minute: m}, end, true
}

// podAfter reads "in the morning", "in the evening", "at night",
// "morning", returning its default time and its half of the day.
func (p *rparser) podAfter(i int) (recur.TimeOfDay, int, int, bool) {
	j := i
	if p.is(j, "in", "at") {
		j++
		if p.is(j, "the") {
			j++
		}
	}
	if t, afternoon, ok := dayPartAt(p.word(j)); ok {
		if afternoon {
			return t, 1, j + 1, true
		}
		return t, -1, j + 1, true
	}
	return recur.TimeOfDay{}, 0, i, false
}

// interval reads "other" (2) or a count ("2", "three") after "every".
func (p *rparser) interval(i int) (int, int) {
	if p.is(i, "other") {
		return 2, i + 1
	}
	if n, ok := p.number(i); ok && n >= 1 && n <= recur.MaxInterval {
		// "every 15th" is a day of the month, not an interval.
		return n, i + 1
	}
	return 1, i
}

// every reads the phrases that start with "every" or "each".
func (p *rparser) every(i int) (recur.Rule, int, bool) {
	if !p.is(i, "every", "each") {
		return recur.Rule{}, i, false
	}
	iv, j := p.interval(i + 1)
	r := recur.Rule{Interval: iv, At: defaultAt}
	w := p.word(j)
	if iv > 1 && !p.is(j, "day", "days", "week", "weeks", "month", "months", "year", "years") {
		// "every 2 mondays" and "every other Tuesday" are fine; a number
		// followed by anything else ("every 3rd") is not an interval.
		if _, ok := weekdayWord(w); !ok && !p.is(j, "weekday", "weekdays", "fortnight") {
			return recur.Rule{}, i, false
		}
	}
	switch {
	case w == "day" || w == "days":
		r.Freq, j = recur.Daily, j+1
	case w == "weekday" || w == "weekdays" || w == "workday" || w == "workdays":
		r.Freq, r.Weekdays, j = recur.Weekly, recur.WorkWeek, j+1
	case (w == "working" || w == "business" || w == "work") && p.is(j+1, "day", "days"):
		r.Freq, r.Weekdays, j = recur.Weekly, recur.WorkWeek, j+2
	case w == "weekend" || w == "weekends":
		r.Freq, r.Weekdays, j = recur.Weekly, recur.Weekend, j+1
	case w == "fortnight":
		r.Freq, r.Interval, j = recur.Weekly, 2*iv, j+1
		if set, e, ok := p.weekdays(p.skip(j, "on")); ok {
			r.Weekdays, j = set, e
		}
	case w == "week" || w == "weeks":
		r.Freq, j = recur.Weekly, j+1
		if set, e, ok := p.weekdays(p.skip(j, "on")); ok {
			r.Weekdays, j = set, e
		}
	case w == "month" || w == "months":
		r.Freq, j = recur.Monthly, j+1
		if nth, d, e, ok := p.nthWeekday(j); ok {
			// "every month on the first Sunday".
			r.Nth, r.Weekdays, j = nth, recur.WeekdaysOf(d), e
		} else if d, e, ok := p.monthDay(j); ok {
			r.MonthDay, j = d, e
		} else if p.is(j, "on") && p.is(j+1, "the") {
			// "every month on the 2nd Tuesday": a day we cannot read must
			// not become "every month" on Start's day.
			return recur.Rule{}, i, false
		}
	case w == "year" || w == "years":
		r.Freq, j = recur.Yearly, j+1
		if m, d, e, ok := p.date(j); ok {
			r.Month, r.MonthDay, j = m, d, e
		} else if _, ok := monthWord(p.word(j + 1)); ok && p.is(j, "on") {
			// "every year on February 30": refuse rather than fire on
			// Start's date every year.
			return recur.Rule{}, i, false
		}
	default:
		if at, _, ok := dayPartAt(w); ok {
			r.Freq, r.At, j = recur.Daily, at, j+1
			break
		}
		if nth, d, e, ok := p.nthWeekday(j); ok && iv == 1 {
			// "every first Sunday (of the month)". "Every second Tuesday"
			// alone is every other one to many: only "of the month" makes
			// it the month's second.
			miv, e2, of := p.ofMonth(e)
			if !of && nth != 1 && nth != recur.LastDay {
				return recur.Rule{}, i, false
			}
			r.Freq, r.Nth, r.Weekdays, r.Interval, j = recur.Monthly, nth, recur.WeekdaysOf(d), miv, e2
			break
		}
		if set, e, ok := p.weekdays(j); ok {
			r.Freq, r.Weekdays, j = recur.Weekly, set, e
			break
		}
		if iv != 1 {
			return recur.Rule{}, i, false
		}
		if m, d, e, ok := p.date(j); ok {
			r.Freq, r.Month, r.MonthDay, j = recur.Yearly, m, d, e
			break
		}
		// "every 15th (of the month)".
		if d, ok := p.dayOfMonth(j); ok {
			r.Freq, r.MonthDay, j = recur.Monthly, d, j+1
			if p.is(j, "of") && p.is(j+1, "the", "every", "each") && p.is(j+2, "month") {
				j += 3
			}
			break
		}
		return recur.Rule{}, i, false
	}
	return r, j, true
}

func (p *rparser) skip(i int, w string) int {
	if p.is(i, w) {
		return i + 1
	}
	return i
}

// pluralDays reads a habit said with days in the plural: "on Mondays",
// "Tuesdays and Thursdays" (the singular, "on Monday", is one day).
func (p *rparser) pluralDays(i int) (recur.Rule, int, bool) {
	j := p.skip(i, "on")
	if w := p.word(j); len(w) <= 6 || !strings.HasSuffix(w, "days") {
		return recur.Rule{}, i, false
	}
	set, e, ok := p.weekdays(j)
	if !ok {
		return recur.Rule{}, i, false
	}
	return recur.Rule{Freq: recur.Weekly, Interval: 1, Weekdays: set, At: defaultAt}, e, true
}

// adverb reads "daily", "weekly on Fridays", "monthly on the 15th",
// "yearly on March 15". weak reports an adverb with no qualifier, which is
// a recurrence only in some positions ("remind me daily", not "the weekly
// report").
func (p *rparser) adverb(i int) (r recur.Rule, end int, weak, ok bool) {
	r = recur.Rule{Interval: 1, At: defaultAt}
	j := i + 1
	switch p.word(i) {
	case "daily", "everyday":
		r.Freq = recur.Daily
		return r, j, true, true
	case "weekly", "fortnightly":
		r.Freq = recur.Weekly
		if p.is(i, "fortnightly") {
			r.Interval = 2
		}
		if set, e, ok := p.weekdays(p.skip(j, "on")); ok {
			r.Weekdays = set
			return r, e, false, true
		}
	case "monthly":
		r.Freq = recur.Monthly
		if d, e, ok := p.monthDay(j); ok {
			r.MonthDay = d
			return r, e, false, true
		}
	case "yearly", "annually":
		r.Freq = recur.Yearly
		if m, d, e, ok := p.date(j); ok {
			r.Month, r.MonthDay = m, d
			return r, e, false, true
		}
	default:
		return recur.Rule{}, i, false, false
	}
	return r, j, true, true
}

// match finds the longest recurrence phrase starting at token i, with
// any time of day and "N times" after it (or a time just before it).
func (p *rparser) match(i int) (recur.Rule, int, int, bool) {
	r, end, ok := p.every(i)
	weak := false
	if r2, e2, ok2 := p.dayOfEveryMonth(i); ok2 && (!ok || e2 > end) {
		r, end, ok = r2, e2, true
	}
	if !ok {
		r, end, weak, ok = p.adverb(i)
	}
	if !ok {
		r, end, ok = p.pluralDays(i)
		if !ok {
			return recur.Rule{}, 0, 0, false
		}
	}
	start := i
	timed := false
	hint := 0
	if _, afternoon, ok := dayPartAt(p.word(end - 1)); ok {
		// "every evening at 7" is 19:00.
		hint = -1
		if afternoon {
			hint = 1
		}
	}
	for range 2 {
		if t, e, ok := p.timeOfDay(end, hint); ok && !timed {
			r.At, end, timed = t, e, true
			continue
		}
		if n, ok := p.number(p.skip(end, "for")); ok && r.Count == 0 && n >= 1 && n <= recur.MaxCount && p.is(p.skip(end, "for")+1, "times") {
			r.Count, end = n, p.skip(end, "for")+2
			continue
		}
		break
	}
	if !timed {
		// "at 7am every day": the longest time phrase ending right here.
		for k := i - 1; k >= 0 && k >= i-5; k-- {
			if _, _, pod := dayPartAt(p.word(k)); pod && k == i-1 {
				continue // "pizza night every Friday": a night, not a time
			}
			if t, e, ok := p.timeOfDay(k, 0); ok && e == i {
				r.At, start, timed = t, k, true
			}
		}
	}
	if weak && !timed && r.Count == 0 && end < len(p.toks) && !p.is(end, "to", "that", "about", "and", "please", "for") {
		return recur.Rule{}, 0, 0, false
	}
	if p.is(i, "everyday") && !timed {
		// "everyday" is mostly an adjective ("my everyday bag"); only a
		// time after it makes it a recurrence.
		return recur.Rule{}, 0, 0, false
	}
	return r, start, end, true
}

// Parse finds a recurrence phrase in text ("remind me every Monday at 9 to
// water the plants") and returns the rule and the phrase's byte span, so
// the caller can cut it out and keep the rest as the title. The longest
// phrase wins, the earliest among equally long ones. It reports false when
// there is none.
//
// The rule has no Start: set it (usually to recur.DateOf(now, loc)) before
// storing it; rules like "every other Tuesday" are invalid without one. It
// is case-insensitive, ignores punctuation and never panics.
func ParseRecurrence(text string) (recur.Rule, Span, bool) {
	p := rparser{toks: rtokenize(text), text: text}
	var best recur.Rule
	var span Span
	found := false
	for i := range p.toks {
		r, s, e, ok := p.match(i)
		if !ok {
			continue
		}
		sp := Span{p.toks[s].start, p.toks[e-1].end}
		if !found || sp.End-sp.Start > span.End-span.Start {
			best, span, found = r, sp, true
		}
	}
	return best, span, found
}

// monthWord returns the month a word names ("march", "sept").
func monthWord(w string) (time.Month, bool) {
	m, ok := monthWords[w]
	return time.Month(m), ok
}
