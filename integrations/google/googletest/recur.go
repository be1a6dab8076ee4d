package googletest

import (
	"strconv"
	"strings"
	"time"

	calendar "google.golang.org/api/calendar/v3"
)

// horizon bounds the expansion of an endless recurrence, as Google bounds
// singleEvents listings.
const horizon = 2 * 366 * 24 * time.Hour

// occurrences expands the RRULE of a recurring event in its time zone
// (wall times stay put across DST): FREQ DAILY, WEEKLY (BYDAY), MONTHLY
// (BYMONTHDAY, or one BYDAY with its ordinal: 1TH, -1FR) and YEARLY with
// INTERVAL, COUNT and UNTIL, and EXDATE dates. Enough for
// tests; not a full RFC 5545 engine.
func occurrences(ev *calendar.Event) []time.Time {
	loc := time.UTC
	if ev.Start.TimeZone != "" {
		if l, err := time.LoadLocation(ev.Start.TimeZone); err == nil {
			loc = l
		}
	}
	first := startOf(ev).In(loc)
	if ev.Start.Date != "" {
		first = time.Date(first.Year(), first.Month(), first.Day(), 0, 0, 0, 0, time.UTC)
		loc = time.UTC
	}
	var freq string
	interval, count := 1, 0
	var until time.Time
	var byday []time.Weekday
	nth, monthday := 0, 0 // BYDAY=1TH's 1, BYMONTHDAY's day (-1: the last)
	exdates := map[string]bool{}
	for _, line := range ev.Recurrence {
		name, val, _ := strings.Cut(line, ":")
		switch {
		case name == "RRULE":
			for _, kv := range strings.Split(val, ";") {
				k, v, _ := strings.Cut(kv, "=")
				switch k {
				case "FREQ":
					freq = v
				case "INTERVAL":
					interval, _ = strconv.Atoi(v)
				case "COUNT":
					count, _ = strconv.Atoi(v)
				case "UNTIL":
					for _, layout := range []string{"20060102T150405Z", "20060102"} {
						if t, err := time.Parse(layout, v); err == nil {
							until = t
						}
					}
				case "BYMONTHDAY":
					monthday, _ = strconv.Atoi(v)
				case "BYDAY":
					for _, d := range strings.Split(v, ",") {
						for wd, n := range []string{"SU", "MO", "TU", "WE", "TH", "FR", "SA"} {
							if strings.HasSuffix(d, n) {
								byday = append(byday, time.Weekday(wd))
								if p := strings.TrimSuffix(d, n); p != "" {
									nth, _ = strconv.Atoi(p)
								}
							}
						}
					}
				}
			}
		case strings.HasPrefix(name, "EXDATE"):
			for _, d := range strings.Split(val, ",") {
				exdates[d[:min(8, len(d))]] = true
			}
		}
	}
	if interval < 1 {
		interval = 1
	}
	end := first.Add(horizon)
	var out []time.Time
	add := func(t time.Time) bool {
		if t.Before(first) {
			return true
		}
		if (!until.IsZero() && t.After(until)) || t.After(end) || (count > 0 && len(out) >= count) {
			return false
		}
		if !exdates[t.Format("20060102")] {
			out = append(out, t)
		} else if count > 0 {
			out = append(out, time.Time{}) // an excluded date still counts
		}
		return true
	}
	at := func(y int, m time.Month, d int) time.Time {
		return time.Date(y, m, d, first.Hour(), first.Minute(), first.Second(), 0, loc)
	}
	for i := 0; i < 5000; i++ {
		var ok bool
		switch freq {
		case "DAILY":
			ok = add(at(first.Year(), first.Month(), first.Day()+i*interval))
		case "WEEKLY":
			if len(byday) == 0 {
				ok = add(at(first.Year(), first.Month(), first.Day()+7*i*interval))
				break
			}
			monday := first.Day() - (int(first.Weekday())+6)%7 + 7*i*interval
			ok = true
			for d := 0; d < 7 && ok; d++ {
				t := at(first.Year(), first.Month(), monday+d)
				for _, wd := range byday {
					if t.Weekday() == wd {
						ok = add(t)
					}
				}
			}
		case "MONTHLY":
			month := time.Date(first.Year(), first.Month()+time.Month(i*interval), 1, 12, 0, 0, 0, time.UTC)
			y, m := month.Year(), month.Month()
			days := time.Date(y, m+1, 0, 12, 0, 0, 0, time.UTC).Day()
			day := first.Day()
			switch {
			case nth != 0 && len(byday) == 1:
				// The nth such weekday; -1: the last.
				firstSuch := 1 + (int(byday[0])-int(month.Weekday())+7)%7
				day = firstSuch + 7*(nth-1)
				if nth < 0 {
					day = firstSuch + 7*((days-firstSuch)/7)
				}
			case monthday < 0:
				day = days
			case monthday > 0:
				day = monthday
			}
			if day > days {
				ok = true // a month without that day: skipped
				break
			}
			ok = add(at(y, m, day))
		case "YEARLY":
			ok = add(at(first.Year()+i*interval, first.Month(), first.Day()))
		default:
			return []time.Time{first}
		}
		if !ok {
			break
		}
	}
	kept := out[:0]
	for _, t := range out {
		if !t.IsZero() {
			kept = append(kept, t)
		}
	}
	return kept
}

// instanceSuffix is Google's instance id suffix: the original start in UTC
// (a date for all-day events).
func instanceSuffix(ev *calendar.Event, start time.Time) string {
	if ev.Start.Date != "" {
		return start.Format("20060102")
	}
	return start.UTC().Format("20060102T150405Z")
}

// instance is one occurrence of a recurring event.
func instance(master *calendar.Event, id string, start time.Time) *calendar.Event {
	c := *master
	c.Id, c.RecurringEventId, c.Recurrence = id, master.Id, nil
	dur := startOfEnd(master).Sub(startOf(master))
	if master.Start.Date != "" {
		days := int(dur.Hours() / 24)
		c.Start = &calendar.EventDateTime{Date: start.Format("2006-01-02")}
		c.End = &calendar.EventDateTime{Date: start.AddDate(0, 0, days).Format("2006-01-02")}
		c.OriginalStartTime = &calendar.EventDateTime{Date: c.Start.Date}
		return &c
	}
	c.Start = &calendar.EventDateTime{DateTime: start.Format(time.RFC3339), TimeZone: master.Start.TimeZone}
	c.End = &calendar.EventDateTime{DateTime: start.Add(dur).Format(time.RFC3339), TimeZone: master.End.TimeZone}
	c.OriginalStartTime = &calendar.EventDateTime{DateTime: c.Start.DateTime, TimeZone: master.Start.TimeZone}
	return &c
}

func startOfEnd(ev *calendar.Event) time.Time {
	if ev.End == nil {
		return startOf(ev)
	}
	if ev.End.Date != "" {
		t, _ := time.Parse("2006-01-02", ev.End.Date)
		return t
	}
	t, _ := time.Parse(time.RFC3339, ev.End.DateTime)
	return t
}
