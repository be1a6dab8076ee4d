package plan

import (
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu/timex"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// Moving a task to a time ("move the rent task to Friday"); moving by an
// amount is plan_shift.go.

// planTaskMove changes when an open task is due: "move the rent task to
// Friday", "push call mom to 6pm". Like an event, a task keeps its date
// when only a time is given, and its time of day when only a date is.
func planTaskMove(in stage.PlanInput, text string) (stage.Plan, error) {
	if refText, sh, ok := shiftRequest(text); ok {
		return planShift(in, refText, sh)
	}
	rest, _, _ := words.AfterAny(text, MoveVerbs...)
	refText, target, found := words.CutBefore(rest, "to ", "until ")
	if !found {
		return stage.Plan{Understood: "move a task"}, needDetails("when to move it to")
	}
	return moveTask(in, refText, target)
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
	if ref == "" || IsPronoun(ref) {
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
