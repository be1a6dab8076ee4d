package plan

import (
	"regexp"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu/timex"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
	"github.com/hearthbot/hearth/scheduler/recur"
)

// planSeriesCreate plans a repeating event ("the kids have swimming every
// Wednesday at 4pm"): rule, read from span of text, from today in the
// user's zone; the first occurrence is the next one from now. A rule that
// names no time of day ("bin day every Tuesday", "Mum's birthday every
// year on March 3") makes an all-day event.
func planSeriesCreate(in stage.PlanInput, text string, rule recur.Rule, span timex.Span) (stage.Plan, error) {
	rest := strings.TrimSpace(text[:span.Start] + " " + text[span.End:])
	loc := stage.UserZone(in.Context)
	now := in.Context.Now
	if now.IsZero() {
		now = time.Now()
	}
	end, rest := timex.ParseEnd(rest, now.In(loc))
	named, _ := whose(rest)
	title := newEventTitle(in, named, false)
	p := stage.Plan{Understood: "add a repeating event to your calendar"}
	if title == "" || IsPronoun(title) {
		return p, needDetails("what the event is")
	}
	p.Understood = "add " + title + " to your calendar " + rule.String()
	today := recur.DateOf(now, loc)
	rule.Start = today
	allDay := !HasClock(text[span.Start:span.End], now)
	if at, ok := clockIn(rest); allDay && ok {
		// "every Tuesday I have choir at 7pm": the time said apart.
		rule.At, allDay = at, false
	}
	after := now
	if allDay {
		rule.At = recur.TimeOfDay{}
		after = recur.At(today, rule.At, loc).Add(-time.Nanosecond) // today's counts
	}
	start, ok := rule.Next(after, loc)
	if !ok {
		return p, needDetails("when %s next is", title)
	}
	rule.Until = end.Last(recur.DateOf(start, loc))
	if !rule.Until.IsZero() {
		if rule.Until.DaysUntil(recur.DateOf(start, loc)) > 0 {
			return p, needDetails("when %s ends: %s is before it starts", title, rule.Until)
		}
		p.Understood = "add " + title + " to your calendar " + rule.String()
	}
	stop := start.Add(time.Hour)
	if allDay {
		stop = recur.At(recur.DateOf(start, loc).AddDays(1), recur.TimeOfDay{}, loc)
	}
	args := action.EventCreateArgs{Title: title, Start: start.UTC(), End: stop.UTC(), AllDay: allDay, Attendees: attendeesOf(text),
		Repeat: &rule, Zone: loc.String()}
	a, err := action.New(action.CalendarCreate, args)
	if err != nil {
		return plannedErr(p, err)
	}
	p.Actions = []action.Action{a}
	return p, nil
}

// seriesCues say that a cancellation is of every occurrence of a
// repeating event: "cancel swimming for good", "stop piano lessons
// altogether".
var seriesCues = []string{"for good", "altogether", "forever", "for ever", "from now on", "every time", "each time",
	"all of them", "every one of them", "every one", "the whole series", "the series", "completely", "every week", "every month"}

// seriesRef takes the words that ask for every occurrence off how the user
// names an event: "all the swimming lessons" is "swimming lessons", every
// one of them.
func seriesRef(ref string) (string, bool) {
	ref, every := cutSeriesCues(ref)
	if words.StartsWithWords(words.ASCIILower(ref), "all", "every", "each") {
		ref, every = words.TrimWordsLeft(ref, "all", "every", "each", "the", "my", "our", "of"), true
	}
	return words.TidySlot(ref), every
}

// cutSeriesCues takes seriesCues out of s, and reports whether it had one.
func cutSeriesCues(s string) (string, bool) {
	lc := words.ASCIILower(s)
	found := false
	for _, c := range seriesCues {
		if i := words.WordAt(lc, c); i >= 0 {
			s, lc = strings.TrimSpace(s[:i]+" "+s[i+len(c):]), strings.TrimSpace(lc[:i]+" "+lc[i+len(c):])
			found = true
		}
	}
	return s, found
}

// firstOfSeries keeps, of the events of one repeating event, the first:
// "cancel swimming" is about swimming, not about each Wednesday's.
func firstOfSeries(evs []hearth.CalendarEvent) []hearth.CalendarEvent {
	seen := map[string]bool{}
	var out []hearth.CalendarEvent
	for _, e := range evs {
		if e.Series != "" {
			if seen[e.Series] {
				continue
			}
			seen[e.Series] = true
		}
		out = append(out, e)
	}
	return out
}

// planSeriesDelete cancels a repeating event: every occurrence when the
// user said so, otherwise it asks whether they mean the next one or all.
func planSeriesDelete(p stage.Plan, e hearth.CalendarEvent, every bool, c stage.Context) (stage.Plan, error) {
	all, err := action.New(action.CalendarDelete, action.EventRefArgs{ID: e.ID, Title: e.Title, Series: true})
	if err != nil {
		return plannedErr(p, err)
	}
	if every {
		p.Understood = "cancel " + e.Title + ", every time it repeats"
		p.Actions = []action.Action{all}
		return p, nil
	}
	one, err := action.New(action.CalendarDelete, action.EventRefArgs{ID: e.ID, Title: e.Title})
	if err != nil {
		return plannedErr(p, err)
	}
	p.Question = nextOrEvery(e, "Cancel", "", one, all, c)
	return p, nil
}

// nextOrEvery asks whether a change to a repeating event is to its next
// occurrence (one) or to every one (all): "Swimming repeats. Move just the
// next one (Wednesday at 4:00 PM) to 5:00 PM, or every one?"
func nextOrEvery(e hearth.CalendarEvent, verb, to string, one, all action.Action, c stage.Context) *stage.Question {
	when := stage.FormatWhen(e.Start, e.AllDay, c)
	return &stage.Question{
		Text: markdown.Escape(e.Title) + " repeats. " + verb + " just the next one (" + when + ")" + to + ", or every one?",
		Options: []stage.Option{
			{Label: "Just " + when, Actions: []action.Action{one}},
			{Label: "Every one", Actions: []action.Action{all}},
		},
	}
}

// whose reads "the kids have swimming" as the kids' swimming, and "Mia has
// piano" as Mia's: whose the event is, said of someone other than the
// user (owned); said with a pronoun ("she has piano"), the event alone.
func whose(text string) (title string, owned bool) {
	f := strings.Fields(text)
	for i := 1; i <= 3 && i < len(f)-1; i++ {
		v := strings.ToLower(f[i])
		if v != "has" && v != "have" {
			continue
		}
		who := words.TrimWordsLeft(strings.Join(f[:i], " "), "the", "my", "our")
		if ws := strings.Fields(who); len(ws) > 1 && isName(ws[len(ws)-1]) && !isName(ws[0]) {
			// "My son Leo has football": Leo's football.
			for !isName(ws[0]) {
				ws = ws[1:]
			}
			who = strings.Join(ws, " ")
		}
		switch strings.ToLower(who) {
		case "", "i", "we", "you", "they", "he", "she":
			// "She has piano every Saturday": piano, whoever she is.
			return strings.Join(f[i+1:], " "), false
		}
		what := words.TrimWordsLeft(strings.Join(f[i+1:], " "), "a", "an", "the") // "Mia has a party": Mia's party
		if strings.HasSuffix(who, "s") {
			return who + "' " + what, true
		}
		return who + "'s " + what, true
	}
	return text, false
}

// planSeriesMove moves a repeating event to another time of day: every
// occurrence (from e on) when the user said so, otherwise it asks whether
// they mean the next one (one, planned already) or all. from is when the
// user said the change begins ("from next week"), or zero.
func planSeriesMove(p stage.Plan, e hearth.CalendarEvent, one action.Action, start, end time.Time, every bool, from time.Time, c stage.Context) (stage.Plan, error) {
	args := action.EventUpdateArgs{ID: e.ID, Title: e.Title, Series: true, Update: hearth.CalendarEventUpdate{Start: &start, End: &end}}
	if !from.IsZero() {
		args.Starting = &start
	}
	all, err := action.New(action.CalendarUpdate, args)
	if err != nil {
		return plannedErr(p, err)
	}
	if every {
		p.Understood = "move " + e.Title + " to " + stage.ClockOf(start, c) + ", every time it repeats"
		p.Actions = []action.Action{all}
		return p, nil
	}
	p.Question = nextOrEvery(e, "Move", " to "+stage.ClockOf(start, c), one, all, c)
	return p, nil
}

// planSeriesDayMove answers a move of every occurrence of a repeating
// event to another day, which Hearth cannot make yet (its rule would
// change, not only its time of day), with what it can: the next one
// moved, on a button. Moving just that one silently, as before, said
// "moved" of a series that stayed where it was.
func planSeriesDayMove(p stage.Plan, e hearth.CalendarEvent, one action.Action, start time.Time, allDay bool, c stage.Context) stage.Plan {
	when := stage.FormatWhen(e.Start, e.AllDay, c)
	p.Question = &stage.Question{
		Text: markdown.Escape(e.Title) + " repeats, and I can move every one to another time of day, but not to another day yet. " +
			"Move just the next one (" + when + ") to " + stage.FormatWhen(start, allDay, c) + "?",
		Options: []stage.Option{{Label: "Just " + when, Actions: []action.Action{one}}},
	}
	return p
}

// reFromLater finds when a change to every occurrence is to begin, said
// after it: "move football to 11am from next week".
var reFromLater = regexp.MustCompile(`(?i)\b(?:from|starting|beginning)\s+((?:next|the\s+following)\s+(?:week|month))\b`)

// cutFromLater takes "from next week" off s and returns when that begins;
// zero when s says none.
func cutFromLater(s string, c stage.Context) (string, time.Time) {
	g := reFromLater.FindStringSubmatchIndex(s)
	if g == nil {
		return s, time.Time{}
	}
	m, ok := timex.Parse(s[g[2]:g[3]], c.Now, timex.Options{})
	if !ok || m.Kind != timex.Value { // the week's or month's first day
		return s, time.Time{}
	}
	return strings.TrimSpace(s[:g[0]] + " " + s[g[1]:]), m.Value
}

// occurrenceFrom is the first occurrence of e's series that starts at or
// after from: where "from next week" begins. ok is false when the
// calendar read holds none.
func occurrenceFrom(e hearth.CalendarEvent, from time.Time, c stage.Context) (hearth.CalendarEvent, bool) {
	var first hearth.CalendarEvent
	found := false
	for _, x := range c.Events {
		if x.Series == e.Series && !x.Start.Before(from) && (!found || x.Start.Before(first.Start)) {
			first, found = x, true
		}
	}
	return first, found
}

// offTheDate reports whether e, an occurrence of a repeating event, is
// not on the date the user named. MatchEvents keeps an event whose date
// was misremembered ("cancel the dentist on Friday", on Thursday); of a
// repeating event that would be another week's occurrence, changed in
// place of the one meant.
func offTheDate(e hearth.CalendarEvent, when *timex.Match, c stage.Context) bool {
	if e.Series == "" || when == nil || when.Kind == timex.Value && when.ClockOnly {
		return false
	}
	from, to := stage.Span(when, stage.UserNow(c), false)
	return e.Start.Before(from) || !e.Start.Before(to)
}

// rePluralDay finds a day of the week in the plural: "to Thursdays".
var rePluralDay = regexp.MustCompile(`(?i)\b(?:mon|tues|wednes|thurs|fri|satur|sun)days\b`)

// reAtClock finds a time of day said with "at" ("at 7pm", "at 18:30", "at
// noon").
var reAtClock = regexp.MustCompile(`(?i)\bat\s+(\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)?|noon|midnight)`)

// clockIn reads the time of day text says with "at", as the recurrence
// grammar reads one: a bare hour from 1 to 6 is in the afternoon.
func clockIn(text string) (recur.TimeOfDay, bool) {
	g := reAtClock.FindStringSubmatch(text)
	if g == nil {
		return recur.TimeOfDay{}, false
	}
	h, m, ok := timex.ParseClock(g[1])
	if !ok {
		return recur.TimeOfDay{}, false
	}
	if l := strings.ToLower(g[1]); h >= 1 && h <= 6 && !strings.ContainsAny(l, "apn") {
		h += 12
	}
	return recur.TimeOfDay{Hour: h, Minute: m}, true
}
