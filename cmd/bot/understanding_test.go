package main

import (
	"testing"
)

// TestUnderstandingScenarios drives the offline understanding of issue 16
// through the web chat API: what Hearth cannot do is answered honestly and
// stores nothing.
func TestUnderstandingScenarios(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)

	t.Run("a request Hearth cannot do gets an honest answer and stores nothing", func(t *testing.T) {
		c := newChatter(t, base, app, "Oona", "America/Chicago")
		for _, tt := range []struct{ text, says string }{
			{"Find directions to the car wash", "can't look up directions"},
			{"play some jazz in the kitchen", "can't play music"},
			{"transfer 200 dollars from savings to checking", "can't get into bank accounts"},
			{"book me a flight to Denver next Friday", "can't book travel"},
		} {
			r := c.say(tt.text)
			mustContain(t, r, tt.says, "tasks, calendar")
			if n := c.actions(); n != 0 {
				t.Fatalf("after %q: %d actions; want none", tt.text, n)
			}
		}
		if ts := c.tasks(); len(ts) != 0 {
			t.Fatalf("tasks %+v; want none", ts)
		}
	})
}
