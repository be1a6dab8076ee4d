package respond

import (
	"cmp"
	"encoding/json"
	"regexp"
	"slices"
	"strings"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
	"github.com/hearthbot/hearth/scheduler/recur"
)

// Answers about the user's tasks: what is open, due, next or done.

// openTasksByUrgency returns the tasks not done, most urgent first.
func openTasksByUrgency(c stage.Context) []hearth.Task {
	var out []hearth.Task
	for _, t := range c.Tasks {
		if t.Status != hearth.TaskDone {
			out = append(out, t)
		}
	}
	slices.SortStableFunc(out, func(a, b hearth.Task) int {
		ba, bb := urgencyOf(a, c), urgencyOf(b, c)
		if ba != bb {
			return cmp.Compare(ba, bb)
		}
		if a.Priority != b.Priority {
			return cmp.Compare(b.Priority, a.Priority)
		}
		if a.Due.IsZero() != b.Due.IsZero() {
			if a.Due.IsZero() {
				return 1
			}
			return -1
		}
		return a.Due.Compare(b.Due)
	})
	return out
}

// Urgency buckets, most urgent first.
const (
	bucketOverdue = iota
	bucketToday
	bucketWeek
	bucketLater
)

var bucketNames = [...]string{"Overdue", "Today", "This week", "Later"}

// urgencyOf buckets a task by its due date in the user's zone.
func urgencyOf(t hearth.Task, c stage.Context) int {
	if t.Due.IsZero() || c.Now.IsZero() {
		return bucketLater
	}
	z := stage.UserZone(c)
	n := stage.UserNow(c)
	d := stage.DaysBetween(n, t.Due.In(z))
	switch {
	case d < 0, d == 0 && !t.AllDay && t.Due.Before(n):
		return bucketOverdue
	case d == 0:
		return bucketToday
	case d < 7:
		return bucketWeek
	}
	return bucketLater
}

// taskItem names a task in a list, with its due time.
func taskItem(t hearth.Task, c stage.Context) string {
	if t.Due.IsZero() {
		return markdown.Escape(t.Title)
	}
	return markdown.Escape(t.Title) + " (" + stage.FormatWhen(t.Due, t.AllDay, c) + ")"
}

func (r *TemplateResponder) answerTasks(in stage.RespondInput) string {
	if overdueQuestion(in.Text) {
		return r.answerOverdue(in)
	}
	if nlu.DoneQuestion(in.Text) {
		return answerDone(in)
	}
	if nextQuestion(in.Text) {
		return answerNext(in)
	}
	if ref, ok := nlu.WhenIs(in.Text); ok {
		if s, ok := taskWhen(in, ref); ok {
			return s
		}
		if s, ok := reminderWhen(in, ref); ok {
			return s
		}
	}
	if ref, ok := nlu.WhenDo(in.Text); ok {
		if s, ok := reminderWhen(in, ref); ok {
			return s
		}
	}
	tasks := openTasksByUrgency(in.Context)
	label := ""
	if in.Understanding.Slots.When != nil {
		// "What do I have to do tomorrow?": what is due by then,
		// overdue included.
		sp := questionSpan(in)
		var due, before []hearth.Task
		for _, t := range tasks {
			switch {
			case t.Due.IsZero() || !t.Due.Before(sp.to):
			case t.Due.Before(sp.from) && !sp.oneDay:
				before = append(before, t)
			default:
				due = append(due, t)
			}
		}
		earlier := slices.ContainsFunc(due, func(t hearth.Task) bool { return t.Due.Before(sp.from) })
		tasks, label = due, " due "+strings.TrimPrefix(sp.label, "on ")
		if sp.label != "" && !sp.oneDay {
			label = " due " + sp.label
		}
		if earlier {
			// Something due before the day asked about is listed too: "due
			// by tomorrow", not "due tomorrow: … (today at 10 PM)".
			label = " due by " + strings.TrimPrefix(sp.label, "on ")
		}
		if len(before) > 0 {
			// A span further off ("next month") is answered with what falls
			// in it; what comes due before it is said apart, not as part of it.
			head := "Nothing" + label + "."
			if len(tasks) > 0 {
				head = tasksDue(tasks, label, in.Context)
			}
			return head + " Before then: " + taskItems(before, in.Context) + "."
		}
	}
	if len(tasks) == 0 && label == "" {
		return r.variant(in.Text, "tasks-empty", "You're all caught up — no open tasks.", "Your to-do list is clear right now.")
	}
	return tasksDue(tasks, label, in.Context)
}

// answerDone lists the tasks completed in the span asked about (today
// without one), in the order they were done.
func answerDone(in stage.RespondInput) string {
	n := stage.UserNow(in.Context)
	today := stage.MidnightIn(n, stage.UserZone(in.Context))
	sp := askSpan{from: today, to: today.AddDate(0, 0, 1), label: "today", oneDay: true}
	if in.Understanding.Slots.When != nil {
		sp = questionSpan(in)
	}
	var done []hearth.Task
	for _, t := range in.Context.Tasks {
		if t.Status == hearth.TaskDone && !t.CompletedAt.Before(sp.from) && t.CompletedAt.Before(sp.to) {
			done = append(done, t)
		}
	}
	if len(done) == 0 {
		if sp.to.After(n) {
			return "Nothing ticked off " + sp.label + " yet."
		}
		return "Nothing was ticked off " + sp.label + "."
	}
	slices.SortStableFunc(done, func(a, b hearth.Task) int { return a.CompletedAt.Compare(b.CompletedAt) })
	titles := make([]string, len(done))
	for i, t := range done {
		titles[i] = markdown.Escape(t.Title)
	}
	return "You finished " + countOf(len(done), "task", "tasks") + " " + sp.label + ": " + prose.List(titles) + "."
}

// reNext reads a question for the one thing coming next: "what's my next
// reminder?", "when is my next task?", "what's next on my list?".
var reNext = regexp.MustCompile(`^(?:so |and |ok )?(?:what(?:'s|s| is)|when(?:'s|s| is)|which is)\s+(?:my |the )?next\s+(?:reminder|task|thing(?: on my list| to do)?|to-?do|one)?(?:\s+on my (?:list|to-?do list))?\s*[?.!]*$|^what(?:'s|s| is) next(?: on my (?:list|to-?do list))?\s*[?.!]*$`)

// nextQuestion reports a question for the next task only.
func nextQuestion(text string) bool {
	return reNext.MatchString(words.ASCIILower(strings.TrimSpace(text)))
}

// answerNext names the open task that comes next (see nextUp); without
// one with a due date, the most urgent.
func answerNext(in stage.RespondInput) string {
	tasks := openTasksByUrgency(in.Context)
	if len(tasks) == 0 && len(in.Context.Reminders) == 0 {
		return "Nothing coming up — you have no open tasks."
	}
	if next, _ := nextUp(in.Context, nil, tasks); next != "" {
		return "Next up: " + next + "."
	}
	if len(tasks) == 0 {
		return "Nothing coming up — you have no open tasks."
	}
	return "Nothing has a time coming up. First on your list: " + taskItem(tasks[0], in.Context) + "."
}

// taskWhen answers "when is the car insurance due?" from the open task
// whose title has the words asked after.
func taskWhen(in stage.RespondInput, ref string) (string, bool) {
	tasks := openTasksByUrgency(in.Context)
	titles := make([]string, len(tasks))
	for i, t := range tasks {
		titles[i] = t.Title
	}
	hits := words.BestMatches(ref, titles)
	if len(hits) == 0 {
		return "", false
	}
	t := tasks[hits[0]]
	if t.Due.IsZero() {
		return "“" + markdown.Escape(t.Title) + "” has no due date. Say “move it to Friday” to give it one.", true
	}
	return "“" + markdown.Escape(t.Title) + "” is due " + stage.WhenPhrase(t.Due, t.AllDay, in.Context) + ".", true
}

// reminderWhen answers "when do I water the plants?" from the recurring
// reminder of that name: how it repeats, and when it comes next.
func reminderWhen(in stage.RespondInput, ref string) (string, bool) {
	titles := make([]string, len(in.Context.Reminders))
	for i, sc := range in.Context.Reminders {
		titles[i] = sc.Title
	}
	hits := words.BestMatches(ref, titles)
	if len(hits) == 0 {
		return "", false
	}
	sc := in.Context.Reminders[hits[0]]
	var rule recur.Rule
	if err := json.Unmarshal(sc.Rule, &rule); err != nil {
		return "", false
	}
	s := "I remind you to " + markdown.Escape(prose.SecondPerson(prose.LowerFirst(sc.Title))) + " " + rule.String()
	if !sc.NextAt.IsZero() {
		s += "; the next one is " + stage.WhenPhrase(sc.NextAt, false, in.Context)
	}
	return s + ".", true
}

// tasksDue says which open tasks are due (label: " due next month"), or
// that nothing is.
func tasksDue(tasks []hearth.Task, label string, c stage.Context) string {
	if len(tasks) == 0 {
		return "Nothing" + label + " — you're all caught up."
	}
	return "You have " + countOf(len(tasks), "open task", "open tasks") + label + ": " + taskItems(tasks, c) + "."
}

// taskItems lists tasks with their due times.
func taskItems(tasks []hearth.Task, c stage.Context) string {
	items := make([]string, len(tasks))
	for i, t := range tasks {
		items[i] = taskItem(t, c)
	}
	return prose.List(items)
}
