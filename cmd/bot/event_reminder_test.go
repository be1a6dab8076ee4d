package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/scheduler"
)

// TestEventReminders: "remind me 30 minutes before meetings" reminds
// before each timed event, once; a moved event's reminder moves and a
// deleted event's disappears.
func TestEventReminders(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	clock := &fakeClock{t: time.Now()}
	sched := scheduler.New(scheduler.Config{Store: app.Store, Now: clock.Now,
		Visible: func(ch hearth.Channel) bool { return ch == hearth.ChannelWebchat }})
	c := newChatter(t, base, app, "Eve", "Europe/Berlin")
	c.say("stop my briefings")
	event := func(title string) hearth.CalendarEvent {
		t.Helper()
		es, err := app.Store.FindEvents(context.Background(), hearth.CalendarEventFilter{UserID: c.contact().User.ID, Query: title})
		if err != nil || len(es) != 1 {
			t.Fatalf("events %q: %v %v", title, es, err)
		}
		return es[0]
	}
	// at fires everything due at the instant, as the planner would then.
	at := func(tm time.Time) {
		clock.Set(tm)
		fireDue(t, app, sched)
	}

	mustContain(t, c.say("remind me 30 minutes before meetings"), "30 minutes before")
	c.say("Add design review tomorrow at 3pm to my calendar")
	c.say("Add standup tomorrow at 10am to my calendar")
	c.say("Add dentist tomorrow at 5pm to my calendar")
	review, standup, dentist := event("design review"), event("standup"), event("dentist")

	// The standup moves to 11; the dentist is cancelled.
	c.say("move my standup to 11am")
	if got := event("standup"); !got.Start.Equal(standup.Start.Add(time.Hour)) {
		t.Fatalf("standup not moved: %v", got.Start)
	}
	r := c.say("cancel my dentist appointment")
	if len(r.Buttons) > 0 {
		c.click(r, "Approve")
	}

	at(standup.Start.Add(-31 * time.Minute))
	at(standup.Start.Add(-30 * time.Minute)) // the old time: nothing
	at(standup.Start.Add(30 * time.Minute))  // the new time
	at(standup.Start.Add(30 * time.Minute))  // again: still once
	mustContain(t, c.reply("the standup reminder"), "In 30 minutes", "Standup", "11:00 AM")
	at(review.Start.Add(-30 * time.Minute))
	rem := c.reply("the review reminder")
	mustContain(t, rem, "In 30 minutes", "Design review", "3:00 PM")
	if len(rem.Buttons) != 0 {
		t.Fatalf("an event reminder has buttons %v", rem.Buttons)
	}
	at(dentist.Start.Add(-30 * time.Minute)) // deleted: nothing
	// Nothing else came: the next message is the answer to this one.
	mustContain(t, c.say("stop reminding me before meetings"), "no more reminders before events")
	if r := c.say("list my reminders"); strings.Contains(r.Text, "entist") {
		t.Fatalf("the deleted event still reminds: %q", r.Text)
	}
}
