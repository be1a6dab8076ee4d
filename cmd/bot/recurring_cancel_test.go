package main

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
)

// TestRecurringReminderCancels cancels recurring reminders through the
// web chat API, offline, by words, by number and by a button when two
// fit: each cancel is an audited action that "undo" takes back, the same
// reminder (id and rule) reminding again from its rule's next occurrence
// after now. Cancelling a task's reminder still cancels the task, and
// undo reopens it.
func TestRecurringReminderCancels(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)

	// cancelled checks title is no longer upcoming and undo brings the
	// same schedule back with its rule, next at the rule's first
	// occurrence after before.
	cancelledThenUndone := func(t *testing.T, c *chatter, was hearth.Schedule, zone string) {
		t.Helper()
		if _, ok := userReminders(t, c)[was.Title]; ok {
			t.Fatalf("%q still reminds after its cancel", was.Title)
		}
		before := time.Now()
		mustContain(t, c.say("undo"), "undone", was.Title)
		back, ok := userReminders(t, c)[was.Title]
		if !ok || back.ID != was.ID || !reflect.DeepEqual(ruleOf(t, back), ruleOf(t, was)) {
			t.Fatalf("after undo: %+v; want schedule %d with rule %s back", back, was.ID, ruleOf(t, was))
		}
		wantNext(t, back, zone, before)
	}

	t.Run("by its words, then undo", func(t *testing.T) {
		const zone = "Europe/London"
		c := newChatter(t, base, app, "Ivo", zone)
		c.say("stop my briefings")
		c.say("remind me every day at 8am to take my vitamins")
		// One reminder: its number is 1, and the hint says so.
		mustContain(t, c.say("list my reminders"), "1. “Take my vitamins”", `Say "cancel reminder 1" to stop it.`)
		was := userReminders(t, c)["Take my vitamins"]
		n := c.actions()
		mustContain(t, c.say("stop my vitamins reminder"), "cancelled", "take my vitamins", "undo")
		if c.actions() != n+1 {
			t.Fatalf("actions %d → %d; want the cancel audited as one", n, c.actions())
		}
		cancelledThenUndone(t, c, was, zone)
	})

	t.Run("by its number in the list", func(t *testing.T) {
		const zone = "America/Chicago"
		c := newChatter(t, base, app, "Jun", zone)
		c.say("stop my briefings")
		c.say("remind me every Monday at 9 to water the plants")
		c.say("remind me every Friday at 5pm to back up the laptop")
		mustContain(t, c.say("list my reminders"), "2. “Back up the laptop”", `Say "cancel reminder 2"`)
		was := userReminders(t, c)["Back up the laptop"]
		mustContain(t, c.say("cancel reminder 2"), "cancelled", "back up the laptop")
		if _, ok := userReminders(t, c)["Water the plants"]; !ok {
			t.Fatal("reminder 1 was cancelled too")
		}
		cancelledThenUndone(t, c, was, zone)
	})

	t.Run("two fit: a question with buttons", func(t *testing.T) {
		const zone = "Australia/Sydney"
		c := newChatter(t, base, app, "Lea", zone)
		c.say("stop my briefings")
		c.say("remind me every Monday at 9 to water the plants")
		c.say("remind me every Monday at 6pm to call grandma")
		q := c.say("cancel the Monday one")
		if len(q.Buttons) != 2 || !strings.Contains(q.Text, "Which one?") {
			t.Fatalf("%q with buttons %v; want a choice of two", q.Text, q.Buttons)
		}
		if len(userReminders(t, c)) != 2 {
			t.Fatal("a reminder was cancelled before the answer")
		}
		was := userReminders(t, c)["Call grandma"]
		var label string
		for _, b := range q.Buttons {
			if strings.Contains(b.Label, "Call grandma") {
				label = b.Label
			}
		}
		mustContain(t, c.click(q, label), "cancelled", "call grandma", "undo")
		if _, ok := userReminders(t, c)["Water the plants"]; !ok {
			t.Fatal("the other Monday reminder was cancelled too")
		}
		cancelledThenUndone(t, c, was, zone)
	})

	t.Run("named loosely: the planner finds it, two ask with buttons", func(t *testing.T) {
		const zone = "America/New_York"
		c := newChatter(t, base, app, "Ned", zone)
		c.say("stop my briefings")
		c.say("remind me every day at 9 to join the standup")
		c.say("remind me every day at 7am to take the vitamins")
		c.say("remind me every Sunday at 6pm to buy vitamins")
		// "daily" is not in the list's words ("every day"): the command
		// passes, the planner matches the name.
		standup := userReminders(t, c)["Join the standup"]
		mustContain(t, c.say("cancel my daily standup reminder"), "cancelled", "join the standup", "undo")
		cancelledThenUndone(t, c, standup, zone)
		// "Pause" is a cancel that undo takes back.
		mustContain(t, c.say("pause my standup reminder"), "cancelled", "join the standup", "undo")
		cancelledThenUndone(t, c, standup, zone)
		q := c.say("delete my daily vitamins reminder")
		if len(q.Buttons) != 2 {
			t.Fatalf("%q with buttons %v; want a choice of two", q.Text, q.Buttons)
		}
		if len(userReminders(t, c)) != 3 {
			t.Fatal("a reminder was cancelled before the answer")
		}
		vitamins := userReminders(t, c)["Take the vitamins"]
		var label string
		for _, b := range q.Buttons {
			if strings.Contains(b.Label, "Take the vitamins") {
				label = b.Label
			}
		}
		mustContain(t, c.click(q, label), "cancelled", "take the vitamins")
		if _, ok := userReminders(t, c)["Buy vitamins"]; !ok {
			t.Fatal("the Sunday reminder was cancelled too")
		}
		cancelledThenUndone(t, c, vitamins, zone)
	})

	t.Run("a task's reminder cancels the task; undo reopens it", func(t *testing.T) {
		c := newChatter(t, base, app, "Moe", "Europe/Berlin")
		c.say("stop my briefings")
		c.say("remind me tomorrow at 9 to call the bank")
		// The task's schedule appears at the planner's next sync.
		if _, err := app.Scheduler.Plan(context.Background(), app.River); err != nil {
			t.Fatal(err)
		}
		mustContain(t, c.say("cancel the bank one"), "cancelled", "call the bank", "undo")
		if ts := c.tasks(); len(ts) != 0 {
			t.Fatalf("tasks %+v after the cancel; want none", ts)
		}
		c.say("undo")
		if ts := c.tasks(); len(ts) != 1 || ts[0].Status != hearth.TaskOpen {
			t.Fatalf("tasks %+v after undo; want the task open again", ts)
		}
	})
}

// TestReminderAtTwoTimes: "at 8am and 8pm every day" is a reminder at
// each time, not one at 8 PM called "… at 8am and".
func TestReminderAtTwoTimes(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Meg", "Europe/Berlin")
	c.say("stop my briefings")
	mustContain(t, c.say("remind me to take my meds at 8am and 8pm every day"), "every day at 08:00", "every day at 20:00")
	r := c.say("list my reminders")
	mustContain(t, r, "“Take my meds” every day at 08:00", "“Take my meds” every day at 20:00")
	if strings.Contains(r.Text, "and”") {
		t.Fatalf("a reminder kept the second time in its title: %q", r.Text)
	}
}
