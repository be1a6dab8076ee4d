package store_test

import (
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/store/storetest"
)

func TestFamilyLists(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	b := users(t, st)
	carol := newUser(t, st, "Carol")
	// Alice and Bob are a family; Carol is not in it.
	inv, err := st.CreateFamilyInvite(b.ctx, b.alice, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.JoinFamily(b.ctx, hearth.NormaliseCode(inv.Code), b.bob); err != nil {
		t.Fatal(err)
	}

	_, err = st.CreateNote(b.ctx, "", hearth.Note{UserID: carol, Title: "Shopping list", Family: true, Items: []hearth.ChecklistItem{{Text: "tea"}}})
	wantInvalid(t, err)

	list, err := st.CreateNote(b.ctx, "k1", hearth.Note{UserID: b.alice, Title: "Shopping list", Family: true, Items: []hearth.ChecklistItem{{Text: "milk"}}})
	if err != nil || !list.Family {
		t.Fatalf("family list = %+v, %v", list, err)
	}
	mine, err := st.CreateNote(b.ctx, "", hearth.Note{UserID: b.alice, Title: "Gift ideas", Items: []hearth.ChecklistItem{{Text: "scarf"}}})
	if err != nil {
		t.Fatal(err)
	}

	// Bob reads and changes the family list, not Alice's own.
	seen, err := st.FindNotes(b.ctx, hearth.NoteFilter{UserID: b.bob, Title: "shopping"})
	if err != nil || len(seen) != 1 || seen[0].ID != list.ID {
		t.Fatalf("bob sees %+v, %v; want the family list", seen, err)
	}
	if all, _ := st.FindNotes(b.ctx, hearth.NoteFilter{UserID: b.bob}); len(all) != 1 {
		t.Fatalf("bob sees %d notes; want only the family's", len(all))
	}
	if _, _, err := st.AppendNote(b.ctx, "k2", b.bob, list.ID, "", []hearth.ChecklistItem{{Text: "eggs"}}); err != nil {
		t.Fatal(err)
	}
	_, _, err = st.AppendNote(b.ctx, "k3", b.bob, mine.ID, "", []hearth.ChecklistItem{{Text: "x"}})
	wantNotFound(t, "bob appends to alice's own list", err)

	// Ticking off, once per key, by any member.
	before, after, err := st.CheckItems(b.ctx, "k4", b.alice, list.ID, []string{"MILK"}, true)
	if err != nil || before.Items[0].Done || !after.Items[0].Done || after.Items[1].Done {
		t.Fatalf("tick = %+v → %+v, %v", before.Items, after.Items, err)
	}
	again, _, err := st.CheckItems(b.ctx, "k4", b.alice, list.ID, []string{"milk"}, true)
	if err != nil || again.Items[0].Done {
		t.Fatalf("retried tick = %+v, %v; want the first before", again.Items, err)
	}
	_, _, err = st.CheckItems(b.ctx, "k5", b.alice, list.ID, []string{"caviar"}, true)
	wantInvalid(t, err)

	// Carol sees and changes nothing of it.
	if got, _ := st.FindNotes(b.ctx, hearth.NoteFilter{UserID: carol}); len(got) != 0 {
		t.Fatalf("carol sees %+v", got)
	}
	_, _, err = st.AppendNote(b.ctx, "k6", carol, list.ID, "", []hearth.ChecklistItem{{Text: "x"}})
	wantNotFound(t, "carol appends", err)
	_, _, err = st.CheckItems(b.ctx, "k7", carol, list.ID, []string{"eggs"}, true)
	wantNotFound(t, "carol ticks", err)
	if err := st.SetNote(b.ctx, hearth.Note{ID: list.ID, UserID: carol, Title: "pwned"}); err == nil {
		t.Fatal("carol overwrote the family list")
	}

	// Taking an item off, once per key, by any member; carol cannot.
	before, after, err = st.RemoveItems(b.ctx, "k8", b.bob, list.ID, []string{"EGGS"})
	if err != nil || len(before.Items) != 2 || len(after.Items) != 1 || !strings.EqualFold(after.Items[0].Text, "milk") {
		t.Fatalf("remove = %+v → %+v, %v; want eggs gone, milk kept", before.Items, after.Items, err)
	}
	if again, _, err := st.RemoveItems(b.ctx, "k8", b.bob, list.ID, []string{"eggs"}); err != nil || len(again.Items) != 2 {
		t.Fatalf("retried remove = %+v, %v; want the first before", again.Items, err)
	}
	_, _, err = st.RemoveItems(b.ctx, "k9", b.bob, list.ID, []string{"eggs"})
	wantInvalid(t, err)
	_, _, err = st.RemoveItems(b.ctx, "k10", carol, list.ID, []string{"milk"})
	wantNotFound(t, "carol removes", err)

	// Leaving the family takes the list away, even from its creator.
	if _, err := st.LeaveFamily(b.ctx, b.alice); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.FindNotes(b.ctx, hearth.NoteFilter{UserID: b.alice, Title: "shopping"}); len(got) != 0 {
		t.Fatalf("alice still sees the family list after leaving: %+v", got)
	}
	if got, _ := st.FindNotes(b.ctx, hearth.NoteFilter{UserID: b.bob, Title: "shopping"}); len(got) != 1 {
		t.Fatalf("bob lost the family list when alice left: %+v", got)
	}
}
