package store_test

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/store/storetest"
)

func noteTitles(ns []hearth.Note) []string {
	return titles(ns, func(n hearth.Note) string { return n.Title })
}

func TestNotes(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)

	t.Run("create is idempotent and round-trips", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		in := hearth.Note{UserID: b.alice, Title: "Shopping list", Labels: []string{"home", " "},
			Items: []hearth.ChecklistItem{{Text: "eggs"}, {Text: "flour", Done: true}}}
		first, err := b.st.CreateNote(b.ctx, "turn:3:0", in)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(first.Labels, []string{"home"}) || !reflect.DeepEqual(first.Items, in.Items) || first.Body != "" {
			t.Fatalf("created %+v; want labels [home] and the items", first)
		}
		again, err := b.st.CreateNote(b.ctx, "turn:3:0", hearth.Note{UserID: b.alice, Title: "Else"})
		if err != nil || !reflect.DeepEqual(again, first) {
			t.Fatalf("second create = %+v, %v; want %+v", again, err, first)
		}
		if n := count(t, b, "notes", b.alice); n != 1 {
			t.Fatalf("%d notes; want 1", n)
		}
	})

	t.Run("bad input is refused and nothing is written", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		for _, n := range []hearth.Note{
			{UserID: b.alice, Title: " "},
			{UserID: b.alice, Title: "List", Items: []hearth.ChecklistItem{{Text: "ok"}, {Text: ""}}},
			{Title: "No user"},
		} {
			_, err := b.st.CreateNote(b.ctx, "", n)
			wantInvalid(t, err)
		}
		if n := count(t, b, "notes", b.alice); n != 0 {
			t.Fatalf("%d notes written; want 0", n)
		}
	})

	t.Run("append once per key, then undo with SetNote", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		note, err := b.st.CreateNote(b.ctx, "", hearth.Note{UserID: b.alice, Title: "Groceries", Body: "Saturday market",
			Items: []hearth.ChecklistItem{{Text: "eggs"}}})
		if err != nil {
			t.Fatal(err)
		}
		before, after, err := b.st.AppendNote(b.ctx, "turn:4:0", b.alice, note.ID, "ask for the good bread",
			[]hearth.ChecklistItem{{Text: " milk "}, {Text: "apples"}})
		if err != nil {
			t.Fatal(err)
		}
		wantItems := []hearth.ChecklistItem{{Text: "eggs"}, {Text: "milk"}, {Text: "apples"}}
		if !reflect.DeepEqual(before, note) || after.Body != "Saturday market\nask for the good bread" || !reflect.DeepEqual(after.Items, wantItems) {
			t.Fatalf("append: before %+v, after %+v", before, after)
		}
		// The after returned (and recorded for undo) is the note as
		// stored, to the microsecond of its update.
		if got, err := b.st.FindNotes(b.ctx, hearth.NoteFilter{UserID: b.alice}); err != nil || len(got) != 1 || !reflect.DeepEqual(got[0], after) {
			t.Fatalf("stored after the append = %+v, %v; want %+v", got, err, after)
		}
		// The retried append changes nothing and answers as the first time.
		b2, a2, err := b.st.AppendNote(b.ctx, "turn:4:0", b.alice, note.ID, "ask for the good bread",
			[]hearth.ChecklistItem{{Text: "milk"}, {Text: "apples"}})
		if err != nil || !reflect.DeepEqual(b2, before) || !reflect.DeepEqual(a2, after) {
			t.Fatalf("retried append = %+v, %+v, %v; want the first before and after", b2, a2, err)
		}
		// Another key appends again: only items, so the body is untouched,
		// and an item already on the list is not written twice.
		_, a3, err := b.st.AppendNote(b.ctx, "turn:5:0", b.alice, note.ID, "", []hearth.ChecklistItem{{Text: "Milk "}, {Text: "pears"}})
		if err != nil || a3.Body != after.Body || !reflect.DeepEqual(a3.Items, append(wantItems, hearth.ChecklistItem{Text: "pears"})) {
			t.Fatalf("second append = %+v, %v; want pears added once, milk not again, the same body", a3, err)
		}
		// Nothing new: the note is not written (nor its time changed).
		b4, a4, err := b.st.AppendNote(b.ctx, "turn:6:0", b.alice, note.ID, "", []hearth.ChecklistItem{{Text: "eggs"}, {Text: "EGGS"}})
		if err != nil || !reflect.DeepEqual(a4, a3) || !reflect.DeepEqual(b4, a3) {
			t.Fatalf("append of what is there = %+v, %+v, %v; want the note unchanged", b4, a4, err)
		}
		// A ticked item asked for again is put back on.
		if _, _, err := b.st.CheckItems(b.ctx, "turn:7:0", b.alice, note.ID, []string{"apples"}, true); err != nil {
			t.Fatal(err)
		}
		_, a5, err := b.st.AppendNote(b.ctx, "turn:8:0", b.alice, note.ID, "", []hearth.ChecklistItem{{Text: "apples"}})
		if err != nil || !reflect.DeepEqual(a5.Items, a3.Items) {
			t.Fatalf("append of a ticked item = %+v, %v; want it back on, unticked, in its place", a5.Items, err)
		}
		// Undo puts the note back as it was; the key stays applied, so a
		// late retry of the undone append does not bring it back.
		if err := b.st.SetNote(b.ctx, before); err != nil {
			t.Fatal(err)
		}
		if _, _, err := b.st.AppendNote(b.ctx, "turn:4:0", b.alice, note.ID, "ask for the good bread", nil); err != nil {
			t.Fatal(err)
		}
		got, err := b.st.FindNotes(b.ctx, hearth.NoteFilter{UserID: b.alice})
		if err != nil || len(got) != 1 || got[0].Body != note.Body || !reflect.DeepEqual(got[0].Items, note.Items) {
			t.Fatalf("after undo = %+v, %v; want %+v", got, err, note)
		}
	})

	t.Run("appends at the same time all land", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		note, err := b.st.CreateNote(b.ctx, "", hearth.Note{UserID: b.alice, Title: "Shopping"})
		if err != nil {
			t.Fatal(err)
		}
		const n = 8
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				item := []hearth.ChecklistItem{{Text: fmt.Sprint("item ", i)}}
				if _, _, err := b.st.AppendNote(b.ctx, fmt.Sprint("k:", i), b.alice, note.ID, fmt.Sprint("line ", i), item); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		got, err := b.st.FindNotes(b.ctx, hearth.NoteFilter{UserID: b.alice})
		if err != nil || len(got) != 1 || len(got[0].Items) != n || len(strings.Split(got[0].Body, "\n")) != n {
			t.Fatalf("after %d appends at once = %+v, %v; want %d lines and %d items", n, got, err, n, n)
		}
	})

	t.Run("append to an empty body, bad appends and scoping", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		note, err := b.st.CreateNote(b.ctx, "", hearth.Note{UserID: b.alice, Title: "Ideas"})
		if err != nil {
			t.Fatal(err)
		}
		if _, after, err := b.st.AppendNote(b.ctx, "k:1", b.alice, note.ID, "a treehouse", nil); err != nil || after.Body != "a treehouse" {
			t.Fatalf("append = %q, %v; want the text alone, no leading newline", after.Body, err)
		}
		_, _, err = b.st.AppendNote(b.ctx, "k:2", b.alice, note.ID, "  ", nil)
		wantInvalid(t, err)
		_, _, err = b.st.AppendNote(b.ctx, "k:3", b.alice, note.ID, "", []hearth.ChecklistItem{{Text: ""}})
		wantInvalid(t, err)
		_, _, err = b.st.AppendNote(b.ctx, "", b.alice, note.ID, "no key", nil)
		wantInvalid(t, err)
		_, _, err = b.st.AppendNote(b.ctx, "k:4", b.bob, note.ID, "bob was here", nil)
		wantNotFound(t, "append by another user", err)
		wantNotFound(t, "set by another user", b.st.SetNote(b.ctx, hearth.Note{ID: note.ID, UserID: b.bob, Title: "Bob's"}))
		_, err = b.st.DeleteNote(b.ctx, b.bob, note.ID)
		wantNotFound(t, "delete by another user", err)

		deleted, err := b.st.DeleteNote(b.ctx, b.alice, note.ID)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = b.st.AppendNote(b.ctx, "k:5", b.alice, note.ID, "too late", nil)
		wantNotFound(t, "append to a deleted note", err)
		if err := b.st.RestoreNote(b.ctx, b.alice, note.ID); err != nil {
			t.Fatal(err)
		}
		if got, _ := b.st.FindNotes(b.ctx, hearth.NoteFilter{UserID: b.alice}); len(got) != 1 || !reflect.DeepEqual(got[0], deleted) {
			t.Fatalf("restored = %+v; want %+v", got, deleted)
		}
	})

	t.Run("find by title and words", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		for _, n := range []hearth.Note{
			{Title: "Shopping list", Items: []hearth.ChecklistItem{{Text: "eggs", Done: true}, {Text: "butter"}}},
			{Title: "Packing list", Body: "passport, charger", Labels: []string{"travel"}},
			{Title: "Book ideas", Body: "a mystery in a lighthouse"},
		} {
			n.UserID = b.alice
			if _, err := b.st.CreateNote(b.ctx, "", n); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := b.st.CreateNote(b.ctx, "", hearth.Note{UserID: b.bob, Title: "Shopping for Bob"}); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name string
			f    hearth.NoteFilter
			want []string
		}{
			{"all, newest first", hearth.NoteFilter{}, []string{"Book ideas", "Packing list", "Shopping list"}},
			{"title, loosely", hearth.NoteFilter{Title: "shopping"}, []string{"Shopping list"}},
			{"title with a typo", hearth.NoteFilter{Title: "shoping"}, []string{"Shopping list"}},
			{"title, closest first", hearth.NoteFilter{Title: "list"}, []string{"Packing list", "Shopping list"}},
			{"a checklist item", hearth.NoteFilter{Query: "eggs"}, []string{"Shopping list"}},
			{"a label and a body word", hearth.NoteFilter{Query: "travel passport"}, []string{"Packing list"}},
			{"JSON around items is not text", hearth.NoteFilter{Query: "done"}, nil},
			{"limit", hearth.NoteFilter{Limit: 1}, []string{"Book ideas"}},
		} {
			tc.f.UserID = b.alice
			got, err := b.st.FindNotes(b.ctx, tc.f)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if names := noteTitles(got); !reflect.DeepEqual(names, tc.want) && (len(names) != 0 || len(tc.want) != 0) {
				t.Errorf("%s: got %q; want %q", tc.name, names, tc.want)
			}
		}
	})
}
