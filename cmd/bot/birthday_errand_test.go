package main

import (
	"fmt"
	"testing"
	"time"
)

// TestBeforeBirthdayChat: an errand before a birthday Hearth was told is
// due the day before it; a reminder ahead of one it was not told asks
// when it is. Neither is kept as a fact.
func TestBeforeBirthdayChat(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Ada", "Europe/Berlin")
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	bday := time.Now().In(berlin).AddDate(0, 0, 20)
	c.say(fmt.Sprintf("Mum's birthday is %s %d", bday.Month(), bday.Day()))
	facts := func() int { return c.count("SELECT count(*) FROM facts WHERE user_id = $1", c.contact().User.ID) }
	if n := facts(); n != 1 {
		t.Fatalf("%d facts after the birthday; want 1", n)
	}

	c.say("buy flowers before Mum's birthday")
	ts := c.tasks()
	if len(ts) != 1 || ts[0].Title != "Buy flowers before Mum's birthday" || !ts[0].AllDay {
		t.Fatalf("tasks %+v; want one all-day errand", ts)
	}
	if got, want := ts[0].Due.In(berlin).Format(time.DateOnly), bday.AddDate(0, 0, -1).Format(time.DateOnly); got != want {
		t.Fatalf("errand due %s; want %s, the day before the birthday", got, want)
	}

	m := c.say("remind me a week before Lee's birthday")
	mustContain(t, m, "couldn't find when Lee's birthday is")
	if ts := c.tasks(); len(ts) != 1 {
		t.Fatalf("tasks %+v; want still the one errand", ts)
	}
	if n := facts(); n != 1 {
		t.Fatalf("%d facts after the errands; want 1", n)
	}
}

// TestBeforeBirthdayJustTold: "remind me a week before" right after a
// birthday or an anniversary was told is a reminder ahead of it (it asked
// "what to remind you before"), even when an earlier reply named a task.
func TestBeforeBirthdayJustTold(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Ana", "Europe/Berlin")
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	day := time.Now().In(berlin).AddDate(0, 0, 20)
	c.say("Remind me to call the plumber tomorrow at 6pm")
	c.say(fmt.Sprintf("Our anniversary is %s %d", day.Month(), day.Day()))
	mustContain(t, c.say("remind me a week before"), "Our anniversary")
	ts := c.tasks()
	if len(ts) != 2 || ts[1].Due.In(berlin).Format(time.DateOnly) != day.AddDate(0, 0, -7).Format(time.DateOnly) {
		t.Fatalf("tasks %+v; want the plumber and a reminder a week before %s", ts, day.Format(time.DateOnly))
	}
}

// TestBeforeBirthdayWhatToDo: "remind me a week before Ben's birthday to
// buy a present" is a reminder to buy it a week before (it was "I couldn't
// find one matching “Ben's birthday to buy a present”").
func TestBeforeBirthdayWhatToDo(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Ana", "Europe/Berlin")
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	day := time.Now().In(berlin).AddDate(0, 0, 20)
	c.say(fmt.Sprintf("Ben's birthday is on %s %d", day.Month(), day.Day()))
	mustContain(t, c.say("remind me a week before Ben's birthday to buy a present"), "Buy a present — Ben's birthday")
	ts := c.tasks()
	if len(ts) != 1 || ts[0].Due.In(berlin).Format(time.DateOnly) != day.AddDate(0, 0, -7).Format(time.DateOnly) {
		t.Fatalf("tasks %+v; want a reminder a week before %s", ts, day.Format(time.DateOnly))
	}
}
