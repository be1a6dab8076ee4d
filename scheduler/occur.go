package scheduler

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/scheduler/recur"
)

// Morning is the local time at which date-only things remind: a task's
// lead days and due date, birthdays, and "tomorrow morning".
var Morning = recur.TimeOfDay{Hour: 9}

// zones caches loaded time zones; the zero value is ready.
type zones struct {
	mu sync.Mutex
	m  map[string]*time.Location
}

func (z *zones) load(name string) (*time.Location, bool) {
	z.mu.Lock()
	defer z.mu.Unlock()
	if loc, ok := z.m[name]; ok {
		return loc, loc != nil
	}
	loc, err := pipeline.LoadTimezone(name)
	if err != nil {
		loc = nil
	}
	if z.m == nil {
		z.m = map[string]*time.Location{}
	}
	z.m[name] = loc
	return loc, loc != nil
}

// Next returns the first occurrence of sc strictly after after, or the
// zero time when there is none (the item is done, gone or muted, the
// user's zone is unknown, or nothing is left to remind of). An occurrence
// in the user's quiet hours that the user did not ask for at that time is
// held until the quiet hours end.
func (z *zones) Next(sc hearth.Schedule, after time.Time) time.Time {
	loc, ok := z.load(sc.Timezone)
	from, fok := parseClock(sc.Settings.QuietFrom)
	to, tok := parseClock(sc.Settings.QuietTo)
	if !ok || !fok || !tok || from == to {
		return z.next(sc, after)
	}
	// An occurrence held past after may lie up to a day before it: look
	// back that far, and take the first that, held or not, comes after.
	t := after.Add(-25 * time.Hour)
	for range 64 {
		t = z.next(sc, t)
		if t.IsZero() {
			return t
		}
		if held := holdQuiet(sc, t, from, to, loc); held.After(after) {
			return held
		}
	}
	return time.Time{}
}

// holdQuiet moves an occurrence inside the quiet hours [from, to) to
// their end, unless the user asked for exactly that time: a recurring
// reminder, a snooze, the briefing, a task at its due time.
func holdQuiet(sc hearth.Schedule, t time.Time, from, to recur.TimeOfDay, loc *time.Location) time.Time {
	switch sc.Kind {
	case hearth.ScheduleReminder, hearth.ScheduleSnooze, hearth.ScheduleBriefing:
		return t
	case hearth.ScheduleTask:
		if !sc.AllDay && t.Equal(sc.Due) {
			return t
		}
	}
	local := t.In(loc)
	m, f, e := local.Hour()*60+local.Minute(), from.Hour*60+from.Minute, to.Hour*60+to.Minute
	var quiet bool
	if f < e {
		quiet = m >= f && m < e
	} else { // across midnight: 21:00 to 07:00
		quiet = m >= f || m < e
	}
	if !quiet {
		return t
	}
	d := recur.DateOf(t, loc)
	end := recur.At(d, to, loc)
	if !end.After(t) {
		end = recur.At(d.AddDays(1), to, loc)
	}
	return end
}

func (z *zones) next(sc hearth.Schedule, after time.Time) time.Time {
	if sc.Muted || sc.Done || sc.Gone {
		return time.Time{}
	}
	loc, ok := z.load(sc.Timezone)
	if !ok {
		return time.Time{}
	}
	switch sc.Kind {
	case hearth.ScheduleTask:
		return nextTask(sc, after, loc)
	case hearth.ScheduleReminder:
		var r recur.Rule
		if err := json.Unmarshal(sc.Rule, &r); err != nil {
			return time.Time{}
		}
		t, _ := r.Next(after, loc)
		return t
	case hearth.ScheduleBirthday:
		return nextBirthday(sc.Detail.Month, sc.Detail.Day, sc.Settings.BirthdayDays, after, loc)
	case hearth.ScheduleBriefing:
		if !sc.Settings.BriefingEnabled {
			return time.Time{}
		}
		at, ok := parseClock(sc.Settings.BriefingAt)
		if !ok {
			return time.Time{}
		}
		d := recur.DateOf(after, loc)
		for range 3 {
			if t := recur.At(d, at, loc); t.After(after) {
				return t
			}
			d = d.AddDays(1)
		}
	case hearth.ScheduleEvent:
		// EventLeadMinutes before the start: a moved event's reminder
		// moves (a fire job for the old instant finds it no longer an
		// occurrence), and turning them off leaves none.
		if sc.Settings.EventLeadMinutes <= 0 || sc.Due.IsZero() {
			return time.Time{}
		}
		if t := sc.Due.Add(-time.Duration(sc.Settings.EventLeadMinutes) * time.Minute); t.After(after) {
			return t
		}
	case hearth.ScheduleSnooze:
		// One-off: its NextAt is its only occurrence; once planned, none.
		if sc.NextAt.After(after) {
			return sc.NextAt
		}
	}
	return time.Time{}
}

// IsOccurrence reports whether at is (still) an occurrence of sc.
func (z *zones) IsOccurrence(sc hearth.Schedule, at time.Time) bool {
	if sc.Kind == hearth.ScheduleSnooze {
		return !sc.Muted && !sc.Gone && !sc.Done
	}
	return z.Next(sc, at.Add(-time.Nanosecond)).Equal(at)
}

// nextTask: at the due time for a timed task, on the due date at Morning
// for a date-only one, and the user's lead days before at Morning.
func nextTask(sc hearth.Schedule, after time.Time, loc *time.Location) time.Time {
	if sc.Due.IsZero() {
		return time.Time{}
	}
	localDue := sc.Due.In(loc)
	days := sc.Settings.LeadDays
	if sc.AllDay {
		days = append(append([]int(nil), days...), 0)
	}
	var best time.Time
	for _, t := range recur.LeadTimes(localDue, days, Morning, loc, after) {
		// A lead reminder at or after a timed task's due time says nothing.
		if !sc.AllDay && !t.Before(sc.Due) {
			continue
		}
		best = t
		break
	}
	if !sc.AllDay && sc.Due.After(after) && (best.IsZero() || sc.Due.Before(best)) {
		best = sc.Due
	}
	return best
}

// nextBirthday: n days before the date and on the day, at Morning, every
// year (February 29 only in leap years).
func nextBirthday(month, day, n int, after time.Time, loc *time.Location) time.Time {
	if month < 1 || month > 12 || day < 1 || day > 31 {
		return time.Time{}
	}
	y := recur.DateOf(after, loc).Year
	for year := y; year <= y+8; year++ {
		d := recur.Date{Year: year, Month: time.Month(month), Day: day}
		if !d.Valid() {
			continue
		}
		for _, t := range recur.LeadTimes(time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC), uniqueDays(n, 0), Morning, loc, after) {
			return t
		}
	}
	return time.Time{}
}

func uniqueDays(a, b int) []int {
	if a == b {
		return []int{a}
	}
	return []int{a, b}
}

// parseClock reads "HH:MM".
func parseClock(s string) (recur.TimeOfDay, bool) {
	hh, mm, ok := strings.Cut(s, ":")
	h, err1 := strconv.Atoi(hh)
	m, err2 := strconv.Atoi(mm)
	t := recur.TimeOfDay{Hour: h, Minute: m}
	return t, ok && err1 == nil && err2 == nil && t.Valid()
}
