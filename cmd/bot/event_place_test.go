package main

import (
	"testing"
)

// TestEventPlaceAndLength: where an event is, told in passing or set, is
// kept on it (undone like any change; asked about first once others are
// invited) and answered; so is how long it lasts, which is changed to a
// length or by an amount. "Where is my passport?" is still memory's.
func TestEventPlaceAndLength(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Ada", "Europe/Berlin")
	c.say("lunch with Sam next Friday at 1pm")
	mustContain(t, c.say("where is lunch with Sam?"), "No place is set for Lunch with Sam")
	mustContain(t, c.say("lunch with Sam is at Luigi's"), "Lunch with Sam is at Luigi's now")
	mustContain(t, c.say("where's lunch?"), "Lunch with Sam", "is at Luigi's")
	c.say("undo")
	mustContain(t, c.say("where is lunch with Sam?"), "No place is set")
	mustContain(t, c.say("how long is lunch with Sam?"), "Lunch with Sam is 1 hour", "from 1:00 PM to 2:00 PM")
	mustContain(t, c.say("make it an hour and a half"), "made Lunch with Sam end at 2:30 PM")
	mustContain(t, c.say("extend lunch by 15 minutes"), "made Lunch with Sam end at 2:45 PM")
	mustContain(t, c.say("how long is lunch?"), "1 hour 45 minutes", "from 1:00 PM to 2:45 PM")
	c.say("undo")
	mustContain(t, c.say("how long is lunch?"), "1 hour 30 minutes")
	mustContain(t, c.say("extend the piano lesson by an hour"), "couldn't find an event matching “piano lesson”")
	mustContain(t, c.say("find me 3 hours next Friday"), "3 hours free 9:00 AM–1:00 PM and 2:30 PM–6:00 PM")

	c.say("invite sam@example.com to lunch with Sam")
	c.say("yes")
	ask := c.say("set the location of lunch with Sam to the Green Café")
	mustContain(t, ask, "Shall I set the place of “Lunch with Sam” to “the Green Café”?")
	mustContain(t, c.click(ask, "Approve"), "set the place of Lunch with Sam to the Green Café")
	mustContain(t, c.say("where is lunch with Sam?"), "is at the Green Café")

	c.say("my passport is in the top drawer")
	mustContain(t, c.say("where is my passport?"), "Your passport is in the top drawer")
}
