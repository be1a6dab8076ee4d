package store_test

import (
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/store/storetest"
	"github.com/pgvector/pgvector-go"
)

func contents(ms []hearth.Memory) []string {
	return titles(ms, func(m hearth.Memory) string { return m.Content })
}

func TestMemories(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)

	t.Run("store is idempotent; bad input writes nothing", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		first, err := b.st.StoreMemory(b.ctx, "turn:8:0", hearth.Memory{UserID: b.alice, Content: "John's birthday is March 15th", About: "John"})
		if err != nil {
			t.Fatal(err)
		}
		if first.Category != hearth.MemoryPersonal || first.About != "John" {
			t.Fatalf("stored %+v; want category personal by default", first)
		}
		again, err := b.st.StoreMemory(b.ctx, "turn:8:0", hearth.Memory{UserID: b.alice, Content: "something else"})
		if err != nil || !reflect.DeepEqual(again, first) {
			t.Fatalf("second store = %+v, %v; want %+v", again, err, first)
		}
		for _, m := range []hearth.Memory{
			{UserID: b.alice, Content: "  "},
			{UserID: b.alice, Content: "x", Category: "gossip"},
			{Content: "no user"},
		} {
			_, err := b.st.StoreMemory(b.ctx, "", m)
			wantInvalid(t, err)
		}
		if n := count(t, b, "facts", b.alice); n != 1 {
			t.Fatalf("%d memories; want 1", n)
		}
	})

	t.Run("update, forget and restore", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		m, err := b.st.StoreMemory(b.ctx, "", hearth.Memory{UserID: b.alice, Content: "Parking is on level 2", Category: hearth.MemoryWork})
		if err != nil {
			t.Fatal(err)
		}
		before, after, err := b.st.UpdateMemory(b.ctx, b.alice, m.ID, "Parking is on level 3")
		if err != nil || !reflect.DeepEqual(before, m) || after.Content != "Parking is on level 3" || after.Category != hearth.MemoryWork {
			t.Fatalf("update = %+v → %+v, %v", before, after, err)
		}
		_, _, err = b.st.UpdateMemory(b.ctx, b.alice, m.ID, "")
		wantInvalid(t, err)
		_, _, err = b.st.UpdateMemory(b.ctx, b.bob, m.ID, "Bob's parking")
		wantNotFound(t, "update by another user", err)
		_, err = b.st.ForgetMemory(b.ctx, b.bob, after.ID)
		wantNotFound(t, "forget by another user", err)
		wantNotFound(t, "restore by another user", b.st.RestoreMemory(b.ctx, b.bob, hearth.Memory{ID: after.ID, UserID: b.alice, Forgotten: &hearth.ForgottenFact{}}))
		_, _, err = b.st.UpdateMemory(b.ctx, b.alice, m.ID, "Parking is on level 4")
		wantNotFound(t, "correcting a corrected memory", err)

		// The correction closed the old fact: it is what was true before.
		if got, _ := b.st.FindMemories(b.ctx, hearth.MemoryFilter{UserID: b.alice, Query: "parking", AsOf: m.CreatedAt}); len(got) != 1 || got[0].ID != m.ID || got[0].SupersededBy != after.ID || got[0].ValidTo.IsZero() {
			t.Fatalf("as of before the correction: %+v; want the old fact, closed and linked", got)
		}

		forgotten, err := b.st.ForgetMemory(b.ctx, b.alice, after.ID)
		if err != nil || forgotten.Forgotten == nil {
			t.Fatalf("forget = %+v, %v", forgotten, err)
		}
		kept := forgotten.Forgotten
		if kept.Importance != 3 || kept.Source != "text" || !slices.Equal(kept.Supersedes, []int64{m.ID}) {
			t.Fatalf("forgotten fact keeps %+v", kept)
		}
		if forgotten.Forgotten = nil; !reflect.DeepEqual(forgotten, after) {
			t.Fatalf("forget = %+v; want %+v", forgotten, after)
		}
		// Deleted for real: the row is gone, not marked.
		var rows int
		if err := b.st.Pool().QueryRow(b.ctx, `SELECT count(*) FROM facts WHERE id = $1`, after.ID).Scan(&rows); err != nil || rows != 0 {
			t.Fatalf("%d rows left of the forgotten fact (%v)", rows, err)
		}
		if got, _ := b.st.FindMemories(b.ctx, hearth.MemoryFilter{UserID: b.alice, Query: "parking"}); len(got) != 0 {
			t.Fatalf("forgotten memory still found: %v", contents(got))
		}
		forgotten.Forgotten = kept
		for range 2 { // a retried undo restores once
			if err := b.st.RestoreMemory(b.ctx, b.alice, forgotten); err != nil {
				t.Fatal(err)
			}
		}
		if got, _ := b.st.FindMemories(b.ctx, hearth.MemoryFilter{UserID: b.alice, Query: "parking", AsOf: m.CreatedAt}); len(got) != 1 || got[0].SupersededBy != after.ID {
			t.Fatalf("restored correction does not link the old fact again: %+v", got)
		}
		// As it was; only updated_at moves, so the scheduler sees it again.
		got, _ := b.st.FindMemories(b.ctx, hearth.MemoryFilter{UserID: b.alice, Query: "parking"})
		if len(got) == 1 {
			got[0].UpdatedAt = after.UpdatedAt
		}
		if len(got) != 1 || !reflect.DeepEqual(got[0], after) {
			t.Fatalf("restored = %+v; want %+v", got, after)
		}

		// Undoing the correction makes the old fact true again, once.
		for range 2 {
			if err := b.st.RevertMemory(b.ctx, b.alice, m.ID); err != nil {
				t.Fatal(err)
			}
		}
		if got, _ := b.st.FindMemories(b.ctx, hearth.MemoryFilter{UserID: b.alice, Query: "parking"}); len(got) != 1 || got[0].Content != m.Content || got[0].SupersededBy != 0 {
			t.Fatalf("after revert = %+v; want only the old fact", got)
		}
	})

	t.Run("find by full text, name and recency", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		for _, m := range []hearth.Memory{
			{Content: "John's birthday is March 15th", About: "John"},
			{Content: "Went hiking with John and Priya", About: ""},
			{Content: "Priya is allergic to peanuts", About: "Priya"},
			{Content: "The wifi password is on the fridge", Category: hearth.MemoryKnowledge},
			{Content: "Ristorante Da Mario does gluten-free pasta", About: "Da Mario"},
		} {
			m.UserID = b.alice
			if _, err := b.st.StoreMemory(b.ctx, "", m); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := b.st.StoreMemory(b.ctx, "", hearth.Memory{UserID: b.bob, Content: "John's birthday is in June", About: "John"}); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name string
			f    hearth.MemoryFilter
			want []string
		}{
			{"every word of the query", hearth.MemoryFilter{Query: "John birthday"},
				[]string{"John's birthday is March 15th"}},
			{"a question: its subject matches about", hearth.MemoryFilter{Query: "When is John's birthday?"},
				[]string{"John's birthday is March 15th"}},
			{"words as beginnings: allerg finds allergic", hearth.MemoryFilter{Query: "priya allerg"},
				[]string{"Priya is allergic to peanuts"}},
			{"punctuation is no syntax error", hearth.MemoryFilter{Query: "peanuts!! & (priya):"},
				[]string{"Priya is allergic to peanuts"}},
			{"a name: memories about it rank first", hearth.MemoryFilter{Query: "john"},
				[]string{"John's birthday is March 15th", "Went hiking with John and Priya"}},
			{"names are not stemmed", hearth.MemoryFilter{Query: "Priya"},
				[]string{"Priya is allergic to peanuts", "Went hiking with John and Priya"}},
			{"websearch syntax: a phrase", hearth.MemoryFilter{Query: `"gluten-free pasta"`},
				[]string{"Ristorante Da Mario does gluten-free pasta"}},
			// Exclusion drops what only the text matched; a memory about a
			// subject the query names still matches by its about.
			{"websearch syntax: exclusion", hearth.MemoryFilter{Query: "priya -hiking"},
				[]string{"Priya is allergic to peanuts"}},
			{"about, loosely", hearth.MemoryFilter{About: "john"}, []string{"John's birthday is March 15th"}},
			{"about, part of a name", hearth.MemoryFilter{About: "mario"}, []string{"Ristorante Da Mario does gluten-free pasta"}},
			{"about and query", hearth.MemoryFilter{About: "Priya", Query: "peanuts"}, []string{"Priya is allergic to peanuts"}},
			{"nothing matches", hearth.MemoryFilter{Query: "dentist"}, nil},
			{"newest first", hearth.MemoryFilter{Limit: 2},
				[]string{"Ristorante Da Mario does gluten-free pasta", "The wifi password is on the fridge"}},
		} {
			tc.f.UserID = b.alice
			got, err := b.st.FindMemories(b.ctx, tc.f)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if names := contents(got); !reflect.DeepEqual(names, tc.want) && (len(names) != 0 || len(tc.want) != 0) {
				t.Errorf("%s: got %q; want %q", tc.name, names, tc.want)
			}
		}
	})
}

func TestSearchMemories(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	b := users(t, st)
	put := func(content, about string, v []float32) hearth.Memory {
		m, err := b.st.StoreMemory(b.ctx, "", hearth.Memory{UserID: b.alice, Content: content, About: about})
		if err != nil {
			t.Fatal(err)
		}
		if v != nil {
			if _, err := b.st.Pool().Exec(b.ctx, `UPDATE facts SET embedding = $2, embedding_model = 'm' WHERE id = $1`, m.ID, pgvector.NewVector(v)); err != nil {
				t.Fatal(err)
			}
		}
		return m
	}
	both := put("The boiler was serviced in May", "boiler", unit(3))      // words and meaning
	words := put("Boiler pressure should stay near 1.5 bar", "", unit(9)) // words only
	meaning := put("The heating engineer is called Sam", "", unit(3))     // meaning only
	put("Emma likes dinosaurs", "Emma", unit(20))                         // neither

	got, err := b.st.SearchMemories(b.ctx, b.alice, "boiler", "m", unit(3), 10)
	if err != nil {
		t.Fatal(err)
	}
	ids := func(ms []hearth.Memory) []int64 {
		var out []int64
		for _, m := range ms {
			out = append(out, m.ID)
		}
		return out
	}
	if len(got) < 3 || got[0].ID != both.ID || !slices.Contains(ids(got), words.ID) || !slices.Contains(ids(got), meaning.ID) {
		t.Fatalf("search = %v; want the fact found both ways first, then the others", contents(got))
	}
	// Words alone, and a vector alone, still search.
	if got, err := b.st.SearchMemories(b.ctx, b.alice, "dinosaurs", "m", nil, 10); err != nil || len(got) != 1 {
		t.Fatalf("words only = %v, %v", contents(got), err)
	}
	if got, err := b.st.SearchMemories(b.ctx, b.bob, "boiler", "m", unit(3), 10); err != nil || len(got) != 0 {
		t.Fatalf("another user's search = %v, %v; want nothing", contents(got), err)
	}
	if _, err := b.st.SearchMemories(b.ctx, b.alice, "", "m", nil, 10); !errors.Is(err, hearth.ErrInvalid) {
		t.Fatalf("empty search: %v", err)
	}
}
