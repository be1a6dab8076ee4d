package recur

import (
	"fmt"
	"strings"
	"time"
)

// RRULE writes r as an RFC 5545 RRULE line ("RRULE:FREQ=WEEKLY;BYDAY=WE")
// for a calendar that expands rules itself (Google's), whose event starts
// at r's first occurrence in loc: that start is the line's DTSTART, so
// Interval and Count count from the same occurrence as here. Until, a
// local date, ends the last second of that day in loc (as UTC), or is the
// date itself for an all-day event. It reports an error for an invalid
// rule.
func (r Rule) RRULE(loc *time.Location, allDay bool) (string, error) {
	if err := r.Validate(); err != nil {
		return "", err
	}
	if loc == nil {
		return "", invalidf("no time zone")
	}
	parts := []string{"FREQ=" + strings.ToUpper(r.Freq.String())}
	if r.Interval > 1 {
		parts = append(parts, fmt.Sprintf("INTERVAL=%d", r.Interval))
	}
	if r.Weekdays != 0 {
		var days []string
		nth := ""
		if r.Nth != 0 {
			nth = fmt.Sprint(r.Nth) // "1SU", "-1FR"
		}
		for _, d := range r.Weekdays.Days() {
			days = append(days, nth+strings.ToUpper(d.String()[:2]))
		}
		parts = append(parts, "BYDAY="+strings.Join(days, ","))
	}
	if r.Month != 0 {
		parts = append(parts, fmt.Sprintf("BYMONTH=%d", int(r.Month)))
	}
	if r.MonthDay != 0 {
		parts = append(parts, fmt.Sprintf("BYMONTHDAY=%d", r.MonthDay))
	}
	if r.Count > 0 {
		parts = append(parts, fmt.Sprintf("COUNT=%d", r.Count))
	}
	if !r.Until.IsZero() {
		if allDay {
			parts = append(parts, fmt.Sprintf("UNTIL=%04d%02d%02d", r.Until.Year, int(r.Until.Month), r.Until.Day))
		} else {
			end := time.Date(r.Until.Year, r.Until.Month, r.Until.Day+1, 0, 0, 0, 0, loc).Add(-time.Second)
			parts = append(parts, "UNTIL="+end.UTC().Format("20060102T150405Z"))
		}
	}
	return "RRULE:" + strings.Join(parts, ";"), nil
}
