package store_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/store/storetest"
)

// unit is a 256-dimension vector pointing along axis i (plus a little of
// axis 0, so no two are orthogonal to everything).
func unit(i int) []float32 {
	v := make([]float32, 256)
	v[0] = 0.05
	v[i] += 1
	return v
}

func TestEmbeddings(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)

	t.Run("unembedded rows are listed, saved, re-listed after an edit, and searched per user", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		alice1, err := b.st.StoreMemory(b.ctx, "", hearth.Memory{UserID: b.alice, Content: "likes sailing", About: "John"})
		if err != nil {
			t.Fatal(err)
		}
		alice2, _ := b.st.StoreMemory(b.ctx, "", hearth.Memory{UserID: b.alice, Content: "allergic to cats"})
		bob1, _ := b.st.StoreMemory(b.ctx, "", hearth.Memory{UserID: b.bob, Content: "likes sailing too"})
		note, err := b.st.CreateNote(b.ctx, "", hearth.Note{UserID: b.alice, Title: "Shopping", Items: []hearth.ChecklistItem{{Text: "milk"}, {Text: "eggs"}}})
		if err != nil {
			t.Fatal(err)
		}
		type key struct {
			kind string
			id   int64
		}
		mine := func() map[key]hearth.Embeddable {
			all, err := b.st.Unembedded(b.ctx, "m1", 1000)
			if err != nil {
				t.Fatal(err)
			}
			out := map[key]hearth.Embeddable{}
			for _, e := range all {
				if e.UserID == b.alice || e.UserID == b.bob {
					out[key{e.Kind, e.ID}] = e
				}
			}
			return out
		}
		todo := mine()
		if todo[key{"memory", alice1.ID}].Text != "John: likes sailing" || todo[key{"note", note.ID}].Text != "Shopping\nmilk, eggs" || len(todo) != 4 {
			t.Fatalf("unembedded = %+v", todo)
		}
		vecs := map[key][]float32{{"memory", alice1.ID}: unit(1), {"memory", alice2.ID}: unit(2), {"memory", bob1.ID}: unit(1), {"note", note.ID}: unit(3)}
		for k, e := range todo {
			if ok, err := b.st.SaveEmbedding(b.ctx, e, "m1", vecs[k]); err != nil || !ok {
				t.Fatalf("save %v: %v %v", k, ok, err)
			}
		}
		if left := mine(); len(left) != 0 {
			t.Fatalf("still unembedded: %+v", left)
		}
		if n, _ := b.st.Unembedded(b.ctx, "m2", 1000); len(n) == 0 {
			t.Fatal("rows embedded by m1 must be listed for m2")
		}

		got, err := b.st.SimilarMemories(b.ctx, b.alice, "m1", unit(1), "", 2, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0].ID != alice1.ID || got[1].ID != alice2.ID {
			t.Fatalf("similar = %+v; want Alice's two, sailing first, never Bob's", got)
		}

		near, err := b.st.SimilarMemories(b.ctx, b.alice, "m1", unit(1), "", 0.1, 10)
		if err != nil || len(near) != 1 || near[0].ID != alice1.ID {
			t.Fatalf("within 0.1: %+v, %v; want only the sailing memory", near, err)
		}
		for about, want := range map[string]int{"john": 1, "JOHN": 1, "Mary": 0} {
			got, err := b.st.SimilarMemories(b.ctx, b.alice, "m1", unit(2), about, 2, 10)
			if err != nil || len(got) != want {
				t.Fatalf("about %q: %+v, %v; want %d", about, got, err, want)
			}
		}

		// A correction is a new fact, embedded in its turn.
		_, corrected, err := b.st.UpdateMemory(b.ctx, b.alice, alice1.ID, "likes rowing")
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := mine()[key{"memory", corrected.ID}]; !ok {
			t.Fatal("a corrected memory must be embedded")
		}
		// An edit in place clears the embedding (trigger), so it is
		// embedded again, and a stale read does not overwrite the new
		// text's slot.
		if _, err := b.st.Pool().Exec(b.ctx, `UPDATE facts SET content = 'likes sculling' WHERE id = $1`, alice1.ID); err != nil {
			t.Fatal(err)
		}
		if _, ok := mine()[key{"memory", alice1.ID}]; !ok {
			t.Fatal("an edited memory must be re-embedded")
		}
		if ok, err := b.st.SaveEmbedding(b.ctx, todo[key{"memory", alice1.ID}], "m1", unit(1)); err != nil || ok {
			t.Fatalf("stale save = %v, %v; want false", ok, err)
		}
	})

	t.Run("notes are searched by meaning per user, live and of the same model only", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		note := func(uid int64, title, body string) hearth.Note {
			n, err := b.st.CreateNote(b.ctx, "", hearth.Note{UserID: uid, Title: title, Body: body})
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		boiler := note(b.alice, "House", "The boiler was serviced in May")
		trip := note(b.alice, "Lisbon", "Flights on the 3rd")
		gone := note(b.alice, "Heating", "Radiator valves")
		bobs := note(b.bob, "Heating", "Boiler pressure 1.5 bar")
		vecs := map[int64][]float32{boiler.ID: unit(4), trip.ID: unit(5), gone.ID: unit(4), bobs.ID: unit(4)}
		all, err := b.st.Unembedded(b.ctx, "m1", 1000)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range all {
			if v, ok := vecs[e.ID]; ok && e.Kind == "note" {
				if ok, err := b.st.SaveEmbedding(b.ctx, e, "m1", v); err != nil || !ok {
					t.Fatalf("save note %d: %v %v", e.ID, ok, err)
				}
			}
		}
		if _, err := b.st.DeleteNote(b.ctx, b.alice, gone.ID); err != nil {
			t.Fatal(err)
		}
		got, err := b.st.SimilarNotes(b.ctx, b.alice, "m1", unit(4), 2, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0].ID != boiler.ID || got[1].ID != trip.ID {
			t.Fatalf("similar notes = %+v; want Alice's live two, the boiler first, never Bob's", got)
		}
		if near, err := b.st.SimilarNotes(b.ctx, b.alice, "m1", unit(4), 0.1, 10); err != nil || len(near) != 1 || near[0].ID != boiler.ID {
			t.Fatalf("within 0.1: %+v, %v; want only the boiler note", near, err)
		}
		if other, err := b.st.SimilarNotes(b.ctx, b.alice, "m2", unit(4), 2, 10); err != nil || len(other) != 0 {
			t.Fatalf("another model: %+v, %v; want none", other, err)
		}
	})

	t.Run("bad dimensions are refused", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		_, err := b.st.SimilarMemories(b.ctx, b.alice, "m1", make([]float32, 7), "", 2, 5)
		wantInvalid(t, err)
		_, err = b.st.SimilarNotes(b.ctx, b.alice, "m1", make([]float32, 7), 2, 5)
		wantInvalid(t, err)
		_, err = b.st.SaveEmbedding(b.ctx, hearth.Embeddable{Kind: "memory", ID: 1}, "m1", make([]float32, 7))
		wantInvalid(t, err)
	})
}

func TestUsage(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	b := users(t, st)
	day := time.Date(2026, 3, 1, 23, 30, 0, 0, time.FixedZone("x", 5*3600))
	rows := []hearth.Usage{
		{UserID: b.alice, Day: day, Stage: "intent", Provider: "openai", Model: "small", Calls: 1, InputTokens: 100, OutputTokens: 10, Latency: 300 * time.Millisecond, CostUSD: 0.001},
		{UserID: b.alice, Day: day, Stage: "reply", Provider: "openai", Model: "big", Calls: 2, InputTokens: 200, OutputTokens: 50, Error: "timeout"},
		{UserID: b.bob, Day: day, Stage: "reply", Calls: 1, InputTokens: 999},
		{UserID: b.alice, Day: day.AddDate(0, 0, 1), Stage: "reply", Calls: 1, InputTokens: 7},
	}
	if err := st.RecordUsage(b.ctx, rows); err != nil {
		t.Fatal(err)
	}
	got, err := st.UsageOn(b.ctx, b.alice, day)
	if err != nil {
		t.Fatal(err)
	}
	if got.Calls != 3 || got.InputTokens != 300 || got.OutputTokens != 60 || got.CostUSD < 0.00099 || got.CostUSD > 0.00101 {
		t.Fatalf("usage = %+v", got)
	}
	if ok, err := st.UsageNoted(b.ctx, b.alice, day, "budget"); err != nil || ok {
		t.Fatalf("noted = %v %v", ok, err)
	}
	if ok, _ := st.UsageNoted(b.ctx, b.alice, day, "intent"); !ok {
		t.Fatal("intent row not found")
	}
	all, err := st.UsageSince(b.ctx, day)
	if err != nil {
		t.Fatal(err)
	}
	var mine []string
	for _, d := range all {
		if d.UserID == b.alice || d.UserID == b.bob {
			mine = append(mine, fmt.Sprintf("%s %s %d/%d/%d", d.Day.Format("01-02"), d.User, d.Calls, d.InputTokens, d.OutputTokens))
		}
	}
	if got := strings.Join(mine, "; "); got != "03-02 Alice 1/7/0; 03-01 Bob 1/999/0; 03-01 Alice 3/300/60" {
		t.Fatalf("usage since = %s", got)
	}
}
