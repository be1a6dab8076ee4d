package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
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

// TestCancelOwnEvent: cancelling one's own event that no one else is on
// is done at once, with undo, like deleting a task; one with a guest
// still asks first.
func TestCancelOwnEvent(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Cal", "UTC")
	c.say("I have a haircut on Friday at 10")
	if n := len(c.events()); n != 1 {
		t.Fatalf("%d events", n)
	}
	r := c.say("cancel my haircut")
	if len(r.Buttons) != 0 || len(c.events()) != 0 {
		t.Fatalf("reply %+v, events %+v; want the haircut gone at once", r, c.events())
	}
	mustContain(t, c.say("undo"), "Haircut")
	if n := len(c.events()); n != 1 {
		t.Fatalf("%d events after undo", n)
	}

	ev, err := app.Store.CreateEvent(context.Background(), "", hearth.CalendarEvent{UserID: c.contact().User.ID, Title: "Lunch with Sam",
		Start: c.events()[0].Start.Add(2 * time.Hour), End: c.events()[0].Start.Add(3 * time.Hour), Attendees: []string{"sam@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	r = c.say("cancel lunch with Sam")
	if len(r.Buttons) == 0 || !containsEvent(c.events(), ev.ID) {
		t.Fatalf("reply %+v; want an event with a guest asked about first", r)
	}
}

// TestTimeForWhatWasJustMade: "remind me to call mom" makes an undated
// task; "tomorrow at 5" right after is when it is due (it was an event
// with no title).
func TestTimeForWhatWasJustMade(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Tim", "UTC")
	c.say("remind me to call mom")
	before := time.Now().UTC()
	mustContain(t, c.say("tomorrow at 5"), "Call mom")
	ts := c.tasks()
	want := time.Date(before.Year(), before.Month(), before.Day()+1, 17, 0, 0, 0, time.UTC)
	if len(ts) != 1 || !ts[0].Due.Equal(want) || len(c.events()) != 0 {
		t.Fatalf("tasks %+v, events %+v; want call mom due %s and no event", ts, c.events(), want)
	}
	// After a question, a time alone asks the same for then: it moves
	// nothing the answer named.
	c.say("what do I have today?")
	mustContain(t, c.say("tomorrow"), "Call mom")
	if ts := c.tasks(); len(ts) != 1 || !ts[0].Due.Equal(want) {
		t.Fatalf("tasks %+v after a question and \"tomorrow\"; want call mom still due %s", ts, want)
	}
}

// TestEventNews: news that one of the user's events moved or is off,
// told in passing, moves or cancels it (never a second event named after
// the news, never a fact), and undo takes it back.
func TestEventNews(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Ada", "Europe/London")
	london, _ := time.LoadLocation("Europe/London")
	mustContain(t, c.say("Leo's football match on Saturday at 10am"), "Leo's football match")
	mustContain(t, c.say("Leo's match is now at 11am"), "moved Leo's football match")
	if evs := c.events(); len(evs) != 1 || evs[0].Start.In(london).Hour() != 11 {
		t.Fatalf("events after the news of a move: %+v", evs)
	}
	mustContain(t, c.say("Leo's match got cancelled"), "removed Leo's football match")
	if evs := c.events(); len(evs) != 0 {
		t.Fatalf("events after the news it is off: %+v", evs)
	}
	c.say("undo")
	if evs := c.events(); len(evs) != 1 {
		t.Fatalf("events after undo: %+v", evs)
	}
}

// TestCantMake: "I can't make the dentist tomorrow" asks whether to
// cancel it (it made a second Dentist); a time then moves it, and the
// button cancels it. "What time is my dentist appointment?" finds an
// event called just "Dentist", and "can you move it to 3?" moves it.
func TestCantMake(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Ada", "Europe/London")
	london, _ := time.LoadLocation("Europe/London")
	c.say("dentist tomorrow at 2")
	mustContain(t, c.say("what time is my dentist appointment?"), "Dentist is", "2:00 PM")
	mustContain(t, c.say("can you move it to 3?"), "moved Dentist to", "3:00 PM")
	ask := c.say("I can't make the dentist tomorrow")
	mustContain(t, ask, "Shall I cancel Dentist (", "3:00 PM)?")
	if evs := c.events(); len(evs) != 1 {
		t.Fatalf("events after the news: %+v; want the one dentist", evs)
	}
	mustContain(t, c.say("Saturday at 11"), "moved Dentist to", "11:00 AM")
	if evs := c.events(); len(evs) != 1 || evs[0].Start.In(london).Weekday() != time.Saturday {
		t.Fatalf("events after the new time: %+v", evs)
	}
	mustContain(t, c.click(c.say("I can't make the dentist on Saturday"), "Cancel it"), "removed Dentist")
	if evs := c.events(); len(evs) != 0 {
		t.Fatalf("events after cancelling: %+v", evs)
	}
}

// TestSetItWhen: "set it for next Friday" after a reply about a task
// gives that task a date (no event called "Set it"), and "what time is
// dinner tomorrow?" finds dinner, whatever day it names.
func TestSetItWhen(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Ada", "UTC")
	c.say("add a task to renew my passport")
	mustContain(t, c.say("when is my passport due?"), "has no due date")
	mustContain(t, c.say("set it for next Friday"), "moved “Renew my passport” to")
	if evs := c.events(); len(evs) != 0 {
		t.Fatalf("events %+v; want none made", evs)
	}
	if ts := c.tasks(); len(ts) != 1 || ts[0].Due.IsZero() {
		t.Fatalf("tasks %+v; want the passport task dated", ts)
	}
	c.say("put dinner at Luigi's on my calendar tomorrow at 8pm")
	mustContain(t, c.say("what time is dinner tomorrow?"), "Dinner at Luigi's is tomorrow at 8:00 PM")
}

// TestEventNotes: "add a note to the dentist appointment: …" adds to the
// event's notes (it was a note on a new thing called "dentist
// appointment"), a second one after the first, and "undo" takes the last
// one off.
func TestEventNotes(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Noa", "Europe/Berlin")
	c.say("Dentist on Tuesday at 9am")
	mustContain(t, c.say("add a note to the dentist appointment: bring the x-rays"), "Added to the notes of Dentist: “bring the x-rays”.")
	mustContain(t, c.say("note on my dentist appointment: ask about the filling"), "Added to the notes of Dentist")
	notes := func() string {
		t.Helper()
		evs := c.events()
		if len(evs) != 1 {
			t.Fatalf("events %+v; want the dentist alone", evs)
		}
		return evs[0].Description
	}
	if got := notes(); got != "bring the x-rays\nask about the filling" {
		t.Fatalf("notes %q; want both, in order", got)
	}
	mustContain(t, c.say("undo"), "Undone: “Dentist” has its old notes back.")
	if got := notes(); got != "bring the x-rays" {
		t.Fatalf("notes %q after undo; want the first alone", got)
	}
	if r := c.say("what do you know about the dentist appointment?"); strings.Contains(r.Text, "Notes:") {
		t.Fatalf("a graph note was kept: %q", r.Text)
	}
}

// TestVisitComing: someone coming at a time is a visit for the calendar,
// with the span said (it was kept as a fact about the plumber); "winter is
// coming" is nothing to keep.
func TestVisitComing(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Ola", "Europe/Berlin")
	mustContain(t, c.say("the plumber is coming Tuesday between 8 and 12"), "Added Plumber to your calendar")
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	evs := c.events()
	if len(evs) != 1 || evs[0].End.Sub(evs[0].Start) != 4*time.Hour || evs[0].Start.In(berlin).Hour() != 8 {
		t.Fatalf("events %+v; want the plumber from 8 to 12", evs)
	}
	// Called by who comes (they were "Grandma's visiting", "Electrician
	// comes"), and an outing by where it goes ("Going to the dentist").
	mustContain(t, c.say("Grandma's visiting on Saturday"), "Grandma is on your calendar for Saturday")
	mustContain(t, c.say("the electrician comes at 9 tomorrow"), "Added Electrician to your calendar")
	mustContain(t, c.say("I'm going to the dentist on Friday at 2"), "Dentist is on your calendar")
	c.say("winter is coming")
	if evs := c.events(); len(evs) != 4 {
		t.Fatalf("events %+v; want the plumber, grandma, the electrician and the dentist", evs)
	}
	if n := c.count("SELECT count(*) FROM facts WHERE user_id = $1", c.contact().User.ID); n != 0 {
		t.Fatalf("%d facts kept; want none", n)
	}
}
