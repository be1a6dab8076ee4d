package recur

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Limits that keep every rule cheap to expand. They are far beyond what a
// person asks for and exist so that a decoded or parsed rule can never make
// Next or Between loop for long.
const (
	// MaxInterval is the largest Interval a rule may have.
	MaxInterval = 1000
	// MaxCount is the largest Count a rule may have.
	MaxCount = 10000
	// MaxSkip is the most dates a rule may skip.
	MaxSkip = 100
	// LastDay as a MonthDay means the last day of the month.
	LastDay = -1
)

// ErrInvalid is wrapped by every error that reports an impossible rule or
// malformed JSON.
var ErrInvalid = errors.New("invalid recurrence")

// ErrNoStart is wrapped (together with ErrInvalid) when a rule needs a
// Start date to be meaningful and has none; see the package documentation.
var ErrNoStart = errors.New("rule needs a start date")

func invalidf(format string, args ...any) error {
	return fmt.Errorf("recur: %w: "+format, append([]any{ErrInvalid}, args...)...)
}

// Freq is how often a rule repeats. The zero Freq is invalid so that a
// zero Rule is never mistaken for a daily one.
type Freq uint8

// The frequencies.
const (
	Daily Freq = iota + 1
	Weekly
	Monthly
	Yearly
)

var freqNames = [...]string{Daily: "daily", Weekly: "weekly", Monthly: "monthly", Yearly: "yearly"}

// String returns "daily", "weekly", "monthly" or "yearly".
func (f Freq) String() string {
	if f >= Daily && f <= Yearly {
		return freqNames[f]
	}
	return "Freq(" + strconv.Itoa(int(f)) + ")"
}

// MarshalText encodes f by name.
func (f Freq) MarshalText() ([]byte, error) {
	if f < Daily || f > Yearly {
		return nil, invalidf("frequency %d", int(f))
	}
	return []byte(freqNames[f]), nil
}

// UnmarshalText decodes a frequency name as written by MarshalText.
func (f *Freq) UnmarshalText(b []byte) error {
	for i := Daily; i <= Yearly; i++ {
		if string(b) == freqNames[i] {
			*f = i
			return nil
		}
	}
	return invalidf("unknown frequency %q", b)
}

// Weekdays is a set of days of the week, bit time.Weekday set for each
// member. A set rather than a slice, so order and duplicates cannot differ
// between two equal rules.
type Weekdays uint8

// Common sets.
const (
	WorkWeek Weekdays = 1<<time.Monday | 1<<time.Tuesday | 1<<time.Wednesday | 1<<time.Thursday | 1<<time.Friday
	Weekend  Weekdays = 1<<time.Saturday | 1<<time.Sunday
	AllWeek           = WorkWeek | Weekend
)

// WeekdaysOf returns the set of the given days; values outside
// time.Sunday…time.Saturday are ignored.
func WeekdaysOf(days ...time.Weekday) Weekdays {
	var s Weekdays
	for _, d := range days {
		if d >= time.Sunday && d <= time.Saturday {
			s |= 1 << d
		}
	}
	return s
}

// Has reports whether d is in the set.
func (s Weekdays) Has(d time.Weekday) bool { return d >= 0 && d <= 6 && s&(1<<d) != 0 }

// Days returns the members from Monday to Sunday (the week order people
// read and the order of the week Hearth uses).
func (s Weekdays) Days() []time.Weekday {
	var out []time.Weekday
	for i := range 7 {
		d := time.Weekday((i + 1) % 7)
		if s.Has(d) {
			out = append(out, d)
		}
	}
	return out
}

var dayAbbr = [...]string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}

// Date is a civil date with no time zone: the user's local calendar day.
// The zero Date means "not set".
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// DateOf returns the calendar date of t in loc (t's own location when loc
// is nil).
func DateOf(t time.Time, loc *time.Location) Date {
	if loc != nil {
		t = t.In(loc)
	}
	y, m, d := t.Date()
	return Date{y, m, d}
}

// IsZero reports whether d is the zero Date.
func (d Date) IsZero() bool { return d == Date{} }

// AddDays returns the date n calendar days after d (before, for n < 0).
func (d Date) AddDays(n int) Date { return fromDayNum(dayNum(d) + int64(n)) }

// DaysUntil returns how many calendar days b is after d (negative when
// before).
func (d Date) DaysUntil(b Date) int { return int(dayNum(b) - dayNum(d)) }

// NextYearly returns the next date, d itself included, that is month and
// day in its year: a birthday's next one. February 29 comes only in leap
// years; ok is false for a day no year has.
func (d Date) NextYearly(month time.Month, day int) (Date, bool) {
	for year := d.Year; year <= d.Year+8; year++ {
		if next := (Date{year, month, day}); next.Valid() && d.DaysUntil(next) >= 0 {
			return next, true
		}
	}
	return Date{}, false
}

// Weekday returns the day of the week of d.
func (d Date) Weekday() time.Weekday { return weekdayOf(dayNum(d)) }

// Valid reports whether d is a real date in years 1 to 9999.
func (d Date) Valid() bool {
	return d.Year >= 1 && d.Year <= 9999 && d.Month >= time.January && d.Month <= time.December &&
		d.Day >= 1 && d.Day <= daysIn(d.Year, d.Month)
}

// String formats d as YYYY-MM-DD.
func (d Date) String() string { return fmt.Sprintf("%04d-%02d-%02d", d.Year, int(d.Month), d.Day) }

// MarshalText encodes d as YYYY-MM-DD.
func (d Date) MarshalText() ([]byte, error) {
	if !d.Valid() {
		return nil, invalidf("date %v", d)
	}
	return []byte(d.String()), nil
}

// UnmarshalText decodes a YYYY-MM-DD date.
func (d *Date) UnmarshalText(b []byte) error {
	t, err := time.Parse(time.DateOnly, string(b))
	if err != nil {
		return invalidf("date %q: %w", b, err)
	}
	*d = Date{t.Year(), t.Month(), t.Day()}
	return nil
}

func (d Date) before(e Date) bool { return dayNum(d) < dayNum(e) }

func (d Date) human() string {
	return fmt.Sprintf("%s %d, %d", d.Month, d.Day, d.Year)
}

// TimeOfDay is a local wall-clock time, hour 0–23 and minute 0–59.
type TimeOfDay struct {
	Hour, Minute int
}

// Valid reports whether t is a time on a 24-hour clock.
func (t TimeOfDay) Valid() bool { return t.Hour >= 0 && t.Hour < 24 && t.Minute >= 0 && t.Minute < 60 }

// String formats t as HH:MM.
func (t TimeOfDay) String() string { return fmt.Sprintf("%02d:%02d", t.Hour, t.Minute) }

// MarshalText encodes t as HH:MM.
func (t TimeOfDay) MarshalText() ([]byte, error) {
	if !t.Valid() {
		return nil, invalidf("time of day %d:%d", t.Hour, t.Minute)
	}
	return []byte(t.String()), nil
}

// UnmarshalText decodes an HH:MM time of day.
func (t *TimeOfDay) UnmarshalText(b []byte) error {
	s := string(b)
	h, m, ok := strings.Cut(s, ":")
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	v := TimeOfDay{hh, mm}
	if !ok || len(m) != 2 || len(h) == 0 || len(h) > 2 || err1 != nil || err2 != nil || !v.Valid() {
		return invalidf("time of day %q, want HH:MM", s)
	}
	*t = v
	return nil
}

// Rule is a recurrence in local wall-clock terms, RRULE-like but limited to
// what reminders need. The zero Rule is invalid (no Freq).
type Rule struct {
	// Freq is the unit of repetition.
	Freq Freq
	// Interval repeats every Interval units ("every other Tuesday" is
	// Weekly with Interval 2). 0 means 1. Counted from Start.
	Interval int
	// Weekdays are the days a Weekly rule fires on ("every weekday" is
	// WorkWeek). Empty means Start's weekday. Only for Weekly.
	Weekdays Weekdays
	// MonthDay is the day of the month for Monthly and Yearly rules, 1–31
	// or LastDay. 0 means Start's day. A day a month lacks is skipped.
	MonthDay int
	// Month is the month of a Yearly rule; 0 means Start's month.
	Month time.Month
	// Nth, with exactly one of Weekdays, makes a Monthly rule fire on
	// the Nth such weekday of the month, 1–5 or LastDay ("the first
	// Sunday of every month", "the last Friday"). A month without a
	// fifth one is skipped.
	Nth int
	// At is the local time of day of every occurrence.
	At TimeOfDay
	// Start is the first date the rule may fire on and the anchor of
	// Interval and Count; zero for a rule that needs neither.
	Start Date
	// Until is the last date (inclusive, local) the rule may fire on; zero
	// for no end.
	Until Date
	// Count caps the number of occurrences counted from Start; 0 for no
	// cap.
	Count int
	// Skip are dates the rule does not fire on ("skip tomorrow's"), as
	// iCalendar's EXDATE: a skipped date still counts towards Count. At
	// most MaxSkip; RRULE does not carry them.
	Skip []Date
}

func (r Rule) interval() int {
	if r.Interval <= 0 {
		return 1
	}
	return r.Interval
}

// needsStart reports whether the rule's meaning depends on Start.
func (r Rule) needsStart() bool {
	switch {
	case r.Interval > 1, r.Count > 0:
		return true
	case r.Freq == Weekly:
		return r.Weekdays == 0
	case r.Freq == Monthly:
		return r.MonthDay == 0 && r.Nth == 0
	case r.Freq == Yearly:
		return r.Month == 0 || r.MonthDay == 0
	}
	return false
}

// Validate reports why r is impossible or incomplete, or nil. Errors wrap
// ErrInvalid (and ErrNoStart when only Start is missing).
func (r Rule) Validate() error {
	if r.Freq < Daily || r.Freq > Yearly {
		return invalidf("frequency %d", int(r.Freq))
	}
	if r.Interval < 0 || r.Interval > MaxInterval {
		return invalidf("interval %d not in 1..%d", r.Interval, MaxInterval)
	}
	if !r.At.Valid() {
		return invalidf("time of day %02d:%02d", r.At.Hour, r.At.Minute)
	}
	if r.Nth != 0 {
		switch {
		case r.Freq != Monthly:
			return invalidf("the nth weekday only applies to monthly rules")
		case r.Nth != LastDay && (r.Nth < 1 || r.Nth > 5):
			return invalidf("nth weekday %d not in 1..5 or last", r.Nth)
		case len(r.Weekdays.Days()) != 1:
			return invalidf("the nth weekday needs exactly one weekday")
		case r.MonthDay != 0:
			return invalidf("a rule has a day of the month or an nth weekday, not both")
		}
	} else if r.Weekdays != 0 && r.Freq != Weekly {
		return invalidf("weekdays only apply to weekly rules")
	}
	if r.Weekdays&^AllWeek != 0 {
		return invalidf("weekday set %#x", uint8(r.Weekdays))
	}
	if r.Month != 0 && r.Freq != Yearly {
		return invalidf("a month only applies to yearly rules")
	}
	if r.Month < 0 || r.Month > time.December {
		return invalidf("month %d", int(r.Month))
	}
	switch {
	case r.MonthDay == 0 || r.MonthDay == LastDay:
		if r.MonthDay != 0 && r.Freq != Monthly && r.Freq != Yearly {
			return invalidf("a day of the month only applies to monthly and yearly rules")
		}
	case r.Freq != Monthly && r.Freq != Yearly:
		return invalidf("a day of the month only applies to monthly and yearly rules")
	case r.MonthDay < 1 || r.MonthDay > 31:
		return invalidf("day of the month %d", r.MonthDay)
	case r.Freq == Yearly && r.Month != 0 && r.MonthDay > daysIn(2000, r.Month):
		// 2000 is a leap year: February 29 is allowed, February 30 is not.
		return invalidf("%s has no day %d", r.Month, r.MonthDay)
	}
	if r.Count < 0 || r.Count > MaxCount {
		return invalidf("count %d not in 0..%d", r.Count, MaxCount)
	}
	if !r.Start.IsZero() && !r.Start.Valid() {
		return invalidf("start date %v", r.Start)
	}
	if !r.Until.IsZero() {
		if !r.Until.Valid() {
			return invalidf("until date %v", r.Until)
		}
		if !r.Start.IsZero() && r.Until.before(r.Start) {
			return invalidf("until %v is before start %v", r.Until, r.Start)
		}
	}
	if len(r.Skip) > MaxSkip {
		return invalidf("%d dates skipped, more than %d", len(r.Skip), MaxSkip)
	}
	for _, d := range r.Skip {
		if !d.Valid() {
			return invalidf("skipped date %v", d)
		}
	}
	if r.Start.IsZero() && r.needsStart() {
		return fmt.Errorf("recur: %w: %w", ErrInvalid, ErrNoStart)
	}
	return nil
}

// String describes r for people: "every Monday at 09:00", "every weekday
// at 08:30", "on the 1st of every month at 09:00", "every year on March 15
// at 09:00", with ", 10 times" or ", until June 30, 2026" when capped.
func (r Rule) String() string {
	if r.Freq < Daily || r.Freq > Yearly {
		return "never"
	}
	iv := r.interval()
	at := " at " + r.At.String()
	var b strings.Builder
	switch r.Freq {
	case Daily:
		b.WriteString(every(iv, "day", "days"))
	case Weekly:
		days := r.Weekdays
		if days == 0 && !r.Start.IsZero() {
			days = WeekdaysOf(r.Start.Weekday())
		}
		switch {
		case days == 0:
			b.WriteString(every(iv, "week", "weeks"))
		case iv == 1 && days == AllWeek:
			b.WriteString("every day")
		case iv <= 2:
			b.WriteString(every(iv, "", ""))
			b.WriteString(dayList(days))
		default:
			b.WriteString(every(iv, "week", "weeks"))
			b.WriteString(" on ")
			b.WriteString(dayList(days))
		}
	case Monthly:
		day := r.MonthDay
		if day == 0 {
			day = r.Start.Day
		}
		if r.Nth != 0 {
			nth := "last"
			if r.Nth != LastDay {
				nth = nthWords[r.Nth]
			}
			b.WriteString("on the " + nth + " " + r.Weekdays.Days()[0].String() + " of " + every(iv, "month", "months"))
			break
		}
		if day == 0 {
			b.WriteString(every(iv, "month", "months"))
		} else {
			b.WriteString("on the " + ordinal(day) + " of " + every(iv, "month", "months"))
		}
	case Yearly:
		b.WriteString(every(iv, "year", "years"))
		m, day := r.Month, r.MonthDay
		if m == 0 {
			m = r.Start.Month
		}
		if day == 0 {
			day = r.Start.Day
		}
		switch {
		case m == 0 || day == 0:
		case day == LastDay:
			fmt.Fprintf(&b, " on the last day of %s", m)
		default:
			fmt.Fprintf(&b, " on %s %d", m, day)
		}
	}
	b.WriteString(at)
	if r.Count > 0 {
		if r.Count == 1 {
			b.WriteString(", once")
		} else {
			fmt.Fprintf(&b, ", %d times", r.Count)
		}
	}
	if !r.Until.IsZero() {
		b.WriteString(", until " + r.Until.human())
	}
	return b.String()
}

// every renders "every day", "every other day", "every 3 days"; with an
// empty unit it renders the prefix for a following noun ("every ",
// "every other ").
func every(iv int, one, many string) string {
	switch {
	case one == "" && iv == 1:
		return "every "
	case one == "":
		return "every other "
	case iv == 1:
		return "every " + one
	case iv == 2:
		return "every other " + one
	}
	return "every " + strconv.Itoa(iv) + " " + many
}

func dayList(s Weekdays) string {
	if s == WorkWeek {
		return "weekday"
	}
	var names []string
	for _, d := range s.Days() {
		names = append(names, d.String())
	}
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// nthWords name the first to fifth weekday of a month.
var nthWords = [...]string{1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}

func ordinal(n int) string {
	if n == LastDay {
		return "last day"
	}
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(n) + suffix
}

// ruleJSON is the stored form. Names rather than numbers for frequency and
// weekdays so that rows are readable in the database.
type ruleJSON struct {
	Freq     Freq      `json:"freq"`
	Interval int       `json:"interval,omitempty"`
	Weekdays []string  `json:"weekdays,omitempty"`
	MonthDay int       `json:"month_day,omitempty"`
	Month    int       `json:"month,omitempty"`
	Nth      int       `json:"nth,omitempty"`
	At       TimeOfDay `json:"at"`
	Start    *Date     `json:"start,omitempty"`
	Until    *Date     `json:"until,omitempty"`
	Count    int       `json:"count,omitempty"`
	Skip     []Date    `json:"skip,omitempty"`
}

// MarshalJSON encodes a valid rule, for example
// {"freq":"weekly","interval":2,"weekdays":["tue"],"at":"09:00","start":"2026-03-10"}.
func (r Rule) MarshalJSON() ([]byte, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	w := ruleJSON{Freq: r.Freq, MonthDay: r.MonthDay, Month: int(r.Month), Nth: r.Nth, At: r.At, Count: r.Count, Skip: r.Skip}
	if r.Interval > 1 {
		w.Interval = r.Interval
	}
	for _, d := range r.Weekdays.Days() {
		w.Weekdays = append(w.Weekdays, dayAbbr[d])
	}
	if !r.Start.IsZero() {
		w.Start = &r.Start
	}
	if !r.Until.IsZero() {
		w.Until = &r.Until
	}
	return json.Marshal(w)
}

// UnmarshalJSON decodes and validates a rule. Unknown fields are ignored,
// so that a replica running an older build can still read rules written by
// a newer one during a rolling upgrade; known fields must be well formed
// and the rule must pass Validate.
func (r *Rule) UnmarshalJSON(b []byte) error {
	var w ruleJSON
	if err := json.Unmarshal(b, &w); err != nil {
		if errors.Is(err, ErrInvalid) {
			return err
		}
		return fmt.Errorf("recur: %w: %w", ErrInvalid, err)
	}
	if w.Month < 0 || w.Month > 12 {
		return invalidf("month %d", w.Month)
	}
	out := Rule{Freq: w.Freq, Interval: w.Interval, MonthDay: w.MonthDay, Month: time.Month(w.Month), Nth: w.Nth, At: w.At, Count: w.Count, Skip: w.Skip}
	for _, name := range w.Weekdays {
		d, ok := weekdayByAbbr(name)
		if !ok {
			return invalidf("weekday %q", name)
		}
		out.Weekdays |= 1 << d
	}
	if w.Start != nil {
		out.Start = *w.Start
	}
	if w.Until != nil {
		out.Until = *w.Until
	}
	if err := out.Validate(); err != nil {
		return err
	}
	*r = out
	return nil
}

func weekdayByAbbr(s string) (time.Weekday, bool) {
	for i, a := range dayAbbr {
		if a == s {
			return time.Weekday(i), true
		}
	}
	return 0, false
}
