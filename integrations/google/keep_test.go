package google_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	keep "google.golang.org/api/keep/v1"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/integrations/google"
)

func TestKeepCreateListDelete(t *testing.T) {
	t.Parallel()
	b := setup(t, "UTC")
	b.fake.EnableKeep(email)
	b.connectWith(t, google.KeepScopes...)
	k, ctx := b.g.Notes(b.st), context.Background()

	n, err := k.CreateNote(ctx, "t1:0", hearth.Note{UserID: b.user.ID, Title: "Packing", Items: []hearth.ChecklistItem{{Text: "passport"}, {Text: "charger"}}})
	if err != nil {
		t.Fatal(err)
	}
	if n.Where != "in Google Keep" {
		t.Fatalf("where %q", n.Where)
	}
	if _, err := k.CreateNote(ctx, "t1:0", hearth.Note{UserID: b.user.ID, Title: "Packing"}); err != nil { // a retry
		t.Fatal(err)
	}
	kn := b.fake.KeepNotes(email)
	if len(kn) != 1 || kn[0].Title != "Packing" || len(kn[0].Body.List.ListItems) != 2 {
		t.Fatalf("keep notes %+v", kn)
	}
	// An edit recreates the Keep note and deletes the old; the user is told.
	_, after, err := k.CheckItems(ctx, "t2:0", b.user.ID, n.ID, []string{"passport"}, true)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(after.Where, "replaced it") {
		t.Fatalf("where %q", after.Where)
	}
	kn2 := b.fake.KeepNotes(email)
	if len(kn2) != 1 || kn2[0].Name == kn[0].Name || !kn2[0].Body.List.ListItems[0].Checked {
		t.Fatalf("after the edit, keep notes %+v", kn2)
	}
	// Asked to add what is already on it: nothing changes, in Keep too
	// (no copy replaced, nothing to tell).
	_, same, err := k.AppendNote(ctx, "t3:0", b.user.ID, n.ID, "", []hearth.ChecklistItem{{Text: "Charger"}})
	if err != nil || same.Where != "" {
		t.Fatalf("append of an item on the list: where %q, %v", same.Where, err)
	}
	if kn3 := b.fake.KeepNotes(email); len(kn3) != 1 || kn3[0].Name != kn2[0].Name {
		t.Fatalf("after an append that changed nothing, keep notes %+v; want %+v", kn3, kn2)
	}
	// Taking an item off: the Keep copy is replaced without it.
	if _, _, err := k.RemoveItems(ctx, "t4:0", b.user.ID, n.ID, []string{"passport"}); err != nil {
		t.Fatal(err)
	}
	if kn4 := b.fake.KeepNotes(email); len(kn4) != 1 || kn4[0].Name == kn2[0].Name || len(kn4[0].Body.List.ListItems) != 1 {
		t.Fatalf("after a removal, keep notes %+v; want a copy with the charger alone", kn4)
	}
	// Renamed: the Keep copy is replaced with the new title; a retry
	// changes nothing more.
	if _, after, err := k.RenameNote(ctx, "t5:0", b.user.ID, n.ID, "Rome trip"); err != nil || after.Title != "Rome trip" {
		t.Fatalf("rename: %+v, %v", after, err)
	}
	kn5 := b.fake.KeepNotes(email)
	if len(kn5) != 1 || kn5[0].Title != "Rome trip" || len(kn5[0].Body.List.ListItems) != 1 {
		t.Fatalf("after the rename, keep notes %+v", kn5)
	}
	if before, after, err := k.RenameNote(ctx, "t5:0", b.user.ID, n.ID, "Rome trip"); err != nil || before.Title != "Packing" || after.Title != "Rome trip" {
		t.Fatalf("retried rename: %+v → %+v, %v; want the first rename's", before, after, err)
	}
	// A note made in Keep itself is listed; one deleted in Keep goes.
	b.fake.PutKeepNote(email, &keep.Note{Title: "Gift ideas", Body: &keep.Section{Text: &keep.TextContent{Text: "a kite"}}})
	ns, err := k.FindNotes(ctx, hearth.NoteFilter{UserID: b.user.ID})
	if err != nil || len(ns) != 2 {
		t.Fatalf("notes %+v %v", ns, err)
	}
	// Deleted in Hearth: gone from Keep.
	if _, err := k.DeleteNote(ctx, b.user.ID, n.ID); err != nil {
		t.Fatal(err)
	}
	if kn := b.fake.KeepNotes(email); len(kn) != 1 || kn[0].Title != "Gift ideas" {
		t.Fatalf("after delete, keep notes %+v", kn)
	}
	b.fake.DeleteKeepNote(email, b.fake.KeepNotes(email)[0].Name)
	if ns, _ := k.FindNotes(ctx, hearth.NoteFilter{UserID: b.user.ID}); len(ns) != 0 {
		t.Fatalf("notes deleted in Keep are still listed: %+v", ns)
	}
}

func TestKeepRefusedFallsBackToBuiltin(t *testing.T) {
	t.Parallel()
	b := setup(t, "UTC")
	b.connectWith(t, google.KeepScopes...) // a consumer account: the fake refuses 403
	k, ctx := b.g.Notes(b.st), context.Background()
	for i, title := range []string{"Ideas", "Books"} {
		n, err := k.CreateNote(ctx, "k"+title, hearth.Note{UserID: b.user.ID, Title: title, Body: "x"})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(n.Where, "Hearth's notes") || n.ID == 0 {
			t.Fatalf("note %d: %+v", i, n)
		}
	}
	// The refusal is remembered: the second note did not ask Keep again.
	if c := b.fake.Count("POST /v1/notes"); c != 1 {
		t.Fatalf("Keep asked %d times", c)
	}
	ns, _ := k.FindNotes(ctx, hearth.NoteFilter{UserID: b.user.ID})
	if len(ns) != 2 {
		t.Fatalf("built-in notes %+v", ns)
	}
	// 404 (the API not found for the project) is a refusal too.
	b2 := setup(t, "UTC")
	b2.fake.EnableKeep(email)
	b2.connectWith(t, google.KeepScopes...)
	b2.fake.Fail(http.MethodPost, "/v1/notes", http.StatusNotFound, 1)
	n, err := b2.g.Notes(b2.st).CreateNote(ctx, "a", hearth.Note{UserID: b2.user.ID, Title: "A", Body: "b"})
	if err != nil || !strings.Contains(n.Where, "Hearth's notes") || len(b2.fake.KeepNotes(email)) != 0 {
		t.Fatalf("404: %+v %v", n, err)
	}
}

func TestFamilyListsStayBuiltin(t *testing.T) {
	t.Parallel()
	b := setup(t, "UTC")
	b.fake.EnableKeep(email)
	b.connectWith(t, google.KeepScopes...)
	ctx := context.Background()
	if _, err := b.st.CreateFamilyInvite(ctx, b.user.ID, time.Hour); err != nil { // starts the family
		t.Fatal(err)
	}
	n, err := b.g.Notes(b.st).CreateNote(ctx, "f", hearth.Note{UserID: b.user.ID, Family: true, Title: "Shopping list", Items: []hearth.ChecklistItem{{Text: "milk"}}})
	if err != nil {
		t.Fatal(err)
	}
	if n.Where != "" || !n.Family || len(b.fake.KeepNotes(email)) != 0 {
		t.Fatalf("family list went to Keep: %+v", n)
	}
}
