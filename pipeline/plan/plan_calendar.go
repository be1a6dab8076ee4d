package plan

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/nlu/timex"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// planCalendar plans events: "add a dentist appointment on Friday at
// 2pm" (calendar.create), "cancel my dentist appointment"
// (calendar.delete), "move my dentist appointment to Friday at 3pm"
// (calendar.update). Questions ("what's on my calendar tomorrow?") plan
// nothing: the responder answers them from Context.Events.
func planCalendar(_ context.Context, in stage.PlanInput) (stage.Plan, error) {
	text, whole := ownText(in, nlu.Calendar)
	if strings.TrimSpace(text) == "" {
		return stage.Plan{}, nil
	}
	if in.Understanding.Intent != nlu.RequestAction {
		return stage.Plan{Understood: "check your calendar"}, nil
	}
	if p, ok, err := planOnlyTime(in, text); ok {
		return p, err
	}
	if ref, note, ok := nlu.EventNote(text); ok {
		return planEventNote(in, ref, note)
	}
	if ref, place, ok := nlu.EventPlace(text, in.Context.Now); ok {
		return planEventPlace(in, ref, place)
	}
	lc := words.StripPoliteness(words.ASCIILower(strings.TrimSpace(text)))
	if people, refText, ok := UninviteParts(text); ok && inviteRef(refText, in.Context) != "" &&
		!slices.ContainsFunc(people, func(who string) bool { return hasEvent(who, in.Context) }) {
		// "Remove Sam from my dentist appointment" takes Sam off it; it
		// once cancelled the appointment. ("Remove Yoga from Friday"
		// names an event and a day: a cancellation still.)
		return planUninvite(in, people, refText)
	}
	switch {
	case words.StartsWithAny(lc, RenameVerbs...):
		return planRename(in, text)
	case words.StartsWithAny(lc, CancelVerbs...):
		return planEventDelete(in, text)
	case words.StartsWithAny(lc, MoveVerbs...):
		return planEventMove(in, text, whole)
	}
	if g := reCantMake.FindStringSubmatch(text); g != nil {
		return planCantMake(in, g[1])
	}
	if p, ok, err := planInvite(in, text); ok {
		return p, err
	}
	if l, ok := nlu.ChangesLength(text); ok {
		if p, ok, err := planLength(in, l); ok {
			return p, err
		}
	}
	if refText, sh, ok := shiftRequest(text); ok {
		return planShift(in, refText, sh)
	}
	if ref, target, ok := changeTarget(in, text); ok {
		return planEventMove(in, "move "+ref+" to "+target, false)
	}
	if request, ok := MovedNews(in, text); ok {
		return planEventMove(in, request, false)
	}
	if request, ok := CancelledNews(in, text); ok {
		return planEventDelete(in, request)
	}
	if rule, span, ok := timex.ParseRecurrence(text); ok {
		return planSeriesCreate(in, text, rule, span)
	}
	return planEventCreate(in, text, whole)
}

// dayOf is the day a match names, in z: its value's, or its span's
// first.
func dayOf(m *timex.Match, z *time.Location) time.Time {
	if m.Kind == timex.Interval {
		return stage.MidnightIn(m.From, z)
	}
	return stage.MidnightIn(m.Value, z)
}

// eventVerbs start a request about an existing event: the ones that
// cancel it and the ones that move it.
var eventVerbs = append(slices.Clone(CancelVerbs), MoveVerbs...)

// CancelVerbs start a request to cancel an event.
var CancelVerbs = []string{"cancel ", "delete ", "remove ", "drop ", "call off ", "clear ", "skip "}

// CancelRef reads how a request to cancel an event names it ("cancel
// swimming for good" → "swimming"); ok is false when it names none, or
// every event of a day ("cancel everything on Friday").
func CancelRef(text string, c stage.Context) (ref string, ok bool) {
	ref = eventRef(text, c)
	if allEventsRef(ref) {
		return "", false
	}
	ref, _ = seriesRef(ref)
	return ref, ref != "" && !IsPronoun(ref) && !isPronounRef(ref)
}

// eventRef reads how the user names an existing event: "cancel my
// dentist appointment on Friday" → "dentist appointment".
func eventRef(text string, c stage.Context) string {
	rest, _, _ := words.AfterAny(text, eventVerbs...)
	rest, _, _ = words.CutBefore(rest, "to ", "until ", "from my calendar", "off my calendar", "from the calendar", "back ")
	rest = stripTimeWords(rest, c)
	rest = words.TrimWordsLeft(words.TidySlot(rest), "my", "the", "our", "a", "an", "event", "meeting called")
	rest = words.TrimWordsRight(rest, "event", "on", "at", "for")
	return words.TidySlot(rest)
}

// matchEvents returns the events that best match ref, preferring
// upcoming ones and, when the user named a date, the ones on that date
// (and at that time, when they named one: "my 10am tomorrow"). An empty
// ref matches the events the date and time alone name.
func MatchEvents(ref string, when *timex.Match, c stage.Context) []hearth.CalendarEvent {
	pick := func(evs []hearth.CalendarEvent) []hearth.CalendarEvent {
		if ref == "" {
			return evs
		}
		titles := make([]string, len(evs))
		for i, e := range evs {
			titles[i] = e.Title
		}
		var out []hearth.CalendarEvent
		for _, i := range words.BestMatches(ref, titles) {
			out = append(out, evs[i])
		}
		return out
	}
	var upcoming []hearth.CalendarEvent
	for _, e := range c.Events {
		if c.Now.IsZero() || e.End.After(c.Now) {
			upcoming = append(upcoming, e)
		}
	}
	hits := pick(upcoming)
	if len(hits) == 0 {
		hits = pick(c.Events)
	}
	if when == nil || len(hits) <= 1 && ref != "" {
		return hits
	}
	keep := func(ok func(hearth.CalendarEvent) bool) {
		var same []hearth.CalendarEvent
		for _, e := range hits {
			if ok(e) {
				same = append(same, e)
			}
		}
		if len(same) > 0 || ref == "" {
			hits = same
		}
	}
	z := stage.UserZone(c)
	if when.Kind == timex.Value && when.ClockOnly {
		// "my 3pm" names a time of day, not a date: the soonest event
		// that starts then, which need not be today's (timex reads a
		// bare 3pm as the next 3pm).
		at := fixClock(when.Value.In(z), when.Text, false)
		keep(func(e hearth.CalendarEvent) bool {
			s := e.Start.In(z)
			return s.Hour() == at.Hour() && s.Minute() == at.Minute() || e.Start.Equal(when.Value)
		})
		if len(hits) > 1 {
			first := stage.MidnightIn(hits[0].Start, z)
			for _, e := range hits[1:] {
				if d := stage.MidnightIn(e.Start, z); d.Before(first) {
					first = d
				}
			}
			keep(func(e hearth.CalendarEvent) bool { return stage.MidnightIn(e.Start, z).Equal(first) })
		}
		return hits
	}
	day := dayOf(when, z)
	keep(func(e hearth.CalendarEvent) bool { return stage.MidnightIn(e.Start, z).Equal(day) })
	if when.Kind == timex.Value && when.Grain < timex.Day {
		// "my 10am": the event that starts then (fixClock: "my 3" is 3 PM).
		at := fixClock(when.Value.In(z), when.Text, false)
		keep(func(e hearth.CalendarEvent) bool { return e.Start.Equal(at) || e.Start.Equal(when.Value) })
	}
	return hits
}

func planEventDelete(in stage.PlanInput, text string) (stage.Plan, error) {
	ref := eventRef(text, in.Context)
	p := stage.Plan{Understood: "cancel an event"}
	if lr := words.ASCIILower(ref); allEventsRef(ref) || (lr == "" || lr == "my" || lr == "our") && words.StartsWithAny(words.StripPoliteness(words.ASCIILower(text)), "clear ") {
		// "Cancel everything on Friday", "clear Saturday", "clear my
		// Saturday".
		return planEventDeleteAll(in, text)
	}
	if isPronounRef(ref) {
		ref = resolveRef(ref, in.Context)
	}
	ref, every := seriesRef(ref)
	if ref == "" || IsPronoun(ref) {
		return p, needDetails("which event")
	}
	p.Understood = "cancel " + ref
	when := whenOf(in, text, true)
	// Of a repeating event the first occurrence that fits stands for it;
	// a date named picks that day's occurrence alone, unless "every".
	hits := firstOfSeries(MatchEvents(ref, when, in.Context))
	if len(hits) == 1 && hits[0].Series != "" && (every || when == nil) {
		return planSeriesDelete(p, hits[0], every, in.Context)
	}
	if len(hits) == 1 && !every && offTheDate(hits[0], when, in.Context) {
		return p, needDetails("which one: I couldn't find %s %s", hits[0].Title, when.Text)
	}
	if len(hits) == 0 && hasTask(taskRef(ref), in.Context) {
		// "cancel my dentist reminder" named a task.
		return planTaskRef(in, action.TaskDelete, taskRef(ref), false)
	}
	if len(hits) == 0 {
		return p, needDetails("which event: I couldn't find an event matching “%s”", ref)
	}
	var labels []string
	var acts []action.Action
	for _, e := range hits {
		a, err := action.New(action.CalendarDelete, action.EventRefArgs{ID: e.ID, Title: e.Title})
		if err != nil {
			return plannedErr(p, err)
		}
		acts = append(acts, a)
		labels = append(labels, eventLabel(e, in.Context))
	}
	p = actOrAsk(p, "Which one should I cancel?", labels, acts)
	return askIfPartlyNamed(p, ref, hits[0].Title, labels[0], "Cancel "+hits[0].Title, eventNouns), nil
}

// eventLabel names an event on a button: its title and when it starts.
func eventLabel(e hearth.CalendarEvent, c stage.Context) string {
	return e.Title + " (" + stage.FormatWhen(e.Start, e.AllDay, c) + ")"
}

// planEventCreate adds one event from the title and date the user gave.
func planEventCreate(in stage.PlanInput, text string, whole bool) (stage.Plan, error) {
	if title, start, end, allDay, ok := blockOut(text, whenOf(in, text, whole), in.Context); ok {
		return eventCreated(in, stage.Plan{Understood: "block out time for " + title}, action.EventCreateArgs{Title: title, Start: start, End: end, AllDay: allDay})
	}
	length, text := lengthFor(text) // "a call with Ben for 30 minutes on Friday"
	title := newEventTitle(in, text, whole)
	if w, owned := whose(text); owned {
		// "The kids have football on Saturday": Kids' football, as a
		// repeating one is named.
		title = newEventTitle(in, w, false)
	}
	p := stage.Plan{Understood: "add an event to your calendar"}
	if title == "" || IsPronoun(title) {
		return p, needDetails("what the event is")
	}
	m := whenOf(in, text, whole)
	if nlu.AwayTold(text) {
		// "We're on holiday next week": Holiday, every day of it.
		title, m = awayTitle(title), awaySpan(m, stage.UserNow(in.Context))
	}
	p.Understood = "add " + title + " to your calendar"
	if m == nil {
		return p, needDetails("when %s is", title)
	}
	start, end, allDay, ok := eventTimes(m, title+" "+text, in.Context)
	if !ok {
		return p, needDetails("which day %s is", title)
	}
	if length > 0 && !allDay {
		end = start.Add(length)
	}
	return eventCreated(in, p, action.EventCreateArgs{Title: title, Start: start, End: end, AllDay: allDay, Attendees: attendeesOf(text)})
}

// eventCreated plans calendar.create of args, or, when it overlaps an
// event, asks whether to add it anyway or right after that one.
func eventCreated(in stage.PlanInput, p stage.Plan, args action.EventCreateArgs) (stage.Plan, error) {
	title, start, end := args.Title, args.Start, args.End
	a, err := action.New(action.CalendarCreate, args)
	if err != nil {
		return plannedErr(p, err)
	}
	if other, ok := overlapping(args, in.Context.Events); ok {
		// Says so and offers options: add it anyway, or right after the
		// other one (the same length). Saying anything else drops it.
		later := args
		later.Start, later.End = other.End, other.End.Add(end.Sub(start))
		b, err := action.New(action.CalendarCreate, later)
		if err != nil {
			return plannedErr(p, err)
		}
		p.Question = &stage.Question{
			Text: markdown.Escape(title) + " (" + stage.FormatWhen(start, false, in.Context) + ") overlaps “" + markdown.Escape(other.Title) + "” (" +
				stage.ClockOf(other.Start, in.Context) + "–" + stage.ClockOf(other.End, in.Context) + "). Add it anyway, or right after?",
			Options: []stage.Option{
				{Label: "Add anyway", Actions: []action.Action{a}},
				{Label: "Right after, at " + stage.ClockOf(later.Start, in.Context), Actions: []action.Action{b}},
			},
		}
		return p, nil
	}
	p.Actions = []action.Action{a}
	return p, nil
}

// newEventTitle reads the title of an event to add from the message
// (whole: text is all of it, and the understanding's title slot may be
// used).
func newEventTitle(in stage.PlanInput, text string, whole bool) string {
	title := ""
	if whole {
		title = in.Understanding.Slots.Title
	}
	if title == "" || IsPronoun(title) || !whole {
		title = eventTitleOf(text)
	}
	_, title = lengthFor(title) // the model's title may keep "for 30 minutes"
	title = podOfName(stripTimeWords(title, in.Context), text)
	// "The electrician comes at 9", "my sister is coming for dinner": a
	// visit, called by who comes ("Electrician", "Sister for dinner").
	title = reVisitVerb.ReplaceAllString(title, "")
	// "I have a doctor's appointment …" is about "Doctor's appointment".
	// "I'm flying to Rome" is "Flying to Rome" ("going to Paris" a trip
	// too); "I'm going to the dentist" is "Dentist".
	return prose.UpperFirst(words.TidySlot(words.TrimWordsLeft(words.TidySlot(title), "i have", "i've got", "ive got", "i got", "we have", "we've got", "weve got", "i'm", "im", "i am", "we're", "we are",
		"i'll be", "ill be", "we'll be", "i will be", "we will be", "i go to", "we go to", "i go", "we go", "i do", "we do", "going to the", "a", "an", "the", "my", "our")))
}

// reVisitVerb finds the coming in a visit's title: "Sister is coming",
// "Grandma's visiting", "Electrician comes".
var reVisitVerb = regexp.MustCompile(`(?i)(?:\s+(?:is|are)|'s|’s)?\s+(?:` + strings.Join(nlu.VisitVerbs, "|") + `)(?:\s+(?:over|round|around|by))?\b`)

// rePodAfter finds a part of the day after a word: "parents evening",
// "quiz night", "tomorrow evening".
var rePodAfter = regexp.MustCompile(`(?i)\b([a-z']+)\s+(morning|afternoon|evening|night)\b`)

// podOfName gives title back the part of the day that names the event
// with its last word ("parents evening on Thursday at 6:30", "quiz night
// on Friday"), which the time reader took as the time of day: after a
// word of time ("tomorrow evening", "Friday night") it is the time.
func podOfName(title, text string) string {
	f := strings.Fields(title)
	if len(f) == 0 {
		return title
	}
	last := strings.ToLower(f[len(f)-1])
	for _, g := range rePodAfter.FindAllStringSubmatch(text, -1) {
		w := strings.ToLower(g[1])
		if w != last || timeWord(w) {
			continue
		}
		return title + " " + strings.ToLower(g[2])
	}
	return title
}

// timeWord reports a word after which a part of the day is a time: a
// day ("friday", "tomorrow") or a word that points at one ("this",
// "every").
func timeWord(w string) bool {
	if _, ok := timex.WeekdayNamed(w); ok {
		return true
	}
	switch strings.TrimSuffix(w, "s") {
	case "today", "tomorrow", "tonight", "yesterday", "this", "next", "every", "each", "on", "in", "the", "one", "that", "late", "early":
		return true
	}
	return false
}

// overlapping finds a timed event the new timed one overlaps.
func overlapping(e action.EventCreateArgs, events []hearth.CalendarEvent) (hearth.CalendarEvent, bool) {
	if e.AllDay {
		return hearth.CalendarEvent{}, false
	}
	for _, o := range events {
		if !o.AllDay && o.Start.Before(e.End) && e.Start.Before(o.End) && !strings.EqualFold(o.Title, e.Title) {
			return o, true
		}
	}
	return hearth.CalendarEvent{}, false
}

// eventTitleOf reads an event's title from the text: "schedule lunch with
// Carlos", "add it to my calendar for a celebration dinner" (the title
// after "for" when the object is a pronoun), "invite Anna to dinner".
func eventTitleOf(text string) string {
	if rest, _, ok := words.AfterAny(text, "invite "); ok {
		if _, t, found := words.CutBefore(rest, "to ", "for "); found {
			return t
		}
	}
	verbs := []string{"schedule ", "book ", "set up ", "add ", "put ", "create ", "plan ", "arrange ", "organize ", "organise ", "block out ", "pencil in ", "make "}
	if words.ContainsWord(words.ASCIILower(text), "book club") {
		verbs = slices.DeleteFunc(verbs, func(v string) bool { return v == "book " }) // a club, not a booking
	}
	rest, _, ok := words.AfterAny(text, verbs...)
	if !ok {
		rest = text
	}
	title, after := rest, ""
	if i, j, ok := nlu.CalendarNamed(rest); ok {
		title, after = strings.TrimSpace(rest[:i]), strings.TrimSpace(rest[j:])
	}
	if IsPronoun(words.TidySlot(words.TrimWordsLeft(title, "a", "an", "the"))) || words.TidySlot(title) == "" {
		if t, _, found := words.AfterAny(after, "for ", "as ", "called ", "named ", "titled "); found {
			return t
		}
		return after
	}
	return title
}

// eveningCues make a day-only event an evening one (19:00–21:00) and a
// bare "at 7" mean 7 PM.
var eveningCues = []string{"dinner", "party", "evening", "tonight", "drinks", "supper", "date night", "concert", "celebration", "movie", "show", "game night", "bbq", "barbecue", "theater", "theatre", "gala"}

func hasEveningCue(text string) bool {
	lc := words.ASCIILower(text)
	for _, c := range eveningCues {
		if words.ContainsWord(lc, c) {
			return true
		}
	}
	return false
}

// eventTimes turns a date slot into an event's start and end: a time of
// day lasts an hour; a day with an evening cue is 19:00–21:00, any other
// day is all-day; an interval is taken as said. It reports false for a
// week or month ("next week"), which names no day.
func eventTimes(m *timex.Match, text string, c stage.Context) (start, end time.Time, allDay, ok bool) {
	z := stage.UserZone(c)
	evening := hasEveningCue(text)
	evenings := func(day time.Time) (time.Time, time.Time, bool, bool) {
		d := day.In(z)
		s := time.Date(d.Year(), d.Month(), d.Day(), 19, 0, 0, 0, z)
		return s, time.Date(d.Year(), d.Month(), d.Day(), 21, 0, 0, 0, z), false, true
	}
	allDays := func(from, to time.Time) (time.Time, time.Time, bool, bool) {
		s := stage.MidnightIn(from, z)
		e := stage.MidnightIn(to, z)
		if !e.After(s) {
			e = s.AddDate(0, 0, 1)
		}
		return s, e, true, true
	}
	switch {
	case m.Kind == timex.Value && m.Grain < timex.Day:
		s := fixClock(m.Value.In(z), m.Text, evening)
		return s, s.Add(time.Hour), false, true
	case m.Kind == timex.Value && m.Grain == timex.Day:
		if evening {
			return evenings(m.Value)
		}
		d := m.Value.In(z)
		return allDays(d, time.Date(d.Year(), d.Month(), d.Day()+1, 0, 0, 0, 0, z))
	case m.Kind == timex.Value:
		return time.Time{}, time.Time{}, false, false
	case m.From.IsZero():
		return time.Time{}, time.Time{}, false, false
	case m.To.IsZero():
		s := m.From.In(z)
		return s, s.Add(time.Hour), false, true
	case m.Grain >= timex.Day:
		return allDays(m.From, m.To)
	case m.To.Sub(m.From) > 24*time.Hour:
		// "Next weekend" (Friday evening to Monday): the days it covers,
		// all day, from the first whole one.
		from := stage.MidnightIn(m.From, z)
		if !from.Equal(m.From) {
			from = from.AddDate(0, 0, 1)
		}
		return allDays(from, m.To)
	case m.To.Sub(m.From) >= 5*time.Hour && !strings.ContainsAny(m.Text, "0123456789"):
		// A part of the day ("tonight", "Saturday evening") or a weekend:
		// a span to fit into, not the event's length. Hours said ("between
		// 8 and 12") are the event's own.
		if evening || m.From.In(z).Hour() >= 17 {
			return evenings(m.From)
		}
		s := m.From.In(z)
		if at, ok := partOfDayAt(m, z); ok {
			s = at // "tomorrow morning" at 8, not midnight
		}
		return s, s.Add(time.Hour), false, true
	}
	// timex ends an interval one grain after its last value ("2 to 3pm"
	// ends at 16:00 at hour grain); an event ends at the time said.
	s, e := m.From.In(z), m.To.In(z)
	switch m.Grain {
	case timex.Hour:
		e = e.Add(-time.Hour)
	case timex.Minute:
		e = e.Add(-time.Minute)
	}
	if !e.After(s) {
		e = s.Add(time.Hour)
	}
	return s, e, false, true
}
