package main

import (
	"testing"

	"github.com/hearthbot/hearth"
)

// TestReopenTask: a task finished by mistake is open again with "mark …
// as not done" (it was "I couldn't find an open task matching “report as
// not”"), and "undo" marks it done again.
func TestReopenTask(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Ada", "UTC")
	c.say("add the report to my to-do list")
	mustContain(t, c.say("I finished the report"), "done")
	mustContain(t, c.say("mark the report as not done"), "“Report” is open again")
	if ts := c.tasks(); len(ts) != 1 || ts[0].Status != hearth.TaskOpen {
		t.Fatalf("tasks %+v; want the report open", ts)
	}
	mustContain(t, c.say("undo"), "Undone")
	if ts := c.tasks(); len(ts) != 1 || ts[0].Status != hearth.TaskDone {
		t.Fatalf("tasks %+v after undo; want the report done", ts)
	}
	mustContain(t, c.say("mark the dentist as not done"), "I couldn't find a finished task matching “dentist”")
}
