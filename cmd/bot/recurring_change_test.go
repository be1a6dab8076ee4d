package main

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/scheduler/recur"
)

// TestRecurringReminderChanges drives changes to recurring reminders
// through the web chat API, offline: the rule changes (time, days), the
// next occurrence moves to the new rule's first in the user's zone, undo
// puts the old rule back, and two reminders of one name are a question
// with buttons.
func TestRecurringReminderChanges(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	reminders := func(t *testing.T, c *chatter) map[string]hearth.Schedule { return userReminders(t, c) }

	t.Run("the time changes, the days stay, undo puts it back", func(t *testing.T) {
		const zone = "America/New_York"
		c := newChatter(t, base, app, "Ravi", zone)
		mustContain(t, c.say("remind me every day at 9 to join the standup"), "every day")
		before := time.Now()
		r := c.say("change my daily standup reminder to 9:30")
		mustContain(t, r, "Join the standup", "every day at 09:30", "undo")
		sc := reminders(t, c)["Join the standup"]
		if got := ruleOf(t, sc); got.Freq != recur.Daily || got.At != (recur.TimeOfDay{Hour: 9, Minute: 30}) {
			t.Fatalf("after %q: rule %s; want every day at 09:30", r.Text, got)
		}
		wantNext(t, sc, zone, before)
		c.say("undo")
		sc = reminders(t, c)["Join the standup"]
		if got := ruleOf(t, sc); got.At != (recur.TimeOfDay{Hour: 9}) {
			t.Fatalf("after undo: rule %s; want 09:00 again", got)
		}
		wantNext(t, sc, zone, before)
	})

	t.Run("the days change, the time stays", func(t *testing.T) {
		const zone = "Europe/London"
		c := newChatter(t, base, app, "Bea", zone)
		c.say("remind me every Monday at 7pm to put the bins out")
		before := time.Now()
		r := c.say("move my weekly bins reminder to Thursdays")
		mustContain(t, r, "every Thursday at 19:00")
		sc := reminders(t, c)["Put the bins out"]
		got := ruleOf(t, sc)
		if got.Freq != recur.Weekly || got.Weekdays != recur.WeekdaysOf(time.Thursday) || got.At != (recur.TimeOfDay{Hour: 19}) {
			t.Fatalf("after %q: rule %s; want every Thursday at 19:00", r.Text, got)
		}
		wantNext(t, sc, zone, before)
		if sc.NextAt.In(mustZone(t, zone)).Weekday() != time.Thursday {
			t.Fatalf("next %v is not a Thursday", sc.NextAt)
		}
	})

	t.Run("\"instead\" with no \"to\"; two matches ask with buttons", func(t *testing.T) {
		const zone = "Australia/Sydney"
		c := newChatter(t, base, app, "Kai", zone)
		c.say("remind me every day at 7am to take the vitamins")
		c.say("remind me every Sunday at 6pm to buy vitamins")
		r := c.say("make the vitamins reminder 8am instead")
		if len(r.Buttons) != 2 {
			t.Fatalf("after %q: %q with buttons %v; want a choice of two", r.Text, r.Text, r.Buttons)
		}
		// Nothing changed while the question is open.
		if got := ruleOf(t, reminders(t, c)["Take the vitamins"]); got.At != (recur.TimeOfDay{Hour: 7}) {
			t.Fatalf("before the answer: rule %s", got)
		}
		before := time.Now()
		c.click(r, r.Buttons[0].Label)
		all := reminders(t, c)
		daily, sunday := ruleOf(t, all["Take the vitamins"]), ruleOf(t, all["Buy vitamins"])
		if daily.At != (recur.TimeOfDay{Hour: 8}) || sunday.At != (recur.TimeOfDay{Hour: 18}) {
			t.Fatalf("after the first button: daily %s, Sunday %s; want only the daily one at 08:00", daily, sunday)
		}
		wantNext(t, all["Take the vitamins"], zone, before)
	})

	t.Run("a monthly reminder's day changes, the time stays unless said", func(t *testing.T) {
		const zone = "America/New_York" // next occurrences cross the March and November changes
		c := newChatter(t, base, app, "Rosa", zone)
		mustContain(t, c.say("remind me on the 1st of every month at 9 to pay the rent"), "every month")
		mustContain(t, c.say("remind me on the 20th of every month at 10am to pay the bills"), "every month")
		monthly := func(t *testing.T, title string, day, hour int) hearth.Schedule {
			t.Helper()
			sc := reminders(t, c)[title]
			if r := ruleOf(t, sc); r.Freq != recur.Monthly || r.MonthDay != day || r.At != (recur.TimeOfDay{Hour: hour}) {
				t.Fatalf("%s: rule %s; want day %d at %02d:00 every month", title, r, day, hour)
			}
			return sc
		}
		before := time.Now()
		mustContain(t, c.say("move my rent reminder to the 5th"), "Pay the rent", "5th", "undo")
		wantNext(t, monthly(t, "Pay the rent", 5, 9), zone, before)
		c.say("undo")
		wantNext(t, monthly(t, "Pay the rent", 1, 9), zone, before)

		c.say("change the rent reminder to the 31st")
		// recur skips a month that has no 31st: the next is the next 31st.
		sc := monthly(t, "Pay the rent", 31, 9)
		wantNext(t, sc, zone, before)
		if d := sc.NextAt.In(mustZone(t, zone)).Day(); d != 31 {
			t.Fatalf("next %v is not a 31st", sc.NextAt)
		}
		c.say("change the rent reminder to the first of the month")
		wantNext(t, monthly(t, "Pay the rent", 1, 9), zone, before)

		mustContain(t, c.say("make my bills reminder the 15th at 9am"), "Pay the bills", "15th", "09:00")
		wantNext(t, monthly(t, "Pay the bills", 15, 9), zone, before)
		c.say("undo")
		wantNext(t, monthly(t, "Pay the bills", 20, 10), zone, before)
	})

	t.Run("a reminder that is not there changes nothing", func(t *testing.T) {
		c := newChatter(t, base, app, "Noor", "UTC")
		c.say("remind me every day at 9 to stretch")
		c.say("change my daily piano reminder to 10am")
		if got := ruleOf(t, reminders(t, c)["Stretch"]); got.At != (recur.TimeOfDay{Hour: 9}) {
			t.Fatalf("rule %s; want the stretch reminder untouched", got)
		}
	})
}

// userReminders returns the user's recurring reminders that will still
// remind, by title.
func userReminders(t *testing.T, c *chatter) map[string]hearth.Schedule {
	t.Helper()
	scs, err := c.app.Store.UpcomingSchedules(context.Background(), c.contact().User.ID, 50)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]hearth.Schedule{}
	for _, sc := range scs {
		if sc.Kind == hearth.ScheduleReminder {
			out[sc.Title] = sc
		}
	}
	return out
}

// ruleOf decodes a recurring reminder's rule.
func ruleOf(t *testing.T, sc hearth.Schedule) recur.Rule {
	t.Helper()
	var r recur.Rule
	if err := json.Unmarshal(sc.Rule, &r); err != nil {
		t.Fatalf("rule %s: %v", sc.Rule, err)
	}
	return r
}

// wantNext checks the schedule's next occurrence is the rule's first
// after before, at the rule's wall-clock time in zone.
func wantNext(t *testing.T, sc hearth.Schedule, zone string, before time.Time) {
	t.Helper()
	loc := mustZone(t, zone)
	r := ruleOf(t, sc)
	want, _ := r.Next(before, loc)
	local := sc.NextAt.In(loc)
	if !sc.NextAt.Equal(want) || local.Hour() != r.At.Hour || local.Minute() != r.At.Minute {
		t.Fatalf("next occurrence %v (%v local); want %v for %s", sc.NextAt, local, want.In(loc), r)
	}
}
