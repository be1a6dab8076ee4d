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
	if got := c.say("what time is it?").Text; !strings.HasPrefix(got, "It's ") {
		t.Errorf("what time is it: %q, want the clock", got)
	}
}
