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

	// Meeting prep: what Hearth knows about the attendees comes along.
	c.say("Remember that Sam prefers tea to coffee")
	inv := c.say("Invite Sam to a budget review tomorrow at 7pm")
	c.click(inv, "Approve")
	budget := event("budget review")
	at(budget.Start.Add(-30 * time.Minute))
	mustContain(t, c.reply("the budget review reminder"), "Budget review", "with Sam", "Meeting prep", "tea")
	// Nothing else came: the next message is the answer to this one.
	mustContain(t, c.say("stop reminding me before meetings"), "no more reminders before events")
	if r := c.say("list my reminders"); strings.Contains(r.Text, "entist") {
		t.Fatalf("the deleted event still reminds: %q", r.Text)
	}
}

// TestQuietHours: "don't message me after 9pm" holds a reminder before an
// early event until 7:00, while a reminder the user set for 22:00 comes
// at 22:00.
func TestQuietHours(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	clock := &fakeClock{t: time.Now()}
	sched := scheduler.New(scheduler.Config{Store: app.Store, Now: clock.Now,
		Visible: func(ch hearth.Channel) bool { return ch == hearth.ChannelWebchat }})
	c := newChatter(t, base, app, "Quinn", "Europe/Berlin")
	c.say("stop my briefings")
	berlin, _ := time.LoadLocation("Europe/Berlin")
	at := func(tm time.Time) {
		clock.Set(tm)
		fireDue(t, app, sched)
	}
	mustContain(t, c.say("don't message me after 9pm"), "9:00 PM", "7:00 AM")
	mustContain(t, c.say("quiet hours"), "9:00 PM to 7:00 AM")
	mustContain(t, c.say("remind me 1 hour before meetings"), "1 hour before")
	c.say("Add early flight the day after tomorrow at 6:30am to my calendar")
	c.say("Remind me to lock the door tomorrow at 10pm")
	es, err := app.Store.FindEvents(context.Background(), hearth.CalendarEventFilter{UserID: c.contact().User.ID, Query: "flight"})
	if err != nil || len(es) != 1 {
		t.Fatalf("flight %v %v", es, err)
	}
	flight := es[0].Start.In(berlin)
	door := c.tasks()[0].Due

	at(door.Add(-time.Minute))
	at(door) // asked for 22:00: it comes, quiet hours or not
	mustContain(t, c.reply("the door reminder"), "lock the door")
	at(flight.Add(-time.Hour)) // 05:30: held
	seven := time.Date(flight.Year(), flight.Month(), flight.Day(), 7, 0, 0, 0, berlin)
	at(seven)
	mustContain(t, c.reply("the held flight reminder"), "quiet hours held", "Early flight", "6:30 AM")
	mustContain(t, c.say("no quiet hours"), "no quiet hours")
}
