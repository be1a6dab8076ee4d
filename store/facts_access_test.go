package store_test

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"
)

// TestFactPermissionMatrix generates every combination of viewer (the
// owner, a family member, someone outside the family), grant the owner
// gives the member (none, tiers 1 to 4), and fact (each tier, owned by the
// owner; one the family owns; one the owner shared with the outsider),
// and reads through every query path that returns facts. What a viewer
// gets must be exactly what the rules allow: 0 leaks, 0 misses.
func TestFactPermissionMatrix(t *testing.T) {
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

	// Every fact is about "Zed", says "zebra", and has the same vector, so
	// every path can find every fact; only permissions tell them apart.
	type fact struct {
		hearth.Memory
		family bool
		shared bool
	}
	var facts []fact
	// Each fact is also the one attribute of an entity of its own, of the
	// fact's tier and owner (entities are never shared one by one).
	entityFact := map[string]string{}
	add := func(tier hearth.Tier, family, shared bool) {
		n := len(facts)
		e, err := st.SaveEntity(ctx, hearth.Entity{UserID: owner, Name: fmt.Sprintf("Zed %d", n), Tier: tier})
		if err != nil {
			t.Fatal(err)
		}
		m, err := st.StoreMemory(ctx, "", hearth.Memory{UserID: owner, Content: fmt.Sprintf("zebra fact %d", n), About: "Zed", Tier: tier,
			EntityID: e.ID, Attribute: "code", Value: fmt.Sprintf("zebra %d", n)})
		if err != nil {
			t.Fatal(err)
		}
		entityFact[e.Name] = m.Content
		if family {
			if m, err = st.GiveMemoryToFamily(ctx, owner, m.ID); err != nil {
				t.Fatal(err)
			}
			if err := st.GiveEntityToFamily(ctx, owner, e.ID); err != nil {
				t.Fatal(err)
			}
		}
		facts = append(facts, fact{Memory: m, family: family, shared: shared})
	}
	for tier := hearth.TierPrivate; tier <= hearth.TierBasic; tier++ {
		add(tier, false, false)
	}
	add(hearth.TierPrivate, true, false)
	add(hearth.TierPrivate, false, true)
	// The outsider joins only to be shared with, then leaves: a share
	// outlives membership only for that one fact.
	inv2, err := st.CreateFamilyInvite(ctx, owner, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.JoinFamily(ctx, hearth.NormaliseCode(inv2.Code), outsider); err != nil {
		t.Fatal(err)
	}
	if err := st.ShareMemory(ctx, owner, facts[len(facts)-1].ID, outsider); err != nil {
		t.Fatal(err)
	}
	if _, err := st.LeaveFamily(ctx, outsider); err != nil {
		t.Fatal(err)
	}
	vec := unit(7)
	for _, f := range facts {
		if _, err := st.Pool().Exec(ctx, `UPDATE facts SET embedding = $2, embedding_model = 'm', latitude = 51.5, longitude = -0.12 WHERE id = $1`, f.ID, pgvector.NewVector(vec)); err != nil {
			t.Fatal(err)
		}
	}
	// The viewers' calendars hold a meeting with Zed, for meeting prep.
	day := time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC)
	for _, v := range []int64{owner, member, outsider} {
		if _, err := st.CreateEvent(ctx, "", hearth.CalendarEvent{UserID: v, Title: "Coffee", Start: day.Add(10 * time.Hour), End: day.Add(11 * time.Hour), Attendees: []string{"Zed"}}); err != nil {
			t.Fatal(err)
		}
	}

	paths := map[string]func(viewer int64) []string{
		"recent": func(v int64) []string {
			return findContents(t, st, hearth.MemoryFilter{UserID: v, Limit: 100})
		},
		"full text": func(v int64) []string {
			return findContents(t, st, hearth.MemoryFilter{UserID: v, Query: "zebra", Limit: 100})
		},
		"about a person": func(v int64) []string {
			return findContents(t, st, hearth.MemoryFilter{UserID: v, About: "zed", Limit: 100})
		},
		"point in time": func(v int64) []string {
			return findContents(t, st, hearth.MemoryFilter{UserID: v, Query: "zebra", AsOf: time.Now(), Limit: 100})
		},
		"by meaning": func(v int64) []string {
			ms, err := st.SimilarMemories(ctx, v, "m", vec, "", 2, 100)
			if err != nil {
				t.Fatal(err)
			}
			return contents(ms)
		},
		"hybrid": func(v int64) []string {
			ms, err := st.SearchMemories(ctx, v, "zebra Zed", "m", vec, 100)
			if err != nil {
				t.Fatal(err)
			}
			return contents(ms)
		},
		"attribute value": func(v int64) []string {
			return findContents(t, st, hearth.MemoryFilter{UserID: v, Attribute: "code", Value: "zebra", Limit: 100})
		},
		"proximity": func(v int64) []string {
			return findContents(t, st, hearth.MemoryFilter{UserID: v, Near: &hearth.Coordinates{Lat: 51.5, Lon: -0.13}, Limit: 100})
		},
		"entity lookup": func(v int64) []string {
			es, err := st.FindEntities(ctx, hearth.EntityFilter{UserID: v, Name: "Zed", Limit: 100})
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, e := range es {
				out = append(out, entityFact[e.Name])
			}
			return out
		},
		"entity's facts": func(v int64) []string {
			var out []string
			es, err := st.FindEntities(ctx, hearth.EntityFilter{UserID: owner, Name: "Zed", Limit: 100})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range es {
				out = append(out, findContents(t, st, hearth.MemoryFilter{UserID: v, EntityID: e.ID, Limit: 100})...)
			}
			return out
		},
		// The reference: the rule as the SQL function of migration 00014
		// states it, which the reads above write into their statements.
		"fact_visible": func(v int64) []string {
			rows, _ := st.Pool().Query(ctx, `SELECT content FROM facts WHERE fact_visible($1, user_id, family_id, tier, id) AND deleted_at IS NULL`, v)
			out, err := pgx.CollectRows(rows, pgx.RowTo[string])
			if err != nil {
				t.Fatal(err)
			}
			return out
		},
		"briefing meeting prep": func(v int64) []string {
			d, err := st.BriefingData(ctx, v, day, day.Add(24*time.Hour), day.Add(7*24*time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			return d.Memories["Zed"]
		},
	}
	grants := []hearth.Tier{0, hearth.TierPrivate, hearth.TierPersonal, hearth.TierEvents, hearth.TierBasic}
	leaks, misses, cases := 0, 0, 0
	for _, g := range grants {
		if g == 0 {
			if _, err := st.Pool().Exec(ctx, `DELETE FROM access_grants WHERE target_id = $1 AND viewer_id = $2`, owner, member); err != nil {
				t.Fatal(err)
			}
		} else if err := st.SetAccessGrant(ctx, owner, member, g); err != nil {
			t.Fatal(err)
		}
		for vname, v := range map[string]int64{"owner": owner, "member": member, "outsider": outsider} {
			for pname, read := range paths {
				var want []string
				for _, f := range facts {
					visible := v == owner ||
						f.family && v == member ||
						f.shared && v == outsider && pname != "entity lookup" ||
						v == member && g != 0 && g <= f.Tier
					if visible {
						want = append(want, f.Content)
					}
				}
				sort.Strings(want)
				cases++
				got := read(v)
				sort.Strings(got)
				for _, c := range got {
					if !slices.Contains(want, c) {
						leaks++
						t.Errorf("grant %d, %s via %s: sees %q", g, vname, pname, c)
					}
				}
				for _, c := range want {
					// Meeting prep shows the newest 3 per attendee only.
					if !slices.Contains(got, c) && !(pname == "briefing meeting prep" && len(got) == 3) {
						misses++
						t.Errorf("grant %d, %s via %s: misses %q", g, vname, pname, c)
					}
				}
			}
		}
	}
	t.Logf("%d cases (viewers × grants × query paths, %d facts each): %d leaks, %d misses", cases, len(facts), leaks, misses)
}

func findContents(t *testing.T, st *store.Store, f hearth.MemoryFilter) []string {
	t.Helper()
	ms, err := st.FindMemories(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	return contents(ms)
}
