package memory

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/nlu/timex"
	"github.com/hearthbot/hearth/scheduler/recur"
)

var (
	birthdayRe = regexp.MustCompile(`(?i)^\s*(?:my\s+)?(.*?)(?:'s|’s|s')?\s+(birthday|anniversary|bday)\s+is\s+(?:on\s+)?(.+?)\s*\.?\s*$`)
	monthFirst = regexp.MustCompile(`(?i)^([a-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+\d{4})?$`)
	dayFirst   = regexp.MustCompile(`(?i)^(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([a-z]+)\.?(?:,?\s+\d{4})?$`)
)

// leapRef is the reference for reading yearless dates: the eve of a leap year.
func leapRef() time.Time { return time.Date(2023, 12, 31, 12, 0, 0, 0, time.UTC) }

// ParseBirthday recognises a birthday or anniversary fact ("John's
// birthday is March 15th", "our anniversary is on the 3rd of June"), told
// about about (the fact's subject, for "my birthday is …"), and returns
// its month, day, whose it is and what it is. The scheduler keeps a
// schedule for each; a reminder "before Mum's birthday" is dated by it.
func ParseBirthday(content, about string) (hearth.ScheduleDetail, bool) {
	g := birthdayRe.FindStringSubmatch(strings.TrimSpace(content))
	if g == nil {
		return hearth.ScheduleDetail{}, false
	}
	who, what, date := strings.TrimSpace(g[1]), strings.ToLower(g[2]), strings.TrimSpace(g[3])
	if what == "bday" {
		what = "birthday"
	}
	var mon time.Month
	var day int
	if p := monthFirst.FindStringSubmatch(date); p != nil {
		mon, _ = timex.MonthNamed(p[1])
		day, _ = strconv.Atoi(p[2])
	} else if p := dayFirst.FindStringSubmatch(date); p != nil {
		mon, _ = timex.MonthNamed(p[2])
		day, _ = strconv.Atoi(p[1])
	} else if m, ok := timex.Parse(date, leapRef(), timex.Options{}); ok && m.Kind == timex.Value && m.Grain == timex.Day && m.Start == 0 && m.End == len(date) {
		// Other spellings timex knows ("3/15", "15.03."). The reference
		// precedes a leap day, so February 29 resolves too.
		mon, day = m.Value.Month(), m.Value.Day()
	}
	if mon == 0 || day < 1 || day > 31 || !(recur.Date{Year: 2024, Month: mon, Day: day}).Valid() {
		return hearth.ScheduleDetail{}, false
	}
	switch strings.ToLower(who) {
	case "", "my", "our":
		who = about
	}
	if who == "" {
		who = "your"
	}
	return hearth.ScheduleDetail{Month: int(mon), Day: day, About: who, What: what}, true
}
