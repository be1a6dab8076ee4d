package main

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestClearADay: "cancel everything on Saturday" gathers that day's
// events into one question with Approve all and Cancel all; Cancel all
// keeps them, Approve all cancels them and nothing on another day.
func TestClearADay(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Flo", "Europe/Berlin")
	c.say("yoga on saturday at 8am")
	c.say("haircut on saturday at 10am")
	c.say("brunch with Kim on sunday at 11am")
	titles := func() []string {
		var ts []string
		for _, e := range c.events() {
			ts = append(ts, e.Title)
		}
		slices.Sort(ts)
		return ts
	}
	if got := titles(); !slices.Equal(got, []string{"Brunch with Kim", "Haircut", "Yoga"}) {
		t.Fatalf("events %v", got)
	}

	r := c.say("cancel everything on saturday")
	mustContain(t, r, "Yoga", "Haircut", "2 events")
	if strings.Contains(r.Text, "Brunch") {
		t.Fatalf("reply %q asks about Sunday's brunch", r.Text)
	}
	c.click(r, "Cancel all")
	if got := titles(); len(got) != 3 {
		t.Fatalf("events after Cancel all: %v; want all three kept", got)
	}

	r = c.say("clear my calendar on saturday")
	done := c.click(r, "Approve all")
	mustContain(t, done, "removed Yoga and Haircut from your calendar")
	if got := titles(); !slices.Equal(got, []string{"Brunch with Kim"}) {
		t.Fatalf("events after Approve all: %v; want only Sunday's brunch", got)
	}
	if code, body := c.clickStatus(r, "Approve all"); code != 202 || body["duplicate"] != true {
		t.Fatalf("a double click: %d %v; want it acknowledged and dropped", code, body)
	}

	mustContain(t, c.say("cancel everything on saturday"), "couldn't find anything on your calendar")
	mustContain(t, c.say("clear my Saturday"), "couldn't find anything on your calendar") // not an event called "my"
	mustContain(t, c.say("cancel all my events"), "which day", "never the whole calendar")

	// A typed "yes" is the Approve all.
	c.say("swim on monday at 7am")
	c.say("piano on monday at 5pm")
	mustContain(t, c.say("clear monday"), "Swim", "Piano")
	mustContain(t, c.say("yes"), "Swim", "Piano")
	if got := titles(); !slices.Equal(got, []string{"Brunch with Kim"}) {
		t.Fatalf("events after yes: %v; want only Sunday's brunch", got)
	}
}

// TestSecondThoughts: "actually …", "no, …" before a change still change
// the item just made.
func TestSecondThoughts(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Gus", "UTC")
	c.say("lunch with Bo on Monday at 1pm")
	for _, tt := range []struct {
		say  string
		hour int
	}{{"actually make it 2", 14}, {"no, make it 3pm", 15}, {"oops, move it to 4pm", 16}} {
		r := c.say(tt.say)
		evs := c.events()
		if len(evs) != 1 || evs[0].Start.Hour() != tt.hour {
			t.Fatalf("%q → %q; events %+v; want lunch at %d:00", tt.say, r.Text, evs, tt.hour)
		}
	}
}

// TestErrandIsATask: "buy eggs tomorrow" is the user's own errand, a
// to-do for tomorrow, not something Hearth is asked to buy.
func TestErrandIsATask(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Hal", "UTC")
	r := c.say("buy eggs tomorrow")
	ts := c.tasks()
	tomorrow := time.Now().UTC().AddDate(0, 0, 1)
	if len(ts) != 1 || ts[0].Title != "Buy eggs" || ts[0].Due.IsZero() || ts[0].Due.UTC().Day() != tomorrow.Day() {
		t.Fatalf("reply %q, tasks %+v; want “Buy eggs” due tomorrow", r.Text, ts)
	}
}
