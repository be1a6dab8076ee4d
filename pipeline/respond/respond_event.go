package respond

import (
	"strconv"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
)

// eventDetail answers a question for one detail of an event ("who's
// coming to Mia's play?", "where is lunch with Sam?", "how long is the
// dentist?"); ok is false for any other question. A place or a length
// asked of no event on the calendar may be a thing's the user told
// ("where is my passport?"): memory answers it then.
func (r *TemplateResponder) eventDetail(in stage.RespondInput) (string, bool) {
	ref, what, ok := nlu.EventAsked(in.Text)
	if !ok {
		return "", false
	}
	e, found := namedEvent(in.Context, ref)
	switch {
	case !found && what != nlu.Guests && len(memoryHits(in)) > 0:
		return r.answerMemory(in), true
	case !found && what == nlu.Place:
		return "I don't see “" + markdown.Escape(ref) + "” on your calendar, and you haven't told me where it is.", true
	case !found:
		return "I don't see “" + markdown.Escape(ref) + "” on your calendar.", true
	}
	name := markdown.Escape(e.Title) + " (" + stage.WhenPhrase(e.Start, e.AllDay, in.Context) + ")"
	switch what {
	case nlu.Place:
		if strings.TrimSpace(e.Location) == "" {
			return "No place is set for " + name + ". Tell me where it is (“" + markdown.Escape(e.Title) + " is at …”) and I'll add it.", true
		}
		return name + " is at " + markdown.Escape(e.Location) + ".", true
	case nlu.Length:
		return eventLength(e, in.Context), true
	}
	if len(e.Attendees) == 0 {
		return "No one else is invited to " + name + " — it's on your calendar alone.", true
	}
	return "Invited to " + name + ": " + prose.List(markdown.EscapeAll(e.Attendees)) + ".", true
}

// eventLength says how long an event lasts and when: "Dentist is 1 hour
// 30 minutes: Thursday from 10:00 AM to 11:30 AM", "Holiday is 3 days:
// Fri, Dec 4 to Sun, Dec 6".
func eventLength(e hearth.CalendarEvent, c stage.Context) string {
	title := markdown.Escape(e.Title)
	if e.AllDay {
		last := e.End.AddDate(0, 0, -1)
		days := stage.DaysBetween(e.Start, last) + 1
		if days <= 1 {
			return title + " is all day, " + stage.DayLabel(e.Start, c) + "."
		}
		return title + " is " + strconv.Itoa(days) + " days: " + stage.DayLabel(e.Start, c) + " to " + stage.DayLabel(last, c) + "."
	}
	d := e.End.Sub(e.Start)
	if d <= 0 {
		return title + " has no end set: it starts " + stage.WhenPhrase(e.Start, false, c) + "."
	}
	span := stage.DayLabel(e.Start, c) + " from " + stage.ClockOf(e.Start, c) + " to " + stage.ClockOf(e.End, c)
	if z := stage.UserZone(c); stage.DaysBetween(e.Start.In(z), e.End.In(z)) != 0 {
		span = "from " + stage.FormatWhen(e.Start, false, c) + " to " + stage.FormatWhen(e.End, false, c)
	}
	return title + " is " + lengthWords(d) + ": " + span + "."
}

// lengthWords says a length of time: "1 hour", "1 hour 30 minutes", "45
// minutes", "2 days 3 hours".
func lengthWords(d time.Duration) string {
	unit := func(n int, one string) string {
		if n == 1 {
			return "1 " + one
		}
		return strconv.Itoa(n) + " " + one + "s"
	}
	d = d.Round(time.Minute)
	days, hours, mins := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour), int(d%time.Hour/time.Minute)
	var parts []string
	if days > 0 {
		parts = append(parts, unit(days, "day"))
	}
	if hours > 0 {
		parts = append(parts, unit(hours, "hour"))
	}
	if mins > 0 || len(parts) == 0 {
		parts = append(parts, unit(mins, "minute"))
	}
	return strings.Join(parts, " ")
}

// describeEventUpdate words a calendar.update done: moved, renamed, people
// invited or taken off, a note or a place added, a new length.
func describeEventUpdate(o stage.Outcome, c stage.Context, t *outcomeText) {
	p, _ := action.Decode[action.EventUpdateArgs](o.Action)
	name := "the event"
	if e, ok := o.Result.(hearth.CalendarEvent); ok && e.Title != "" {
		name = markdown.Escape(e.Title)
	} else if p.Update.Title != nil {
		name = markdown.Escape(*p.Update.Title)
	}
	if name == "the event" && p.Title != "" {
		name = markdown.Escape(p.Title)
	}
	t.past, t.verb = "updated "+name, "update "+name
	if len(p.Invited) > 0 {
		who := prose.List(markdown.EscapeAll(p.Invited))
		t.past, t.verb = "invited "+who+" to "+name, "invite "+who+" to "+name
		t.alone = []string{"Invited " + who + " to " + name + "."}
	}
	if len(p.Uninvited) > 0 {
		who := prose.List(markdown.EscapeAll(p.Uninvited))
		t.past, t.verb = "took "+who+" off "+name, "take "+who+" off "+name
		t.alone = []string{"Took " + who + " off " + name + "."}
	}
	if p.Update.End != nil && p.Update.Start == nil {
		t.past, t.verb = "made "+name+" end at "+stage.ClockOf(*p.Update.End, c), "change how long "+name+" is"
	}
	if p.Update.Location != nil && p.Update.Start == nil {
		place := markdown.Escape(*p.Update.Location)
		t.past, t.verb = "set the place of "+name+" to "+place, "set the place of "+name
		t.alone = []string{prose.UpperFirst(name) + " is at " + place + " now."}
	}
	if p.Noted != "" {
		note := "“" + markdown.Escape(p.Noted) + "”"
		t.past, t.verb = "added "+note+" to the notes of "+name, "add "+note+" to the notes of "+name
		t.alone = []string{"Added to the notes of " + name + ": " + note + "."}
	}
	if p.Update.Start != nil {
		allDay := p.Update.AllDay != nil && *p.Update.AllDay
		t.past = "moved " + name + " to " + stage.FormatWhen(*p.Update.Start, allDay, c)
		t.verb = "move " + name
		switch e, ok := o.Result.(hearth.CalendarEvent); {
		case p.Series && p.Starting != nil:
			t.past = "moved " + name + " to " + stage.ClockOf(*p.Update.Start, c) + " from " + stage.FormatWhen(*p.Starting, true, c) + " on"
		case p.Series:
			t.past = "moved " + name + " to " + stage.ClockOf(*p.Update.Start, c) + ", every time it repeats"
		case ok && e.Series != "":
			t.past += oneOfSeries
		}
	} else if p.Series && p.Update.Title != nil {
		t.past = "renamed " + markdown.Escape(p.Title) + " to " + markdown.Escape(*p.Update.Title) + ", every time it repeats"
	}
}
