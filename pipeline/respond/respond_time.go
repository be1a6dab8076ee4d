package respond

import (
	"slices"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/nlu/timex"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// Questions about one's own time: "what do I have tomorrow?" (the events
// and the tasks due then), "how does my week look?", "when am I free on
// Friday afternoon?", "what's overdue?".

// agendaSpan is the span of a question about one's time: its date, or,
// without one, the week for "my week" and today for "my day".
func agendaSpan(in stage.RespondInput) askSpan {
	if in.Understanding.Slots.When == nil {
		lc := words.ASCIILower(in.Text)
		n := stage.UserNow(in.Context)
		z := stage.UserZone(in.Context)
		switch {
		case words.ContainsWord(lc, "week"):
			return askSpan{from: n, to: n.AddDate(0, 0, 7), label: "this week"}
		case words.ContainsWord(lc, "day") || words.ContainsWord(lc, "today"):
			d := stage.MidnightIn(n, z)
			return askSpan{from: n, to: d.AddDate(0, 0, 1), label: "today", oneDay: true}
		}
	}
	return questionSpan(in)
}

// answerAgenda lists the events and the tasks due in the span asked
// about, and says so in one line when there are neither.
func (r *TemplateResponder) answerAgenda(in stage.RespondInput) string {
	if ref, ok := nlu.WhenIs(in.Text); ok {
		// "When do I have swimming next?" asks for the one thing named,
		// which may be an event or a task.
		if s, ok := eventWhen(in, ref); ok {
			return s
		}
		if s, ok := taskWhen(in, ref); ok {
			return s
		}
	}
	sp := agendaSpan(in)
	var evs []hearth.CalendarEvent
	for _, e := range in.Context.Events {
		if e.Start.Before(sp.to) && e.End.After(sp.from) || e.Start.Equal(sp.from) {
			evs = append(evs, e)
		}
	}
	var due, overdue []string
	for _, t := range openTasksByUrgency(in.Context) {
		switch {
		case t.Due.IsZero() || !t.Due.Before(sp.to):
		case urgencyOf(t, in.Context) == bucketOverdue:
			overdue = append(overdue, taskItem(t, in.Context))
		case !t.Due.Before(sp.from) || t.AllDay && !stage.MidnightIn(t.Due, stage.UserZone(in.Context)).Before(stage.MidnightIn(sp.from, stage.UserZone(in.Context))):
			due = append(due, taskItem(t, in.Context))
		}
	}
	// A span with no events says what comes after it: "this week" asked
	// on a Sunday is the rest of that day, and the week ahead is what
	// the user will want to know of next.
	if len(evs) == 0 && len(due) == 0 && len(overdue) == 0 {
		return r.variant(in.Text, "agenda-empty",
			"Nothing on your calendar "+sp.label+" and nothing due — enjoy the free time!",
			"You're clear "+sp.label+": no events and no tasks due.") + nextAfter(sp, in.Context)
	}
	var parts []string
	if len(evs) > 0 {
		parts = append(parts, eventsSentenceSpan(evs, sp, in.Context))
	} else {
		parts = append(parts, "Nothing on your calendar "+sp.label+"."+nextAfter(sp, in.Context))
	}
	if len(due) > 0 {
		parts = append(parts, "Due "+strings.TrimPrefix(sp.label, "on ")+": "+prose.List(due)+".")
	}
	if len(overdue) > 0 {
		parts = append(parts, "Overdue: "+prose.List(overdue)+".")
	}
	return strings.Join(parts, "\n")
}

// answerNextUp names the one thing coming next, the event starting or the
// task due soonest from now, with what is happening now when an event is
// under way.
func answerNextUp(in stage.RespondInput) string {
	next, during := nextUp(in.Context, in.Context.Events, openTasksByUrgency(in.Context))
	switch {
	case next == "" && during == "":
		return "Nothing coming up: no events ahead and no tasks due."
	case next == "":
		return "Right now: " + during + ". Nothing else coming up."
	case during == "":
		return "Next up: " + next + "."
	}
	return "Right now: " + during + ". Next up: " + next + "."
}

// answerNextEvent names the next event only ("what's my next meeting?").
func answerNextEvent(in stage.RespondInput) string {
	next, during := nextUp(in.Context, in.Context.Events, nil)
	switch {
	case next == "" && during == "":
		return "Nothing on your calendar coming up."
	case next == "":
		return "Right now: " + during + ". Nothing else on your calendar coming up."
	case during == "":
		return "Next up: " + next + "."
	}
	return "Right now: " + during + ". Next up: " + next + "."
}

// nextUp finds, among events and open tasks, the one that comes next
// (what has a time before a day's own items, then the soonest), and the
// event under way now; "" for either when there is none.
func nextUp(c stage.Context, evs []hearth.CalendarEvent, tasks []hearth.Task) (next, during string) {
	now := c.Now
	today := stage.MidnightIn(now, stage.UserZone(c))
	type item struct {
		what   string
		at     time.Time
		allDay bool
	}
	var items []item
	for _, e := range evs {
		switch {
		case !e.AllDay && e.Start.Before(now) && e.End.After(now):
			during = markdown.Escape(e.Title) + " until " + stage.ClockOf(e.End, c)
		case !e.Start.Before(now) || e.AllDay && !e.Start.Before(today):
			items = append(items, item{markdown.Escape(e.Title) + " (" + stage.FormatWhen(e.Start, e.AllDay, c) + ")", e.Start, e.AllDay})
		}
	}
	for _, t := range tasks {
		if !t.Due.IsZero() && (!t.Due.Before(now) || t.AllDay && !t.Due.Before(today)) {
			items = append(items, item{taskItem(t, c), t.Due, t.AllDay})
		}
	}
	for _, sc := range c.Reminders {
		// A recurring reminder, read for "what's next?".
		if !sc.NextAt.IsZero() && !sc.NextAt.Before(now) {
			items = append(items, item{"your reminder to " + markdown.Escape(prose.SecondPerson(prose.LowerFirst(sc.Title))) + " (" + stage.FormatWhen(sc.NextAt, false, c) + ")", sc.NextAt, false})
		}
	}
	if len(items) == 0 {
		return "", during
	}
	first := slices.MinFunc(items, func(a, b item) int {
		if a.allDay != b.allDay {
			if a.allDay {
				return 1
			}
			return -1
		}
		return a.at.Compare(b.at)
	})
	return first.what, during
}

// overdueQuestion reports a question about what is overdue.
func overdueQuestion(text string) bool {
	lc := words.ASCIILower(text)
	return hasCue(lc, "overdue", "past due", "late on", "behind on", "did i miss", "did i forget")
}

// answerOverdue lists the open tasks past their due time.
func (r *TemplateResponder) answerOverdue(in stage.RespondInput) string {
	var items []string
	for _, t := range openTasksByUrgency(in.Context) {
		if urgencyOf(t, in.Context) == bucketOverdue {
			items = append(items, taskItem(t, in.Context))
		}
	}
	if len(items) == 0 {
		return r.variant(in.Text, "overdue-none", "Nothing is overdue — you're on top of things.", "Nothing overdue right now.")
	}
	return "You have " + countOf(len(items), "overdue task", "overdue tasks") + ": " + prose.List(items) + "."
}

// freeQuestion reports a question about free time ("when am I free on
// Friday afternoon?", "do I have any free time tomorrow?").
func freeQuestion(text string) bool {
	lc := words.ASCIILower(text)
	if _, ok := nlu.FreeFor(text); ok {
		return true // "find me an hour on Friday"
	}
	return hasCue(lc, "free", "available", "free time", "an opening", "a gap", "a window", "not busy")
}

// Free time is looked for within working hours on a day asked about as a
// whole, and within the part of the day when one is named.
const (
	dayStartHour = 9
	dayEndHour   = 18
	minFree      = 30 * time.Minute
)

// answerFree says when the user has no events in the span asked about:
// the free windows of at least half an hour, between the events.
func (r *TemplateResponder) answerFree(in stage.RespondInput) string {
	c := in.Context
	z := stage.UserZone(c)
	now := stage.UserNow(c)
	m := in.Understanding.Slots.When
	if m != nil && m.Kind == timex.Value && m.Grain < timex.Day && !m.Value.IsZero() {
		return answerFreeAt(m.Value, c)
	}
	var from, to time.Time
	label := "today"
	switch {
	case m != nil && m.Kind == timex.Interval && !m.From.IsZero() && !m.To.IsZero():
		from, to, label = m.From, m.To, saidSpan(m.Text)
	default:
		day := now
		if m != nil {
			sp := questionSpan(in)
			day, label = sp.from, sp.label
		}
		d := stage.MidnightIn(day, z)
		from = time.Date(d.Year(), d.Month(), d.Day(), dayStartHour, 0, 0, 0, z)
		to = time.Date(d.Year(), d.Month(), d.Day(), dayEndHour, 0, 0, 0, z)
	}
	label = strings.TrimPrefix(strings.TrimPrefix(label, "on "), "for ")
	if from.Before(now) {
		from = now.Truncate(15 * time.Minute).Add(15 * time.Minute)
	}
	if !from.Before(to) {
		return "That time has already passed."
	}
	var busy []hearth.CalendarEvent
	for _, e := range c.Events {
		if !e.AllDay && e.Start.Before(to) && e.End.After(from) {
			busy = append(busy, e)
		}
	}
	slices.SortFunc(busy, func(a, b hearth.CalendarEvent) int { return a.Start.Compare(b.Start) })
	// "Find me an hour on Friday": stretches of at least that long.
	need, long := nlu.FreeFor(in.Text)
	need = max(need, minFree)
	var free []string
	at := from
	for _, e := range busy {
		if e.Start.Sub(at) >= need {
			free = append(free, stage.ClockOf(at, c)+"–"+stage.ClockOf(e.Start, c))
		}
		if e.End.After(at) {
			at = e.End
		}
	}
	if to.Sub(at) >= need {
		free = append(free, stage.ClockOf(at, c)+"–"+stage.ClockOf(to, c))
	}
	switch {
	case len(busy) == 0 && to.Sub(from) >= need:
		return "You're free all " + label + " — nothing on your calendar."
	case len(free) == 0 && long:
		return "You don't have " + lengthWords(need) + " free " + label + ". " + eventsSentenceSpan(busy, askSpan{label: label, oneDay: true}, c)
	case len(free) == 0:
		return "No free time " + label + ". " + eventsSentenceSpan(busy, askSpan{label: label, oneDay: true}, c)
	case long:
		return prose.UpperFirst(label) + " you have " + lengthWords(need) + " free " + prose.List(free) + "."
	}
	return prose.UpperFirst(label) + " you're free " + prose.List(free) + "."
}

// answerFreeAt answers "am I free on Friday at noon?": yes, or no and
// what is on then (an event running at that time or starting within
// half an hour of it).
func answerFreeAt(at time.Time, c stage.Context) string {
	when := stage.FormatWhen(at, false, c)
	if at.Before(c.Now) {
		return "That time has already passed."
	}
	var then []string
	for _, e := range c.Events {
		if !e.AllDay && e.Start.Before(at.Add(minFree)) && e.End.After(at) {
			then = append(then, markdown.Escape(e.Title)+" ("+stage.ClockOf(e.Start, c)+"–"+stage.ClockOf(e.End, c)+")")
		}
	}
	if len(then) == 0 {
		return "Yes — nothing on your calendar " + when + "."
	}
	return "No — you have " + prose.List(then) + " then."
}
