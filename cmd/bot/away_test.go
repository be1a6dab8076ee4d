package main

import (
	"strings"
	"testing"

	"github.com/hearthbot/hearth"
)

// TestAwayUntil tells Hearth where the household is until a time, and of
// things done: no task is made and no question asked about one; a thing
// done that an open task names completes it.
func TestAwayUntil(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Ines", "UTC")
	for _, text := range []string{"We are out of the house until 6", "I'm at the gym until 7", "I'm going to be away next week", "I painted the fence", "I parked on level 2 today"} {
		if got := c.say(text).Text; strings.Contains(got, "need to know") {
			t.Errorf("%q: %q, want no question about a task", text, got)
		}
	}
	if ts := c.tasks(); len(ts) != 0 {
		t.Errorf("tasks %+v, want none", ts)
	}
	c.say("remind me to pay the rent on Friday")
	c.say("I paid the rent")
	if ts := c.tasks(); len(ts) != 1 || ts[0].Status != hearth.TaskDone {
		t.Errorf("tasks %+v, want the rent paid", ts)
	}
}
