package main

import (
	"strings"
	"testing"
)

// TestAwayUntil tells Hearth where the household is until a time: no
// task is made and no question asked about one.
func TestAwayUntil(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Ines", "UTC")
	for _, text := range []string{"We are out of the house until 6", "I'm at the gym until 7", "I'm going to be away next week"} {
		if got := c.say(text).Text; strings.Contains(got, "need to know") {
			t.Errorf("%q: %q, want no question about a task", text, got)
		}
	}
	if ts := c.tasks(); len(ts) != 0 {
		t.Errorf("tasks %+v, want none", ts)
	}
}
