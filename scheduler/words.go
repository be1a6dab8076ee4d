package scheduler

import (
	"strconv"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/nlu/timex"
	"github.com/hearthbot/hearth/scheduler/recur"
)

// How the scheduler's chat commands say sections, times, days and
// durations.

func sectionName(s string) (string, bool) {
	s = strings.TrimSpace(s)
	switch {
	case strings.Contains(s, "list") || strings.Contains(s, "shopping"):
		return SectionLists, true
	case strings.Contains(s, "mail"):
		return SectionMail, true
	case strings.Contains(s, "family"):
		return SectionFamily, true
	case strings.Contains(s, "calendar"):
		return SectionCalendar, true
	case strings.Contains(s, "birthday") || strings.Contains(s, "anniversar"):
		return SectionBirthdays, true
	case strings.Contains(s, "deadline"):
		return SectionDeadlines, true
	case strings.Contains(s, "prep") || strings.Contains(s, "meeting"):
		return SectionPrep, true
	}
	return "", false
}

func sectionTitle(name string) string {
	switch name {
	case SectionPrep:
		return "meeting prep"
	}
	return name
}

// parseClockWords reads "6:45", "6:45am", "7 pm", "18:30".
func parseClockWords(s string) (recur.TimeOfDay, bool) {
	h, m, ok := timex.ParseClock(s)
	t := recur.TimeOfDay{Hour: h, Minute: m}
	return t, ok && t.Valid()
}

func clockWords(t recur.TimeOfDay) string {
	return time.Date(2000, 1, 1, t.Hour, t.Minute, 0, 0, time.UTC).Format("3:04 PM")
}

// whenWords says when t is, relative to now, in loc.
func whenWords(t time.Time, loc *time.Location, now time.Time) string {
	lt := t.In(loc)
	switch recur.DateOf(now, loc).DaysUntil(recur.DateOf(t, loc)) {
	case 0:
		return "today at " + lt.Format("3:04 PM")
	case 1:
		return "tomorrow at " + lt.Format("3:04 PM")
	}
	return lt.Format("Monday, January 2 at 3:04 PM")
}

func daysWords(upd hearth.ScheduleSettingsUpdate) string {
	var ds []int
	if upd.BirthdayDays != nil {
		ds = []int{*upd.BirthdayDays}
	} else {
		ds = upd.LeadDays
	}
	var parts []string
	for _, d := range ds {
		parts = append(parts, strconv.Itoa(d))
	}
	unit := " days"
	if len(ds) == 1 && ds[0] == 1 {
		unit = " day"
	}
	return strings.Join(parts, ", ") + unit
}

// minutesWords says "30 minutes", "1 hour", "90 minutes".
func minutesWords(m int) string {
	switch {
	case m == 60:
		return "1 hour"
	case m%60 == 0:
		return strconv.Itoa(m/60) + " hours"
	case m == 1:
		return "1 minute"
	}
	return strconv.Itoa(m) + " minutes"
}
