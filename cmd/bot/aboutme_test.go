package main

import (
	"strings"
	"testing"
	"time"
)

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
	// A lasting thing of theirs, and where they parked (the last place
	// told is where the car is).
	mustContain(t, c.say("my car is a blue Golf"), "I'll remember that your car is a blue Golf")
	mustContain(t, c.say("what car do I have?"), "Your car is a blue Golf")
	mustContain(t, c.say("I parked on level 3"), "You parked on level 3")
	mustContain(t, c.say("I parked on level 5"), "you parked on level 5")
	if r := c.say("where did I park?"); !strings.Contains(r.Text, "level 5") || strings.Contains(r.Text, "level 3") {
		t.Fatalf("where parked: %q; want level 5 alone", r.Text)
	}
}

// TestToldAboutSomeone: what is told of someone by name alone ("Sam is
// allergic to peanuts", "Tom's favourite colour is blue") is kept and
// found again by asking about them, though no relationship introduced
// them; what is asked of them that was not told stays unknown.
func TestToldAboutSomeone(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Ida", "UTC")
	mustContain(t, c.say("Sam is allergic to peanuts"), "remember")
	mustContain(t, c.say("what is Sam allergic to?"), "peanuts")
	mustContain(t, c.say("who is Sam?"), "Sam is allergic to peanuts")
	mustContain(t, c.say("Tom's favourite colour is blue"), "remember")
	mustContain(t, c.say("what's Tom's favourite colour?"), "blue")
	mustContain(t, c.say("Ben's allergic to cats"), "allergic to cats")
	mustContain(t, c.say("is Ben allergic to anything?"), "cats")
	if r := c.say("what is Tom allergic to?"); strings.Contains(r.Text, "peanuts") || strings.Contains(r.Text, "cats") {
		t.Fatalf("Tom's allergies answered with %q", r.Text)
	}
}

// TestSecretRetold: a code told again with a new value, whatever word the
// value is, corrects the one Hearth had (it was "Sorry, I can't help with
// that one").
func TestSecretRetold(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Ada", "UTC")
	c.say("my wifi password is hunter2")
	mustContain(t, c.say("my wifi password is swordfish"), "updated", "swordfish")
	got := c.say("what's the wifi password?")
	mustContain(t, got, "swordfish")
	if strings.Contains(got.Text, "hunter2") {
		t.Fatalf("reply %q; want the old password gone", got.Text)
	}
}

// TestChangeFactByName: "change my locker to 214" corrects the fact told
// of the locker, as "my locker is 214" would; "update the wifi password
// to …" the household's, and "Tom got a new number: …" Tom's number; a
// change of something no fact is about is left to the planners that own
// it.
func TestChangeFactByName(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Ada", "UTC")
	for _, tt := range []struct{ told, change, ask, want, old string }{
		{"my locker is 114", "change my locker to 214", "what's my locker?", "214", "114"},
		{"remember the wifi password is hunter2", "update the wifi password to swordfish", "what's the wifi password?", "swordfish", "hunter2"},
		{"Tom's phone number is 555 1234", "Tom got a new number: 555 9999", "what's Tom's number?", "555 9999", "555 1234"},
	} {
		c.say(tt.told)
		mustContain(t, c.say(tt.change), tt.want)
		got := c.say(tt.ask)
		mustContain(t, got, tt.want)
		if strings.Contains(got.Text, tt.old) {
			t.Fatalf("%q: reply %q; want the old value gone", tt.ask, got.Text)
		}
	}
	mustContain(t, c.say("change the meeting to 3pm"), "I couldn't find an event matching")
}

// TestAskedByRelation: what was told of someone by name answers a
// question that names them by what they are to the user ("when is my
// sister's birthday?" after "Julia is my sister"); what someone does for
// a living is kept when told and is what "what does Tom do?" answers.
func TestAskedByRelation(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Ada", "Europe/Berlin")
	c.say("Julia is my sister")
	c.say("Julia's birthday is on March 3rd")
	mustContain(t, c.say("When is my sister's birthday?"), "Julia's birthday is on March 3rd")
	c.say("Julia's number is 0176 1234567")
	mustContain(t, c.say("what's my sister's phone number?"), "0176 1234567")
	c.say("my mum's name is Helga")
	if r := c.say("when is my mum's birthday?"); strings.Contains(r.Text, "Helga") {
		t.Fatalf("reply %q; want her birthday unknown, not her name", r.Text)
	}

	mustContain(t, c.say("Tom is a pilot"), "remember that Tom is a pilot")
	c.say("Tom loves sailing")
	if r := c.say("what does Tom do?"); !strings.Contains(r.Text, "Tom is a pilot") || strings.Contains(r.Text, "sailing") {
		t.Fatalf("what Tom does: %q; want the pilot alone", r.Text)
	}
	mustContain(t, c.say("my dad is a pilot"), "Your dad is a pilot")
	mustContain(t, c.say("what does my dad do for a living?"), "Your dad is a pilot")
	c.say("Julia works at the city hospital")
	mustContain(t, c.say("what does my sister do?"), "Julia works at the city hospital")
	c.say("Julia loves orchids")
	mustContain(t, c.say("what does my sister like?"), "orchids")
	c.say("Leo is my son")
	c.say("Leo was born on 4 May 2017")
	mustContain(t, c.say("how old is my son?"), "Leo is", "born May 4, 2017")
	c.say("Ben's birthday is March 3")
	c.say("actually Ben's birthday is March 5")
	if r := c.say("when is Ben's birthday?"); !strings.Contains(r.Text, "March 5") || strings.Contains(r.Text, "March 3") || strings.Contains(r.Text, "ctually") {
		t.Fatalf("after the correction: %q; want March 5 alone", r.Text)
	}
	c.say("I was born in 1990")
	mustContain(t, c.say("how old am I?"), "You were born in 1990, so you're")
	mustContain(t, c.say("my son Leo has football practice every Tuesday at 5"), "Leo's football practice")
}

// TestUpcomingBirthdays: "what birthdays are coming up?" is answered from
// the birthdays told, the soonest first, those more than a month off left
// out; "whose birthday is next?" names the soonest.
func TestUpcomingBirthdays(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Ada", "Europe/Berlin")
	z, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	today := time.Now().In(z)
	on := func(days int) string { return today.AddDate(0, 0, days).Format("January 2") }
	c.say("Priya's birthday is on " + on(60))
	c.say("Ben's birthday is " + on(10))
	c.say("Mia's birthday is " + on(3))
	r := c.say("what birthdays are coming up?")
	mustContain(t, r, "Mia's birthday", "(in 3 days)", "Ben's birthday", "(in 10 days)")
	if strings.Contains(r.Text, "Priya") || strings.Index(r.Text, "Mia") > strings.Index(r.Text, "Ben") {
		t.Fatalf("coming up: %q; want Mia then Ben, not Priya two months off", r.Text)
	}
	mustContain(t, c.say("whose birthday is next?"), "Next up: Mia's birthday")
}
