package plan

import (
	"regexp"
	"strings"
	"time"

	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// A reminder ahead of something the user has: "remind me an hour before",
// "remind me about the dentist the day before", "remind me a week before
// the passport is due". It is a reminder (a task) due that long before
// the task or event, named after it and when it is; "it" is what the last
// reply was about. Reminders before every event are a setting
// (scheduler commands), not this.

// reRemindBefore reads the item before the lead ("about the dentist"),
// the lead, and the item after "before" ("the dentist", "it's due"); "put
// a reminder in for the doctor the day before" asks the same.
var reRemindBefore = regexp.MustCompile(`(?i)^(?:remind\s+me|(?:put|set|add)\s+(?:in\s+)?a\s+reminder(?:\s+in)?)\s+(?:(?:about|of|for)\s+(.+?)\s+|to\s+(.+?)\s+)?` +
	`(?:the\s+(day|night|morning|week)|` + shiftAmount + `\s+` + shiftUnit + `)` +
	`\s+(?:before|ahead(?:\s+of)?|beforehand)(?:\s+(.+?))?\s*[.!]*$`)

// RemindsBefore reports a request for a reminder ahead of a task or an
// event the user has: the context stage then reads both.
func RemindsBefore(text string) bool {
	_, _, _, ok := remindBefore(text)
	return ok
}

// aheadBy is how far ahead a reminder goes: "the night" (before), "the
// morning", or an amount of time.
type aheadBy struct {
	said  string // as said: "an hour", "the day"
	the   string // "day", "night", "morning" or "week" for "the …"
	shift shift
}

// remindBefore reads a request for a reminder ahead of an item: how the
// item is named and how long before. ok is false for anything else,
// and for reminders before every event ("before my meetings").
func remindBefore(text string) (ref, what string, lead aheadBy, ok bool) {
	g := reRemindBefore.FindStringSubmatch(words.StripPoliteness(strings.TrimSpace(text)))
	if g == nil {
		return "", "", aheadBy{}, false
	}
	if g[3] != "" {
		lead = aheadBy{said: "the " + strings.ToLower(g[3]), the: strings.ToLower(g[3])}
	} else if lead.shift, ok = spanOf(g[4], g[5]); ok {
		lead.said = strings.ToLower(strings.Join(strings.Fields(g[4]+" "+g[5]), " "))
	} else {
		return "", "", aheadBy{}, false
	}
	ref, what = g[1], strings.TrimSpace(g[2])
	if after := strings.TrimSpace(g[6]); after != "" {
		if ref != "" {
			return "", "", aheadBy{}, false
		}
		ref = after
		if r, w, found := strings.Cut(after, " to "); found && what == "" && r != "" && w != "" {
			// "Remind me a week before Ben's birthday to buy a present".
			ref, what = r, w
		}
	}
	ref = words.TrimWordsRight(words.TidySlot(ref), "is", "due", "starts", "begins", "happens")
	if r := words.ASCIILower(ref); r == "it's" || r == "its" {
		ref = "it"
	}
	lc := " " + words.ASCIILower(ref) + " "
	for _, every := range []string{" each ", " every ", " all ", " meetings ", " events ", " appointments "} {
		if strings.Contains(lc, every) {
			return "", "", aheadBy{}, false
		}
	}
	return ref, what, lead, true
}

// planRemindBefore plans a reminder lead before the task or event ref
// names.
func planRemindBefore(in stage.PlanInput, refText, what string, lead aheadBy) (stage.Plan, error) {
	p := stage.Plan{Understood: "remind you " + lead.said + " before something"}
	ref := taskRef(refText)
	if told, _, ok := BirthdayToldBefore(in.Context.Recent); (ref == "" || isPronounRef(ref)) && ok {
		// "Our anniversary is June 12", "remind me a week before": what
		// was just told, before anything an earlier reply named.
		refText, ref = told, told
	}
	if ref = resolveRef(ref, in.Context); ref == "" || isPronounRef(ref) {
		return p, needDetails("what to remind you before")
	}
	p.Understood = "remind you " + lead.said + " before “" + markdown.Escape(ref) + "”"
	z := stage.UserZone(in.Context)
	var title, due string
	var at time.Time
	var allDay bool
	// An event of that name first: a task that matches too may be an
	// earlier reminder ahead of it.
	if who, what, ok := birthdayNamed(refText); ok {
		// "A week before Mum's birthday": the date a fact tells.
		day, ok := nextBirthday(who, what, in.Context)
		if !ok {
			name, example := refText, prose.UpperFirst(refText)
			if who == "your" {
				name, example = "your "+what, "My "+what
			}
			return p, needDetails("when it is: I couldn't find when %s is — tell me (“%s is March 3rd”) and I'll remember it", name, example)
		}
		title, at, allDay = prose.UpperFirst(refText), time.Date(day.Year, day.Month, day.Day, 0, 0, 0, 0, z), true
	} else if ts := matchingOpenTasks(ref, in.Context.Tasks); !hasEvent(eventRefWords(ref), in.Context) {
		if len(ts) == 0 {
			return p, needDetails("which task or event: I couldn't find one matching “%s”", ref)
		}
		t := ts[0]
		if t.Due.IsZero() {
			return p, needDetails("when “%s” is: it has no due date", t.Title)
		}
		title, at, allDay, due = t.Title, t.Due, t.AllDay, "due "
	} else {
		e := MatchEvents(eventRefWords(ref), nil, in.Context)[0]
		title, at, allDay = e.Title, e.Start, e.AllDay
	}
	remind, ok := leadBefore(at.In(z), allDay, lead, z)
	if !ok {
		return p, needDetails("a time of day: “%s” is all day", title)
	}
	// The title says when the item is in dates, not "tomorrow": it is
	// read when the reminder goes off.
	layout := "Mon, Jan 2"
	if at.In(z).Year() != stage.UserNow(in.Context).Year() {
		layout += ", 2006"
	}
	when := at.In(z).Format(layout)
	if !allDay {
		when += " at " + at.In(z).Format("3:04 PM")
	}
	if !remind.After(in.Context.Now) {
		return stage.Plan{Understood: p.Understood, Question: &stage.Question{
			Text: prose.UpperFirst(lead.said) + " before “" + markdown.Escape(title) + "” (" + when + ") has already passed."}}, nil
	}
	title += " — " + due + when
	if what != "" {
		// "… to buy a present": that, ahead of Ben's birthday.
		title = prose.UpperFirst(words.TidySlot(what)) + " — " + strings.Replace(title, " — ", ", ", 1)
	}
	a, err := action.New(action.TaskCreate, action.TaskCreateArgs{Title: title, Due: remind})
	if err != nil {
		return plannedErr(p, err)
	}
	p.Actions = []action.Action{a}
	return p, nil
}

// leadBefore is when a reminder lead before at goes off: that long before
// a timed item; for an all-day one, days before at 9:00 (a lead of hours
// or minutes needs a time of day, ok false). "The night before" is 8 PM
// the day before, "the morning before" 9:00.
func leadBefore(at time.Time, allDay bool, lead aheadBy, z *time.Location) (time.Time, bool) {
	day := func(days, hour int) time.Time {
		d := at.AddDate(0, 0, -days)
		return time.Date(d.Year(), d.Month(), d.Day(), hour, 0, 0, 0, z)
	}
	sh := lead.shift
	switch lead.the {
	case "night":
		return day(1, 20), true
	case "morning":
		return day(1, 9), true
	case "day":
		sh = shift{days: 1}
	case "week":
		sh = shift{days: 7}
	}
	switch {
	case sh.minutes == 0 && allDay:
		return day(sh.days, 9), true
	case allDay:
		return time.Time{}, false
	}
	return shift{minutes: -sh.minutes, days: -sh.days}.from(at, z), true
}
