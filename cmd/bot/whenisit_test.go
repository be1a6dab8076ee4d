package main

import (
	"strings"
	"testing"
)

// TestWhenIsIt asks "when is it?" right after Hearth made an event and a
// task: the answer is that item's time. Asked before anything was spoken
// of, it names nothing.
func TestWhenIsIt(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Noor", "UTC")
	if got := c.say("when is it?").Text; strings.Contains(got, " is on ") || strings.Contains(got, " is due ") {
		t.Errorf("when is it, nothing spoken of: %q", got)
	}
	c.say("I have a dentist appointment on Friday at 3pm")
	if got := c.say("when is it?").Text; !strings.Contains(got, "Dentist appointment is on") || !strings.Contains(got, "3:00 PM") {
		t.Errorf("when is it, after the event: %q", got)
	}
	c.say("Remind me to call mom tomorrow at 5pm")
	if got := c.say("when's that again?").Text; !strings.Contains(got, "Call mom") || !strings.Contains(got, "tomorrow at 5:00 PM") {
		t.Errorf("when's that again, after the task: %q", got)
	}
	c.say("Remind me to call the bank")
	if got := c.say("when?").Text; !strings.Contains(got, "“Call the bank” has no due date") {
		t.Errorf("when?, after an undated task: %q", got)
	}
	if got := c.say("what time is it?").Text; !strings.HasPrefix(got, "It's ") {
		t.Errorf("what time is it: %q, want the clock", got)
	}
}

// TestCorrectionMovesItem: "actually it's at 4" right after Hearth made
// an event moves that event (memory had no fact to correct and said it
// could not); "sorry, I meant 6" after a reminder moves the reminder; a
// correction right after a fact was told still corrects the fact.
func TestCorrectionMovesItem(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Noor", "UTC")
	c.say("I have a dentist appointment on Friday at 3pm")
	mustContain(t, c.say("actually it's at 4"), "moved Dentist appointment", "4:00 PM")
	c.say("Remind me to call mom tomorrow at 5pm")
	mustContain(t, c.say("sorry, I meant 6"), "moved “Call mom”", "tomorrow at 6:00 PM")
	if ts := c.tasks(); len(ts) != 1 || ts[0].Due.Hour() != 18 {
		t.Fatalf("tasks %+v; want call mom at 6 pm", ts)
	}
	c.say("Sam's birthday is March 15th")
	mustContain(t, c.say("actually it's the 16th"), "Sam's birthday is March 16th")
	if ts := c.tasks(); len(ts) != 1 || ts[0].Due.Hour() != 18 {
		t.Fatalf("tasks %+v; want call mom still at 6 pm", ts)
	}
}

// TestEventTold: an event told with its time is kept (it was answered as
// a question about that day), and who is coming to it is answered from
// the event (it was "I can't play music").
func TestEventTold(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Noor", "UTC")
	mustContain(t, c.say("Mia's school play is on Friday at 6pm"), "Mia's school play is on your calendar")
	if evs := c.events(); len(evs) != 1 || evs[0].Title != "Mia's school play" || evs[0].Start.Hour() != 18 {
		t.Fatalf("events %+v; want Mia's school play at 6 pm", evs)
	}
	mustContain(t, c.say("who's coming to Mia's play?"), "No one else is invited to Mia's school play")
}

// TestWhenIsReminder: "when do I water the plants?" of a recurring
// reminder says how it repeats and when it comes next.
func TestWhenIsReminder(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Ada", "UTC")
	c.say("remind me to water the plants every Tuesday")
	mustContain(t, c.say("when do I water the plants?"), "I remind you to water the plants every Tuesday at 09:00", "the next one is")
}

// TestNextReminder: "what's my next reminder?" and "what's next?" count
// recurring reminders with tasks and events.
func TestNextReminder(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Ada", "UTC")
	mustContain(t, c.say("what's my next reminder?"), "Nothing coming up")
	c.say("remind me every weekday at 7am to take my vitamins")
	mustContain(t, c.say("what's my next reminder?"), "Next up: your reminder to take your vitamins (")
	mustContain(t, c.say("what's next?"), "your reminder to take your vitamins")
}
