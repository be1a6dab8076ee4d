package store_test

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/store/storetest"
)

// TestGraphPermissionMatrix grows the fact matrix to the memory graph: it
// generates every combination of viewer (the owner, a family member,
// someone outside), grant the owner gives the member (none, tiers 1 to
// 4), and node (each tier, and one the family owns), relationship (each
// tier between two of those nodes, and one the family owns) and note
// (each tier on each node and relationship, and one the family owns), and
// reads through every query path that returns notes, relationships or
// storylines (the nodes' own, promoted from their mentions). A
// relationship is visible only with both its ends, a note only with what
// it is about, a storyline only with its node: 0 leaks, 0 misses. The
// paths include the searches by words and by meaning (issue 19's second
// step; notes on nodes by meaning too), and a control search by meaning with the predicate removed must
// be caught leaking, so the matrix is known to fail without it.
func TestGraphPermissionMatrix(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	owner, member, outsider := newUser(t, st, "Ann"), newUser(t, st, "Ben"), newUser(t, st, "Oli")
	inv, err := st.CreateFamilyInvite(ctx, owner, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.JoinFamily(ctx, hearth.NormaliseCode(inv.Code), member); err != nil {
		t.Fatal(err)
	}
	type own struct {
		tier   hearth.Tier
		family bool
	}
	type node struct {
		own
		id int64
	}
	type rel struct {
		own
		id       int64
		from, to node
	}
	type note struct {
		own
		body  string
		nodes []own // what the note is about must be visible too
		ent   int64
		rel   int64
	}
	setFamily := func(table string, id int64) {
		if _, err := st.Pool().Exec(ctx, `UPDATE `+table+` SET family_id = (SELECT family_id FROM family_members WHERE user_id = $2) WHERE id = $1`, id, owner); err != nil {
			t.Fatal(err)
		}
	}
	owns := []own{{hearth.TierPrivate, false}, {hearth.TierPersonal, false}, {hearth.TierEvents, false}, {hearth.TierBasic, false}, {hearth.TierPrivate, true}}
	var nodes []node
	for i, o := range owns {
		e, err := st.SaveEntity(ctx, hearth.Entity{UserID: owner, Name: fmt.Sprintf("Node %d", i), Tier: o.tier, Kind: hearth.EntityProject})
		if err != nil {
			t.Fatal(err)
		}
		if o.family {
			setFamily("entities", e.ID)
		}
		nodes = append(nodes, node{o, e.ID})
	}
	// Every node is mentioned on three days and becomes a storyline.
	now := time.Now()
	for _, n := range nodes {
		for d := range 3 {
			if err := st.RecordMentions(ctx, []hearth.Mention{{EntityID: n.id, Source: fmt.Sprint("src", d), At: now.AddDate(0, 0, -d)}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if n, err := st.PromoteStorylines(ctx, "Europe/Rome", now, now.AddDate(0, 0, -30), 3); err != nil || n != len(nodes) {
		t.Fatalf("promoted %d: %v", n, err)
	}
	var rels []rel
	for i, o := range owns {
		// Each relationship joins a basic node to another node, so its
		// visibility depends on its own tier and on the other end's.
		from, to := nodes[3], nodes[(i+4)%len(nodes)]
		if from.id == to.id {
			to = nodes[0]
		}
		r, err := st.SaveRelationship(ctx, hearth.Relationship{UserID: owner, FromID: from.id, ToID: to.id, Label: fmt.Sprintf("rel %d", i), Tier: o.tier})
		if err != nil {
			t.Fatal(err)
		}
		if o.family {
			setFamily("relationships", r.ID)
		}
		rels = append(rels, rel{o, r.ID, from, to})
	}
	var notes []note
	for _, o := range owns {
		for _, n := range nodes {
			gn, err := st.AddGraphNote(ctx, hearth.GraphNote{AddedBy: owner, EntityID: n.id, Tier: o.tier, Body: fmt.Sprintf("note %d on node %d", len(notes), n.id)}, now)
			if err != nil {
				t.Fatal(err)
			}
			if o.family {
				setFamily("graph_notes", gn.ID)
			}
			notes = append(notes, note{o, gn.Body, []own{n.own}, n.id, 0})
		}
		for _, r := range rels {
			gn, err := st.AddGraphNote(ctx, hearth.GraphNote{AddedBy: owner, RelationshipID: r.id, Tier: o.tier, Body: fmt.Sprintf("note %d on rel %d", len(notes), r.id)}, now)
			if err != nil {
				t.Fatal(err)
			}
			if o.family {
				setFamily("graph_notes", gn.ID)
			}
			notes = append(notes, note{o, gn.Body, []own{r.own, r.from.own, r.to.own}, 0, r.id})
		}
	}

	type item struct {
		key   string
		needs []own
		ent   int64 // for the per-entity paths: the entities it touches
		ent2  int64
		rel   int64
	}
	var relItems, noteItems, storyItems []item
	for i, n := range nodes {
		storyItems = append(storyItems, item{fmt.Sprintf("Node %d", i), []own{n.own}, n.id, 0, 0})
	}
	for _, r := range rels {
		relItems = append(relItems, item{fmt.Sprint(r.id), []own{r.own, r.from.own, r.to.own}, r.from.id, r.to.id, r.id})
	}
	for _, n := range notes {
		noteItems = append(noteItems, item{n.body, append([]own{n.own}, n.nodes...), n.ent, 0, n.rel})
	}
	relKeys := func(rs []hearth.Relationship) []string {
		var out []string
		for _, r := range rs {
			out = append(out, fmt.Sprint(r.ID))
		}
		return out
	}
	noteKeys := func(ns []hearth.GraphNote) []string {
		var out []string
		for _, n := range ns {
			out = append(out, n.Body)
		}
		return out
	}
	type path struct {
		items []item
		keep  func(item) bool
		read  func(v int64) []string
	}
	storyKeys := func(ss []hearth.Storyline) []string {
		var out []string
		for _, s := range ss {
			out = append(out, s.Title)
		}
		return out
	}
	paths := map[string]path{
		"storylines": {storyItems, func(item) bool { return true }, func(v int64) []string {
			ss, err := st.FindStorylines(ctx, hearth.StorylineFilter{UserID: v, Limit: 1000})
			if err != nil {
				t.Fatal(err)
			}
			return storyKeys(ss)
		}},
		"storylines by name": {storyItems, func(item) bool { return true }, func(v int64) []string {
			ss, err := st.FindStorylines(ctx, hearth.StorylineFilter{UserID: v, Name: "node", Limit: 1000})
			if err != nil {
				t.Fatal(err)
			}
			return storyKeys(ss)
		}},
		"briefing going-on line": {storyItems, func(item) bool { return true }, func(v int64) []string {
			day := now.Truncate(24 * time.Hour)
			d, err := st.BriefingData(ctx, v, day, day.Add(24*time.Hour), day.Add(7*24*time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			return storyKeys(d.Storylines)
		}},
		"all relationships": {relItems, func(item) bool { return true }, func(v int64) []string {
			rs, err := st.FindRelationships(ctx, hearth.RelationshipFilter{UserID: v, Limit: 1000})
			if err != nil {
				t.Fatal(err)
			}
			return relKeys(rs)
		}},
		"relationships of a node": {relItems, func(i item) bool { return i.ent == nodes[3].id || i.ent2 == nodes[3].id }, func(v int64) []string {
			rs, err := st.FindRelationships(ctx, hearth.RelationshipFilter{UserID: v, EntityID: nodes[3].id, Limit: 1000})
			if err != nil {
				t.Fatal(err)
			}
			return relKeys(rs)
		}},
		"all notes": {noteItems, func(item) bool { return true }, func(v int64) []string {
			ns, err := st.FindGraphNotes(ctx, hearth.GraphNoteFilter{UserID: v, Limit: 1000})
			if err != nil {
				t.Fatal(err)
			}
			return noteKeys(ns)
		}},
		"notes on each node": {noteItems, func(i item) bool { return i.ent != 0 }, func(v int64) []string {
			var out []string
			for _, n := range nodes {
				ns, err := st.FindGraphNotes(ctx, hearth.GraphNoteFilter{UserID: v, EntityID: n.id, Limit: 1000})
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, noteKeys(ns)...)
			}
			return out
		}},
		"notes on each relationship": {noteItems, func(i item) bool { return i.rel != 0 }, func(v int64) []string {
			var out []string
			for _, r := range rels {
				ns, err := st.FindGraphNotes(ctx, hearth.GraphNoteFilter{UserID: v, RelationshipID: r.id, Limit: 1000})
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, noteKeys(ns)...)
			}
			return out
		}},
		"relationships' notes": {noteItems, func(i item) bool { return i.rel != 0 }, func(v int64) []string {
			rs, err := st.FindRelationships(ctx, hearth.RelationshipFilter{UserID: v, Limit: 1000})
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, r := range rs {
				out = append(out, noteKeys(r.Notes)...)
			}
			return out
		}},
	}
	// Search by meaning: every relationship gets the same vector, so the
	// query's nearest are all of them, and only the predicate decides.
	vec := make([]float32, 256)
	for i := range vec {
		vec[i] = 1.0 / 16
	}
	if _, err := st.Pool().Exec(ctx, `UPDATE relationships SET embedding = $1::vector, embedding_model = 'matrix'`, pgvector.NewVector(vec)); err != nil {
		t.Fatal(err)
	}
	similar := func(v int64) []hearth.Relationship {
		rs, err := st.SimilarRelationships(ctx, v, "matrix", vec, 0.5, 1000, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		return rs
	}
	paths["relationships by meaning"] = path{relItems, func(item) bool { return true }, func(v int64) []string { return relKeys(similar(v)) }}
	paths["notes of relationships by meaning"] = path{noteItems, func(i item) bool { return i.rel != 0 }, func(v int64) []string {
		var out []string
		for _, r := range similar(v) {
			out = append(out, noteKeys(r.Notes)...)
		}
		return out
	}}
	// Notes on nodes by meaning, likewise: one vector for all of them.
	if _, err := st.Pool().Exec(ctx, `UPDATE graph_notes SET embedding = $1::vector, embedding_model = 'matrix'`, pgvector.NewVector(vec)); err != nil {
		t.Fatal(err)
	}
	paths["notes on nodes by meaning"] = path{noteItems, func(i item) bool { return i.ent != 0 }, func(v int64) []string {
		ns, err := st.SimilarGraphNotes(ctx, v, "matrix", vec, 0.5, 1000, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		return noteKeys(ns)
	}}
	paths["relationships by words"] = path{relItems, func(item) bool { return true }, func(v int64) []string {
		rs, err := st.FindRelationships(ctx, hearth.RelationshipFilter{UserID: v, Query: "node", Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		return relKeys(rs)
	}}
	paths["notes by words"] = path{noteItems, func(item) bool { return true }, func(v int64) []string {
		ns, err := st.FindGraphNotes(ctx, hearth.GraphNoteFilter{UserID: v, Query: "note", Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		return noteKeys(ns)
	}}
	// The control: the same search with the predicate removed must be
	// caught by this matrix (leaks), or the matrix proves nothing.
	control := path{relItems, func(item) bool { return true }, func(v int64) []string {
		rows, err := st.Pool().Query(ctx, `SELECT id::text FROM relationships WHERE embedding_model = 'matrix' ORDER BY embedding <=> $1::vector`, pgvector.NewVector(vec))
		if err != nil {
			t.Fatal(err)
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		return ids
	}}
	grants := []hearth.Tier{0, hearth.TierPrivate, hearth.TierPersonal, hearth.TierEvents, hearth.TierBasic}
	controlLeaks := 0
	leaks, misses, cases := 0, 0, 0
	for _, g := range grants {
		if g == 0 {
			if _, err := st.Pool().Exec(ctx, `DELETE FROM access_grants WHERE target_id = $1 AND viewer_id = $2`, owner, member); err != nil {
				t.Fatal(err)
			}
		} else if err := st.SetAccessGrant(ctx, owner, member, g); err != nil {
			t.Fatal(err)
		}
		sees := func(v int64, o own) bool {
			return v == owner || o.family && v == member || v == member && g != 0 && g <= o.tier
		}
		for vname, v := range map[string]int64{"owner": owner, "member": member, "outsider": outsider} {
			for pname, p := range paths {
				var want []string
				for _, it := range p.items {
					if !p.keep(it) {
						continue
					}
					ok := true
					for _, o := range it.needs {
						ok = ok && sees(v, o)
					}
					if ok {
						want = append(want, it.key)
					}
				}
				sort.Strings(want)
				cases++
				if pname == "relationships by meaning" {
					for _, c := range control.read(v) {
						if !slices.Contains(want, c) {
							controlLeaks++
						}
					}
				}
				got := p.read(v)
				for _, c := range got {
					if !slices.Contains(want, c) {
						leaks++
						t.Errorf("grant %d, %s via %s: sees %q", g, vname, pname, c)
					}
				}
				for _, c := range want {
					if !slices.Contains(got, c) {
						misses++
						t.Errorf("grant %d, %s via %s: misses %q", g, vname, pname, c)
					}
				}
			}
		}
	}
	t.Logf("%d cases (viewers × grants × query paths; %d relationships, %d notes, %d storylines): %d leaks, %d misses", cases, len(rels), len(notes), len(nodes), leaks, misses)
	if controlLeaks == 0 {
		t.Error("the search by meaning without the permission predicate leaked nothing: the matrix cannot tell")
	}
	t.Logf("control (search by meaning, predicate removed): %d leaks caught", controlLeaks)
}
