package main

import (
	"testing"
	"time"
)

// TestTimer: "set a timer for 10 minutes" is a reminder ten minutes on
// (it was "Sorry, I can't help with that one").
func TestTimer(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Ada", "UTC")
	before := time.Now()
	mustContain(t, c.say("set a timer for 10 minutes for the pasta"), "Pasta timer is up")
	ts := c.tasks()
	if len(ts) != 1 || ts[0].Due.Before(before.Add(9*time.Minute)) || ts[0].Due.After(time.Now().Add(11*time.Minute)) {
		t.Fatalf("tasks %+v; want one due in ten minutes", ts)
	}
}
