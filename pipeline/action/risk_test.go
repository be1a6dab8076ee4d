package action_test

import (
	"context"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
)

// TestOwnEventDeleteIsLowRisk checks the turn's risks against the events
// themselves: the user's own event that no one else is on, deleted in
// their own words, goes at once and is undone; one with attendees, one on
// the family's Google calendar, one that is not theirs, one a model
// planned, and any in a bulk plan (two deletes, or more than BulkLimit
// actions) wait for approval.
func TestOwnEventDeleteIsLowRisk(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	start := time.Date(2026, 12, 3, 15, 0, 0, 0, time.UTC)
	mk := func(key, title string, attendees []string) hearth.CalendarEvent {
		t.Helper()
		e, err := b.store.CreateEvent(ctx, key, hearth.CalendarEvent{UserID: b.turn.UserID, Title: title, Start: start, End: start.Add(time.Hour), Attendees: attendees})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	haircut := mk("risk:haircut", "Haircut", nil)
	lunch := mk("risk:lunch", "Lunch with Sam", []string{"sam@example.com"})
	bobs, err := b.store.CreateEvent(ctx, "risk:bob", hearth.CalendarEvent{UserID: b.other, Title: "Bob's dentist", Start: start, End: start.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	del := func(id int64) action.Action { return newAction(t, action.CalendarDelete, action.EventRefArgs{ID: id}) }

	// One delete a turn: a plan of several is a bulk change, asked
	// about (below).
	for i, c := range []struct {
		id   int64
		want action.State
	}{{haircut.ID, action.StateDone}, {lunch.ID, action.StateAwaitingApproval}, {bobs.ID, action.StateAwaitingApproval}} {
		own := b.turn
		if i > 0 {
			own = b.newTurn(t, "ann")
			own.UserID = b.turn.UserID
		}
		own.OwnWords = true
		recs, err := b.engine.Run(ctx, own, []action.Action{del(c.id)})
		if err != nil {
			t.Fatal(err)
		}
		if recs[0].State != c.want {
			t.Errorf("delete of event %d: %s; want %s", c.id, recs[0].State, c.want)
		}
	}
	if evs, _ := b.store.FindEvents(ctx, hearth.CalendarEventFilter{UserID: b.turn.UserID}); len(evs) != 1 || evs[0].ID != lunch.ID {
		t.Fatalf("events after the turn: %+v; want only the lunch", evs)
	}
	if r, ok, err := b.engine.Undo(ctx, b.turn.ConversationID, b.turn.UserID); err != nil || !ok || r.Action.Kind != action.CalendarDelete {
		t.Fatalf("undo: %+v %v %v", r, ok, err)
	}
	if evs, _ := b.store.FindEvents(ctx, hearth.CalendarEventFilter{UserID: b.turn.UserID}); len(evs) != 2 {
		t.Fatalf("events after undo: %+v; want the haircut back", evs)
	}

	// Planned by a model (which may have read an event's description):
	// asked, though the event is the user's own.
	mt := b.newTurn(t, "ann")
	mt.UserID = b.turn.UserID
	recs, err := b.engine.Run(ctx, mt, []action.Action{del(mk("risk:yoga", "Yoga", nil).ID)})
	if err != nil || recs[0].State != action.StateAwaitingApproval {
		t.Fatalf("a delete not in the user's own words: %+v, %v; want it to wait", recs, err)
	}

	// Two of the user's own events at once ("cancel everything on
	// Friday"), or more than BulkLimit actions: asked, however much each
	// is the user's.
	two := b.newTurn(t, "ann")
	two.UserID, two.OwnWords = b.turn.UserID, true
	recs, err = b.engine.Run(ctx, two, []action.Action{del(mk("risk:two-a", "Swim", nil).ID), del(mk("risk:two-b", "Piano", nil).ID)})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.State != action.StateAwaitingApproval {
			t.Fatalf("one of two deletes ran without asking: %+v", r)
		}
	}
	var bulk []action.Action
	for i := range action.BulkLimit + 1 {
		bulk = append(bulk, del(mk("risk:bulk"+string(rune('a'+i)), "Run", nil).ID))
	}
	bt := b.newTurn(t, "ann")
	bt.UserID, bt.OwnWords = b.turn.UserID, true
	recs, err = b.engine.Run(ctx, bt, bulk)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.State != action.StateAwaitingApproval {
			t.Fatalf("a bulk delete ran without asking: %+v", r)
		}
	}

	// On the family's Google calendar: everyone's.
	if _, err := b.store.Pool().Exec(ctx, `INSERT INTO google_accounts (user_id, email, token) VALUES ($1, 'ann@example.com', '\x00')`, b.turn.UserID); err != nil {
		t.Fatal(err)
	}
	if _, err := b.store.Pool().Exec(ctx, `INSERT INTO google_calendars (user_id, calendar_id, is_family) VALUES ($1, 'family@group', true)`, b.turn.UserID); err != nil {
		t.Fatal(err)
	}
	if _, err := b.store.Pool().Exec(ctx, `UPDATE events SET calendar_id = 'family@group', external_id = 'haircut1' WHERE id = $1`, haircut.ID); err != nil {
		t.Fatal(err)
	}
	if shared, err := b.store.EventShared(ctx, b.turn.UserID, haircut.ID); err != nil || !shared {
		t.Fatalf("an event on the family calendar: shared %v (%v); want shared", shared, err)
	}
}
