package store_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/pipelinetest"
	"github.com/hearthbot/hearth/store/storetest"
)

func TestDeliverScheduledOnce(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	c, err := st.SignIn(ctx, hearth.ChannelWebchat, "ann", "Ann", "ann", "Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, false} {
		tx, err := st.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		id, conv, ch, stored, err := st.StoreScheduledTx(ctx, tx, c.User.ID, "sched:1:100", hearth.Outbound{Text: "Reminder"})
		if err != nil || stored != want || stored && (conv != c.ConversationID || ch != hearth.ChannelWebchat) {
			t.Fatalf("delivery %d: stored %v in %d (%s), %v; want %v", i+1, stored, conv, ch, err, want)
		}
		if stored {
			if err := st.MarkVisibleTx(ctx, tx, conv, []int64{id}); err != nil {
				t.Fatal(err)
			}
		}
		if err := st.Commit(ctx, tx); err != nil {
			t.Fatal(err)
		}
	}
	ms, err := st.Messages(ctx, c.ConversationID, 0, 10)
	if err != nil || len(ms) != 1 || ms[0].Text != "Reminder" {
		t.Fatalf("transcript %+v, %v", ms, err)
	}
	// A recurring reminder is created once per key.
	id, err := st.CreateReminder(ctx, "k", c.User.ID, "Water the plants", []byte(`{"freq":"daily","at":"09:00"}`), ms[0].CreatedAt)
	if err != nil || id == 0 {
		t.Fatalf("create reminder: %d, %v", id, err)
	}
	again, err := st.CreateReminder(ctx, "k", c.User.ID, "Water the plants", []byte(`{"freq":"daily","at":"09:00"}`), ms[0].CreatedAt)
	if err != nil || again != id {
		t.Fatalf("create reminder again: %d, %v; want %d", again, err, id)
	}
	if _, err := st.CreateReminder(ctx, "k2", c.User.ID, "", []byte(`{}`), ms[0].CreatedAt); !errors.Is(err, hearth.ErrInvalid) {
		t.Fatalf("empty reminder: %v; want invalid", err)
	}
	// The rules of the reminders with the same words (ignoring case), but
	// for the one the key named, and none of a cancelled one.
	if rules, err := st.ReminderRules(ctx, c.User.ID, "water THE plants", "k9"); err != nil || len(rules) != 1 || string(rules[0]) != `{"at": "09:00", "freq": "daily"}` {
		t.Fatalf("reminder rules = %s, %v; want the daily one", rules, err)
	}
	if rules, err := st.ReminderRules(ctx, c.User.ID, "Water the plants", "k"); err != nil || len(rules) != 0 {
		t.Fatalf("reminder rules but k's = %s, %v; want none", rules, err)
	}
	if err := st.MuteSchedule(ctx, c.User.ID, id); err != nil {
		t.Fatal(err)
	}
	if rules, err := st.ReminderRules(ctx, c.User.ID, "Water the plants", "k9"); err != nil || len(rules) != 0 {
		t.Fatalf("reminder rules after cancelling = %s, %v; want none", rules, err)
	}
}

// A briefing or reminder goes to the user's last chat only when that chat
// is theirs alone: after Ann last wrote in a group Bob speaks in too, it
// goes to her own chat.
func TestScheduledMessagesAvoidSharedChats(t *testing.T) {
	t.Parallel()
	st, inbox := pipelinetest.NewInbox(t, "")
	ctx := context.Background()
	say := func(user, conv, id string) hearth.Receipt {
		t.Helper()
		r, err := inbox.Accept(ctx, hearth.Inbound{Channel: hearth.ChannelTelegram, ExternalID: id, ConversationKey: conv,
			UserKey: user, UserName: user, Timezone: "UTC", Kind: hearth.KindMessage, Text: "hi"})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	private := say("ann", "ann-dm", "1")
	say("bob", "family-group", "2")
	group := say("ann", "family-group", "3")
	tx, err := st.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // read only
	_, to, _, _, err := st.StoreScheduledTx(ctx, tx, private.UserID, "briefing:test", hearth.Outbound{Text: "Your day"})
	if err != nil {
		t.Fatal(err)
	}
	if to != private.ConversationID || to == group.ConversationID {
		t.Fatalf("briefing went to conversation %d; want Ann's own %d, not the group %d", to, private.ConversationID, group.ConversationID)
	}
}

func TestLinkingMovesReminders(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	web, err := st.SignIn(ctx, hearth.ChannelWebchat, "ann", "Ann", "ann", "Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	tg, err := st.SignIn(ctx, hearth.ChannelTelegram, "555", "Ann T", "555", "")
	if err != nil {
		t.Fatal(err)
	}
	next := time.Now().Add(time.Hour)
	id, err := st.CreateReminder(ctx, "k", tg.User.ID, "Water the plants", []byte(`{"freq":"daily","at":"09:00"}`), next)
	if err != nil {
		t.Fatal(err)
	}
	code, err := st.CreateLinkCode(ctx, web.User.ID, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.RedeemLinkCode(ctx, hearth.NormaliseCode(code), tg.User.ID); err != nil {
		t.Fatal(err)
	}
	up, err := st.UpcomingSchedules(ctx, web.User.ID, 10)
	if err != nil || len(up) != 1 || up[0].ID != id || up[0].Title != "Water the plants" {
		t.Fatalf("after linking: %+v, %v", up, err)
	}
}

// TestSetReminderRule checks that a recurring reminder's rule and next
// occurrence change together, for its owner only, and never once it is
// cancelled.
func TestSetReminderRule(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	ann, err := st.SignIn(ctx, hearth.ChannelWebchat, "ann", "Ann", "ann", "Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	bob, err := st.SignIn(ctx, hearth.ChannelWebchat, "bob", "Bob", "bob", "Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	next := time.Now().Add(time.Hour).UTC().Truncate(time.Second)
	id, err := st.CreateReminder(ctx, "k", ann.User.ID, "Stretch", []byte(`{"freq":"daily","at":"09:00"}`), next)
	if err != nil {
		t.Fatal(err)
	}
	moved := next.Add(30 * time.Minute)
	if _, _, err := st.SetReminderRule(ctx, bob.User.ID, id, []byte(`{"freq":"daily","at":"09:30"}`), moved); !errors.Is(err, hearth.ErrNotFound) {
		t.Fatalf("another user's change: %v; want not found", err)
	}
	before, after, err := st.SetReminderRule(ctx, ann.User.ID, id, []byte(`{"freq":"daily","at":"09:30"}`), moved)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(before.Rule), `"09:00"`) || !before.NextAt.Equal(next) ||
		!strings.Contains(string(after.Rule), `"09:30"`) || !after.NextAt.Equal(moved) || after.Title != "Stretch" {
		t.Fatalf("before %s at %v, after %s at %v", before.Rule, before.NextAt, after.Rule, after.NextAt)
	}
	if err := st.MuteSchedule(ctx, ann.User.ID, id); err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.SetReminderRule(ctx, ann.User.ID, id, []byte(`{"freq":"daily","at":"10:00"}`), moved); !errors.Is(err, hearth.ErrNotFound) {
		t.Fatalf("a cancelled reminder's change: %v; want not found", err)
	}
}

// CancelReminder and RestoreReminder act only on the user's own
// recurring reminder, each once: restored, it is the same schedule and
// rule, next at the instant given, and nothing at or before from is
// planned again.
func TestCancelAndRestoreReminder(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	ann, err := st.SignIn(ctx, hearth.ChannelWebchat, "ann", "Ann", "ann", "UTC")
	if err != nil {
		t.Fatal(err)
	}
	bob, err := st.SignIn(ctx, hearth.ChannelWebchat, "bob", "Bob", "bob", "UTC")
	if err != nil {
		t.Fatal(err)
	}
	next := time.Date(2027, 1, 4, 9, 0, 0, 0, time.UTC)
	rule := `{"at": "09:00", "freq": "daily"}` // as jsonb writes it
	id, err := st.CreateReminder(ctx, "k", ann.User.ID, "Stretch", []byte(rule), next)
	if err != nil {
		t.Fatal(err)
	}
	uid := ann.User.ID
	from, later := next.Add(48*time.Hour), next.Add(72*time.Hour)
	steps := []struct {
		name string
		run  func() (hearth.Schedule, error)
		ok   bool
	}{
		{"restore one not cancelled", func() (hearth.Schedule, error) { return st.RestoreReminder(ctx, uid, id, from, later) }, false},
		{"cancel another's", func() (hearth.Schedule, error) { return st.CancelReminder(ctx, bob.User.ID, id) }, false},
		{"cancel", func() (hearth.Schedule, error) { return st.CancelReminder(ctx, uid, id) }, true},
		{"cancel again", func() (hearth.Schedule, error) { return st.CancelReminder(ctx, uid, id) }, false},
		{"restore another's", func() (hearth.Schedule, error) { return st.RestoreReminder(ctx, bob.User.ID, id, from, later) }, false},
		{"restore", func() (hearth.Schedule, error) { return st.RestoreReminder(ctx, uid, id, from, later) }, true},
	}
	for _, s := range steps {
		sc, err := s.run()
		if s.ok != (err == nil) || !s.ok && !errors.Is(err, hearth.ErrNotFound) {
			t.Fatalf("%s: %v; want ok %v or not found", s.name, err, s.ok)
		}
		if s.ok && (sc.ID != id || string(sc.Rule) != rule) {
			t.Fatalf("%s: schedule %d rule %s; want %d %s", s.name, sc.ID, sc.Rule, id, rule)
		}
	}
	sc, err := st.Schedule(ctx, id)
	if err != nil || sc.Muted || sc.Gone || !sc.NextAt.Equal(later) || !sc.PlannedUntil.Equal(from) {
		t.Fatalf("restored: muted %v cancelled %v next %v planned until %v, %v; want next %v, planned until %v",
			sc.Muted, sc.Gone, sc.NextAt, sc.PlannedUntil, err, later, from)
	}
	if scs, _ := st.UpcomingSchedules(ctx, uid, 10); len(scs) != 1 || scs[0].ID != id {
		t.Fatalf("upcoming %+v; want the restored reminder", scs)
	}
}
