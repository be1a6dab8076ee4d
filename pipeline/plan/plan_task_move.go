package plan

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu/timex"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// Moving a task: to a time ("move the rent task to Friday"), or by an
// amount ("push the laundry reminder by 30 minutes").

// planTaskMove changes when an open task is due: "move the rent task to
// Friday", "push call mom to 6pm". Like an event, a task keeps its date
// when only a time is given, and its time of day when only a date is.
func planTaskMove(in stage.PlanInput, text string) (stage.Plan, error) {
	rest, _, _ := words.AfterAny(text, MoveVerbs...)
	if refText, sh, ok := shiftBy(rest); ok {
		return shiftTask(in, refText, sh)
	}
	refText, target, found := words.CutBefore(rest, "to ", "until ")
	if !found {
		return stage.Plan{Understood: "move a task"}, needDetails("when to move it to")
	}
	return moveTask(in, refText, target)
}

// shift is how far "push it by 30 minutes" moves a task: minutes, or
// days for "by a day", "by 2 weeks" (calendar days, whatever the clocks do).
type shift struct{ minutes, days int }

// reShiftBy reads "the laundry reminder by 30 minutes", "it back by an
// hour", "the report by 2 days".
var reShiftBy = regexp.MustCompile(`(?i)^(.*?)\s*(?:back\s+|forward\s+|out\s+)?by\s+(\d+|an?|one|two|three|half an)\s+(minutes?|mins?|hours?|hrs?|days?|weeks?)\s*[.!]*$`)

// shiftBy reads a move by an amount ("by 30 minutes"): what is moved and
// how far.
func shiftBy(rest string) (string, shift, bool) {
	g := reShiftBy.FindStringSubmatch(strings.TrimSpace(rest))
	if g == nil {
		return "", shift{}, false
	}
	n := map[string]int{"a": 1, "an": 1, "one": 1, "two": 2, "three": 3}[strings.ToLower(g[2])]
	if v, err := strconv.Atoi(g[2]); err == nil {
		n = v
	}
	unit := strings.ToLower(g[3])
	var sh shift
	switch {
	case strings.EqualFold(g[2], "half an"):
		sh.minutes = 30
	case strings.HasPrefix(unit, "min"):
		sh.minutes = n
	case strings.HasPrefix(unit, "h"):
		sh.minutes = 60 * n
	case strings.HasPrefix(unit, "day"):
		sh.days = n
	default:
		sh.days = 7 * n
	}
	if sh.minutes <= 0 && sh.days <= 0 || sh.minutes > 60*24*7 || sh.days > 366 {
		return "", shift{}, false
	}
	return g[1], sh, true
}

// shiftTask moves the open task refText names later by sh.
func shiftTask(in stage.PlanInput, refText string, sh shift) (stage.Plan, error) {
	ref, p, err := movedRef(in, refText)
	if err != nil {
		return p, err
	}
	return moveMatching(in, p, ref, func(t hearth.Task) (time.Time, bool, error) {
		switch {
		case t.Due.IsZero():
			return time.Time{}, false, needDetails("which time to move it from: “%s” has none", t.Title)
		case t.AllDay && sh.minutes > 0:
			return time.Time{}, false, needDetails("a time to move it to: “%s” is due all day", t.Title)
		case sh.days > 0:
			return t.Due.In(stage.UserZone(in.Context)).AddDate(0, 0, sh.days), t.AllDay, nil
		}
		return t.Due.Add(time.Duration(sh.minutes) * time.Minute), t.AllDay, nil
	})
}

// moveTask moves the open task refText names ("it": the one the last
// reply was about) to the time target names; an event of that name is
// moved instead when no task has it.
func moveTask(in stage.PlanInput, refText, target string) (stage.Plan, error) {
	ref, p, err := movedRef(in, refText)
	if err != nil {
		return p, err
	}
	m := targetWhen(in, target)
	if m == nil {
		return p, needDetails("when to move it to")
	}
	if len(matchingOpenTasks(ref, in.Context.Tasks)) == 0 && hasEvent(ref, in.Context) {
		return planEventMove(in, "move "+ref+" to "+target, false)
	}
	return moveMatching(in, p, ref, func(t hearth.Task) (time.Time, bool, error) {
		due, allDay := movedDue(t, m, in.Context)
		if due.IsZero() {
			return time.Time{}, false, needDetails("a time to move it to")
		}
		return due, allDay, nil
	})
}

// movedRef is how the user names the task to move, and the plan that
// says so.
func movedRef(in stage.PlanInput, refText string) (string, stage.Plan, error) {
	p := stage.Plan{Understood: "move a task"}
	ref := resolveRef(taskRef(stripTimeWords(refText, in.Context)), in.Context)
	if ref == "" || isPronoun(ref) {
		return "", p, needDetails("which task")
	}
	p.Understood = "move “" + markdown.Escape(ref) + "”"
	return ref, p, nil
}

// moveMatching plans moving the open tasks ref names to when to says;
// several are a question.
func moveMatching(in stage.PlanInput, p stage.Plan, ref string, to func(hearth.Task) (time.Time, bool, error)) (stage.Plan, error) {
	matched := matchingOpenTasks(ref, in.Context.Tasks)
	if len(matched) == 0 {
		return p, needDetails("which task: I couldn't find an open task matching “%s”", ref)
	}
	var labels []string
	var acts []action.Action
	for _, t := range matched {
		due, allDay, err := to(t)
		if err != nil {
			return p, err
		}
		a, err := action.New(action.TaskUpdate, action.TaskUpdateArgs{ID: t.ID, Update: hearth.TaskUpdate{Due: &due, AllDay: &allDay}})
		if err != nil {
			return plannedErr(p, err)
		}
		acts = append(acts, a)
		labels = append(labels, taskLabel(t, in.Context))
	}
	return actOrAsk(p, "Which one should I move?", labels, acts), nil
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
	for _, i := range words.BestMatches(ref, titles) {
		out = append(out, open[i])
	}
	return out
}

// movedDue is when task t is due once moved to m: a time of day alone
// ("to 6pm") keeps its date, a date alone keeps its time of day.
func movedDue(t hearth.Task, m *timex.Match, c stage.Context) (time.Time, bool) {
	z := stage.UserZone(c)
	due, allDay := dueOf(m, c)
	if t.Due.IsZero() || due.IsZero() {
		return due, allDay
	}
	old := t.Due.In(z)
	switch {
	case m.Kind == timex.Value && m.Grain < timex.Day && m.ClockOnly:
		return movedClock(fixClock(m.Value.In(z), m.Text, false), m.Text, old), false
	case allDay && !t.AllDay:
		d := due.In(z)
		return time.Date(d.Year(), d.Month(), d.Day(), old.Hour(), old.Minute(), 0, 0, z), false
	}
	return due, allDay
}
