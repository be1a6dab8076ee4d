package main

import (
	"strings"
	"testing"
	"time"
)

// TestMovesByAnAmount talks to the web chat about an event just made:
// "it" moves by an amount (also after a reply that named nothing), and a
// reminder ahead of it is a task due that long before it, not a task
// called "An hour before".
func TestMovesByAnAmount(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Mo", "America/New_York")
	c.say("I have a dentist appointment next Thursday at 3")
	evs := c.events()
	if len(evs) != 1 {
		t.Fatalf("events %+v", evs)
	}
	start := evs[0].Start
	moved := func(want time.Duration) {
		t.Helper()
		evs := c.events()
		if len(evs) != 1 || !evs[0].Start.Equal(start.Add(want)) || evs[0].End.Sub(evs[0].Start) != time.Hour {
			t.Fatalf("events %+v; want the dentist %s from %s, an hour long", evs, want, start)
		}
	}
	mustContain(t, c.say("move it an hour later"), "Dentist appointment")
	moved(time.Hour)
	c.say("move it")
	mustContain(t, c.say("make it 30 minutes earlier"), "Dentist appointment")
	moved(30 * time.Minute)

	r := c.say("remind me an hour before")
	ts := c.tasks()
	if len(ts) != 1 || !strings.HasPrefix(ts[0].Title, "Dentist appointment — ") || !ts[0].Due.Equal(start.Add(-30*time.Minute)) {
		t.Fatalf("tasks %+v after %q; want a reminder at %s", ts, r.Text, start.Add(-30*time.Minute))
	}
}
