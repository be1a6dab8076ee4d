package main

import "testing"

// TestSpokenFillers: a message said the way a voice note says it keeps
// its "um", "uh" and "ok so" out of what it makes.
func TestSpokenFillers(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Vi", "UTC")
	c.say("um can you remind me to call the plumber uh tomorrow morning")
	if ts := c.tasks(); len(ts) != 1 || ts[0].Title != "Call the plumber" {
		t.Fatalf("tasks %+v; want “Call the plumber”", ts)
	}
	c.say("ok so the parents evening is on thursday at 6")
	if evs := c.events(); len(evs) != 1 || evs[0].Title != "Parents evening" {
		t.Fatalf("events %+v; want “Parents evening”", evs)
	}
}
