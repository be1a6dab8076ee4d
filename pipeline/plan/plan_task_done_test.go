package plan

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/stage/stagetest"
)

// TestPlanReopen: a task finished by mistake is opened again by its
// name; a name no finished task has is said so, and two that fit are a
// question.
func TestPlanReopen(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]string{
		"mark the report as not done": "report", "please set the passport task as undone": "passport", "untick buy milk": "buy milk",
		"reopen the tax return": "tax return", "mark the report as done": "", "open the report": "",
	} {
		if got, ok := ReopenRef(text); got != want || ok != (want != "") {
			t.Errorf("ReopenRef(%q) = %q, %v; want %q", text, got, ok, want)
		}
	}
	c := stage.Context{Now: time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC), Location: time.UTC, Tasks: []hearth.Task{
		{ID: 1, Title: "Finish the report", Status: hearth.TaskDone},
		{ID: 2, Title: "Renew the passport", Status: hearth.TaskDone},
		{ID: 3, Title: "Renew the passport photo", Status: hearth.TaskOpen},
	}}
	p, err := planReopen(stage.PlanInput{Context: c}, "report")
	if err != nil || len(p.Actions) != 1 {
		t.Fatalf("reopen report: %+v, %v", p, err)
	}
	a, err := action.Decode[action.TaskUpdateArgs](p.Actions[0])
	if err != nil || p.Actions[0].Kind != action.TaskUpdate || a.ID != 1 || a.Update.Status == nil || *a.Update.Status != hearth.TaskOpen {
		t.Fatalf("reopen report: %s %s, %v", p.Actions[0].Kind, p.Actions[0].Payload, err)
	}
	if p, err := planReopen(stage.PlanInput{Context: c}, "passport"); err != nil || len(p.Actions) != 1 {
		t.Fatalf("the open passport task was a candidate: %+v, %v", p, err)
	}
	if _, err := planReopen(stage.PlanInput{Context: c}, "dentist"); err == nil {
		t.Fatal("a name no finished task has planned something")
	}
}

// TestDueBefore: a deadline said as "before March" or "by the end of
// March" is the last day before the span ends (it was March 1 and April
// 1); "by Friday" is Friday.
func TestDueBefore(t *testing.T) {
	t.Parallel()
	c := stage.Context{Now: time.Date(2026, 11, 29, 16, 0, 0, 0, time.UTC), Location: time.UTC} // a Sunday
	for text, want := range map[string]time.Time{
		"I need to renew my passport before March":  time.Date(2027, 2, 28, 0, 0, 0, 0, time.UTC),
		"file the tax return by the end of March":   time.Date(2027, 3, 31, 0, 0, 0, 0, time.UTC),
		"please pay the electricity bill by Friday": time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC),
		"finish the report before Friday":           time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC),
	} {
		p := planText(t, text, c)
		if a := decode[action.TaskCreateArgs](t, p.only(t, action.TaskCreate)); !a.Due.Equal(want) {
			t.Errorf("%q: due %v; want %v", text, a.Due, want)
		}
	}
}

// TestPlanAllAtOnce: "delete all my tasks" changes nothing and says why,
// in the words the user used ("cancel all my reminders").
func TestPlanAllAtOnce(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	for text, want := range map[string]string{
		"delete all my tasks":     "which task — I change them one at a time",
		"cancel all my reminders": "which reminder — I change them one at a time",
	} {
		p := planText(t, text, c)
		var de *stage.DetailsError
		if len(p.actions) != 0 || len(p.errs) != 1 || !errors.As(p.errs[0], &de) || !strings.HasPrefix(de.Detail, want) {
			t.Errorf("%q: planned %v, errors %v; want one saying %q", text, kindsOf(p.actions), p.errs, want)
		}
	}
}

// TestPlanUntickListItem: "untick milk" of an item ticked off a list puts
// it back on that list, as "untick milk on the shopping list" does; of a
// finished task, it opens the task.
func TestPlanUntickListItem(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	c.Tasks = []hearth.Task{{ID: 4, Title: "Finish the report", Status: hearth.TaskDone}}
	c.Notes = []hearth.Note{{ID: 9, UserID: 1, Title: "Shopping list", Items: []hearth.ChecklistItem{{Text: "milk", Done: true}, {Text: "eggs"}}}}
	for _, text := range []string{"untick milk", "uncheck the milk"} {
		p := planText(t, text, c)
		if a := decode[action.NoteCheckArgs](t, p.only(t, action.NoteCheck)); a.ID != 9 {
			t.Errorf("%q: %+v; want milk back on the shopping list", text, a)
		}
	}
	if u := decode[action.TaskUpdateArgs](t, planText(t, "untick the report", c).only(t, action.TaskUpdate)); u.ID != 4 || u.Update.Status == nil || *u.Update.Status != hearth.TaskOpen {
		t.Errorf("untick the report: %+v; want task 4 open", u)
	}
}

// TestPlanThatIsTheNewest: "cancel that" right after a second task of the
// same title was made is that one; named by its title, the two are a
// question.
func TestPlanThatIsTheNewest(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	c.Tasks = []hearth.Task{
		{ID: 3, Title: "Buy flowers", Status: hearth.TaskOpen},
		{ID: 5, Title: "Buy flowers", Status: hearth.TaskOpen, Due: c.Now.Add(30 * time.Hour)},
	}
	c.Recent = []hearth.Message{{From: hearth.FromUser, Text: "remind me to buy flowers tomorrow at 3pm"},
		{From: hearth.FromBot, Text: "Sure! I'll remind you about “Buy flowers”, due tomorrow at 3:00 PM."}}
	if a := decode[action.TaskRefArgs](t, planText(t, "actually cancel that", c).only(t, action.TaskDelete)); a.ID != 5 {
		t.Errorf("cancel that: task %d; want 5, the one just made", a.ID)
	}
	if p := planText(t, "delete the buy flowers task", c); len(p.actions) != 0 || len(p.questions) != 1 {
		t.Errorf("delete the buy flowers task: planned %v, %d questions; want which of the two asked", kindsOf(p.actions), len(p.questions))
	}
}
