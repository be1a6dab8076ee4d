package plan

import (
	"cmp"
	"context"
	"regexp"
	"slices"
	"strconv"
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

// planTask plans reminders and to-dos: "remind me to call mom tomorrow
// at 5pm" (task.create), "I finished the report" / "mark buy milk as
// done" (task.complete), "delete the task call mom" (task.delete).
// Questions about tasks plan nothing: the responder answers them from
// Context.Tasks.
func planTask(_ context.Context, in stage.PlanInput) (stage.Plan, error) {
	text, whole := ownText(in, nlu.Task)
	if strings.TrimSpace(text) == "" {
		return stage.Plan{}, nil
	}
	if in.Understanding.Intent != nlu.RequestAction {
		return stage.Plan{Understood: "look at your tasks"}, nil
	}
	lc := words.StripPoliteness(words.ASCIILower(strings.TrimSpace(text)))
	if words.StartsWithAny(lc, RenameVerbs...) {
		return planRename(in, text)
	}
	if p, ok, err := planOnlyTime(in, text); ok {
		return p, err
	}
	if ref, what, lead, ok := remindBefore(text); ok {
		return planRemindBefore(in, ref, what, lead)
	}
	if p, ok, err := planReminderChange(in, text); ok {
		return p, err
	}
	if p, ok, err := planReminderPause(in, text); ok {
		return p, err // before a cancel: "pause" alone cancels
	}
	if p, ok, err := planReminderCancel(in, text); ok {
		return p, err
	}
	if p, ok, err := planReminderSkip(in, text); ok {
		return p, err
	}
	if ref, ok := ReopenRef(text); ok {
		return planReopen(in, ref)
	}
	if kind, ref, ok := taskRefRequest(text); ok {
		pronoun := isPronounRef(ref)
		ref = resolveRef(ref, in.Context)
		if kind == action.TaskDelete && !hasTask(ref, in.Context) && hasEvent(ref, in.Context) {
			return planEventDelete(in, "cancel "+ref)
		}
		return planTaskRef(in, kind, ref, pronoun)
	}
	if done := CompletedTasks(text, in.Context.Tasks); len(done) > 0 {
		return planTasksDone(in, done)
	}
	if words.StartsWithAny(lc, MoveVerbs...) {
		return planTaskMove(in, text)
	}
	if l, ok := nlu.ChangesLength(text); ok {
		// "Make it an hour and a half" of the event just made.
		if p, ok, err := planLength(in, l); ok {
			return p, err
		}
	}
	if refText, sh, ok := shiftRequest(text); ok {
		return planShift(in, refText, sh)
	}
	if ref, target, ok := changeTarget(in, fromNow(in, text)); ok {
		return moveTask(in, ref, target)
	}
	if g := reRemindOther.FindStringSubmatch(text); g != nil && !strings.EqualFold(g[1], "me") && !strings.EqualFold(g[1], "us") {
		return planRemindOther(in, g[1], g[2]+" "+g[3])
	}
	if rest, _, ok := words.AfterAny(lc, ChangeVerbs...); ok && words.StartsWithAny(lc, ChangeVerbs...) && words.StartsWithAny(rest, "it ", "that ", "this ") {
		// "Change it to blue", "make that the 40th": a change to something
		// said before that is no time Hearth reads, never a new task with
		// those words for its title.
		return stage.Plan{Understood: "change something"}, needDetails("what to change it to")
	}
	return planTaskCreate(in, text, whole)
}

// reRemindOther reads a reminder for someone else: "remind Ben to take
// out the trash tonight", "remind my wife about the dentist".
var reRemindOther = regexp.MustCompile(`(?i)^\s*(?:please\s+)?remind\s+((?:my\s+)?[a-z][\w'-]*)\s+(to|about|that)\s+(.+)$`)

// planRemindOther answers a reminder for someone else (rest: "to take
// out the trash tonight"): Hearth reminds only whoever asks (another
// member's chats are theirs), so it offers to remind the user to tell
// them, at the same time.
func planRemindOther(in stage.PlanInput, who, rest string) (stage.Plan, error) {
	p := stage.Plan{Understood: "remind " + who}
	mine := "remind me to tell " + who + " " + rest // rest: "to …", "about …", "that …"
	in.Text = mine
	own, err := planTaskCreate(in, mine, false)
	if err != nil || len(own.Actions) == 0 {
		return p, needDetails("what to remind %s of", who)
	}
	name := markdown.Escape(who)
	if rel, ok := strings.CutPrefix(strings.ToLower(who), "my "); ok {
		name = "your " + markdown.Escape(rel)
	}
	// "Yes", not "Remind me": a next "remind me to …" must not read as
	// picking it.
	p.Question = askChoice("I can only remind you, not "+name+". Shall I remind you to tell them instead?", []string{"Yes"}, own.Actions)
	return p, nil
}

// createCues mark a request to make a task even when the title has a
// completion word in it ("remind me to finish the report").
var createCues = []string{"remind", "reminder", "don't let me forget", "dont let me forget", "add", "put", "i need to", "i have to", "i must", "i gotta", "create", "new task", "set"}

// taskRefRequest recognises a request about an existing task and returns
// the kind (complete or delete) and how the user named the task.
func taskRefRequest(text string) (kind action.Kind, ref string, ok bool) {
	lc := words.StripPoliteness(words.ASCIILower(strings.TrimSpace(text)))
	// Offsets below are into the original text: strip the same prefix.
	text = strings.TrimSpace(text)
	text = text[len(text)-len(lc):]
	if words.StartsWithAny(lc, "mark ", "check off ", "cross off ", "tick off ") {
		rest, _, _ := words.AfterAny(text, "mark ", "check off ", "cross off ", "tick off ")
		r, _, _ := words.CutBefore(rest, "as done", "as complete", "as completed", "as finished", "done", "complete", "off my", "from my")
		return action.TaskComplete, taskRef(r), true
	}
	for _, c := range createCues {
		if words.StartsWithAny(lc, c) {
			return "", "", false
		}
	}
	if rest, _, found := words.AfterAny(text, "i finished ", "i've finished ", "i have finished ", "i completed ", "i've completed ", "i'm done with ", "im done with ", "i am done with ", "done with ", "finished ", "completed ", "complete ", "i did "); found && words.StartsWithAny(lc, "i ", "i've", "i'm", "im ", "done", "finished", "completed", "complete") {
		return action.TaskComplete, taskRef(rest), true
	}
	if r, _, found := words.CutBefore(text, "is done", "is finished", "is complete", "is completed", "is taken care of", "is sorted", "is dealt with", "is handled"); found && r != "" {
		return action.TaskComplete, taskRef(r), true
	}
	if words.StartsWithAny(lc, "delete", "remove", "drop", "cancel", "get rid of", "clear") {
		rest, _, _ := words.AfterAny(text, "delete ", "remove ", "drop ", "cancel ", "get rid of ", "clear ")
		if reWholeList.MatchString(words.TidySlot(rest)) {
			// "Clear my to-do list" is every task: asked of one at a
			// time, as "delete all my tasks" is.
			return action.TaskDelete, "all tasks", true
		}
		return action.TaskDelete, taskRef(rest), true
	}
	return "", "", false
}

// taskRef cleans how a user names an existing task: "the task call mom
// from my to-do list" → "call mom".
func taskRef(s string) string {
	s, _, _ = words.CutBefore(s, "from my", "off my", "from the", "off the", "as done", "as complete", "on my to-do", "on my list")
	s = words.TidySlot(s)
	s = words.TrimWordsLeft(s, "the", "my", "task", "tasks", "to-do", "todo", "reminder", "reminders", "to", "about", "called", "named", "item")
	s = words.TrimWordsRight(s, "task", "reminder", "to-do", "todo", "item", "one")
	return words.TidySlot(s)
}

// planTaskRef completes or deletes the open task the user named, asking
// which one when several match. Named by "it" or "that" (pronoun), of
// several with the title the last reply named, it is the newest: "cancel
// that" right after a second "Buy flowers" was made.
func planTaskRef(in stage.PlanInput, kind action.Kind, ref string, pronoun bool) (stage.Plan, error) {
	verb := map[action.Kind]string{action.TaskComplete: "mark a task as done", action.TaskDelete: "delete a task"}[kind]
	if ref != "" {
		verb = map[action.Kind]string{action.TaskComplete: "mark “" + markdown.Escape(ref) + "” as done", action.TaskDelete: "delete the task “" + markdown.Escape(ref) + "”"}[kind]
	}
	p := stage.Plan{Understood: verb}
	if ref == "" {
		return p, needDetails("which task")
	}
	if words.StartsWithWords(words.ASCIILower(ref), "all", "every", "everything") {
		// "Delete all my tasks": one at a time, named, so nothing goes
		// that was not meant to.
		noun := "task"
		if words.ContainsWord(words.ASCIILower(ref), "reminders") {
			noun = "reminder" // "cancel all my reminders"
		}
		p.Understood = map[action.Kind]string{action.TaskComplete: "mark all your " + noun + "s as done", action.TaskDelete: "delete all your " + noun + "s"}[kind]
		return p, needDetails("which %s — I change them one at a time, never all at once", noun)
	}
	matched := matchingOpenTasks(ref, in.Context.Tasks)
	if len(matched) == 0 {
		return p, needDetails("which task: I couldn't find an open task matching “%s”", ref)
	}
	if pronoun && len(matched) > 1 && !slices.ContainsFunc(matched, func(t hearth.Task) bool { return !strings.EqualFold(t.Title, ref) }) {
		matched = []hearth.Task{slices.MaxFunc(matched, func(a, b hearth.Task) int { return cmp.Compare(a.ID, b.ID) })}
	}
	p, err := actOnTasks(p, kind, matched, in.Context, "Which one?")
	if err != nil {
		return p, err
	}
	button := map[action.Kind]string{action.TaskComplete: "Mark done: ", action.TaskDelete: "Delete "}[kind] + matched[0].Title
	return askIfPartlyNamed(p, ref, matched[0].Title, taskLabel(matched[0], in.Context), button, taskNouns), nil
}

// actOnTasks plans kind on the one task, or asks which of several.
func actOnTasks(p stage.Plan, kind action.Kind, tasks []hearth.Task, c stage.Context, ask string) (stage.Plan, error) {
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
	return actOrAsk(p, ask, labels, acts), nil
}

// planTasksDone completes the open task a statement of something done
// named ("I paid the rent"), asking which when several match as well.
func planTasksDone(in stage.PlanInput, done []hearth.Task) (stage.Plan, error) {
	p := stage.Plan{Understood: "mark “" + markdown.Escape(done[0].Title) + "” as done"}
	return actOnTasks(p, action.TaskComplete, done, in.Context, "Which one did you do?")
}

// taskLabel names a task on a button; the due date tells apart tasks
// with the same title.
func taskLabel(t hearth.Task, c stage.Context) string {
	if t.Due.IsZero() {
		return t.Title
	}
	return t.Title + " (" + stage.FormatWhen(t.Due, t.AllDay, c) + ")"
}

// actOrAsk plans acts when there is one, and otherwise asks which, with a
// button for each (labels): how every planner settles on one of several
// matches.
func actOrAsk(p stage.Plan, ask string, labels []string, acts []action.Action) stage.Plan {
	if len(acts) == 1 {
		p.Actions = acts
	} else {
		p.Question = askChoice(ask, labels, acts)
	}
	return p
}

// askChoice builds a Question with one option per action, at most
// maxOptions of them.
func askChoice(text string, labels []string, acts []action.Action) *stage.Question {
	q := &stage.Question{Text: text}
	for i := range acts {
		if i == maxOptions {
			break
		}
		q.Options = append(q.Options, stage.Option{Label: labels[i], Actions: []action.Action{acts[i]}})
	}
	return q
}

// planTaskCreate makes one task from the title and date the user gave.
func planTaskCreate(in stage.PlanInput, text string, whole bool) (stage.Plan, error) {
	title := ""
	if whole {
		title = in.Understanding.Slots.Title
	}
	if title == "" {
		title = taskTitleOf(text)
	}
	lc := words.StripPoliteness(words.ASCIILower(strings.TrimSpace(text)))
	told := words.StartsWithWords(lc, "i", "we") // "I packed the socks" tells, it asks nothing
	if title == "" && told {
		return stage.Plan{Understood: "add a task"}, needDetails("what the task is")
	}
	if title == "" && whole && !words.StartsWithAny(lc, createCues...) {
		// A bare imperative the classifier read as a task request, "pay
		// rent on Friday": the request is the title, less its time words.
		// A cue with nothing after it ("remind me") still asks what.
		title = strings.TrimSpace(text)[len(strings.TrimSpace(text))-len(lc):]
	}
	when := whenOf(in, text, whole)
	title = stripTimeWords(title, in.Context)
	// "send the invoice tonight, it's urgent": the aside is not the title.
	title, _, _ = words.CutBefore(title, ", it", ", it's", ", its", ", that's", ", because", ", since", ", so ", ", as ", ", which")
	title = words.TrimWordsRight(title, "urgently", "asap", "urgent", "high priority", "low priority")
	title = words.TidySlot(words.TrimWordsLeft(words.TidySlot(title), "the", "a", "an")) // "a reminder for the dentist"
	p := stage.Plan{Understood: "add a task"}
	if t := words.TrimWordsRight(title, "again", "too", "as well"); IsPronoun(t) {
		// "Remind me about it again on Friday": the item the last reply
		// was about ("" when none: asked below).
		title = LastMentioned(in.Context)
	}
	if IsPronoun(title) || emptyTitle[words.ASCIILower(title)] {
		title = "" // "remind me to" with nothing after it
	}
	if title == "" && words.ContainsWord(lc, "alarm") && when != nil {
		// "Set an alarm for 7am": a message then is the alarm Hearth has.
		title = "Alarm"
	}
	if title == "" {
		// "Remind me tomorrow": about what is asked, and the answer
		// finishes the request ("… to call the bank").
		if words.StartsWithAny(words.StripPoliteness(words.ASCIILower(strings.TrimSpace(text))), "remind", "reminder", "set a reminder", "don't let me forget", "dont let me forget") {
			return askRest(p, "What should I remind you about?", text, "to")
		}
		return askRest(p, "What's the task?", text, "to")
	}
	if g := reEveryHours.FindStringSubmatch(text); g != nil {
		// "Stretch every hour": reminders repeat by the day at most. Said
		// so, with the one reminder that can be had.
		return onceInstead(p, in, strings.Replace(title, g[0], " ", 1), g[1], g[2])
	}
	p.Understood = "add a task to " + prose.LowerFirst(title)
	args := action.TaskCreateArgs{Title: prose.UpperFirst(title), Priority: taskPriority(text)}
	args.Due, args.AllDay = dueOf(when, in.Context)
	if when == nil {
		// "Buy flowers before Mum's birthday": the day before it, when a
		// fact tells it.
		if due, ok := birthdayDue(text, in.Understanding.Slots.People, in.Context); ok {
			args.Due, args.AllDay = due, true
		}
	}
	a, err := action.New(action.TaskCreate, args)
	if err != nil {
		return plannedErr(p, err)
	}
	p.Actions = []action.Action{a}
	return p, nil
}

// reEveryHours finds a repeat more often than daily in a task's title:
// "every hour", "every 2 hours", "every 30 minutes", "hourly".
var reEveryHours = regexp.MustCompile(`(?i)\b(?:every|each)\s+(?:(\d+|two|three|four|few|couple of)\s+)?(hours?|minutes?|mins?)\b|\bhourly\b`)

// onceInstead answers a repeat Hearth cannot keep ("every hour") with
// what it can: one reminder after that long, on a button.
func onceInstead(p stage.Plan, in stage.PlanInput, title, n, unit string) (stage.Plan, error) {
	title = words.TidySlot(title)
	if title == "" {
		return p, needDetails("what the task is")
	}
	every, step := "an hour", time.Hour
	count := map[string]int{"": 1, "two": 2, "three": 3, "four": 4, "few": 3, "couple of": 2}[strings.ToLower(n)]
	if c, err := strconv.Atoi(n); err == nil && c > 0 && c <= 24*60 {
		count = c
	}
	count = max(count, 1)
	if u := strings.ToLower(unit); strings.HasPrefix(u, "min") {
		step = time.Minute
		every = strconv.Itoa(count) + " minutes"
	} else if count > 1 {
		every = strconv.Itoa(count) + " hours"
	}
	p.Understood = "remind you to " + prose.LowerFirst(title) + " every " + strings.TrimPrefix(every, "an ")
	a, err := action.New(action.TaskCreate, action.TaskCreateArgs{Title: prose.UpperFirst(title), Due: in.Context.Now.Add(time.Duration(count) * step).Truncate(time.Minute)})
	if err != nil {
		return plannedErr(p, err)
	}
	p.Question = &stage.Question{
		Text:    "I can't repeat a reminder more often than once a day, sorry — but I can remind you once, in " + every + ", or every day at a time you pick (say “every day at 10am”).",
		Options: []stage.Option{{Label: "Remind me in " + every, Actions: []action.Action{a}}},
	}
	return p, nil
}

// taskTitleOf reads a task's title from the text when the classifier did
// not: "remind me to X", "add X to my to-do list", "I need to X".
func taskTitleOf(text string) string {
	if rest, cue, ok := words.AfterAny(text, "remind me to ", "reminder to ", "don't let me forget to ", "dont let me forget to ", "don't forget to ", "task to ", "remind me about ", "reminder about ", "reminder for ", "remind me "); ok {
		// "remind me tomorrow at 5 to call mom": the title follows "to".
		// After "remind me to" it is all of the rest: "tell Ben to take
		// out the trash" keeps its "to".
		if _, t, found := words.CutBefore(rest, "to "); found && cue == "remind me " && !strings.HasPrefix(words.ASCIILower(rest), "to ") {
			return t
		}
		return rest
	}
	if rest, _, ok := words.AfterAny(text, "add ", "put ", "create a task ", "create task ", "new task "); ok {
		item, _, _ := words.CutBefore(rest, "to my", "on my", "to the", "on the", "in my")
		return words.TrimWordsLeft(item, "a task", "task", "to", "called", "named")
	}
	if rest, _, ok := words.AfterAny(text, nlu.IntentionCues...); ok {
		item, _, _ := words.CutBefore(rest, ", remind", "remind", ", can you", ", add it", ", put it")
		return item
	}
	return ""
}

// stripTimeWords removes date and time expressions from a title and the
// prepositions they leave dangling: "call mom tomorrow at 5pm" → "call
// mom". Nothing is left of a title that was only its time ("remind me
// tomorrow"): there is no title, then, not one called "Tomorrow".
func stripTimeWords(title string, c stage.Context) string {
	if title == "" || c.Now.IsZero() {
		return title
	}
	out := nlu.StripTimes(title, stage.UserNow(c))
	// "… until 4, remind me to call mom after": "after" (then) that time.
	// "My flight to Rome is on Monday": the flight to Rome.
	// "Add lunch to Friday": lunch.
	out = words.TrimWordsRight(out, "on", "at", "by", "for", "in", "from", "until", "this", "next", "every", "due", "after", "afterwards", "then", "is", "are", "was", "to")
	return words.TidySlot(out)
}

// dueOf turns a date slot into a task's due time: an instant for a time
// of day, the date's midnight (AllDay) for a day or coarser; an interval
// is due at its start, or at its end when open at the start ("by
// Friday").
func dueOf(m *timex.Match, c stage.Context) (due time.Time, allDay bool) {
	if m == nil {
		return time.Time{}, false
	}
	z := stage.UserZone(c)
	t, g := m.Value, m.Grain
	if at, ok := partOfDayAt(m, z); ok && (c.Now.IsZero() || m.To.After(c.Now)) {
		// "Tomorrow morning", "this afternoon", "tonight": at the part of
		// the day's usual time, not all day; said while it is under way
		// ("tonight" at half past six), later in it, not tomorrow.
		if !c.Now.IsZero() && !at.After(c.Now) {
			at = c.Now.In(z).Truncate(time.Hour).Add(time.Hour)
			if !at.Before(m.To) {
				at = c.Now.Add(15 * time.Minute)
			}
		}
		return at.In(z), false
	}
	if m.Kind == timex.Interval {
		// "by Friday" is the span from now to Friday: the deadline is its
		// end.
		t = m.From
		if t.IsZero() || !c.Now.IsZero() && !t.After(c.Now) {
			t = m.To
		}
		if t.IsZero() {
			return time.Time{}, false
		}
		if t.Equal(stage.MidnightIn(t, z)) {
			g = timex.Day
			if lc := words.ASCIILower(m.Text); t.Equal(m.To) && (strings.HasPrefix(lc, "before ") || strings.Contains(lc, "end of ")) {
				// "Before March", "by the end of March": the span ends as
				// the next day begins; the deadline is the day before.
				t = t.AddDate(0, 0, -1)
			}
		}
	}
	if g >= timex.Day {
		return stage.MidnightIn(t, z), true
	}
	return t.In(z), false
}

// partOfDayAt is when a part of one day said without a clock time is:
// "tomorrow morning" 8:00, "this afternoon" 15:00, "Friday evening"
// 19:00, "tonight" 21:00 — the times "every morning" and the like repeat
// at (timex) — or, when a narrower part ("late morning") leaves that
// time out, its middle hour. ok is false for any other interval.
func partOfDayAt(m *timex.Match, z *time.Location) (time.Time, bool) {
	if m == nil || m.Kind != timex.Interval || m.From.IsZero() || m.To.IsZero() {
		return time.Time{}, false
	}
	from, to := m.From.In(z), m.To.In(z)
	if span := to.Sub(from); span < 3*time.Hour || span > 12*time.Hour || stage.MidnightIn(from, z) != stage.MidnightIn(to.Add(-time.Nanosecond), z) {
		return time.Time{}, false
	}
	usual := 0
	switch from.Hour() {
	case 0:
		usual = 8
	case 12:
		usual = 15
	case 18:
		usual = 19
	}
	if lc := words.ASCIILower(m.Text); words.ContainsWord(lc, "tonight") || words.ContainsWord(lc, "night") || words.ContainsWord(lc, "tonite") {
		usual = 21
	}
	at := time.Date(from.Year(), from.Month(), from.Day(), usual, 0, 0, 0, z)
	if usual == 0 || at.Before(from) || !at.Before(to) {
		at = from.Add(to.Sub(from) / 2).Truncate(time.Hour)
	}
	return at, true
}

// taskPriority reads "urgent", "important", "asap" (high) and "low
// priority" (low).
func taskPriority(text string) int {
	lc := words.ASCIILower(text)
	switch {
	case words.ContainsWord(lc, "low priority"):
		return 1
	case words.ContainsWord(lc, "urgent"), words.ContainsWord(lc, "urgently"), words.ContainsWord(lc, "asap"), words.ContainsWord(lc, "important"), words.ContainsWord(lc, "high priority"):
		return 3
	}
	return 0
}

// IsPronoun reports whether a title or a reference is only a pronoun
// ("add it", "forget that"): the thing it refers to is elsewhere and the
// title must come from there.
func IsPronoun(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "it", "this", "that", "them", "these", "those", "one", "something":
		return true
	}
	return false
}

// emptyTitle are the words left over from a request that never said what
// to do ("remind me to", "add a task for").
var emptyTitle = map[string]bool{
	"to": true, "me": true, "to do": true, "for": true, "a task": true, "task": true, "a": true,
	"something": true, "that": true, "this": true, "it": true, "about": true,
}

// reWholeList names the to-do list itself: "my to-do list", "the task
// list", "my todos".
var reWholeList = regexp.MustCompile(`(?i)^(?:my|the|our)\s+(?:to-?do|task|todo)(?:\s+list|s)$`)
