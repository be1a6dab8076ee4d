package main

import (
	"strings"
	"testing"
	"time"

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

// TestDaysOff: days off said in the words of work or holidays go on the
// calendar over every day they cover, and the reply says to which day (it
// was a task "I'm out of the office" due on the first day, and "we're on
// holiday next week" was small talk).
func TestDaysOff(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Ines", "Europe/Berlin")
	mustContain(t, c.say("I'm out of the office from December 20 to January 3"), "Out of the office", "calendar from", "to Sun, Jan 3")
	mustContain(t, c.say("we're on holiday next week"), "Holiday", "calendar from")
	now := time.Now()
	evs, err := app.Store.FindEvents(t.Context(), hearth.CalendarEventFilter{UserID: c.contact().User.ID, From: now.AddDate(0, 0, -1), To: now.AddDate(1, 0, 0)})
	if err != nil || len(evs) != 2 || !evs[0].AllDay || !evs[1].AllDay {
		t.Fatalf("events %+v, %v; want two all-day spans", evs, err)
	}
	for _, e := range evs {
		if days := e.End.Sub(e.Start).Hours() / 24; days < 6 {
			t.Errorf("%q covers %.0f days; want all of them", e.Title, days)
		}
	}
	if ts := c.tasks(); len(ts) != 0 {
		t.Fatalf("tasks %+v; want none", ts)
	}
}

// TestBlockOut: "block out Friday afternoon for focus time" is an event
// called "Focus time" over the afternoon (it was a task "Block out for
// focus time" due at 3 PM).
func TestBlockOut(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Ines", "Europe/Berlin")
	mustContain(t, c.say("block out Friday afternoon for focus time"), "Focus time", "calendar")
	evs := c.events()
	if len(evs) != 1 || evs[0].Title != "Focus time" || evs[0].End.Sub(evs[0].Start) != 4*time.Hour {
		t.Fatalf("events %+v; want Focus time, 1 PM to 5 PM", evs)
	}
	if ts := c.tasks(); len(ts) != 0 {
		t.Fatalf("tasks %+v; want none", ts)
	}
}
