package store_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/store/storetest"
)

// TestForgetRelationshipStatement: forgetting the fact of a statement
// takes back what the statement did to the graph: the relationships it
// created go with their notes (expired ones too), those it closed hold
// again; undo of the forget puts everything back exactly (same ids,
// notes, ends) within the window.
func TestForgetRelationshipStatement(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	ann := newUser(t, st, "Ann")
	ent := func(name string, kind hearth.EntityKind) int64 {
		e, err := st.SaveEntity(ctx, hearth.Entity{UserID: ann, Name: name, Kind: kind})
		if err != nil {
			t.Fatal(err)
		}
		return e.ID
	}
	jon, acme, initech := ent("Jon", hearth.EntityPerson), ent("Acme", hearth.EntityOrganisation), ent("Initech", hearth.EntityOrganisation)
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	t1 := t0.AddDate(0, 2, 0)
	state := func(at time.Time) []string {
		t.Helper()
		rs, err := st.FindRelationships(ctx, hearth.RelationshipFilter{UserID: ann, EntityID: jon, Now: at})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range rs {
			out = append(out, r.ToName+" "+r.Label)
		}
		slices.Sort(out)
		return out
	}
	tell := func(content string, to int64, at time.Time) (hearth.Memory, hearth.RelationshipChange) {
		t.Helper()
		m, err := st.StoreMemory(ctx, "", hearth.Memory{UserID: ann, Content: content, EntityID: jon, Attribute: hearth.AttrEmployer, Value: content, ValidFrom: at})
		if err != nil {
			t.Fatal(err)
		}
		_, c, err := st.ApplyRelationship(ctx, hearth.Relationship{UserID: ann, FromID: jon, ToID: to, Label: hearth.LabelWorksAt, Proximity: 4,
			State: hearth.RelationshipConfirmed, FactID: m.ID, ValidFrom: at}, false, at)
		if err != nil {
			t.Fatal(err)
		}
		return m, c
	}
	employer := func() []string {
		t.Helper()
		ms, err := st.FindMemories(ctx, hearth.MemoryFilter{UserID: ann, EntityID: jon, Attribute: hearth.AttrEmployer})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, m := range ms {
			out = append(out, m.Value)
		}
		return out
	}
	_, c1 := tell("Jon works at Acme", acme, t0)
	m2, c2 := tell("Jon works at Initech", initech, t1)
	// One employer at a time: Initech closed Acme.
	if !slices.Equal(c2.Closed, c1.Created) || !slices.Equal(state(t1.Add(time.Hour)), []string{"Initech works at"}) {
		t.Fatalf("the new employer: %+v %v", c2, state(t1.Add(time.Hour)))
	}
	// Notes on the Initech relationship, one long expired.
	var notes []int64
	for _, n := range []struct {
		body string
		life hearth.Lifetime
		at   time.Time
	}{{"commutes by train", hearth.LifetimeForever, t1}, {"hated the first week", hearth.LifetimeWeek, t0.AddDate(-1, 0, 0)}} {
		gn, err := st.AddGraphNote(ctx, hearth.GraphNote{AddedBy: ann, RelationshipID: c2.Created[0], Body: n.body, Lifetime: n.life}, n.at)
		if err != nil {
			t.Fatal(err)
		}
		notes = append(notes, gn.ID)
	}
	countNotes := func() int {
		var n int
		if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM graph_notes WHERE id = ANY($1)`, notes).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	forgotten, err := st.ForgetMemory(ctx, ann, m2.ID)
	if err != nil {
		t.Fatal(err)
	}
	f := forgotten.Forgotten
	if len(f.Relationships) != 1 || len(f.Notes) != 2 || len(f.Reopened) != 1 || f.Reopened[0].ID != c1.Created[0] || !f.Reopened[0].ValidTo.Equal(t1) {
		t.Fatalf("what the forget kept: %+v", f)
	}
	if got := state(t1.Add(time.Hour)); !slices.Equal(got, []string{"Acme works at"}) || countNotes() != 0 {
		t.Fatalf("after the forget: %v, %d notes", got, countNotes())
	}
	// The value it closed is current again, as its relationship holds again.
	if got := employer(); !slices.Equal(got, []string{"Jon works at Acme"}) || len(f.ReopenedValues) != 1 {
		t.Fatalf("employer after the forget: %v (%+v)", got, f.ReopenedValues)
	}

	if err := st.RestoreMemory(ctx, ann, forgotten); err != nil {
		t.Fatal(err)
	}
	if got := state(t1.Add(time.Hour)); !slices.Equal(got, []string{"Initech works at"}) || countNotes() != 2 {
		t.Fatalf("after undo of the forget: %v, %d notes", got, countNotes())
	}
	if got := state(t0.Add(time.Hour)); !slices.Equal(got, []string{"Acme works at"}) {
		t.Fatalf("what held before Initech: %v", got)
	}
	if got := employer(); !slices.Equal(got, []string{"Jon works at Initech"}) {
		t.Fatalf("employer after undo of the forget: %v", got)
	}
	rs, err := st.FindRelationships(ctx, hearth.RelationshipFilter{UserID: ann, ID: c2.Created[0], Now: t1.Add(time.Hour)})
	if err != nil || len(rs) != 1 || len(rs[0].Notes) != 1 || rs[0].Notes[0].Body != "commutes by train" || rs[0].Notes[0].ID != notes[0] {
		t.Fatalf("the restored relationship's live notes: %+v %v", rs, err)
	}
	var text string
	if err := st.Pool().QueryRow(ctx, `SELECT embed_text FROM relationships WHERE id = $1`, c2.Created[0]).Scan(&text); err != nil || !strings.Contains(text, "commutes by train") {
		t.Fatalf("embedding text: %q %v", text, err)
	}
	// A retried undo is harmless: restoring what is there does nothing.
	if err := st.RestoreMemory(ctx, ann, forgotten); err != nil || countNotes() != 2 {
		t.Fatalf("restoring twice: %v, %d notes", err, countNotes())
	}

	// A value no longer current, forgotten, opens nothing: Globex holds
	// after Initech, and Acme stays closed.
	globex := ent("Globex", hearth.EntityOrganisation)
	t2 := t1.AddDate(0, 2, 0)
	tell("Jon works at Globex", globex, t2)
	if _, err := st.ForgetMemory(ctx, ann, m2.ID); err != nil {
		t.Fatal(err)
	}
	if got := state(t2.Add(time.Hour)); !slices.Equal(got, []string{"Globex works at"}) {
		t.Fatalf("after forgetting a past employer: %v", got)
	}
	if got := employer(); !slices.Equal(got, []string{"Jon works at Globex"}) {
		t.Fatalf("employer after forgetting a past one: %v", got)
	}
}

// TestForgetKeepsWhatClosedARelationship: a relationship forgotten after
// a later statement closed it comes back closed by that statement, so
// forgetting that one later still opens it again.
func TestForgetKeepsWhatClosedARelationship(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	ann := newUser(t, st, "Ann")
	ids := map[string]int64{}
	for _, n := range []string{"Jon", "Acme", "Initech"} {
		e, err := st.SaveEntity(ctx, hearth.Entity{UserID: ann, Name: n})
		if err != nil {
			t.Fatal(err)
		}
		ids[n] = e.ID
	}
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	tell := func(content, to string, at time.Time) hearth.Memory {
		t.Helper()
		m, err := st.StoreMemory(ctx, "", hearth.Memory{UserID: ann, Content: content})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := st.ApplyRelationship(ctx, hearth.Relationship{UserID: ann, FromID: ids["Jon"], ToID: ids[to], Label: hearth.LabelWorksAt,
			FactID: m.ID, ValidFrom: at}, false, at); err != nil {
			t.Fatal(err)
		}
		return m
	}
	acme := tell("Jon works at Acme", "Acme", t0)
	initech := tell("Jon works at Initech", "Initech", t0.AddDate(0, 1, 0))
	forgotten, err := st.ForgetMemory(ctx, ann, acme.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rs := forgotten.Forgotten.Relationships; len(rs) != 1 || rs[0].ClosedBy != initech.ID {
		t.Fatalf("the forgotten relationship: %+v", rs)
	}
	if err := st.RestoreMemory(ctx, ann, forgotten); err != nil {
		t.Fatal(err)
	}
	if _, err := st.ForgetMemory(ctx, ann, initech.ID); err != nil {
		t.Fatal(err)
	}
	rs, err := st.FindRelationships(ctx, hearth.RelationshipFilter{UserID: ann, EntityID: ids["Jon"], Now: t0.AddDate(1, 0, 0)})
	if err != nil || len(rs) != 1 || rs[0].ToName != "Acme" || rs[0].ClosedBy != 0 {
		t.Fatalf("after forgetting what closed it: %+v %v", rs, err)
	}
}

// TestForgetRelationFact: forgetting "Lea is my sister" takes back what
// it made Lea (her relation and the alias "my sister"), back to what was
// told before it or to nothing; undo of the forget puts both back.
func TestForgetRelationFact(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	ann := newUser(t, st, "Ann")
	tell := func(name, relation string) (hearth.Entity, hearth.Memory) {
		t.Helper()
		e, err := st.SaveEntity(ctx, hearth.Entity{UserID: ann, Name: name, Relation: relation, Aliases: []string{"my " + relation}})
		if err != nil {
			t.Fatal(err)
		}
		m, err := st.StoreMemory(ctx, "", hearth.Memory{UserID: ann, Content: name + " is my " + relation, About: name,
			EntityID: e.ID, Attribute: hearth.AttrRelation, Value: relation})
		if err != nil {
			t.Fatal(err)
		}
		return e, m
	}
	state := func(id int64) string {
		t.Helper()
		es, err := st.FindEntities(ctx, hearth.EntityFilter{UserID: ann, ID: id})
		if err != nil || len(es) != 1 {
			t.Fatalf("entity %d: %v %v", id, es, err)
		}
		aliases := slices.Clone(es[0].Aliases)
		slices.Sort(aliases)
		return es[0].Relation + " " + strings.Join(aliases, ",")
	}
	for _, c := range []struct {
		name           string
		tells          []string
		forgotten, was string
	}{
		{"Lea", []string{"sister"}, " ", "sister my sister"},
		{"Max", []string{"cousin", "brother"}, "cousin my cousin", "brother my brother,my cousin"},
	} {
		var e hearth.Entity
		var m hearth.Memory
		for _, r := range c.tells {
			e, m = tell(c.name, r)
		}
		if got := state(e.ID); got != c.was {
			t.Fatalf("%s told: %q, want %q", c.name, got, c.was)
		}
		forgotten, err := st.ForgetMemory(ctx, ann, m.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got := state(e.ID); got != c.forgotten {
			t.Fatalf("%s after the forget: %q, want %q", c.name, got, c.forgotten)
		}
		if err := st.RestoreMemory(ctx, ann, forgotten); err != nil {
			t.Fatal(err)
		}
		if got := state(e.ID); got != c.was {
			t.Fatalf("%s after undo of the forget: %q, want %q", c.name, got, c.was)
		}
	}
}
