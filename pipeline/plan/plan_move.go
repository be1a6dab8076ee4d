package plan

import (
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu/timex"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// MoveRef reads a request to move an event: how it names the event (its
// title words, "" when only its time does: "my 10am tomorrow"), the date
// or time that finds it (what comes before "to") and the text of the new
// time (after "to": "move X to Friday at 3pm"). ok is false when the
// event is not named at all.
func MoveRef(in stage.PlanInput, text string) (ref string, located *timex.Match, target string, ok bool) {
	ref = eventRef(text, in.Context)
	target = text
	if before, t, found := words.CutBefore(text, "to ", "until "); found {
		target = t
		located = whenOf(in, before, false)
	}
	byTime := located != nil && located.Kind == timex.Value && located.Grain < timex.Day
	if isFiller(ref) && byTime {
		ref = "" // "my 10am meeting tomorrow": its time names it
	}
	if ref == "" && !byTime || IsPronoun(ref) {
		return ref, located, target, false
	}
	return ref, located, target, true
}

func planEventMove(in stage.PlanInput, text string, whole bool) (stage.Plan, error) {
	p := stage.Plan{Understood: "move an event"}
	if refText, sh, ok := shiftRequest(text); ok {
		return planShift(in, refText, sh)
	}
	if r := eventRef(text, in.Context); r != "" && isPronounRef(r) {
		// "move it to 11": the item the last reply was about.
		if t := LastMentioned(in.Context); t != "" {
			_, target, _ := words.CutBefore(text, "to ", "until ")
			text = "move " + t + " to " + target
		}
	}
	text, from := cutFromLater(text, in.Context) // "… to 11am from next week"
	text, every := cutSeriesCues(text)           // "move swimming to 5pm from now on"
	every = every || !from.IsZero()
	// A date before "to" only finds the event: "move my dentist
	// appointment tomorrow to 4pm", "move tomorrow's dentist to 4pm".
	ref, located, target, ok := MoveRef(in, text)
	if !ok {
		return p, needDetails("which event")
	}
	if ref != "" && !hasEvent(ref, in.Context) && hasTask(taskRef(ref), in.Context) {
		return planTaskMove(in, text)
	}
	if ref != "" {
		p.Understood = "move " + ref
	}
	m := targetWhen(in, target)
	if m == nil {
		return p, needDetails("when to move it to")
	}
	hits := firstOfSeries(MatchEvents(ref, located, in.Context))
	if len(hits) == 0 {
		if ref == "" {
			return p, needDetails("which event: I couldn't find an event at %s", located.Text)
		}
		return p, needDetails("which event: I couldn't find an event matching “%s”", ref)
	}
	if len(hits) == 1 && offTheDate(hits[0], located, in.Context) {
		return p, needDetails("which one: I couldn't find %s %s", hits[0].Title, located.Text)
	}
	var labels []string
	var acts []action.Action
	for _, e := range hits {
		if !from.IsZero() && e.Series != "" && len(hits) == 1 {
			later, ok := occurrenceFrom(e, from, in.Context)
			if !ok {
				return p, needDetails("which one to start from: I couldn't find %s then", e.Title)
			}
			e = later
		}
		start, end, allDay, ok := movedTimes(e, m, text, in.Context)
		if !ok {
			return p, needDetails("a time to move it to")
		}
		upd := hearth.CalendarEventUpdate{Start: &start, End: &end}
		if allDay != e.AllDay {
			upd.AllDay = &allDay
		}
		a, err := action.New(action.CalendarUpdate, action.EventUpdateArgs{ID: e.ID, Update: upd})
		if err != nil {
			return plannedErr(p, err)
		}
		if len(hits) == 1 && e.Series != "" && located == nil {
			if !e.AllDay && m.Kind == timex.Value && m.ClockOnly {
				// "Move swimming to 5pm": the next one, or every one?
				return planSeriesMove(p, e, a, start, end, every, from, in.Context)
			}
			if every || rePluralDay.MatchString(target) {
				// "Move swimming to Thursdays from now on": not yet.
				return planSeriesDayMove(p, e, a, start, allDay, in.Context), nil
			}
		}
		acts = append(acts, a)
		labels = append(labels, eventLabel(e, in.Context))
	}
	p = actOrAsk(p, "Which one should I move?", labels, acts)
	return askIfPartlyNamed(p, ref, hits[0].Title, labels[0], "Move "+hits[0].Title, eventNouns), nil
}

// isFiller reports whether an event reference is only determiners left
// after its date and time were taken out ("my" of "my 10am tomorrow").
func isFiller(ref string) bool {
	for _, w := range strings.Fields(words.ASCIILower(ref)) {
		switch w {
		case "my", "the", "our", "a", "an", "one", "event", "appointment", "meeting":
		default:
			return false
		}
	}
	return true
}

// movedTimes places event e at the time m names, keeping its length: a
// new date alone keeps its time of day, and a time of day alone ("to
// 4pm") keeps its date.
func movedTimes(e hearth.CalendarEvent, m *timex.Match, text string, c stage.Context) (start, end time.Time, allDay, ok bool) {
	z := stage.UserZone(c)
	length := e.End.Sub(e.Start)
	if length <= 0 || e.AllDay {
		length = time.Hour
	}
	if m.Kind == timex.Value && m.Grain == timex.Day {
		d := m.Value.In(z)
		if e.AllDay {
			days := max(1, int(e.End.Sub(e.Start).Hours()+12)/24)
			start = time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, z)
			return start, start.AddDate(0, 0, days), true, true
		}
		s := e.Start.In(z)
		start = time.Date(d.Year(), d.Month(), d.Day(), s.Hour(), s.Minute(), 0, 0, z)
		return start, start.Add(length), false, true
	}
	if m.Kind == timex.Value && m.Grain < timex.Day && m.ClockOnly {
		start = movedClock(fixClock(m.Value.In(z), m.Text, hasEveningCue(e.Title+" "+text)), m.Text, e.Start.In(z))
		return start, start.Add(length), false, true
	}
	start, end, allDay, ok = eventTimes(m, text, c)
	if ok && m.Kind == timex.Value && !allDay {
		end = start.Add(length)
	}
	return start, end, allDay, ok
}

// reMovedNews reads news that an event has moved: "swimming is now at
// 5pm", "the dentist moved to Friday", "book club has been moved to the
// 12th", "yoga is on Thursday now".
var reMovedNews = regexp.MustCompile(`(?i)^\s*(.+?)\s+(?:(is\s+now)|has\s+(?:been\s+)?moved|got\s+moved|was\s+moved|moved|has\s+changed|changed|is\s+moving|(is))\s+(?:to\s+)?((?:at|on|to)\s+)?(.+?)(\s+now)?\s*[.!]*\s*$`)

// MovedNews reads news that one of the user's events has moved ("swimming
// is now at 5pm") as the request to move it that it is: the text of that
// request ("move swimming to 5pm", with "from now on" when the news says
// "now"), when c has an event of the name and the news says a new time.
func MovedNews(in stage.PlanInput, text string) (request string, ok bool) {
	g, ok := movedNews(text)
	if !ok {
		return "", false
	}
	ref, target := eventRefWords(g[1]), g[5]
	now := g[2] != "" || g[6] != ""
	// A time said as one ("Mia is now 7" is an age, not 7 o'clock).
	if ref == "" || IsPronoun(ref) || !hasEvent(ref, in.Context) || whenOf(in, g[4]+target, false) == nil {
		return "", false
	}
	request = "move " + ref + " to " + target
	if now {
		request += " from now on"
	}
	return request, true
}

// movedNews matches text against reMovedNews: "yoga is on Thursday" is
// news only with "now".
func movedNews(text string) ([]string, bool) {
	g := reMovedNews.FindStringSubmatch(text)
	if g == nil || g[3] != "" && g[2] == "" && g[6] == "" {
		return nil, false
	}
	return g, true
}

// EventNews reports whether text reads as news that an event moved or is
// off, before any event of its name is looked for (MovedNews,
// CancelledNews): it reads nothing.
func EventNews(text string) bool {
	_, moved := movedNews(text)
	return moved || reCancelledNews.MatchString(text) || reCantMake.MatchString(text)
}

// CantMake reports news that the user will miss an event c has ("I
// can't make the dentist tomorrow"): the calendar planner asks whether
// to cancel it.
func CantMake(in stage.PlanInput, text string) bool {
	g := reCantMake.FindStringSubmatch(text)
	return g != nil && hasEvent(eventRef("cancel "+g[1], in.Context), in.Context)
}

// reCancelledNews reads news that an event is off: "Leo's match got
// cancelled", "the dentist has been called off", "swimming is cancelled
// this week".
var reCancelledNews = regexp.MustCompile(`(?i)^\s*(.+?)(?:\s+(?:has\s+been|have\s+been|got|is|are|was|were)|'s|’s)\s+(?:cancell?ed|called\s+off|off)\b(.*?)\s*[.!]*\s*$`)

// CancelledNews reads news that one of the user's events is off ("Leo's
// match got cancelled") as the request to cancel it that it is: the text
// of that request ("cancel Leo's match", keeping a day said after it),
// when c has an event of the name.
func CancelledNews(in stage.PlanInput, text string) (request string, ok bool) {
	g := reCancelledNews.FindStringSubmatch(text)
	if g == nil {
		return "", false
	}
	ref := eventRefWords(g[1])
	if ref == "" || IsPronoun(ref) || !hasEvent(ref, in.Context) {
		return "", false
	}
	return strings.TrimSpace("cancel " + ref + " " + strings.TrimSpace(g[2])), true
}

// reCantMake reads news that the user will miss an event: "I can't make
// the dentist on Thursday", "we won't make it to swimming tomorrow".
var reCantMake = regexp.MustCompile(`(?i)^\s*(?:sorry,?\s+)?(?:i|we)\s+(?:can't|can’t|cannot|can not|won't|won’t|will not|couldn't|couldn’t)\s+(?:make(?:\s+it)?(?:\s+to)?|go\s+to|come\s+to|attend)\s+(.+?)\s*[.!]*$`)

// planCantMake answers news that the user will miss one of their events
// with a question: cancel it (a button), or say when to move it to. It
// was taken for a new event of that name. Nothing is planned for an
// event the user does not have.
func planCantMake(in stage.PlanInput, said string) (stage.Plan, error) {
	p, err := planEventDelete(in, "cancel "+said)
	if err != nil || p.Question != nil || len(p.Actions) != 1 {
		return p, err
	}
	ref, err := action.Decode[action.EventRefArgs](p.Actions[0])
	if err != nil {
		return plannedErr(p, err)
	}
	name := markdown.Escape(ref.Title)
	if i := slices.IndexFunc(in.Context.Events, func(e hearth.CalendarEvent) bool { return e.ID == ref.ID }); i >= 0 {
		name = markdown.Escape(eventLabel(in.Context.Events[i], in.Context))
	}
	p.Question = askChoice("Shall I cancel "+name+"? Or tell me when to move it to.", []string{"Cancel it"}, p.Actions)
	p.Actions = nil
	return p, nil
}
