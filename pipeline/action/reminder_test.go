package action_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/scheduler"
)

// A cancelled recurring reminder comes back on "undo" within the undo
// window, the same schedule reminding from its rule's next occurrence
// after the undo; after the window it stays cancelled.
func TestReminderCancelUndoWindow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		after time.Duration
		back  bool
	}{
		{"within the window", 29 * time.Minute, true},
		{"after it", 31 * time.Minute, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := setup(t)
			ctx := context.Background()
			// The engine's records are stamped by the database: the clock
			// starts at the real time.
			now := time.Now().UTC()
			clock := func() time.Time { return now }
			sched := scheduler.New(scheduler.Config{Store: b.store, Now: clock})
			e := action.NewEngine(b.store, &action.Executor{Reminders: sched.Reminders(b.store)}, nil)
			e.Client, e.Now, e.UndoWindow = b.client, clock, 30*time.Minute
			id, err := b.store.CreateReminder(ctx, "k", b.turn.UserID, "Stretch", []byte(`{"freq":"daily","at":"08:00"}`), now.Add(time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			a := newAction(t, action.ReminderCancel, action.ReminderRefArgs{ID: id, Title: "Stretch"})
			if action.RiskOf(a) != action.Low {
				t.Fatal("cancelling one's own reminder asks for approval")
			}
			if recs, err := e.Run(ctx, b.turn, []action.Action{a}); err != nil || recs[0].State != action.StateDone {
				t.Fatalf("cancel: %+v, %v", recs, err)
			}
			if sc, _ := b.store.Schedule(ctx, id); !sc.Muted || !sc.Gone {
				t.Fatalf("after the cancel: muted %v, cancelled %v", sc.Muted, sc.Gone)
			}
			now = now.Add(tt.after)
			want := time.Date(now.Year(), now.Month(), now.Day(), 8, 0, 0, 0, time.UTC)
			if !want.After(now) {
				want = want.AddDate(0, 0, 1)
			}
			_, ok, err := e.Undo(ctx, b.turn.ConversationID, b.turn.UserID)
			sc, _ := b.store.Schedule(ctx, id)
			switch {
			case tt.back && (!ok || err != nil || sc.Muted || sc.Gone || !sc.NextAt.Equal(want)):
				t.Fatalf("undo: ok=%v err=%v; schedule muted %v cancelled %v next %v; want it back, next %v", ok, err, sc.Muted, sc.Gone, sc.NextAt, want)
			case !tt.back && (!errors.Is(err, action.ErrTooLate) || !sc.Muted):
				t.Fatalf("undo: ok=%v err=%v; schedule muted %v; want too late, still cancelled", ok, err, sc.Muted)
			}
		})
	}
}
