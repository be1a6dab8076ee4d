package timex

import (
	"strings"
	"time"
)

// Word tables. Everything the parser recognises by spelling lives here, so
// adding a synonym is a one-line change. The maps are never written after
// initialisation.

var monthWords = map[string]int{
	"january": 1, "jan": 1,
	"february": 2, "feb": 2,
	"march": 3, "mar": 3,
	"april": 4, "apr": 4,
	"may":  5,
	"june": 6, "jun": 6,
	"july": 7, "jul": 7,
	"august": 8, "aug": 8,
	"september": 9, "sep": 9, "sept": 9,
	"october": 10, "oct": 10,
	"november": 11, "nov": 11,
	"december": 12, "dec": 12,
}

// MonthNamed returns the month a word names, in full or abbreviated
// ("March", "sept"), in any case. It is the one month table.
func MonthNamed(word string) (time.Month, bool) {
	m, ok := monthWords[lowerASCII(word)]
	return time.Month(m), ok
}

// WeekdayNamed returns the weekday a word names, in full, abbreviated or
// plural ("Tuesday", "thurs", "mondays"), in any case.
func WeekdayNamed(word string) (time.Weekday, bool) {
	d, ok := weekdayWords[lowerASCII(word)]
	return d, ok
}

// FullDateName reports whether word is a month's or a weekday's full
// name in any case ("march", "Friday"), not an abbreviation ("mar",
// "fri") that may be an ordinary word.
func FullDateName(word string) bool {
	if m, ok := MonthNamed(word); ok && strings.EqualFold(m.String(), word) {
		return true
	}
	d, ok := WeekdayNamed(word)
	return ok && strings.EqualFold(d.String(), word)
}

// weekdayWords includes the usual abbreviations. Abbreviations that are
// also common English words ("sat", "sun", "wed") are guarded in the
// parser by the word before them ("I sat", "the sun").
var weekdayWords = map[string]time.Weekday{
	"monday": time.Monday, "mon": time.Monday, "mondays": time.Monday,
	"tuesday": time.Tuesday, "tue": time.Tuesday, "tues": time.Tuesday, "tuesdays": time.Tuesday,
	"wednesday": time.Wednesday, "wed": time.Wednesday, "wednesdays": time.Wednesday,
	"thursday": time.Thursday, "thu": time.Thursday, "thur": time.Thursday, "thurs": time.Thursday, "thursdays": time.Thursday,
	"friday": time.Friday, "fri": time.Friday, "fridays": time.Friday,
	"saturday": time.Saturday, "sat": time.Saturday, "saturdays": time.Saturday,
	"sunday": time.Sunday, "sun": time.Sunday, "sundays": time.Sunday,
}

// weekdayGuard lists words after which an ambiguous weekday abbreviation is
// read as an ordinary word: "I sat down", "the sun", "we wed".
var weekdayGuard = map[string]bool{
	"i": true, "we": true, "you": true, "he": true, "she": true, "they": true,
	"it": true, "the": true, "a": true, "who": true, "and": true,
}

var ambiguousWeekday = map[string]bool{"sat": true, "sun": true, "wed": true, "mon": true}

var smallNumbers = map[string]int{
	"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
	"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
	"thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
	"seventeen": 17, "eighteen": 18, "nineteen": 19,
}

var tensNumbers = map[string]int{
	"twenty": 20, "thirty": 30, "forty": 40, "fourty": 40, "fifty": 50,
	"sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}

var ordinalWords = map[string]int{
	"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
	"seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11,
	"twelfth": 12, "thirteenth": 13, "fourteenth": 14, "fifteenth": 15,
	"sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19,
	"twentieth": 20, "thirtieth": 30,
}

var ordinalSuffix = map[string]bool{"st": true, "nd": true, "rd": true, "th": true}

// unit is a calendar unit: a grain and a multiple of it (a fortnight is 14
// days).
type unit struct {
	g Grain
	n int
}

var unitWords = map[string]unit{
	"second": {Second, 1}, "seconds": {Second, 1}, "sec": {Second, 1}, "secs": {Second, 1},
	"minute": {Minute, 1}, "minutes": {Minute, 1}, "min": {Minute, 1}, "mins": {Minute, 1},
	"hour": {Hour, 1}, "hours": {Hour, 1}, "hr": {Hour, 1}, "hrs": {Hour, 1}, "h": {Hour, 1},
	"day": {Day, 1}, "days": {Day, 1},
	"week": {Week, 1}, "weeks": {Week, 1}, "wk": {Week, 1}, "wks": {Week, 1},
	"fortnight": {Day, 14}, "fortnights": {Day, 14},
	"month": {Month, 1}, "months": {Month, 1},
	"quarter": {Quarter, 1}, "quarters": {Quarter, 1}, "qtr": {Quarter, 1}, "qtrs": {Quarter, 1},
	"year": {Year, 1}, "years": {Year, 1}, "yr": {Year, 1}, "yrs": {Year, 1},
}

// Relative words for periods and weekdays, by direction: 0 this, +1 next,
// -1 last.
var relWords = map[string]int{
	"this": 0, "current": 0, "present": 0,
	"next": 1, "coming": 1, "following": 1, "upcoming": 1,
	"last": -1, "past": -1, "previous": -1, "prior": -1,
}

// shift says how an hour without am/pm reads inside a part of day.
type shift int8

const (
	shiftNone    shift = iota
	shiftMorning       // 12 means midnight
	shiftPM            // 1..11 are afternoon hours, 12 stays noon
	shiftEvening       // 1..11 are pm hours, 12 is the midnight that ends the day
)

// partOfDay is an interval of hours in a day, e.g. afternoon 12:00-19:00.
// The hours are Duckling's.
type partOfDay struct {
	from, to int // hours; to may be 24
	shift    shift
	today    bool // "tonight": the reference day unless a date says otherwise
	latent   bool // a bare "morning" is weak on its own
	dayOff   int  // days from the reference day when today is set ("last night": -1)
}

var partOfDayWords = map[string]partOfDay{
	"morning":      {0, 12, shiftMorning, false, true, 0},
	"mornings":     {0, 12, shiftMorning, false, true, 0},
	"morningish":   {0, 12, shiftMorning, false, true, 0},
	"afternoon":    {12, 19, shiftPM, false, true, 0},
	"afternoons":   {12, 19, shiftPM, false, true, 0},
	"afternoonish": {12, 19, shiftPM, false, true, 0},
	"evening":      {18, 24, shiftEvening, false, true, 0},
	"evenings":     {18, 24, shiftEvening, false, true, 0},
	"eveningish":   {18, 24, shiftEvening, false, true, 0},
	"night":        {18, 24, shiftEvening, false, true, 0},
	"tonight":      {18, 24, shiftEvening, true, false, 0},
	"tonite":       {18, 24, shiftEvening, true, false, 0},
	"lunch":        {12, 14, shiftPM, false, true, 0},
	"lunchtime":    {12, 14, shiftPM, false, true, 0},
}

// podModifiers narrow a part of day: "early morning", "late tonight".
var podModifiers = map[string]map[string][2]int{
	"early": {"morning": {0, 9}, "afternoon": {12, 15}, "evening": {18, 21}, "night": {18, 21}},
	"late":  {"morning": {9, 12}, "afternoon": {15, 19}, "evening": {21, 24}, "night": {21, 24}, "tonight": {21, 24}},
	"mid":   {"morning": {9, 11}, "afternoon": {13, 17}},
	"after": {"lunch": {13, 17}},
}

// zoneOffsets maps the time-zone abbreviations people write after a time to
// their UTC offsets in seconds. Abbreviations are ambiguous in general (IST),
// so only the common English readings are listed.
var zoneOffsets = map[string]int{
	"gmt": 0, "utc": 0, "z": 0, "wet": 0,
	"bst": 3600, "cet": 3600, "wat": 3600, "west": 3600,
	"cest": 7200, "eet": 7200, "sast": 7200,
	"eest": 10800, "msk": 10800,
	"ist": 19800,
	"sgt": 28800, "hkt": 28800, "awst": 28800,
	"jst": 32400, "kst": 32400,
	"aest": 36000, "aedt": 39600, "nzst": 43200, "nzdt": 46800,
	"est": -18000, "edt": -14400,
	"cst": -21600, "cdt": -18000,
	"mst": -25200, "mdt": -21600,
	"pst": -28800, "pdt": -25200,
	"akst": -32400, "akdt": -28800, "hst": -36000,
}

// quantityWords are vague counts as Duckling reads them.
var quantityWords = map[string]int{"couple": 2, "pair": 2, "few": 3, "several": 3}

// fixedHolidays are holidays on a fixed month and day.
var fixedHolidays = []struct {
	names []string // word sequences, spaces between tokens
	m, d  int
}{
	{[]string{"christmas", "christmas day", "xmas", "xmas day", "x mas"}, 12, 25},
	{[]string{"christmas eve", "xmas eve"}, 12, 24},
	{[]string{"new year s eve", "new years eve", "new year eve"}, 12, 31},
	{[]string{"new year s day", "new years day", "new year day", "new year s", "new years"}, 1, 1},
	{[]string{"valentine s day", "valentines day", "valentine day", "valentine s", "valentines"}, 2, 14},
	{[]string{"halloween"}, 10, 31},
	{[]string{"st patrick s day", "st patricks day", "saint patrick s day", "st paddy s day", "saint paddy s day", "st patrick day"}, 3, 17},
	{[]string{"independence day", "fourth of july"}, 7, 4},
	{[]string{"boxing day"}, 12, 26},
	{[]string{"world vegan day"}, 11, 1},
	{[]string{"all saints day", "all saint s day"}, 11, 1},
}

// nthWeekdayHolidays are holidays on the n-th weekday of a month (n < 0
// counts from the end): Thanksgiving is the fourth Thursday of November.
var nthWeekdayHolidays = []struct {
	names []string
	m     int
	wd    time.Weekday
	n     int
	plus  int // days after that weekday (Black Friday)
}{
	{[]string{"thanksgiving", "thanksgiving day"}, 11, time.Thursday, 4, 0},
	{[]string{"black friday"}, 11, time.Thursday, 4, 1},
	{[]string{"mlk day", "martin luther king day", "martin luther king s day", "martin luther king jr day", "mlk"}, 1, time.Monday, 3, 0},
	{[]string{"memorial day"}, 5, time.Monday, -1, 0},
	{[]string{"labor day", "labour day"}, 9, time.Monday, 1, 0},
	{[]string{"mother s day", "mothers day"}, 5, time.Sunday, 2, 0},
	{[]string{"father s day", "fathers day"}, 6, time.Sunday, 3, 0},
	{[]string{"presidents day", "president s day", "washington s birthday"}, 2, time.Monday, 3, 0},
	{[]string{"columbus day"}, 10, time.Monday, 2, 0},
}

// easterHolidays are holidays a fixed number of days from Western Easter.
var easterHolidays = []struct {
	names []string
	days  int
}{
	{[]string{"easter", "easter sunday"}, 0},
	{[]string{"easter monday", "easter mon"}, 1},
	{[]string{"good friday"}, -2},
	{[]string{"maundy thursday", "holy thursday"}, -3},
	{[]string{"palm sunday"}, -7},
	{[]string{"ash wednesday"}, -46},
	{[]string{"shrove tuesday", "pancake day", "mardi gras"}, -47},
	{[]string{"ascension day", "ascension thursday"}, 39},
	{[]string{"pentecost", "whit sunday", "whitsunday"}, 49},
	{[]string{"whit monday"}, 50},
}

// holidayFirst holds the first word of every holiday name, so most words
// are rejected without trying each name.
var holidayFirst = func() map[string]bool {
	m := map[string]bool{}
	add := func(names []string) {
		for _, n := range names {
			if k := strings.IndexByte(n, ' '); k >= 0 {
				n = n[:k]
			}
			m[n] = true
		}
	}
	for _, h := range fixedHolidays {
		add(h.names)
	}
	for _, h := range nthWeekdayHolidays {
		add(h.names)
	}
	for _, h := range easterHolidays {
		add(h.names)
	}
	return m
}()

// grammarStarters are the words the rules look for at the start of an
// expression besides those in the tables above.
var grammarStarters = []string{
	"at", "on", "in", "of", "for", "during", "from", "between", "later", "until",
	"untill", "till", "til", "before", "through", "thru", "up", "no", "after",
	"since", "starting", "anytime", "any", "not", "by", "asap", "as", "the", "a",
	"an", "half", "quarter", "around", "about", "approximately", "approx",
	"circa", "roughly", "within", "today", "tdy", "tomorrow", "tmrw", "tmr",
	"tomorow", "tommorow", "tommorrow", "yesterday", "yday", "now", "atm",
	"right", "just", "day", "noon", "midday", "midnight", "mid", "end",
	"beginning", "begining", "start", "middle", "rest", "towards", "toward",
	"q", "week", "weekend",
}

// starters is every word that can begin an expression. Find skips other
// words at once, which keeps long messages fast.
var starters = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range grammarStarters {
		m[w] = true
	}
	for w := range monthWords {
		m[w] = true
	}
	for w := range weekdayWords {
		m[w] = true
	}
	for w := range smallNumbers {
		m[w] = true
	}
	for w := range tensNumbers {
		m[w] = true
	}
	for w := range ordinalWords {
		m[w] = true
	}
	for w := range relWords {
		m[w] = true
	}
	for w := range partOfDayWords {
		m[w] = true
	}
	for w := range podModifiers {
		m[w] = true
	}
	for w := range quantityWords {
		m[w] = true
	}
	for w := range seasons {
		m[w] = true
	}
	for w := range boundaryAbbrevs {
		m[w] = true
	}
	for w := range holidayFirst {
		m[w] = true
	}
	return m
}()
