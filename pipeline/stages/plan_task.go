package stages

import (
	"context"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/nlu/timex"
)

// planTask plans reminders and to-dos: "remind me to call mom tomorrow
// at 5pm" (task.create), "I finished the report" / "mark buy milk as
// done" (task.complete), "delete the task call mom" (task.delete).
// Questions about tasks plan nothing: the responder answers them from
// Context.Tasks.
func planTask(_ context.Context, in PlanInput) (Plan, error) {
	text, whole := ownText(in, nlu.Task)
	if strings.TrimSpace(text) == "" {
		return Plan{}, nil
	}
	if in.Understanding.Intent != nlu.RequestAction {
		return Plan{Understood: "look at your tasks"}, nil
	}
	if kind, ref, ok := taskRefRequest(text); ok {
		return planTaskRef(in, kind, ref)
	}
	if done := completedTasks(text, in.Context.Tasks); len(done) > 0 {
		return planTasksDone(in, done)
	}
	if startsWithAny(stripPoliteness(asciiLower(strings.TrimSpace(text))), moveVerbs...) {
		return planTaskMove(in, text)
	}
	return planTaskCreate(in, text, whole)
}

// createCues mark a request to make a task even when the title has a
// completion word in it ("remind me to finish the report").
var createCues = []string{"remind", "reminder", "don't let me forget", "dont let me forget", "add", "put", "i need to", "i have to", "i must", "i gotta", "create", "new task", "set"}

// taskRefRequest recognises a request about an existing task and returns
// the kind (complete or delete) and how the user named the task.
func taskRefRequest(text string) (kind action.Kind, ref string, ok bool) {
	lc := stripPoliteness(asciiLower(strings.TrimSpace(text)))
	// Offsets below are into the original text: strip the same prefix.
	text = strings.TrimSpace(text)
	text = text[len(text)-len(lc):]
	if startsWithAny(lc, "mark ", "check off ", "cross off ", "tick off ") {
		rest, _, _ := afterAny(text, "mark ", "check off ", "cross off ", "tick off ")
		r, _, _ := cutBefore(rest, "as done", "as complete", "as completed", "as finished", "done", "complete", "off my", "from my")
		return action.TaskComplete, taskRef(r), true
	}
	for _, c := range createCues {
		if startsWithAny(lc, c) {
			return "", "", false
		}
	}
	if rest, _, found := afterAny(text, "i finished ", "i've finished ", "i have finished ", "i completed ", "i've completed ", "i'm done with ", "im done with ", "i am done with ", "done with ", "finished ", "completed ", "complete ", "i did "); found && startsWithAny(lc, "i ", "i've", "i'm", "im ", "done", "finished", "completed", "complete") {
		return action.TaskComplete, taskRef(rest), true
	}
	if r, _, found := cutBefore(text, "is done", "is finished", "is complete", "is completed", "is taken care of"); found && r != "" {
		return action.TaskComplete, taskRef(r), true
	}
	if startsWithAny(lc, "delete", "remove", "drop", "cancel", "get rid of", "clear") {
		rest, _, _ := afterAny(text, "delete ", "remove ", "drop ", "cancel ", "get rid of ", "clear ")
		return action.TaskDelete, taskRef(rest), true
	}
	return "", "", false
}

func startsWithAny(lc string, ps ...string) bool {
	for _, p := range ps {
		if strings.HasPrefix(lc, p) {
			return true
		}
	}
	return false
}

// taskRef cleans how a user names an existing task: "the task call mom
// from my to-do list" → "call mom".
func taskRef(s string) string {
	s, _, _ = cutBefore(s, "from my", "off my", "from the", "off the", "as done", "as complete", "on my to-do", "on my list")
	s = tidySlot(s)
	s = trimWordsLeft(s, "the", "my", "task", "tasks", "to-do", "todo", "reminder", "reminders", "to", "about", "called", "named", "item")
	s = trimWordsRight(s, "task", "reminder", "to-do", "todo", "item", "one")
	return tidySlot(s)
}

// planTaskRef completes or deletes the open task the user named, asking
// which one when several match.
func planTaskRef(in PlanInput, kind action.Kind, ref string) (Plan, error) {
	verb := map[action.Kind]string{action.TaskComplete: "mark a task as done", action.TaskDelete: "delete a task"}[kind]
	if ref != "" {
		verb = map[action.Kind]string{action.TaskComplete: "mark “" + ref + "” as done", action.TaskDelete: "delete the task “" + ref + "”"}[kind]
	}
	p := Plan{Understood: verb}
	if ref == "" {
		return p, needDetails("which task")
	}
	matched := matchingOpenTasks(ref, in.Context.Tasks)
	if len(matched) == 0 {
		return p, needDetails("no open task matches %q", ref)
	}
	return actOnTasks(p, kind, matched, in.Context, "Which one?")
}

// actOnTasks plans kind on the one task, or asks which of several.
func actOnTasks(p Plan, kind action.Kind, tasks []hearth.Task, c Context, ask string) (Plan, error) {
	var labels []string
	var acts []action.Action
	for _, t := range tasks {
		a, err := action.New(kind, action.TaskRefArgs{ID: t.ID, Title: t.Title})
		if err != nil {
			return plannedErr(p, err)
		}
		acts = append(acts, a)
		labels = append(labels, taskLabel(t, c))
	}
	if len(acts) == 1 {
		p.Actions = acts
		return p, nil
	}
	p.Question = askChoice(ask, labels, acts)
	return p, nil
}

// planTasksDone completes the open task a statement of something done
// named ("I paid the rent"), asking which when several match as well.
func planTasksDone(in PlanInput, done []hearth.Task) (Plan, error) {
	p := Plan{Understood: "mark “" + done[0].Title + "” as done"}
	return actOnTasks(p, action.TaskComplete, done, in.Context, "Which one did you do?")
}

// planTaskMove changes when an open task is due: "move the rent task to
// Friday", "push call mom to 6pm". Like an event, a task keeps its date
// when only a time is given, and its time of day when only a date is.
func planTaskMove(in PlanInput, text string) (Plan, error) {
	p := Plan{Understood: "move a task"}
	rest, _, _ := afterAny(text, moveVerbs...)
	refText, target, found := cutBefore(rest, "to ", "until ")
	if !found {
		return p, needDetails("when to move it to")
	}
	ref := taskRef(stripTimeWords(refText, in.Context))
	if ref == "" || isPronoun(ref) {
		return p, needDetails("which task")
	}
	p.Understood = "move “" + ref + "”"
	m := whenOf(in, target, false)
	if m == nil {
		return p, needDetails("when to move it to")
	}
	matched := matchingOpenTasks(ref, in.Context.Tasks)
	if len(matched) == 0 {
		return p, needDetails("no open task matches %q", ref)
	}
	var labels []string
	var acts []action.Action
	for _, t := range matched {
		due, allDay := movedDue(t, m, in.Context)
		if due.IsZero() {
			return p, needDetails("a time to move it to")
		}
		a, err := action.New(action.TaskUpdate, action.TaskUpdateArgs{ID: t.ID, Update: hearth.TaskUpdate{Due: &due, AllDay: &allDay}})
		if err != nil {
			return plannedErr(p, err)
		}
		acts = append(acts, a)
		labels = append(labels, taskLabel(t, in.Context))
	}
	if len(acts) == 1 {
		p.Actions = acts
		return p, nil
	}
	p.Question = askChoice("Which one should I move?", labels, acts)
	return p, nil
}

// matchingOpenTasks are the open tasks whose titles match ref best.
func matchingOpenTasks(ref string, tasks []hearth.Task) []hearth.Task {
	var open []hearth.Task
	var titles []string
	for _, t := range tasks {
		if t.Status == hearth.TaskOpen || t.Status == "" {
			open = append(open, t)
			titles = append(titles, t.Title)
		}
	}
	var out []hearth.Task
	for _, i := range bestMatches(ref, titles) {
		out = append(out, open[i])
	}
	return out
}

// movedDue is when task t is due once moved to m: a time of day alone
// ("to 6pm") keeps its date, a date alone keeps its time of day.
func movedDue(t hearth.Task, m *timex.Match, c Context) (time.Time, bool) {
	z := userZone(c)
	due, allDay := dueOf(m, c)
	if t.Due.IsZero() || due.IsZero() {
		return due, allDay
	}
	old := t.Due.In(z)
	switch {
	case m.Kind == timex.Value && m.Grain < timex.Day && m.ClockOnly:
		at := fixClock(m.Value.In(z), m.Text, false)
		return time.Date(old.Year(), old.Month(), old.Day(), at.Hour(), at.Minute(), 0, 0, z), false
	case allDay && !t.AllDay:
		d := due.In(z)
		return time.Date(d.Year(), d.Month(), d.Day(), old.Hour(), old.Minute(), 0, 0, z), false
	}
	return due, allDay
}

// taskLabel names a task on a button; the due date tells apart tasks
// with the same title.
func taskLabel(t hearth.Task, c Context) string {
	if t.Due.IsZero() {
		return t.Title
	}
	return t.Title + " (" + formatWhen(t.Due, t.AllDay, c) + ")"
}

// askChoice builds a Question with one option per action, at most
// maxOptions of them.
func askChoice(text string, labels []string, acts []action.Action) *Question {
	q := &Question{Text: text}
	for i := range acts {
		if i == maxOptions {
			break
		}
		q.Options = append(q.Options, Option{Label: labels[i], Actions: []action.Action{acts[i]}})
	}
	return q
}

// planTaskCreate makes one task from the title and date the user gave.
func planTaskCreate(in PlanInput, text string, whole bool) (Plan, error) {
	title := ""
	if whole {
		title = in.Understanding.Slots.Title
	}
	if title == "" {
		title = taskTitleOf(text)
	}
	if lc := stripPoliteness(asciiLower(strings.TrimSpace(text))); title == "" && whole && !startsWithAny(lc, createCues...) {
		// A bare imperative the classifier read as a task request, "pay
		// rent on Friday": the request is the title, less its time words.
		// A cue with nothing after it ("remind me") still asks what.
		title = strings.TrimSpace(text)[len(strings.TrimSpace(text))-len(lc):]
	}
	when := whenOf(in, text, whole)
	title = stripTimeWords(title, in.Context)
	// "send the invoice tonight, it's urgent": the aside is not the title.
	title, _, _ = cutBefore(title, ", it", ", it's", ", its", ", that's", ", because", ", since", ", so ", ", as ", ", which")
	title = trimWordsRight(title, "urgently", "asap", "urgent", "high priority", "low priority")
	title = tidySlot(title)
	p := Plan{Understood: "add a task"}
	if isPronoun(title) || emptyTitle[asciiLower(title)] {
		title = "" // "remind me to" with nothing after it
	}
	if title == "" {
		return p, needDetails("what the task is")
	}
	p.Understood = "add a task to " + prose.LowerFirst(title)
	args := action.TaskCreateArgs{Title: prose.UpperFirst(title), Priority: taskPriority(text)}
	args.Due, args.AllDay = dueOf(when, in.Context)
	a, err := action.New(action.TaskCreate, args)
	if err != nil {
		return plannedErr(p, err)
	}
	p.Actions = []action.Action{a}
	return p, nil
}

// taskTitleOf reads a task's title from the text when the classifier did
// not: "remind me to X", "add X to my to-do list", "I need to X".
func taskTitleOf(text string) string {
	if rest, _, ok := afterAny(text, "remind me to ", "reminder to ", "don't let me forget to ", "dont let me forget to ", "don't forget to ", "task to ", "remind me about ", "reminder about ", "reminder for ", "remind me "); ok {
		// "remind me tomorrow at 5 to call mom": the title follows "to".
		if _, t, found := cutBefore(rest, "to "); found && !strings.HasPrefix(asciiLower(rest), "to ") {
			return t
		}
		return rest
	}
	if rest, _, ok := afterAny(text, "add ", "put ", "create a task ", "create task ", "new task "); ok {
		item, _, _ := cutBefore(rest, "to my", "on my", "to the", "on the", "in my")
		return trimWordsLeft(item, "a task", "task", "to", "called", "named")
	}
	if rest, _, ok := afterAny(text, "i need to ", "i have to ", "i must ", "i gotta ", "i should "); ok {
		item, _, _ := cutBefore(rest, ", remind", "remind", ", can you", ", add it", ", put it")
		return item
	}
	return ""
}

// stripTimeWords removes date and time expressions from a title and the
// prepositions they leave dangling: "call mom tomorrow at 5pm" → "call
// mom".
func stripTimeWords(title string, c Context) string {
	if title == "" || c.Now.IsZero() {
		return title
	}
	out := nlu.StripTimes(title, userNow(c))
	out = trimWordsRight(out, "on", "at", "by", "for", "in", "from", "until", "this", "next", "every", "due")
	if t := tidySlot(out); t != "" {
		return t
	}
	return title
}

// dueOf turns a date slot into a task's due time: an instant for a time
// of day, the date's midnight (AllDay) for a day or coarser; an interval
// is due at its start, or at its end when open at the start ("by
// Friday").
func dueOf(m *timex.Match, c Context) (due time.Time, allDay bool) {
	if m == nil {
		return time.Time{}, false
	}
	z := userZone(c)
	t, g := m.Value, m.Grain
	if m.Kind == timex.Interval {
		// "by Friday" is the span from now to Friday: the deadline is its
		// end. "tonight" starts later: due when it starts.
		t = m.From
		if t.IsZero() || !c.Now.IsZero() && !t.After(c.Now) {
			t = m.To
		}
		if t.IsZero() {
			return time.Time{}, false
		}
		if t.Equal(midnightIn(t, z)) {
			g = timex.Day
		}
	}
	if g >= timex.Day {
		return midnightIn(t, z), true
	}
	return t.In(z), false
}

// taskPriority reads "urgent", "important", "asap" (high) and "low
// priority" (low).
func taskPriority(text string) int {
	lc := asciiLower(text)
	switch {
	case containsWord(lc, "low priority"):
		return 1
	case containsWord(lc, "urgent"), containsWord(lc, "urgently"), containsWord(lc, "asap"), containsWord(lc, "important"), containsWord(lc, "high priority"):
		return 3
	}
	return 0
}

// isPronoun reports whether a title is only a pronoun ("add it"): the
// thing it refers to is elsewhere and the title must come from there.
func isPronoun(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "it", "this", "that", "them", "these", "those", "one", "something":
		return true
	}
	return false
}

// lowerLead lowercases a sentence's first word only when it is a common
// word ("My sister's name…" → "my sister's name…"), so a fact that starts
// with a name keeps it: "John likes dark chocolate".
func lowerLead(s string) string {
	first, _, _ := strings.Cut(s, " ")
	if !leadWords[strings.ToLower(first)] {
		return s
	}
	return prose.LowerFirst(s)
}

var leadWords = map[string]bool{
	"my": true, "our": true, "your": true, "his": true, "her": true, "their": true, "its": true,
	"the": true, "a": true, "an": true, "this": true, "that": true, "these": true, "those": true,
	"there": true, "it": true, "we": true, "they": true, "he": true, "she": true, "you": true,
}

// emptyTitle are the words left over from a request that never said what
// to do ("remind me to", "add a task for").
var emptyTitle = map[string]bool{
	"to": true, "me": true, "to do": true, "for": true, "a task": true, "task": true, "a": true,
	"something": true, "that": true, "this": true, "it": true, "about": true,
}
