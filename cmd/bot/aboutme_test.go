package main

import "testing"

// TestToldAboutMe: a favourite, an allergy and a diet told in passing are
// kept and answered ("am I allergic to anything?" is not about the
// calendar); "forget …" right after Hearth listed what it knows forgets
// it (it picked the line of the list).
func TestToldAboutMe(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Ida", "UTC")
	mustContain(t, c.say("my favorite color is green"), "favorite color is green")
	mustContain(t, c.say("I'm allergic to peanuts"), "I'll remember that you're allergic to peanuts")
	mustContain(t, c.say("I am vegetarian"), "vegetarian")
	mustContain(t, c.say("what's my favorite color?"), "Your favorite color is green")
	mustContain(t, c.say("am I allergic to anything?"), "You're allergic to peanuts")
	mustContain(t, c.say("what do you know about me?"), "favorite color", "peanuts", "vegetarian")
	mustContain(t, c.say("forget my favorite color"), "forgotten")
	mustContain(t, c.say("what's my favorite color?"), "don't know")
}
