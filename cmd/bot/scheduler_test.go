package main

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/scheduler"
)

// fakeClock is the scenario's injected time.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// fireDue plans at clock and fires, at clock, every occurrence planned,
// as the leader's planner and the fire jobs would when that time comes.
func fireDue(t *testing.T, app *App, s *scheduler.Scheduler) {
	t.Helper()
	ctx := context.Background()
	if _, err := s.Plan(ctx, app.River); err != nil {
		t.Fatal(err)
	}
	res, err := app.River.JobList(ctx, river.NewJobListParams().Kinds(scheduler.FireArgs{}.Kind()).
		States(rivertype.JobStateScheduled, rivertype.JobStateAvailable).First(100))
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range res.Jobs {
		var a scheduler.FireArgs
		if err := unmarshalArgs(j, &a); err != nil {
			t.Fatal(err)
		}
		if err := s.Fire(ctx, a); err != nil {
			t.Fatal(err)
		}
		if _, err := app.River.JobCancel(ctx, j.ID); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSchedulerScenarios(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	clock := &fakeClock{t: time.Now()}
	sched := scheduler.New(scheduler.Config{Store: app.Store, Now: clock.Now,
		Visible: func(ch hearth.Channel) bool { return ch == hearth.ChannelWebchat }})

	t.Run("a task reminder fires with buttons; Done completes the task, once", func(t *testing.T) {
		c := newChatter(t, base, app, "Rae", "Europe/Berlin")
		c.say("stop my briefings")
		r := c.say("Remind me to call mom tomorrow at 5pm")
		mustContain(t, r, "remind you", "call mom")
		ts := c.tasks()
		if len(ts) != 1 {
			t.Fatalf("tasks %+v", ts)
		}
		clock.Set(ts[0].Due.Add(-time.Minute))
		fireDue(t, app, sched)
		clock.Set(ts[0].Due)
		fireDue(t, app, sched)
		rem := c.reply("the reminder")
		mustContain(t, rem, "call mom")
		if len(rem.Buttons) != 3 {
			t.Fatalf("reminder buttons %+v", rem.Buttons)
		}
		done := c.click(rem, scheduler.LabelDone)
		mustContain(t, done, "done")
		if ts := c.tasks(); ts[0].Status != hearth.TaskDone {
			t.Fatalf("task %+v not done", ts[0])
		}
		// The same button again is a duplicate; another button of the same
		// reminder is refused.
		if code, body := c.clickStatus(rem, scheduler.LabelDone); code != 202 || body["duplicate"] != true {
			t.Fatalf("second Done click: %d %v", code, body)
		}
		again := c.click(rem, scheduler.LabelSnooze)
		mustContain(t, again, "already")
		// Completed through an action: "undo" reopens the task.
		c.say("undo")
		if ts := c.tasks(); ts[0].Status != hearth.TaskOpen {
			t.Fatalf("after undo the task is %+v", ts[0])
		}
	})

	t.Run("snooze brings a reminder back an hour later", func(t *testing.T) {
		c := newChatter(t, base, app, "Sid", "America/New_York")
		c.say("stop my briefings")
		c.say("Remind me to stretch tomorrow at 10am")
		due := c.tasks()[0].Due
		clock.Set(due.Add(-time.Minute))
		fireDue(t, app, sched)
		clock.Set(due)
		fireDue(t, app, sched)
		rem := c.reply("the reminder")
		before := time.Now()
		mustContain(t, c.click(rem, scheduler.LabelSnooze), "snoozed")
		// The app's own scheduler answered the click on the real clock.
		up, err := app.Store.UpcomingSchedules(context.Background(), c.contact().User.ID, 10)
		if err != nil {
			t.Fatal(err)
		}
		var at time.Time
		for _, sc := range up {
			if sc.Kind == hearth.ScheduleSnooze {
				at = sc.NextAt
			}
		}
		if at.Before(before.Add(time.Hour)) || at.After(time.Now().Add(time.Hour)) {
			t.Fatalf("snoozed until %v; want an hour after the click (schedules %+v)", at, up)
		}
		clock.Set(at.Add(-time.Minute))
		fireDue(t, app, sched)
		clock.Set(at)
		fireDue(t, app, sched)
		back := c.reply("the snoozed reminder")
		mustContain(t, back, "stretch")
		if len(back.Buttons) != 3 {
			t.Fatalf("snoozed reminder buttons %+v", back.Buttons)
		}
		// Tomorrow morning is 09:00 in the user's zone.
		mustContain(t, c.click(back, scheduler.LabelTomorrow), "snoozed", "tomorrow at 9:00 AM")
	})

	t.Run("recurring reminders: set, list, cancel the Monday one", func(t *testing.T) {
		c := newChatter(t, base, app, "Uma", "Europe/Berlin")
		mustContain(t, c.say("Remind me every Monday at 9 to water the plants"), "every Monday", "water the plants")
		mustContain(t, c.say("remind me every weekday at 8:30 to stand up"), "every weekday")
		list := c.say("list my reminders")
		mustContain(t, list, "Water the plants", "Stand up", "every Monday")
		mustContain(t, c.say("cancel the Monday one"), "cancelled", "water the plants")
		if after := c.say("list my reminders"); strings.Contains(after.Text, "Water the plants") {
			t.Fatalf("still listed after cancel: %q", after.Text)
		}
		// Said the way people say it, never a task "stop reminding me …".
		mustContain(t, c.say("Stop reminding me to stand up."), "cancelled", "stand up")
		mustContain(t, c.say("list my reminders"), "You have no reminders coming up.")
		mustContain(t, c.say("don't remind me about the bins anymore"), "I don't have a repeating reminder about the bins.")
		// A chore said as a habit is a repeating reminder too (never a
		// to-do: none below).
		mustContain(t, c.say("take out the bins every Tuesday evening"), "remind you to take out the bins every Tuesday at 19:00")
		mustContain(t, c.say("water the plants every Monday at 9"), "remind you to water the plants every Monday at 09:00")
		// The time before the repeat, and a chore of fetching or calling
		// (it was a one-off to-do "Pick up the kids every weekday").
		mustContain(t, c.say("Pick up the kids at 3:30 every weekday"), "remind you to pick up the kids every weekday at 15:30")
		mustContain(t, c.say("call grandma every Sunday at 6pm"), "remind you to call grandma every Sunday at 18:00")
		mustContain(t, c.say("list my reminders"), "Take out the bins", "Water the plants")
		mustContain(t, c.say("what are my recurring reminders?"), "Take out the bins", "Water the plants")
		// A change of one is not a new chore ("change …"), and a bare
		// hour is a time.
		mustContain(t, c.say("change my water the plants reminder to Thursdays"), "is now every Thursday at 09:00")
		mustContain(t, c.say("change it to 6"), "is now every Thursday at 18:00")
		// An end, said after the rule, ends it and is not in the title.
		mustContain(t, c.say("remind me every Friday at 6 until Christmas to call grandma"), "remind you to call grandma every Friday at 18:00, until December 25")
		if ts := c.tasks(); len(ts) != 0 {
			t.Fatalf("tasks %+v; want none", ts)
		}
	})

	t.Run("a reminder's number in the list stays its number", func(t *testing.T) {
		c := newChatter(t, base, app, "Pia", "Europe/Berlin")
		c.say("stop my briefings")
		mustContain(t, c.say("remind me every Tuesday at 7pm to take the bins out"), "every Tuesday")
		// A task reminder sooner than the bins: listed after them, in the
		// order the reminders were made, so numbers never shift.
		mustContain(t, c.say("remind me tomorrow at 9 to call the bank"), "call the bank")
		list := c.say("list my reminders")
		mustContain(t, list, "1. “Take the bins out”", "2. “Call the bank”")
		fireDue(t, app, sched)
		// The bank's heads-up may have fired with it (it depends on the
		// hour the test runs): it is not the answer to what comes next.
		c.catchUp()
		mustContain(t, c.say("cancel reminder 1"), "cancelled", "take the bins out")
		mustContain(t, c.say("list my reminders"), "1. “Call the bank”")
		mustContain(t, c.say("What reminders do I have?"), "1. “Call the bank”")
		mustContain(t, c.say("remind me every day at 8am to take my vitamins"), "I'll remind you to take your vitamins every day")
		// Said twice, set once; another time is another reminder.
		mustContain(t, c.say("Remind me every day at 8am to take my vitamins"), "You already have that reminder: “Take my vitamins” every day at 08:00.")
		mustContain(t, c.say("remind me every day at 9pm to take my vitamins"), "I'll remind you to take your vitamins every day at 21:00")
		mustContain(t, c.say("list my reminders"), "2. “Take my vitamins” every day at 08:00", "3. “Take my vitamins” every day at 21:00")
		if r := c.say("list my reminders"); strings.Contains(r.Text, "4.") {
			t.Fatalf("a reminder said twice was set twice: %q", r.Text)
		}
	})

	t.Run("what was set a moment ago is listed at once", func(t *testing.T) {
		// The planner syncs every 15 seconds; the list does not wait for it.
		c := newChatter(t, base, app, "Ines", "Europe/Berlin")
		c.say("stop my briefings")
		mustContain(t, c.say("list my reminders"), "You have no reminders coming up.")
		mustContain(t, c.say("Remind me to call the plumber tomorrow at 6pm"), "I'll remind you")
		c.say("Remember that Lena's birthday is March 15th")
		mustContain(t, c.say("what are my reminders?"), "1. “Call the plumber” (task; next reminder: tomorrow at 6:00 PM)", "Lena's birthday")
		mustContain(t, c.say("cancel reminder 1"), "Cancelled “Call the plumber”")
	})

	t.Run("a birthday told in chat reminds 3 days before", func(t *testing.T) {
		c := newChatter(t, base, app, "Xan", "Europe/Berlin")
		c.say("Remember that John's birthday is March 15th")
		clock.Set(time.Now())
		fireDue(t, app, sched) // syncs the new memory
		mustContain(t, c.say("list my reminders"), "John's birthday", "March 12")
	})

	t.Run("briefing settings by chat, and briefing now", func(t *testing.T) {
		c := newChatter(t, base, app, "Vic", "America/New_York")
		mustContain(t, c.say("send my briefing at 6:45"), "6:45 AM")
		mustContain(t, c.say("skip the family section"), "family section out")
		mustContain(t, c.say("remind me 2 days before deadlines"), "2 days")
		ct := c.contact()
		var st hearth.ScheduleSettings
		st, err := app.Store.UpdateScheduleSettings(context.Background(), ct.User.ID, hearth.ScheduleSettingsUpdate{})
		if err != nil {
			t.Fatal(err)
		}
		if st.BriefingAt != "06:45" || len(st.BriefingSkip) != 1 || st.BriefingSkip[0] != "family" || len(st.LeadDays) != 1 || st.LeadDays[0] != 2 {
			t.Fatalf("settings %+v", st)
		}
		if r := c.say("briefing now"); !strings.HasSuffix(r.Text, "! "+scheduler.EmptyDay) {
			t.Fatalf("briefing now on an empty day: %q", r.Text)
		}
		c.say("Remind me to renew the passport tomorrow")
		mustContain(t, c.say("briefing now"), "Deadlines", "renew the passport")
		mustContain(t, c.say("stop my briefings"), "no more")
		mustContain(t, c.say("when does my briefing come?"), "Your daily briefing is off")
		// Said as people say it: the time is set, and asked after.
		mustContain(t, c.say("send me a briefing every morning at 7"), "7:00 AM")
		mustContain(t, c.say("what's my briefing time?"), "Your daily briefing comes every day at 7:00 AM (America/New_York)")
		mustContain(t, c.say("change my name to Victoria"), "I'll call you Victoria")
		mustContain(t, c.say("what's my name?"), "You're Victoria")
	})
}

func unmarshalArgs(j *rivertype.JobRow, v any) error { return json.Unmarshal(j.EncodedArgs, v) }

func TestLoadSchedulerConfig(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		wantErr string // a substring naming the variable; "" for success
	}{
		{"defaults", map[string]string{}, ""},
		{"interval too short", map[string]string{"HEARTH_SCHEDULER_INTERVAL": "10ms"}, "HEARTH_SCHEDULER_INTERVAL"},
		{"bad interval", map[string]string{"HEARTH_SCHEDULER_INTERVAL": "often"}, "HEARTH_SCHEDULER_INTERVAL"},
		{"negative grace", map[string]string{"HEARTH_SCHEDULER_GRACE": "-1h"}, "HEARTH_SCHEDULER_GRACE"},
		{"bad switch", map[string]string{"HEARTH_SCHEDULER": "sometimes"}, "HEARTH_SCHEDULER"},
		{"negative workers", map[string]string{"HEARTH_SCHEDULER_WORKERS": "-2"}, "HEARTH_SCHEDULER_WORKERS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("DATABASE_URL", "postgres://localhost/hearth")
			for _, k := range []string{"HEARTH_SCHEDULER", "HEARTH_SCHEDULER_INTERVAL", "HEARTH_SCHEDULER_GRACE", "HEARTH_SCHEDULER_WORKERS"} {
				t.Setenv(k, tt.env[k])
			}
			cfg, err := LoadConfig()
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if !cfg.Scheduler || cfg.SchedulerInterval != 15*time.Second || cfg.SchedulerGrace != 6*time.Hour || cfg.SchedulerWorkers != 8 {
					t.Fatalf("defaults not applied: %+v", cfg)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q: want one line naming %s", err, tt.wantErr)
			}
		})
	}
}

// TestSchedulerRunsInServe is the wiring: with HEARTH_SCHEDULER on, the
// leader's periodic planner and the fire jobs deliver a reminder into the
// web chat on their own, on the real clock.
func TestSchedulerRunsInServe(t *testing.T) {
	t.Parallel()
	base, app, _ := startAppWith(t, func(c *Config) {
		c.Scheduler = true
		c.SchedulerInterval = time.Second
	})
	c := newChatter(t, base, app, "Wes", "Europe/Berlin")
	c.say("stop my briefings")
	due := time.Now().Add(2 * time.Second).Truncate(time.Second)
	if _, err := app.Store.CreateTask(context.Background(), "", hearth.Task{UserID: c.contact().User.ID, Title: "Check the oven", Due: due}); err != nil {
		t.Fatal(err)
	}
	rem := c.reply("the reminder from the planner")
	mustContain(t, rem, "check the oven")
	if len(rem.Buttons) != 3 {
		t.Fatalf("buttons %+v", rem.Buttons)
	}
}
