package respond

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/memory"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/nlu/timex"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// answer replies to a question about the user's own data, one short
// paragraph per domain asked about.
func (r *TemplateResponder) answer(in stage.RespondInput) string {
	if s, ok := dateAnswer(words.ASCIILower(strings.TrimSpace(in.Text)), in.Context); ok {
		// "What day is the 15th?" asks the calendar itself.
		return s
	}
	if who, ok := memory.AskedAbout(in.Text); ok {
		return r.answerAbout(in, who)
	}
	if q, ok := memory.ReadQuestion(in.Text, stage.UserNow(in.Context)); ok {
		return r.answerPeople(in, q)
	}
	if who, ok := memory.GiftFor(in.Text); ok {
		return answerGift(in, who)
	}
	if s, ok := r.eventDetail(in); ok {
		// "Where is lunch with Sam?": the event's place, or a thing's.
		return s
	}
	domains := in.Understanding.Domains
	if len(domains) == 0 {
		domains = []nlu.Domain{nlu.Memory}
	}
	if slices.Contains(domains, nlu.Calendar) && slices.Contains(domains, nlu.Task) && !freeQuestion(in.Text) && !overdueQuestion(in.Text) {
		// "What do I have tomorrow?": events and tasks due, together;
		// "what's next?": the first of them.
		if nlu.NextUp(in.Text) {
			return answerNextUp(in)
		}
		return r.answerAgenda(in)
	}
	var parts []string
	for _, d := range domains {
		var s string
		switch d {
		case nlu.Calendar:
			s = r.answerCalendar(in)
		case nlu.Task:
			s = r.answerTasks(in)
		case nlu.Memory:
			s = r.answerMemory(in)
		case nlu.Keep:
			s = r.answerNotes(in)
		case nlu.Email:
			s = r.answerEmail(in)
		}
		if s != "" && !slices.Contains(parts, s) {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n\n")
}

// askSpan is the stretch of time a question is about and how to name it.
type askSpan struct {
	from, to time.Time
	label    string // "tomorrow", "on Saturday", "this weekend", "coming up"
	oneDay   bool
}

// questionSpan reads the span from the question's date slot; without one
// it is the coming week, which is what the context stage loads.
func questionSpan(in stage.RespondInput) askSpan {
	c := in.Context
	z := stage.UserZone(c)
	m := in.Understanding.Slots.When
	day := func(t time.Time) askSpan {
		d := stage.MidnightIn(t, z)
		label := stage.DayLabel(d, c)
		switch label {
		case "today", "tomorrow", "yesterday":
		default:
			label = "on " + label
		}
		return askSpan{from: d, to: time.Date(d.Year(), d.Month(), d.Day()+1, 0, 0, 0, 0, z), label: label, oneDay: true}
	}
	switch {
	case m == nil:
		n := stage.UserNow(c)
		return askSpan{from: n, to: n.AddDate(0, 0, 7), label: "coming up"}
	case m.Kind == timex.Value && m.Grain <= timex.Day:
		return day(m.Value)
	case m.Kind == timex.Value:
		end := m.Value.AddDate(0, 0, 7)
		switch m.Grain {
		case timex.Month:
			end = m.Value.AddDate(0, 1, 0)
		case timex.Quarter:
			end = m.Value.AddDate(0, 3, 0)
		case timex.Year:
			end = m.Value.AddDate(1, 0, 0)
		}
		return askSpan{from: m.Value, to: end, label: saidSpan(m.Text)}
	}
	from, to := m.From, m.To
	if from.IsZero() {
		from = stage.UserNow(c)
	}
	if to.IsZero() || !to.After(from) {
		to = from.AddDate(0, 0, 7)
		if f := from.In(z); !m.From.IsZero() && !f.Equal(stage.MidnightIn(f, z)) {
			// "Anything after 5 tomorrow?": the rest of that day.
			to = time.Date(f.Year(), f.Month(), f.Day()+1, 0, 0, 0, 0, z)
		}
	}
	s := askSpan{from: from, to: to, label: saidSpan(m.Text)}
	if stage.DaysBetween(from.In(z), to.Add(-time.Nanosecond).In(z)) == 0 && !strings.HasPrefix(s.label, "to") {
		s.oneDay = true
	}
	if s.label == "" {
		s.label = "then"
	}
	return s
}

// eventWhen answers "when is my haircut?" from the first coming event
// whose title has the words asked after.
func eventWhen(in stage.RespondInput, ref string) (string, bool) {
	e, ok := namedEvent(in.Context, ref)
	if !ok {
		return "", false
	}
	return markdown.Escape(e.Title) + " is " + stage.WhenPhrase(e.Start, e.AllDay, in.Context) + ".", true
}

// namedEvent is the soonest of c's events whose titles best have the
// words of ref.
func namedEvent(c stage.Context, ref string) (hearth.CalendarEvent, bool) {
	evs := slices.Clone(c.Events)
	slices.SortStableFunc(evs, func(a, b hearth.CalendarEvent) int { return a.Start.Compare(b.Start) })
	titles := make([]string, len(evs))
	for i, e := range evs {
		titles[i] = e.Title
	}
	hits := words.BestMatches(ref, titles)
	if len(hits) == 0 {
		return hearth.CalendarEvent{}, false
	}
	return evs[slices.Min(hits)], true
}

// reMyName reads a question for the user's own name: "what's my name?",
// "do you know my name?".
var reMyName = regexp.MustCompile(`^(?:so |and |hey |ok )?(?:what(?:'s|s| is) my name|do you (?:know|remember) my name)\s*[?.!]*$`)

// reNextEvent reads a question for the next event only: "what's my next
// meeting?", "when is my next appointment?".
var reNextEvent = regexp.MustCompile(`\bnext\s+(?:meeting|event|appointment|call|thing on my calendar)s?\b`)

func nextEventQuestion(text string) bool {
	return reNextEvent.MatchString(words.ASCIILower(text))
}

// saidSpan names a span by the words that said it: "this weekend" for
// "what's on this weekend?", whose "on" belongs to "what's on".
func saidSpan(said string) string {
	l := strings.ToLower(strings.TrimSpace(said))
	if rest, ok := strings.CutPrefix(l, "on "); ok && (strings.HasPrefix(rest, "this ") || strings.HasPrefix(rest, "next ")) {
		l = rest
	}
	return prose.Capitalise(l) // "all Friday afternoon", "due before March"
}

func (r *TemplateResponder) answerCalendar(in stage.RespondInput) string {
	if freeQuestion(in.Text) {
		return r.answerFree(in)
	}
	if nextEventQuestion(in.Text) {
		return answerNextEvent(in)
	}
	if ref, ok := nlu.WhenIs(in.Text); ok {
		if s, ok := eventWhen(in, ref); ok {
			return s
		}
	}
	if s, ok := r.eventDetail(in); ok {
		return s
	}
	sp := questionSpan(in)
	var evs []hearth.CalendarEvent
	for _, e := range in.Context.Events {
		if e.Start.Before(sp.to) && e.End.After(sp.from) || e.Start.Equal(sp.from) {
			evs = append(evs, e)
		}
	}
	if len(evs) == 0 {
		var clear string
		if sp.label == "coming up" {
			clear = r.variant(in.Text, "cal-empty", "Your calendar is clear for the next week.", "Nothing on your calendar this coming week — enjoy the free time!")
		} else {
			clear = r.variant(in.Text, "cal-empty",
				"Nothing on your calendar "+sp.label+" — enjoy the free time!",
				"Your calendar is clear "+sp.label+".")
		}
		return clear + nextAfter(sp, in.Context)
	}
	return eventsSentenceSpan(evs, sp, in.Context)
}

// eventsSentence lists events: "You have 3 things tomorrow: 9:00 AM
// Dentist, …".
func eventsSentence(evs []hearth.CalendarEvent, label string, c stage.Context) string {
	return eventsSentenceSpan(evs, askSpan{label: label}, c)
}

func eventsSentenceSpan(evs []hearth.CalendarEvent, sp askSpan, c stage.Context) string {
	if len(evs) == 0 {
		return "Nothing on your calendar " + sp.label + "."
	}
	evs = slices.Clone(evs)
	slices.SortStableFunc(evs, func(a, b hearth.CalendarEvent) int { return a.Start.Compare(b.Start) })
	items := make([]string, len(evs))
	for i, e := range evs {
		switch {
		case sp.oneDay && e.AllDay:
			items[i] = markdown.Escape(e.Title) + " (all day)"
		case sp.oneDay:
			items[i] = stage.ClockOf(e.Start, c) + " " + markdown.Escape(e.Title)
		default:
			items[i] = stage.FormatWhen(e.Start, e.AllDay, c) + " " + markdown.Escape(e.Title)
		}
	}
	return "You have " + countOf(len(evs), "thing", "things") + " " + sp.label + ": " + prose.List(items) + "."
}

// countOf says "one thing", "3 things".
func countOf(n int, one, many string) string {
	if n == 1 {
		return "one " + one
	}
	return strconv.Itoa(n) + " " + many
}

// ---- Discussing work ---------------------------------------------------

// discuss helps decide what to do first: open tasks grouped by urgency,
// high priority first, and one suggestion to start with.
func (r *TemplateResponder) discuss(in stage.RespondInput) string {
	tasks := openTasksByUrgency(in.Context)
	if len(tasks) == 0 {
		return r.variant(in.Text, "discuss-empty",
			"Your task list is empty, so nothing is pressing right now. If something's weighing on you, tell me about it and we can break it into small steps.",
			"Good news: there's nothing on your task list. If something's on your mind, tell me and we'll sort it out together.")
	}
	var b strings.Builder
	b.WriteString(r.variant(in.Text, "discuss", "Let's take it one step at a time. Here's what's on your plate:", "Okay, deep breath — here's everything in one place:", "Let's sort it out together. Here's what you have:"))
	var groups [4][]string
	for _, t := range tasks {
		u := urgencyOf(t, in.Context)
		groups[u] = append(groups[u], taskItem(t, in.Context))
	}
	for i, g := range groups {
		if len(g) > 0 {
			b.WriteString("\n• " + bucketNames[i] + ": " + strings.Join(g, ", "))
		}
	}
	first := tasks[0]
	why := ""
	switch urgencyOf(first, in.Context) {
	case bucketOverdue:
		why = " since it's overdue"
	case bucketToday:
		why = " since it's due today"
	default:
		if first.Priority == 3 {
			why = " since it's marked important"
		} else if !first.Due.IsZero() {
			why = " since it's the next deadline"
		}
	}
	b.WriteString("\n\nI'd start with " + quoted(first.Title) + why + ". Just that one — the rest can wait.")
	if n := eventsToday(in.Context); n > 0 {
		b.WriteString(" You also have " + countOf(n, "thing", "things") + " on your calendar today, so plan around " + pronounFor(n) + ".")
	}
	return b.String()
}

func pronounFor(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

func eventsToday(c stage.Context) int {
	if c.Now.IsZero() {
		return 0
	}
	n := 0
	for _, e := range c.Events {
		if stage.DaysBetween(stage.UserNow(c), e.Start.In(stage.UserZone(c))) == 0 {
			n++
		}
	}
	return n
}

// ---- Small talk --------------------------------------------------------

// builtinJokes are harmless and short: a bot with a few good ones beats one
// with many bad ones.
var builtinJokes = []string{
	"Why don't scientists trust atoms? Because they make up everything.",
	"I told my computer I needed a break, and it said: “No problem — I'll go to sleep.”",
	"Why did the scarecrow win an award? He was outstanding in his field.",
	"What do you call a fake noodle? An impasta.",
}

func hasCue(lc string, cues ...string) bool {
	for _, c := range cues {
		if words.ContainsWord(lc, c) {
			return true
		}
	}
	return false
}

// reClock reads a question for the time or the date: "what time is it?",
// "what's the date today", "what day is it".
var reClock = regexp.MustCompile(`^(?:so |and |ok |okay )?(?:what(?:'s|s| is) the (?:time|date)(?: now| today| right now)?|what time is it(?: now| right now)?|what(?:'s|s| is) (?:the date|today's date)|what day is (?:it|today)(?: today)?|(?:the )?time(?: please)?)\s*[?.!]*$`)

func (r *TemplateResponder) chat(in stage.RespondInput) string {
	lc := words.ASCIILower(strings.TrimSpace(in.Text))
	name := ""
	if f := strings.Fields(in.User.DisplayName); len(f) > 0 {
		name = " " + f[0]
	}
	date, isDate := dateAnswer(lc, in.Context)
	switch {
	case nlu.OtherLanguage(in.Text):
		return englishOnly
	case hasCue(lc, "joke", "make me laugh", "something funny"):
		return r.variant(in.Text, "joke", builtinJokes...)
	case hasCue(lc, "thanks", "thank you", "thx", "ty", "cheers", "appreciate it", "much appreciated"):
		return r.variant(in.Text, "thanks", "You're welcome!", "Anytime!", "Happy to help!")
	case hasCue(lc, "bye", "goodbye", "good night", "goodnight", "see you", "see ya", "later", "ttyl"):
		return r.variant(in.Text, "bye", "Take care!", "See you later!", "Bye for now — I'm here whenever you need me.")
	case hasCue(lc, "what can you do", "what do you do", "help", "who are you", "what are you", "are you a bot", "are you real", "how do you work", "what can i ask"):
		return "I can keep your to-do list and remind you when things are due, add things to your calendar, remember facts like birthdays, keep notes and lists, draft emails for you to approve, and send you a briefing each morning. Try “Remind me to call mom tomorrow at 5pm” or “briefing now”."
	case hasCue(lc, "how are you", "how's it going", "hows it going", "how are things", "how're you", "what's up", "whats up", "how have you been", "how you doing"):
		return r.variant(in.Text, "howareyou", "Doing well, thanks for asking! What can I do for you?", "I'm good, thanks! How can I help today?", "All good here! What's on your mind?")
	case reClock.MatchString(lc) && !in.Context.Now.IsZero():
		// The one thing "out there" Hearth knows offline: the time where
		// the user is.
		z := stage.UserZone(in.Context)
		now := in.Context.Now.In(z)
		return "It's " + stage.ClockOf(now, in.Context) + " on " + now.Format("Monday, January 2") + " (" + z.String() + ")."
	case isDate:
		// "How long until Christmas?": the calendar itself.
		return date
	case in.Understanding.OutOfScope:
		return r.outOfScopeReply(in)
	case hasCue(lc, "hi", "hello", "hey", "hiya", "howdy", "good morning", "good afternoon", "good evening", "yo", "morning"):
		return r.variant(in.Text, "hello", "Hey"+name+"! What can I do for you?", "Hi"+name+"! How can I help?", "Hello"+name+"! What's on your mind?")
	case strings.HasSuffix(lc, "?") || hasCue(lc, "who", "what", "when", "where", "why", "how", "which", "tell me about", "define", "explain"):
		return r.variant(in.Text, "knowledge",
			"I can't look that up offline, but I can help with your tasks, calendar and notes.",
			"That's outside what I can check offline, sorry! I can help with your tasks, calendar and notes, though.")
	}
	return r.variant(in.Text, "chat",
		"I'm here whenever you need me — your tasks, your calendar, notes, or remembering something for you.",
		"Got it. If there's anything I can keep track of for you, just say the word.")
}

// followup answers a short reply that did not lead to any action ("no
// thanks", "ok").
func (r *TemplateResponder) followup(in stage.RespondInput) string {
	lc := words.ASCIILower(strings.TrimSpace(in.Text))
	switch {
	case hasCue(lc, "no", "nope", "cancel", "never mind", "nevermind", "don't", "stop", "nah"):
		return r.variant(in.Text, "no", "No problem — I'll leave it.", "Okay, I won't.")
	case hasCue(lc, "yes", "yeah", "yep", "ok", "okay", "sure", "sounds good", "great", "perfect", "cool", "fine"):
		return r.variant(in.Text, "ok", "Okay!", "Alright — let me know if there's anything else.")
	}
	// With no conversation to follow up on, the classifier calls short
	// small talk ("how's it going?") a followup: answer it as chat.
	return r.chat(in)
}

// nextAfter names the first event after an empty span ("Next up: Friday
// at 12:00 PM Lunch with Sam."), so "clear this week" on a Saturday does
// not hide Monday; "" when none is known.
func nextAfter(sp askSpan, c stage.Context) string {
	var next *hearth.CalendarEvent
	for i, e := range c.Events {
		if !e.Start.Before(sp.to) && (next == nil || e.Start.Before(next.Start)) {
			next = &c.Events[i]
		}
	}
	if next == nil {
		return ""
	}
	return " Next up: " + stage.FormatWhen(next.Start, next.AllDay, c) + " " + markdown.Escape(next.Title) + "."
}
