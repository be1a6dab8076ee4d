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

// TestCancelledReminderComesBack cancels a daily 09:00 reminder and
// restores it (what undo does): cancelled after its 09:00 job was
// planned, that job sends nothing; restored two days later, the
// occurrences it missed do not come in a burst and the next is
// tomorrow's; restored before a planned occurrence, that job sends it
// once. Another user can do neither.
func TestCancelledReminderComesBack(t *testing.T) {
	t.Parallel()
	b := setup(t, "Europe/Berlin")
	b.stopBriefings(t)
	ctx := context.Background()
	berlin, _ := time.LoadLocation("Europe/Berlin")
	uid := b.user.User.ID
	day := func(d, h, m int) time.Time { return time.Date(2027, 3, d, h, m, 0, 0, berlin) }
	b.clock.Set(day(1, 20, 0))
	id, err := b.st.CreateReminder(ctx, "k1", uid, "Take the vitamins", []byte(`{"freq":"daily","at":"09:00"}`), day(2, 9, 0))
	if err != nil {
		t.Fatal(err)
	}
	reminders := b.sched.Reminders(b.st)
	b.clock.Set(day(2, 9, 0))
	if st := b.plan(t); st.Jobs != 1 {
		t.Fatalf("planned %+v; want the 09:00 occurrence handed to River", st)
	}
	if _, err := reminders.CancelReminder(ctx, uid+1, id); err == nil {
		t.Fatal("another user cancelled the reminder")
	}
	before, err := reminders.CancelReminder(ctx, uid, id)
	if err != nil || before.ID != id || before.Muted {
		t.Fatalf("cancel: %+v, %v", before, err)
	}
	b.fireAll(t)
	if ms := b.botMessages(t); len(ms) != 0 {
		t.Fatalf("messages %+v from a cancelled reminder", ms)
	}

	// Restored at noon two days on: the next is the 5th's.
	b.clock.Set(day(4, 12, 0))
	if _, err := reminders.RestoreReminder(ctx, uid+1, id); err == nil {
		t.Fatal("another user restored the reminder")
	}
	after, err := reminders.RestoreReminder(ctx, uid, id)
	if err != nil || after.ID != id || after.Muted || after.Gone || string(after.Rule) != string(before.Rule) || !after.NextAt.Equal(day(5, 9, 0)) {
		t.Fatalf("restore: id %d muted %v gone %v rule %s next %v, %v; want the same reminder, next on the 5th at 09:00",
			after.ID, after.Muted, after.Gone, after.Rule, after.NextAt.In(berlin), err)
	}
	b.plan(t)
	b.fireAll(t)
	if ms := b.botMessages(t); len(ms) != 0 {
		t.Fatalf("messages %+v; want none of the missed occurrences", ms)
	}
	if _, err := reminders.RestoreReminder(ctx, uid, id); err == nil {
		t.Fatal("restored a reminder that is not cancelled")
	}

	// Cancelled and restored while its next job waits in River: that job
	// sends it, and the planner does not plan it again.
	b.clock.Set(day(5, 9, 0))
	if st := b.plan(t); st.Jobs != 1 {
		t.Fatalf("planned %+v; want the 5th's occurrence handed to River", st)
	}
	if _, err := reminders.CancelReminder(ctx, uid, id); err != nil {
		t.Fatal(err)
	}
	back, err := reminders.RestoreReminder(ctx, uid, id)
	if err != nil || !back.NextAt.Equal(day(6, 9, 0)) {
		t.Fatalf("restore: next %v, %v; want the 6th at 09:00 (the 5th's is planned)", back.NextAt.In(berlin), err)
	}
	if st := b.plan(t); st.Jobs != 0 {
		t.Fatalf("planned %+v; want nothing more", st)
	}
	b.fireAll(t)
	if ms := b.botMessages(t); len(ms) != 1 || !strings.Contains(ms[0].Text, "Take the vitamins") {
		t.Fatalf("messages %+v; want the 5th's reminder, once", ms)
	}
}

// TestSkippedOccurrenceIsNotSent skips one day of a daily 09:00 reminder
// after the planner handed that day's occurrence to River: its job sends
// nothing, the next day's comes, and undo (the rule without the skips)
// before another skipped day brings that day back.
func TestSkippedOccurrenceIsNotSent(t *testing.T) {
	t.Parallel()
	b := setup(t, "Europe/Berlin")
	b.stopBriefings(t)
	ctx := context.Background()
	berlin, _ := time.LoadLocation("Europe/Berlin")
	uid := b.user.User.ID
	day := func(d, h int) time.Time { return time.Date(2027, 3, d, h, 0, 0, 0, berlin) }
	b.clock.Set(day(1, 20))
	id, err := b.st.CreateReminder(ctx, "k1", uid, "Take the pills", []byte(`{"freq":"daily","at":"09:00"}`), day(2, 9))
	if err != nil {
		t.Fatal(err)
	}
	reminders := b.sched.Reminders(b.st)
	b.clock.Set(day(2, 9))
	if st := b.plan(t); st.Jobs != 1 {
		t.Fatalf("planned %+v; want the 09:00 occurrence handed to River", st)
	}
	daily := recur.Rule{Freq: recur.Daily, At: recur.TimeOfDay{Hour: 9}}
	skip := daily
	skip.Skip = []recur.Date{{Year: 2027, Month: 3, Day: 2}, {Year: 2027, Month: 3, Day: 4}}
	if _, after, err := reminders.UpdateReminder(ctx, uid, id, skip); err != nil || !after.NextAt.Equal(day(3, 9)) {
		t.Fatalf("skip: next %v, %v; want the 3rd at 09:00", after.NextAt.In(berlin), err)
	}
	b.fireAll(t)
	if ms := b.botMessages(t); len(ms) != 0 {
		t.Fatalf("messages %+v from a skipped occurrence", ms)
	}
	b.clock.Set(day(3, 9))
	b.plan(t)
	b.fireAll(t)
	if ms := b.botMessages(t); len(ms) != 1 {
		t.Fatalf("%d messages; want the 3rd's", len(ms))
	}
	b.clock.Set(day(3, 20))
	if _, after, err := reminders.UpdateReminder(ctx, uid, id, daily); err != nil || !after.NextAt.Equal(day(4, 9)) {
		t.Fatalf("undo: next %v, %v; want the 4th at 09:00 back", after.NextAt.In(berlin), err)
	}
	b.clock.Set(day(4, 9))
	b.plan(t)
	b.fireAll(t)
	if ms := b.botMessages(t); len(ms) != 2 {
		t.Fatalf("%d messages; want the 4th's too", len(ms))
	}
}
