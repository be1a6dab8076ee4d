package fileimport

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/hearthbot/hearth/pipeline/nlu/timex"
)

var (
	emailRe = regexp.MustCompile(`^[^@\s<>"]+@[^@\s<>"]+\.[^@\s<>".]{2,}$`)
	phoneRe = regexp.MustCompile(`^\+?[0-9 ()./\-]{6,24}$`)
	numRe   = regexp.MustCompile(`^[+-]?[0-9]+([.,][0-9]+)?$`)
	// numericDate is a date of numbers: 15.03.1980, 3/15/80, 2026-03-15,
	// with an optional time after it.
	numericDate = regexp.MustCompile(`^(\d{1,4})([./-])(\d{1,2})([./-])(\d{1,4})(?:[ T]+(.+))?$`)
)

func isEmail(s string) bool { return emailRe.MatchString(s) }

// isPhone is a phone number: digits with the usual punctuation, 6 to 15
// digits, and not a date.
func isPhone(s string) bool {
	if !phoneRe.MatchString(s) || numericDate.MatchString(s) {
		return false
	}
	n := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			n++
		}
	}
	return n >= 6 && n <= 15
}

func isBool(s string) (v, ok bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "yes", "y", "true", "x", "1", "ja", "oui", "si", "sí", "sim", "done", "✓", "✔", "completed", "erledigt", "fait":
		return true, true
	case "no", "n", "false", "0", "nein", "non", "não", "nao", "open", "todo", "to do", "offen":
		return false, true
	}
	return false, false
}

// looksLikeValue is a cell that holds data rather than a column's name.
func looksLikeValue(s string) bool {
	if numRe.MatchString(s) || isEmail(s) || isPhone(s) {
		return true
	}
	_, ok := parseDate(s, dayFirstUnknown)
	return ok
}

// dayOrder says how a column writes numeric dates whose first two parts
// could both be the day.
type dayOrder int

const (
	dayFirstUnknown dayOrder = iota
	dayFirst                 // 15.03.1980, 15/03/1980
	monthFirst               // 03/15/1980
)

// Date is a date read from a cell, with its time of day when it had one.
// Year is 0 for a date without a year (a birthday written "--03-15" or
// "March 15").
type Date struct {
	Year    int
	Month   time.Month
	Day     int
	HasTime bool
	Hour    int
	Minute  int
	// Instant is set when the cell named its zone (RFC 3339): the
	// instant wins over the wall-clock fields.
	Instant time.Time
}

// String writes the date for people: "15 March 1980", "15 March" without
// a year, with its time of day when it has one.
func (d Date) String() string {
	s := strconv.Itoa(d.Day) + " " + d.Month.String()
	if d.Year != 0 {
		s += " " + strconv.Itoa(d.Year)
	}
	if d.HasTime {
		s += fmt.Sprintf(" %02d:%02d", d.Hour, d.Minute)
	}
	return s
}

// In is the date (at midnight, or at its time) in loc; a date without a
// year takes year.
func (d Date) In(loc *time.Location, year int) time.Time {
	if !d.Instant.IsZero() {
		return d.Instant.In(loc)
	}
	y := d.Year
	if y == 0 {
		y = year
	}
	return time.Date(y, d.Month, d.Day, d.Hour, d.Minute, 0, 0, loc)
}

// parseDate reads the date formats files use: ISO and RFC 3339, compact
// vCard dates (19800315, --0315), numbers with dots, slashes or dashes in
// either day order, and month names ("March 15, 1980", "15 Mar 1980").
func parseDate(s string, order dayOrder) (Date, bool) {
	s = strings.TrimSpace(s)
	if len(s) < 4 || len(s) > 40 {
		return Date{}, false
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05Z07:00", "2006-01-02T15:04Z07:00"} {
		if t, err := time.Parse(layout, s); err == nil {
			return Date{Year: t.Year(), Month: t.Month(), Day: t.Day(), HasTime: true, Hour: t.Hour(), Minute: t.Minute(), Instant: t}, true
		}
	}
	if rest, ok := strings.CutPrefix(s, "--"); ok { // vCard: --0315, --03-15
		rest = strings.ReplaceAll(rest, "-", "")
		if len(rest) == 4 {
			m, err1 := strconv.Atoi(rest[:2])
			d, err2 := strconv.Atoi(rest[2:])
			if err1 == nil && err2 == nil && valid(2000, m, d) {
				return Date{Month: time.Month(m), Day: d}, true
			}
		}
		return Date{}, false
	}
	if len(s) == 8 && numRe.MatchString(s) { // 19800315
		y, _ := strconv.Atoi(s[:4])
		m, _ := strconv.Atoi(s[4:6])
		d, _ := strconv.Atoi(s[6:])
		if y >= 1800 && y <= 2200 && valid(y, m, d) {
			return Date{Year: y, Month: time.Month(m), Day: d}, true
		}
		return Date{}, false
	}
	if g := numericDate.FindStringSubmatch(s); g != nil {
		if g[2] != g[4] {
			return Date{}, false
		}
		a, _ := strconv.Atoi(g[1])
		b, _ := strconv.Atoi(g[3])
		c, _ := strconv.Atoi(g[5])
		var y, m, d int
		switch {
		case len(g[1]) == 4:
			y, m, d = a, b, c
		case len(g[5]) == 4 || len(g[5]) == 2:
			y = c
			if len(g[5]) == 2 {
				y = twoDigitYear(c)
			}
			switch {
			case a > 12:
				d, m = a, b
			case b > 12:
				m, d = a, b
			case order == monthFirst || (order == dayFirstUnknown && g[2] == "/"):
				m, d = a, b
			default:
				d, m = a, b
			}
		default:
			return Date{}, false
		}
		if !valid(y, m, d) {
			return Date{}, false
		}
		out := Date{Year: y, Month: time.Month(m), Day: d}
		if g[6] != "" {
			h, mi, ok := readClock(g[6])
			if !ok {
				return Date{}, false
			}
			out.HasTime, out.Hour, out.Minute = true, h, mi
		}
		return out, true
	}
	return namedDate(s)
}

// readClock reads a time of day: "15:04", "15:04:05", "3pm", "3:30 PM".
func readClock(s string) (h, m int, ok bool) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse("15:04:05", s); err == nil {
		return t.Hour(), t.Minute(), true
	}
	if t, err := time.Parse("15:04", s); err == nil {
		return t.Hour(), t.Minute(), true
	}
	return timex.ParseClock(strings.ToLower(s))
}

// namedDate reads dates with an English month name, the one table of
// month names being timex's: "March 15, 1980", "15 March 1980", "Mar
// 15", "15th of March".
func namedDate(s string) (Date, bool) {
	fields := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == ' ' || r == ',' || r == '.' || r == '-' || r == '/' })
	var out Date
	var clock []string
	for i, f := range fields {
		if m, ok := timex.MonthNamed(f); ok && out.Month == 0 {
			out.Month = m
			continue
		}
		f = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(f, "st"), "nd"), "rd"), "th")
		if f == "of" || f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		switch {
		case err != nil:
			if _, ok := timex.WeekdayNamed(f); ok {
				continue
			}
			if strings.Contains(fields[i], ":") || strings.HasSuffix(fields[i], "am") || strings.HasSuffix(fields[i], "pm") {
				clock = fields[i:]
				break
			}
			return Date{}, false
		case len(f) == 4 && out.Year == 0:
			out.Year = n
		case n >= 1 && n <= 31 && out.Day == 0:
			out.Day = n
		default:
			return Date{}, false
		}
		if clock != nil {
			break
		}
	}
	if out.Month == 0 || out.Day == 0 || !valid(max(out.Year, 2000), int(out.Month), out.Day) {
		return Date{}, false
	}
	if clock != nil {
		h, m, ok := readClock(strings.Join(clock, " "))
		if !ok {
			return Date{}, false
		}
		out.HasTime, out.Hour, out.Minute = true, h, m
	}
	return out, true
}

// twoDigitYear follows timex: 19xx from 50 up, 20xx below.
func twoDigitYear(y int) int {
	if y >= 50 {
		return 1900 + y
	}
	return 2000 + y
}

func valid(y, m, d int) bool {
	if m < 1 || m > 12 || d < 1 || y < 1 || y > 9999 {
		return false
	}
	return d <= time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// profile is what a column's values look like: the share of non-empty
// values of each pattern, and the order its numeric dates use.
type profile struct {
	filled                           int
	email, phone, dates, times, bool float64
	numbers                          float64
	order                            dayOrder
	// slashed counts numeric dates that are not year-first, written with
	// a slash or a dash: their day order is only known from evidence.
	slashed int
	sample  string
	// ambiguous is a value whose day and month could be swapped.
	ambiguous string
}

// profileColumn looks at up to 500 of a column's values.
func profileColumn(rows [][]string, col int) profile {
	var p profile
	var email, phone, dates, times, bools, nums int
	for i, r := range rows {
		if i >= 500 {
			break
		}
		v := r[col]
		if v == "" {
			continue
		}
		p.filled++
		if p.sample == "" {
			p.sample = v
		}
		if g := numericDate.FindStringSubmatch(v); g != nil && len(g[1]) < 4 {
			a, _ := strconv.Atoi(g[1])
			b, _ := strconv.Atoi(g[3])
			switch {
			case p.order != dayFirstUnknown:
			case a > 12:
				p.order = dayFirst
			case b > 12:
				p.order = monthFirst
			case a != b && p.ambiguous == "":
				p.ambiguous = v
			}
			if g[2] != "." {
				p.slashed++
			}
		}
		switch {
		case isEmail(v):
			email++
		case isPhone(v):
			phone++
		}
		if d, ok := parseDate(v, dayFirstUnknown); ok {
			dates++
			if d.HasTime {
				times++
			}
		}
		if _, ok := isBool(v); ok {
			bools++
		}
		if numRe.MatchString(v) {
			nums++
		}
	}
	if p.filled > 0 {
		f := float64(p.filled)
		p.email, p.phone, p.dates, p.times = float64(email)/f, float64(phone)/f, float64(dates)/f, float64(times)/f
		p.bool, p.numbers = float64(bools)/f, float64(nums)/f
	}
	return p
}
