package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/store/storetest"
)

// TestGraphNoteEmbeddings: the embedding job's list holds the live notes
// on nodes (not a relationship's, which are in its own text, nor expired
// ones); a saved vector takes a note off it until its body changes; a
// search by meaning finds the viewer's notes embedded by that model only.
func TestGraphNoteEmbeddings(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	ann, eve := newUser(t, st, "Ann"), newUser(t, st, "Eve")
	now := time.Now()
	jon, err := st.SaveEntity(ctx, hearth.Entity{UserID: ann, Name: "Jon", Kind: hearth.EntityPerson})
	if err != nil {
		t.Fatal(err)
	}
	acme, err := st.SaveEntity(ctx, hearth.Entity{UserID: ann, Name: "Acme", Kind: hearth.EntityOrganisation})
	if err != nil {
		t.Fatal(err)
	}
	rel, err := st.SaveRelationship(ctx, hearth.Relationship{UserID: ann, FromID: jon.ID, ToID: acme.ID, Label: "works at"})
	if err != nil {
		t.Fatal(err)
	}
	add := func(n hearth.GraphNote, at time.Time) hearth.GraphNote {
		t.Helper()
		n.AddedBy = ann
		out, err := st.AddGraphNote(ctx, n, at)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	live := add(hearth.GraphNote{EntityID: jon.ID, Body: "climbs mountains every summer", Lifetime: hearth.LifetimeForever}, now)
	add(hearth.GraphNote{EntityID: jon.ID, Body: "had a cold", Lifetime: hearth.LifetimeWeek}, now.AddDate(0, -1, 0))
	add(hearth.GraphNote{RelationshipID: rel.ID, Body: "commutes by train", Lifetime: hearth.LifetimeForever}, now)
	pending := func() []hearth.Embeddable {
		t.Helper()
		all, err := st.Unembedded(ctx, "m", 100)
		if err != nil {
			t.Fatal(err)
		}
		var out []hearth.Embeddable
		for _, e := range all {
			if e.Kind == "graph_note" {
				out = append(out, e)
			}
		}
		return out
	}
	todo := pending()
	if len(todo) != 1 || todo[0].ID != live.ID || todo[0].Text != live.Body || todo[0].UserID != ann {
		t.Fatalf("pending graph notes: %+v", todo)
	}
	for _, tt := range []struct {
		name string
		text string
		want bool
	}{
		{"text changed since it was read", "something else", false},
		{"the text read", live.Body, true},
	} {
		e := todo[0]
		e.Text = tt.text
		if ok, err := st.SaveEmbedding(ctx, e, "m", unit(3)); err != nil || ok != tt.want {
			t.Errorf("%s: saved %v, %v; want %v", tt.name, ok, err, tt.want)
		}
	}
	if left := pending(); len(left) != 0 {
		t.Fatalf("still pending after saving: %+v", left)
	}
	for _, tt := range []struct {
		name   string
		viewer int64
		model  string
		want   int
	}{
		{"the owner, same model", ann, "m", 1},
		{"another model's vectors", ann, "other", 0},
		{"another user", eve, "m", 0},
	} {
		ns, err := st.SimilarGraphNotes(ctx, tt.viewer, tt.model, unit(3), 0.5, 10, now)
		if err != nil || len(ns) != tt.want || tt.want == 1 && (ns[0].ID != live.ID || ns[0].About != "Jon") {
			t.Errorf("%s: %+v, %v; want %d", tt.name, ns, err, tt.want)
		}
	}
	// An edited body is embedded again.
	if _, err := st.Pool().Exec(ctx, `UPDATE graph_notes SET body = 'climbs hills' WHERE id = $1`, live.ID); err != nil {
		t.Fatal(err)
	}
	if left := pending(); len(left) != 1 || left[0].Text != "climbs hills" {
		t.Fatalf("after an edit: %+v", left)
	}
}
