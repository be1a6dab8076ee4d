package store_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/store/storetest"
)

// TestGraphNoteLifetimes adds a note of each lifetime at one instant and
// reads them at later instants on an injected clock: a note leaves reads
// the moment it expires, and the nightly deletion removes exactly the
// expired ones, once.
func TestGraphNoteLifetimes(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	ann := newUser(t, st, "Ann")
	bob, err := st.SaveEntity(ctx, hearth.Entity{UserID: ann, Name: "Bob"})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 1, 10, 9, 0, 0, 0, time.UTC)
	for _, l := range []hearth.Lifetime{hearth.LifetimeWeek, "", hearth.LifetimeYear, hearth.LifetimeForever} {
		n, err := st.AddGraphNote(ctx, hearth.GraphNote{AddedBy: ann, EntityID: bob.ID, Body: "note " + string(l), Lifetime: l}, t0)
		if err != nil {
			t.Fatal(err)
		}
		if n.AddedBy != ann || n.About != "Bob" || n.Lifetime == "" {
			t.Errorf("stored %+v", n)
		}
	}
	live := func(at time.Time) []string {
		ns, err := st.FindGraphNotes(ctx, hearth.GraphNoteFilter{UserID: ann, EntityID: bob.ID, Now: at})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, n := range ns {
			out = append(out, string(n.Lifetime))
		}
		return out
	}
	for _, c := range []struct {
		at   time.Time
		want string
	}{
		{t0.AddDate(0, 0, 7).Add(-time.Second), "week month year forever"},
		{t0.AddDate(0, 0, 7), "month year forever"},
		{t0.AddDate(0, 1, 0), "year forever"},
		{t0.AddDate(1, 0, 0), "forever"},
		{t0.AddDate(50, 0, 0), "forever"},
	} {
		got := strings.Join(live(c.at), " ")
		if !sameWords(got, c.want) {
			t.Errorf("at %s: live %q, want %q", c.at, got, c.want)
		}
	}
	for i, want := range []int{2, 0} {
		n, err := st.DeleteExpiredGraphNotes(ctx, t0.AddDate(0, 1, 1))
		if err != nil {
			t.Fatal(err)
		}
		if n != want {
			t.Errorf("deletion %d: %d deleted, want %d", i, n, want)
		}
	}
	if got := live(t0); !sameWords(strings.Join(got, " "), "year forever") {
		t.Errorf("after deletion: %v", got)
	}

	// Bad input is refused with a reason.
	for _, n := range []hearth.GraphNote{
		{AddedBy: ann, EntityID: bob.ID, Body: "x", Lifetime: "decade"},
		{AddedBy: ann, Body: "about nothing"},
		{AddedBy: ann, EntityID: bob.ID, Body: "  "},
	} {
		if _, err := st.AddGraphNote(ctx, n, t0); hearth.ErrorCode(err) != hearth.EInvalid {
			t.Errorf("%+v: %v, want invalid", n, err)
		}
	}
	// Another user cannot note on Ann's Bob.
	oli := newUser(t, st, "Oli")
	if _, err := st.AddGraphNote(ctx, hearth.GraphNote{AddedBy: oli, EntityID: bob.ID, Body: "sneaky"}, t0); !errors.Is(err, hearth.ErrNotFound) {
		t.Errorf("note on someone else's node: %v", err)
	}
}

func sameWords(a, b string) bool {
	x, y := strings.Fields(a), strings.Fields(b)
	if len(x) != len(y) {
		return false
	}
	seen := map[string]int{}
	for _, w := range x {
		seen[w]++
	}
	for _, w := range y {
		seen[w]--
	}
	for _, n := range seen {
		if n != 0 {
			return false
		}
	}
	return true
}

// TestRelationships saves typed edges, reads them back with their words,
// and follows the embedding text: new and changed relationships (a note
// added, a note expired) are pending for the embedding job again.
func TestRelationships(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	ann := newUser(t, st, "Ann")
	ent := func(name string, k hearth.EntityKind) hearth.Entity {
		e, err := st.SaveEntity(ctx, hearth.Entity{UserID: ann, Name: name, Kind: k})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	emma, lily, dinos := ent("Emma", hearth.EntityPerson), ent("Lily", hearth.EntityPerson), ent("dinosaurs", hearth.EntityConcept)
	r, err := st.SaveRelationship(ctx, hearth.Relationship{UserID: ann, FromID: emma.ID, ToID: lily.ID, Label: "Friend", Attitude: 5, Proximity: 4,
		Description: "Emma and Lily are best friends from school."})
	if err != nil {
		t.Fatal(err)
	}
	if r.State != hearth.RelationshipCandidate || r.Confidence < 0.79 || r.Confidence > 0.81 || r.Label != "friend" {
		t.Errorf("defaults: %+v", r)
	}
	if r.AttitudeWord() != "close" || r.ProximityWord() != "known-well" || r.Scale().Relation != "has_relationship_with" {
		t.Errorf("words: %s %s %s", r.Scale().Relation, r.AttitudeWord(), r.ProximityWord())
	}
	into, err := st.SaveRelationship(ctx, hearth.Relationship{UserID: ann, FromID: emma.ID, ToID: dinos.ID, Label: "into", Attitude: 5})
	if err != nil {
		t.Fatal(err)
	}
	if into.Proximity != 3 || into.AttitudeWord() != "passionate" {
		t.Errorf("into: %+v", into)
	}
	pending := func() map[int64]string {
		es, err := st.Unembedded(ctx, "m", 100)
		if err != nil {
			t.Fatal(err)
		}
		out := map[int64]string{}
		for _, e := range es {
			if e.Kind == "relationship" {
				out[e.ID] = e.Text
			}
		}
		return out
	}
	p := pending()
	if !strings.Contains(p[r.ID], "has_relationship_with") || !strings.Contains(p[r.ID], "close") || !strings.Contains(p[r.ID], "best friends") {
		t.Errorf("embedding text %q", p[r.ID])
	}
	for id, text := range p {
		ok, err := st.SaveEmbedding(ctx, hearth.Embeddable{Kind: "relationship", ID: id, UserID: ann, Text: text}, "m", unit(1))
		if err != nil || !ok {
			t.Fatalf("save embedding: %v %v", ok, err)
		}
	}
	if p := pending(); len(p) != 0 {
		t.Fatalf("still pending: %v", p)
	}
	// Saving the same values again changes nothing; a new attitude does.
	if _, err := st.SaveRelationship(ctx, hearth.Relationship{UserID: ann, FromID: emma.ID, ToID: lily.ID, Label: "friend"}); err != nil {
		t.Fatal(err)
	}
	if p := pending(); len(p) != 0 {
		t.Errorf("unchanged relationship re-embedded: %v", p)
	}
	// A note with a lifetime enters the text, and leaves it when deleted.
	t0 := time.Now()
	if _, err := st.AddGraphNote(ctx, hearth.GraphNote{AddedBy: ann, RelationshipID: r.ID, Body: "They fell out over a sleepover.", Lifetime: hearth.LifetimeWeek}, t0); err != nil {
		t.Fatal(err)
	}
	if p := pending(); !strings.Contains(p[r.ID], "sleepover") {
		t.Errorf("note not in embedding text: %v", p)
	}
	if n, err := st.DeleteExpiredGraphNotes(ctx, t0.AddDate(0, 0, 8)); err != nil || n != 1 {
		t.Fatalf("delete: %d %v", n, err)
	}
	if p := pending(); strings.Contains(p[r.ID], "sleepover") || p[r.ID] == "" {
		t.Errorf("expired note still in embedding text: %q", p[r.ID])
	}
	// Reads: by entity, closest first; confirmation is one click.
	rs, err := st.FindRelationships(ctx, hearth.RelationshipFilter{UserID: ann, EntityID: emma.ID})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || rs[0].ToName != "Lily" {
		t.Errorf("emma's relationships: %+v", rs)
	}
	for i, want := range []bool{true, false} {
		ok, err := st.ConfirmRelationship(ctx, ann, r.ID)
		if err != nil || ok != want {
			t.Errorf("confirm %d: %v %v", i, ok, err)
		}
	}
	if _, err := st.SaveRelationship(ctx, hearth.Relationship{UserID: ann, FromID: emma.ID, ToID: emma.ID}); hearth.ErrorCode(err) != hearth.EInvalid {
		t.Errorf("self loop: %v", err)
	}
	// Validity over time: a relationship that ended is not current.
	past := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	acme := ent("Acme", hearth.EntityOrganisation)
	if _, err := st.SaveRelationship(ctx, hearth.Relationship{UserID: ann, FromID: emma.ID, ToID: acme.ID, Label: "worked at", ValidFrom: past, ValidTo: past.AddDate(2, 0, 0)}); err != nil {
		t.Fatal(err)
	}
	rs, _ = st.FindRelationships(ctx, hearth.RelationshipFilter{UserID: ann, EntityID: acme.ID})
	if len(rs) != 0 {
		t.Errorf("ended relationship is current: %+v", rs)
	}
}
