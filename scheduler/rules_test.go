package scheduler_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth/scheduler/recur"
)

// TestChangedReminderFiresAtItsNewTime changes a daily 09:00 reminder to
// 09:30 on the morning the clocks went forward, after the planner has
// handed the 09:00 occurrence to River but before it ran: the old one is
// dropped when it fires, the new one comes at 09:30 daylight time, and
// the change back (undo) restores 09:00 from the next day.
func TestChangedReminderFiresAtItsNewTime(t *testing.T) {
	t.Parallel()
	b := setup(t, "America/New_York")
	b.stopBriefings(t)
	ctx := context.Background()
	ny, _ := time.LoadLocation("America/New_York")
	// The 2027 spring-forward day (March 14): 09:00 is EDT, 13:00 UTC.
	b.clock.Set(time.Date(2027, 3, 13, 20, 0, 0, 0, ny))
	nine := time.Date(2027, 3, 14, 9, 0, 0, 0, ny)
	id, err := b.st.CreateReminder(ctx, "k1", b.user.User.ID, "Join the standup", []byte(`{"freq":"daily","at":"09:00"}`), nine)
	if err != nil {
		t.Fatal(err)
	}
	b.clock.Set(nine)
	if st := b.plan(t); st.Jobs != 1 {
		t.Fatalf("planned %+v; want the 09:00 occurrence handed to River", st)
	}

	reminders := b.sched.Reminders(b.st)
	before, after, err := reminders.UpdateReminder(ctx, b.user.User.ID, id, recur.Rule{Freq: recur.Daily, At: recur.TimeOfDay{Hour: 9, Minute: 30}})
	if err != nil {
		t.Fatal(err)
	}
	ninethirty := time.Date(2027, 3, 14, 9, 30, 0, 0, ny)
	if !after.NextAt.Equal(ninethirty) || ninethirty.UTC().Hour() != 13 {
		t.Fatalf("next %v → %v; want 09:30 EDT (13:30 UTC)", before.NextAt.In(ny), after.NextAt.In(ny))
	}
	if _, _, err := reminders.UpdateReminder(ctx, b.user.User.ID+1, id, recur.Rule{Freq: recur.Daily, At: recur.TimeOfDay{Hour: 10}}); err == nil {
		t.Fatal("another user changed the reminder")
	}

	b.fireAll(t) // the 09:00 job: no longer an occurrence
	if ms := b.botMessages(t); len(ms) != 0 {
		t.Fatalf("messages %+v after the old occurrence's job; want none", ms)
	}
	b.clock.Set(ninethirty)
	b.plan(t)
	b.fireAll(t)
	ms := b.botMessages(t)
	if len(ms) != 1 || !strings.Contains(ms[0].Text, "Join the standup") {
		t.Fatalf("messages %+v; want one reminder, at 09:30", ms)
	}

	// Undo: the old rule again, its next occurrence counted from now.
	if _, back, err := reminders.UpdateReminder(ctx, b.user.User.ID, id, recur.Rule{Freq: recur.Daily, At: recur.TimeOfDay{Hour: 9}}); err != nil || !back.NextAt.Equal(nine.AddDate(0, 0, 1)) {
		t.Fatalf("back to 09:00: next %v, %v; want tomorrow at 09:00", back.NextAt.In(ny), err)
	}
}
