package recur

import (
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
	defaultAt = TimeOfDay{9, 0}
)

// partOfDay maps "morning" and friends to their default time and to
// whether a bare hour after them is in the afternoon.
func partOfDay(w string) (TimeOfDay, bool, bool) {
	switch strings.TrimSuffix(w, "s") {
	case "morning":
		return TimeOfDay{8, 0}, false, true
	case "afternoon":
		return TimeOfDay{15, 0}, true, true
	case "evening":
		return TimeOfDay{19, 0}, true, true
	case "night":
		return TimeOfDay{21, 0}, true, true
	}
	return TimeOfDay{}, false, false
}

type token struct {
	s          string // lower-cased ASCII
	start, end int
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isAlnum(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// tokenize splits text into runs of ASCII letters and digits, keeping ':'
// and '.' between digits ("8:30", "9.30"). Everything else, including
// non-ASCII bytes, separates tokens, so byte offsets stay exact.
func tokenize(text string) []token {
	var toks []token
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
		toks = append(toks, token{strings.ToLower(text[i:j]), i, j})
		i = j
	}
	return toks
}

type parser struct{ toks []token }

func (p *parser) word(i int) string {
	if i < 0 || i >= len(p.toks) {
		return ""
	}
	return p.toks[i].s
}

func (p *parser) is(i int, words ...string) bool {
	w := p.word(i)
	for _, x := range words {
		if w == x {
			return true
		}
	}
	return false
}

var weekdayWords = map[string]time.Weekday{
	"monday": time.Monday, "mon": time.Monday,
	"tuesday": time.Tuesday, "tue": time.Tuesday, "tues": time.Tuesday,
	"wednesday": time.Wednesday, "wed": time.Wednesday,
	"thursday": time.Thursday, "thu": time.Thursday, "thur": time.Thursday, "thurs": time.Thursday,
	"friday": time.Friday, "fri": time.Friday,
	"saturday": time.Saturday, "sat": time.Saturday,
	"sunday": time.Sunday, "sun": time.Sunday,
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

var monthWords = map[string]time.Month{
	"january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3,
	"april": 4, "apr": 4, "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7,
	"august": 8, "aug": 8, "september": 9, "sep": 9, "sept": 9,
	"october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}

var numberWords = map[string]int{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
	"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}

var ordinalWords = map[string]int{
	"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
	"seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11,
	"twelfth": 12, "thirteenth": 13, "fourteenth": 14, "fifteenth": 15,
	"twentieth": 20, "thirtieth": 30,
}

// number reads a small cardinal ("3", "three").
func (p *parser) number(i int) (int, bool) {
	w := p.word(i)
	if n, ok := numberWords[w]; ok {
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
func (p *parser) dayOfMonth(i int) (int, bool) {
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
func (p *parser) weekdays(i int) (Weekdays, int, bool) {
	var set Weekdays
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

// monthDay reads "on the 15th", "the 1st", "on the last day", "15th".
func (p *parser) monthDay(i int) (int, int, bool) {
	j := i
	if p.is(j, "on") {
		j++
	}
	if p.is(j, "the") {
		j++
	}
	if p.is(j, "last") {
		j++
		if p.is(j, "day") {
			j++
		}
		return LastDay, j, true
	}
	d, ok := p.dayOfMonth(j)
	if !ok {
		return 0, i, false
	}
	j++
	if p.is(j, "day") {
		j++
	}
	return d, j, true
}

// date reads "March 15", "March 15th", "15 March", "the 15th of March",
// optionally after "on". It refuses days a month never has (February 30).
func (p *parser) date(i int) (time.Month, int, int, bool) {
	j := i
	if p.is(j, "on") {
		j++
	}
	if m, ok := monthWords[p.word(j)]; ok {
		if p.is(j+1, "the") {
			j++
		}
		if d, ok := p.dayOfMonth(j + 1); ok && d <= daysIn(2000, m) {
			return m, d, j + 2, true
		}
		return 0, 0, i, false
	}
	if p.is(j, "the") {
		j++
	}
	if p.is(j, "last") && p.is(j+1, "day") && p.is(j+2, "of") {
		if m, ok := monthWords[p.word(j+3)]; ok {
			return m, LastDay, j + 4, true
		}
	}
	d, ok := p.dayOfMonth(j)
	if !ok {
		return 0, 0, i, false
	}
	j++
	if p.is(j, "of") {
		j++
	}
	if m, ok := monthWords[p.word(j)]; ok && d <= daysIn(2000, m) {
		return m, d, j + 1, true
	}
	return 0, 0, i, false
}

// clock reads "9", "9:30", "9.30", "7am", "7 pm", "8:30pm", "9 o'clock",
// "noon", "midnight". pm is 1 for pm, -1 for am, 0 when not said.
func (p *parser) clock(i int) (h, m, pm, end int, ok bool) {
	w := p.word(i)
	switch w {
	case "noon", "midday":
		return 12, 0, 1, i + 1, true
	case "midnight":
		return 0, 0, -1, i + 1, true
	}
	switch {
	case strings.HasSuffix(w, "am"):
		pm, w = -1, strings.TrimSuffix(w, "am")
	case strings.HasSuffix(w, "pm"):
		pm, w = 1, strings.TrimSuffix(w, "pm")
	}
	hs, ms, colon := strings.Cut(w, ":")
	if !colon {
		hs, ms, colon = strings.Cut(w, ".")
	}
	if hs == "" || len(hs) > 2 || colon && len(ms) != 2 {
		return 0, 0, 0, i, false
	}
	h, err := strconv.Atoi(hs)
	if err != nil {
		return 0, 0, 0, i, false
	}
	if colon {
		if m, err = strconv.Atoi(ms); err != nil || m > 59 {
			return 0, 0, 0, i, false
		}
	}
	end = i + 1
	if pm == 0 && p.is(end, "am", "pm") {
		pm = 1
		if p.is(end, "am") {
			pm = -1
		}
		end++
	} else if pm == 0 && p.is(end, "o") && p.is(end+1, "clock") {
		end += 2
	}
	if pm != 0 && (h < 1 || h > 12) || h > 23 {
		return 0, 0, 0, i, false
	}
	return h, m, pm, end, true
}

// timeOfDay reads a time phrase at i: "at 9", "at 8:30pm", "7am", "at
// noon", "in the morning", "morning", "at 7 in the evening", "morning at
// 6". hint says which half of the day a bare hour is in when the phrase
// itself does not: -1 morning, +1 afternoon or evening, 0 unknown (from
// "every evening" before it).
func (p *parser) timeOfDay(i, hint int) (TimeOfDay, int, bool) {
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
func (p *parser) clockPhrase(i, hint int) (TimeOfDay, int, bool) {
	j := i
	at := p.is(j, "at", "by")
	if at {
		j++
	}
	h, m, pm, end, ok := p.clock(j)
	if !ok {
		return TimeOfDay{}, i, false
	}
	if !at && pm == 0 && !strings.ContainsAny(p.word(j), ":.") {
		return TimeOfDay{}, i, false
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
	return TimeOfDay{h, m}, end, true
}

// podAfter reads "in the morning", "in the evening", "at night",
// "morning", returning its default time and its half of the day.
func (p *parser) podAfter(i int) (TimeOfDay, int, int, bool) {
	j := i
	if p.is(j, "in", "at") {
		j++
		if p.is(j, "the") {
			j++
		}
	}
	if t, afternoon, ok := partOfDay(p.word(j)); ok {
		if afternoon {
			return t, 1, j + 1, true
		}
		return t, -1, j + 1, true
	}
	return TimeOfDay{}, 0, i, false
}

// interval reads "other" (2) or a count ("2", "three") after "every".
func (p *parser) interval(i int) (int, int) {
	if p.is(i, "other") {
		return 2, i + 1
	}
	if n, ok := p.number(i); ok && n >= 1 && n <= MaxInterval {
		// "every 15th" is a day of the month, not an interval.
		return n, i + 1
	}
	return 1, i
}

// every reads the phrases that start with "every" or "each".
func (p *parser) every(i int) (Rule, int, bool) {
	if !p.is(i, "every", "each") {
		return Rule{}, i, false
	}
	iv, j := p.interval(i + 1)
	r := Rule{Interval: iv, At: defaultAt}
	w := p.word(j)
	if iv > 1 && !p.is(j, "day", "days", "week", "weeks", "month", "months", "year", "years") {
		// "every 2 mondays" and "every other Tuesday" are fine; a number
		// followed by anything else ("every 3rd") is not an interval.
		if _, ok := weekdayWord(w); !ok && !p.is(j, "weekday", "weekdays", "fortnight") {
			return Rule{}, i, false
		}
	}
	switch {
	case w == "day" || w == "days":
		r.Freq, j = Daily, j+1
	case w == "weekday" || w == "weekdays" || w == "workday" || w == "workdays":
		r.Freq, r.Weekdays, j = Weekly, WorkWeek, j+1
	case (w == "working" || w == "business" || w == "work") && p.is(j+1, "day", "days"):
		r.Freq, r.Weekdays, j = Weekly, WorkWeek, j+2
	case w == "weekend" || w == "weekends":
		r.Freq, r.Weekdays, j = Weekly, Weekend, j+1
	case w == "fortnight":
		r.Freq, r.Interval, j = Weekly, 2*iv, j+1
		if set, e, ok := p.weekdays(p.skip(j, "on")); ok {
			r.Weekdays, j = set, e
		}
	case w == "week" || w == "weeks":
		r.Freq, j = Weekly, j+1
		if set, e, ok := p.weekdays(p.skip(j, "on")); ok {
			r.Weekdays, j = set, e
		}
	case w == "month" || w == "months":
		r.Freq, j = Monthly, j+1
		if d, e, ok := p.monthDay(j); ok {
			r.MonthDay, j = d, e
		} else if p.is(j, "on") && p.is(j+1, "the") {
			// "every month on the 2nd Tuesday": a day we cannot read must
			// not become "every month" on Start's day.
			return Rule{}, i, false
		}
	case w == "year" || w == "years":
		r.Freq, j = Yearly, j+1
		if m, d, e, ok := p.date(j); ok {
			r.Month, r.MonthDay, j = m, d, e
		} else if _, ok := monthWords[p.word(j+1)]; ok && p.is(j, "on") {
			// "every year on February 30": refuse rather than fire on
			// Start's date every year.
			return Rule{}, i, false
		}
	default:
		if at, _, ok := partOfDay(w); ok {
			r.Freq, r.At, j = Daily, at, j+1
			break
		}
		if set, e, ok := p.weekdays(j); ok {
			r.Freq, r.Weekdays, j = Weekly, set, e
			break
		}
		if iv != 1 {
			return Rule{}, i, false
		}
		if m, d, e, ok := p.date(j); ok {
			r.Freq, r.Month, r.MonthDay, j = Yearly, m, d, e
			break
		}
		// "every 15th (of the month)".
		if d, ok := p.dayOfMonth(j); ok {
			r.Freq, r.MonthDay, j = Monthly, d, j+1
			if p.is(j, "of") && p.is(j+1, "the", "every", "each") && p.is(j+2, "month") {
				j += 3
			}
			break
		}
		return Rule{}, i, false
	}
	return r, j, true
}

func (p *parser) skip(i int, w string) int {
	if p.is(i, w) {
		return i + 1
	}
	return i
}

// dayOfEveryMonth reads "on the 1st of every month", "the last day of each
// month", "the 15th of every other month".
func (p *parser) dayOfEveryMonth(i int) (Rule, int, bool) {
	if !p.is(i, "on", "the") {
		return Rule{}, i, false
	}
	d, j, ok := p.monthDay(i)
	if !ok || !p.is(j, "of") || !p.is(j+1, "every", "each") {
		return Rule{}, i, false
	}
	iv, k := p.interval(j + 2)
	if !p.is(k, "month", "months") {
		return Rule{}, i, false
	}
	return Rule{Freq: Monthly, Interval: iv, MonthDay: d, At: defaultAt}, k + 1, true
}

// adverb reads "daily", "weekly on Fridays", "monthly on the 15th",
// "yearly on March 15". weak reports an adverb with no qualifier, which is
// a recurrence only in some positions ("remind me daily", not "the weekly
// report").
func (p *parser) adverb(i int) (r Rule, end int, weak, ok bool) {
	r = Rule{Interval: 1, At: defaultAt}
	j := i + 1
	switch p.word(i) {
	case "daily", "everyday":
		r.Freq = Daily
		return r, j, true, true
	case "weekly", "fortnightly":
		r.Freq = Weekly
		if p.is(i, "fortnightly") {
			r.Interval = 2
		}
		if set, e, ok := p.weekdays(p.skip(j, "on")); ok {
			r.Weekdays = set
			return r, e, false, true
		}
	case "monthly":
		r.Freq = Monthly
		if d, e, ok := p.monthDay(j); ok {
			r.MonthDay = d
			return r, e, false, true
		}
	case "yearly", "annually":
		r.Freq = Yearly
		if m, d, e, ok := p.date(j); ok {
			r.Month, r.MonthDay = m, d
			return r, e, false, true
		}
	default:
		return Rule{}, i, false, false
	}
	return r, j, true, true
}

// match finds the longest recurrence phrase starting at token i, with
// any time of day and "N times" after it (or a time just before it).
func (p *parser) match(i int) (Rule, int, int, bool) {
	r, end, ok := p.every(i)
	weak := false
	if r2, e2, ok2 := p.dayOfEveryMonth(i); ok2 && (!ok || e2 > end) {
		r, end, ok = r2, e2, true
	}
	if !ok {
		r, end, weak, ok = p.adverb(i)
		if !ok {
			return Rule{}, 0, 0, false
		}
	}
	start := i
	timed := false
	hint := 0
	if _, afternoon, ok := partOfDay(p.word(end - 1)); ok {
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
		if n, ok := p.number(p.skip(end, "for")); ok && r.Count == 0 && n >= 1 && n <= MaxCount && p.is(p.skip(end, "for")+1, "times") {
			r.Count, end = n, p.skip(end, "for")+2
			continue
		}
		break
	}
	if !timed {
		// "at 7am every day": the longest time phrase ending right here.
		for k := i - 1; k >= 0 && k >= i-5; k-- {
			if t, e, ok := p.timeOfDay(k, 0); ok && e == i {
				r.At, start, timed = t, k, true
			}
		}
	}
	if weak && !timed && r.Count == 0 && end < len(p.toks) && !p.is(end, "to", "that", "about", "and", "please", "for") {
		return Rule{}, 0, 0, false
	}
	if p.is(i, "everyday") && !timed {
		// "everyday" is mostly an adjective ("my everyday bag"); only a
		// time after it makes it a recurrence.
		return Rule{}, 0, 0, false
	}
	return r, start, end, true
}

// Parse finds a recurrence phrase in text ("remind me every Monday at 9 to
// water the plants") and returns the rule and the phrase's byte span, so
// the caller can cut it out and keep the rest as the title. The longest
// phrase wins, the earliest among equally long ones. It reports false when
// there is none.
//
// The rule has no Start: set it (usually to DateOf(now, loc)) before
// storing it; rules like "every other Tuesday" are invalid without one. It
// is case-insensitive, ignores punctuation and never panics.
func Parse(text string) (Rule, Span, bool) {
	p := parser{toks: tokenize(text)}
	var best Rule
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
