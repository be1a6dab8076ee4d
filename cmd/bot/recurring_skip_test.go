package main

import (
	"strings"
	"testing"
)

// TestRecurringReminderSkip skips one time of a recurring reminder
// through the web chat, offline: the reminder's next time moves past the
// day skipped, "undo" brings that day back, a day it does not come on is
// said so, and a skip is never a new task ("Skip my pills reminder").
func TestRecurringReminderSkip(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	const zone = "Europe/Berlin"
	c := newChatter(t, base, app, "Ada", zone)
	c.say("stop my briefings")
	c.say("remind me every day at 8am to take my pills")
	was := userReminders(t, c)["Take my pills"]
	next := was.NextAt.In(mustZone(t, zone))

	mustContain(t, c.say("skip the next pills reminder"), "I'll skip “Take my pills”", "undo")
	if sc := userReminders(t, c)["Take my pills"]; sc.ID != was.ID || !sc.NextAt.Equal(next.AddDate(0, 0, 1)) {
		t.Fatalf("after the skip: %+v; want schedule %d next on %v", sc, was.ID, next.AddDate(0, 0, 1))
	}
	mustContain(t, c.say("undo"), "Undone")
	if sc := userReminders(t, c)["Take my pills"]; !sc.NextAt.Equal(next) {
		t.Fatalf("after undo: next %v; want %v back", sc.NextAt, next)
	}

	mustContain(t, c.say("pause the pills reminder for a week"), "I've paused “Take my pills” until", "undo")
	if sc := userReminders(t, c)["Take my pills"]; !sc.NextAt.Equal(next.AddDate(0, 0, 7)) {
		t.Fatalf("after the pause: next %v; want %v, a week on", sc.NextAt, next.AddDate(0, 0, 7))
	}
	mustContain(t, c.say("resume the pills reminder"), "“Take my pills” is back on")
	if sc := userReminders(t, c)["Take my pills"]; !sc.NextAt.Equal(next) {
		t.Fatalf("after the resume: next %v; want %v back", sc.NextAt, next)
	}

	c.say("remind me every Tuesday at 7pm to put out the bins")
	mustContain(t, c.say("skip the bins reminder on Wednesday"), "“Put out the bins” isn't on Wednesday", "every Tuesday at 19:00")
	for _, tk := range c.tasks() {
		if strings.Contains(strings.ToLower(tk.Title), "skip") {
			t.Fatalf("a task %q was made of a skip", tk.Title)
		}
	}
}
