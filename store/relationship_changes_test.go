package store_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/store/storetest"
)

// TestApplyRelationship: a statement creates, confirms, changes (closing
// the old and opening the new) or ends a relationship; undo takes back
// exactly what changed; another user's rows and ends are never touched;
// a refused statement writes nothing.
func TestApplyRelationship(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	ann, eve := newUser(t, st, "Ann"), newUser(t, st, "Eve")
	ent := func(uid int64, name string) int64 {
		e, err := st.SaveEntity(ctx, hearth.Entity{UserID: uid, Name: name})
		if err != nil {
			t.Fatal(err)
		}
		return e.ID
	}
	me, bob, eveBob := ent(ann, "Ann"), ent(ann, "Bob"), ent(eve, "Bob")
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	apply := func(r hearth.Relationship, end bool, at time.Time) (hearth.Relationship, hearth.RelationshipChange) {
		t.Helper()
		r.UserID, r.FromID, r.ToID = ann, me, bob
		out, c, err := st.ApplyRelationship(ctx, r, end, at)
		if err != nil {
			t.Fatal(err)
		}
		return out, c
	}
	open := func() []hearth.Relationship {
		t.Helper()
		rs, err := st.FindRelationships(ctx, hearth.RelationshipFilter{UserID: ann, EntityID: bob, Now: t0.AddDate(1, 0, 0)})
		if err != nil {
			t.Fatal(err)
		}
		return rs
	}

	// Inferred, then stated: one relationship, confirmed; undo makes it a
	// candidate again.
	first, c1 := apply(hearth.Relationship{Label: "friend", Attitude: 4, State: hearth.RelationshipCandidate, Confidence: 0.6}, false, t0)
	if len(c1.Created) != 1 || first.State != hearth.RelationshipCandidate {
		t.Fatalf("first: %+v %+v", first, c1)
	}
	_, c2 := apply(hearth.Relationship{Label: "Friend", State: hearth.RelationshipConfirmed, Confidence: 0.9}, false, t0)
	if !slices.Equal(c2.Confirmed, []int64{first.ID}) || len(c2.Created) != 0 {
		t.Fatalf("confirming: %+v", c2)
	}
	if err := st.UndoRelationshipChange(ctx, ann, c2); err != nil {
		t.Fatal(err)
	}
	if rs := open(); len(rs) != 1 || rs[0].State != hearth.RelationshipCandidate {
		t.Fatalf("after undoing the confirmation: %+v", rs)
	}

	// Closer: the old one closes at t1, a new one holds from t1.
	t1 := t0.AddDate(0, 1, 0)
	closer, c3 := apply(hearth.Relationship{Label: "friend", Attitude: 5, Proximity: 5, State: hearth.RelationshipConfirmed}, false, t1)
	if len(c3.Closed) != 1 || len(c3.Created) != 1 || closer.Proximity != 5 || !closer.ValidFrom.Equal(t1) {
		t.Fatalf("closer: %+v %+v", closer, c3)
	}
	then, err := st.FindRelationships(ctx, hearth.RelationshipFilter{UserID: ann, EntityID: bob, Now: t0.AddDate(0, 0, 10)})
	if err != nil || len(then) != 1 || then[0].ID != first.ID {
		t.Fatalf("what held before: %+v %v", then, err)
	}

	// Ended, with how close they are now: closed, and a distant one opens.
	t2 := t1.AddDate(0, 1, 0)
	_, c4 := apply(hearth.Relationship{Attitude: 3, Proximity: 2, State: hearth.RelationshipConfirmed}, true, t2)
	if rs := open(); len(c4.Closed) != 1 || len(rs) != 1 || rs[0].Proximity != 2 || rs[0].Label != "friend" {
		t.Fatalf("no longer close: %+v %+v", rs, c4)
	}
	if err := st.UndoRelationshipChange(ctx, ann, c4); err != nil {
		t.Fatal(err)
	}
	if rs := open(); len(rs) != 1 || rs[0].ID != closer.ID {
		t.Fatalf("after undoing the end: %+v", rs)
	}

	// Another user's end, or another user undoing: nothing happens.
	if _, _, err := st.ApplyRelationship(ctx, hearth.Relationship{UserID: ann, FromID: me, ToID: eveBob, Label: "friend"}, false, t2); !errors.Is(err, hearth.ErrNotFound) {
		t.Fatalf("another user's end: %v", err)
	}
	if err := st.UndoRelationshipChange(ctx, eve, hearth.RelationshipChange{Created: []int64{closer.ID}}); err != nil {
		t.Fatal(err)
	}
	if rs := open(); len(rs) != 1 || rs[0].ID != closer.ID {
		t.Fatalf("another user's undo changed Ann's: %+v", rs)
	}
	// History told twice is one row, and leaves what holds now alone.
	past := hearth.Relationship{Label: "colleague", ValidFrom: time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC), ValidTo: time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC)}
	p1, pc1 := apply(past, false, t2)
	p2, pc2 := apply(past, false, t2)
	if len(pc1.Created) != 1 || !pc2.Empty() || p1.ID != p2.ID {
		t.Fatalf("history twice: %+v %+v / %+v %+v", p1, pc1, p2, pc2)
	}
	if rs := open(); len(rs) != 1 || rs[0].ID != closer.ID {
		t.Fatalf("history changed what holds: %+v", rs)
	}
	if _, _, err := st.ApplyRelationship(ctx, hearth.Relationship{UserID: ann, FromID: me, ToID: bob, Attitude: 9}, false, t2); !errors.Is(err, hearth.ErrInvalid) {
		t.Fatalf("attitude 9: %v", err)
	}
}
