package plan

import (
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/stage"
)

// A request said twice ("remind me to call mom at 5" sent again because
// the first reply was slow to show) must not make two of everything. What
// a plan would create again is asked about first, whichever planner made
// the plan (the offline planners or a model's).

// AskBeforeRepeating returns p, or, when every action of p creates a task
// or an event the user already has (the same title, ignoring case, at the
// same time: an open task in c.Tasks, an event in c.Events), a question
// that says so, with a button that creates them anyway. A plan that also
// does something new, or already asks, is returned as it is.
func AskBeforeRepeating(p stage.Plan, c stage.Context) stage.Plan {
	if p.Question != nil || len(p.Actions) == 0 {
		return p
	}
	var have []string
	for _, a := range p.Actions {
		what, ok := already(a, c)
		if !ok {
			return p
		}
		have = append(have, what)
	}
	again, label := "Add it again?", "Add it again"
	if len(have) > 1 {
		again, label = "Add them again?", "Add them again"
	}
	return stage.Plan{Understood: p.Understood, Question: &stage.Question{
		Text:    "You already have " + prose.List(have) + ". " + again,
		Options: []stage.Option{{Label: label, Actions: p.Actions}},
	}}
}

// already names the task or event in c that a would create again; ok is
// false when a creates something new (or is not a creation).
func already(a action.Action, c stage.Context) (what string, ok bool) {
	switch a.Kind {
	case action.TaskCreate:
		p, err := action.Decode[action.TaskCreateArgs](a)
		if err != nil {
			return "", false
		}
		for _, t := range c.Tasks {
			if (t.Status == hearth.TaskOpen || t.Status == "") && sameTitle(t.Title, p.Title) &&
				t.AllDay == p.AllDay && sameTime(t.Due, p.Due, p.AllDay, c) {
				what = "“" + markdown.Escape(t.Title) + "”"
				if !t.Due.IsZero() {
					what += ", due " + stage.FormatWhen(t.Due, t.AllDay, c)
				}
				return what, true
			}
		}
	case action.CalendarCreate:
		p, err := action.Decode[action.EventCreateArgs](a)
		if err != nil {
			return "", false
		}
		for _, e := range c.Events {
			if sameTitle(e.Title, p.Title) && e.AllDay == p.AllDay &&
				sameTime(e.Start, p.Start, p.AllDay, c) && sameTime(e.End, p.End, p.AllDay, c) {
				return markdown.Escape(e.Title) + " on your calendar for " + stage.FormatWhen(e.Start, e.AllDay, c), true
			}
		}
	}
	return "", false
}

func sameTitle(a, b string) bool {
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}

// sameTime compares instants, or for all-day items their dates in the
// user's zone.
func sameTime(a, b time.Time, allDay bool, c stage.Context) bool {
	if !allDay || a.IsZero() || b.IsZero() {
		return a.Equal(b)
	}
	z := stage.UserZone(c)
	return a.In(z).Format(time.DateOnly) == b.In(z).Format(time.DateOnly)
}
