package scheduler

import (
	"fmt"
	"strconv"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/scheduler/recur"
)

// Reminder button labels.
const (
	LabelDone     = "Done"
	LabelSnooze   = "Snooze 1 h"
	LabelTomorrow = "Tomorrow morning"
)

// ButtonPrefix starts the id of every reminder button:
// "sched:<verb>:<schedule id>:<occurrence unix>", and of the buttons that
// answer which reminder to cancel: "sched:cancel:<schedule id>:<turn>".
const ButtonPrefix = "sched:"

func reminderButtons(a FireArgs) []hearth.Button {
	ref := strconv.FormatInt(a.ScheduleID, 10) + ":" + strconv.FormatInt(a.At, 10)
	return []hearth.Button{
		{ID: ButtonPrefix + "done:" + ref, Label: LabelDone},
		{ID: ButtonPrefix + "snooze:" + ref, Label: LabelSnooze},
		{ID: ButtonPrefix + "morning:" + ref, Label: LabelTomorrow},
	}
}

// reminderMessage words one occurrence of a reminder.
func reminderMessage(sc hearth.Schedule, at time.Time, loc *time.Location, a FireArgs) hearth.Outbound {
	var text string
	title := "“" + markdown.Escape(sc.Title) + "”"
	switch sc.Kind {
	case hearth.ScheduleTask:
		dueDay, atDay := recur.DateOf(sc.Due, loc), recur.DateOf(at, loc)
		days := atDay.DaysUntil(dueDay)
		switch {
		case !sc.AllDay && at.Equal(sc.Due):
			text = "⏰ Reminder: " + title + " — due now (" + sc.Due.In(loc).Format("3:04 PM") + ")."
		case !sc.AllDay && days == 0:
			text = "⏰ Heads-up: " + title + " is due today" + dueClock(sc, loc) + "."
		case days == 0:
			text = "⏰ Reminder: " + title + " is due today."
		case days == 1:
			text = "⏰ Heads-up: " + title + " is due tomorrow" + dueClock(sc, loc) + "."
		default:
			text = fmt.Sprintf("⏰ Heads-up: %s is due in %d days (%s%s).", title, days, dateWords(dueDay), dueClock(sc, loc))
		}
	case hearth.ScheduleBirthday:
		bday := recur.Date{Year: recur.DateOf(at, loc).Year, Month: time.Month(sc.Detail.Month), Day: sc.Detail.Day}
		days := recur.DateOf(at, loc).DaysUntil(bday)
		if days < 0 { // a lead reminder in December for January
			bday.Year++
			days = recur.DateOf(at, loc).DaysUntil(bday)
		}
		what := markdown.Escape(prose.Possessive(sc.Detail.About) + " " + sc.Detail.What)
		if days == 0 {
			text = "🎂 Today is " + what + "!"
		} else {
			text = fmt.Sprintf("🎂 %s is in %d days (%s).", prose.UpperFirst(what), days, dateWords(bday))
		}
	case hearth.ScheduleEvent:
		// Nothing to mark done or snooze: the event comes when it comes.
		return hearth.Outbound{Text: eventReminder(sc, at, loc)}
	default:
		text = "⏰ Reminder: " + markdown.Escape(sc.Title)
	}
	return hearth.Outbound{Text: text, Buttons: reminderButtons(a)}
}

// eventReminder words a reminder before an event: when, where, with whom.
func eventReminder(sc hearth.Schedule, at time.Time, loc *time.Location) string {
	mins := int(sc.Due.Sub(at).Round(time.Minute) / time.Minute)
	in := fmt.Sprintf("%d minutes", mins)
	switch {
	case mins == 1:
		in = "1 minute"
	case mins%60 == 0 && mins >= 60:
		in = fmt.Sprintf("%d hour", mins/60)
		if mins > 60 {
			in += "s"
		}
	}
	text := "📅 In " + in + ": “" + markdown.Escape(sc.Title) + "” at " + sc.Due.In(loc).Format("3:04 PM")
	if mins <= 0 { // held through the quiet hours past its start
		text = "📅 While your quiet hours held this back: “" + markdown.Escape(sc.Title) + "” at " + sc.Due.In(loc).Format("3:04 PM")
	}
	if sc.Location != "" {
		text += ", " + markdown.Escape(sc.Location)
	}
	if len(sc.Attendees) > 0 {
		text += ", with " + prose.List(markdown.EscapeAll(sc.Attendees))
	}
	return text + "."
}

func dueClock(sc hearth.Schedule, loc *time.Location) string {
	if sc.AllDay {
		return ""
	}
	return " at " + sc.Due.In(loc).Format("3:04 PM")
}
