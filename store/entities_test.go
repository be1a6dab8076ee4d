package store_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/store/storetest"
)

func names(es []hearth.Entity) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Name)
	}
	return out
}

func TestEntities(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)

	t.Run("save finds by name or alias, lookup is fuzzy and per owner", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		jon, err := b.st.SaveEntity(b.ctx, hearth.Entity{UserID: b.alice, Name: "Jonathan Reed", Aliases: []string{"Jon", "my brother"}, Relation: "Brother"})
		if err != nil {
			t.Fatal(err)
		}
		if jon.Kind != hearth.EntityPerson || jon.Tier != hearth.TierBasic || jon.Relation != "brother" || !slices.Equal(jon.Aliases, []string{"Jon", "my brother"}) {
			t.Fatalf("saved %+v", jon)
		}
		// Saving by an alias is the same entity, with one more alias.
		again, err := b.st.SaveEntity(b.ctx, hearth.Entity{UserID: b.alice, Name: "jon", Aliases: []string{"Jonny", "JON"}})
		if err != nil || again.ID != jon.ID || !slices.Equal(again.Aliases, []string{"Jon", "Jonny", "my brother"}) || again.Relation != "brother" {
			t.Fatalf("saved again %+v, %v", again, err)
		}
		if _, err := b.st.SaveEntity(b.ctx, hearth.Entity{UserID: b.alice, Name: "Sarah Kim"}); err != nil {
			t.Fatal(err)
		}
		if _, err := b.st.SaveEntity(b.ctx, hearth.Entity{UserID: b.alice, Name: "Sarah Lopez"}); err != nil {
			t.Fatal(err)
		}
		if _, err := b.st.SaveEntity(b.ctx, hearth.Entity{UserID: b.alice, Name: "Acme", Kind: hearth.EntityOrganisation}); err != nil {
			t.Fatal(err)
		}
		for _, tt := range []struct {
			name string
			want []string
		}{
			{"my brother", []string{"Jonathan Reed"}},
			{"Jonny", []string{"Jonathan Reed"}},
			{"Sarah", []string{"Sarah Kim", "Sarah Lopez"}},
			{"sarah kim", []string{"Sarah Kim"}},
			{"Sara Kim", []string{"Sarah Kim"}}, // a typo still finds her
			{"Acme", []string{"Acme"}},
			{"Zelda", nil},
		} {
			es, err := b.st.FindEntities(b.ctx, hearth.EntityFilter{UserID: b.alice, Name: tt.name})
			if err != nil {
				t.Fatal(err)
			}
			if got := names(es); !slices.Equal(got, tt.want) {
				t.Errorf("find %q = %q; want %q", tt.name, got, tt.want)
			}
		}
		// Bob has no family with Alice: he sees none of hers.
		if es, err := b.st.FindEntities(b.ctx, hearth.EntityFilter{UserID: b.bob, Name: "Sarah"}); err != nil || len(es) != 0 {
			t.Fatalf("Bob finds %v, %v", names(es), err)
		}
		if es, err := b.st.FindEntities(b.ctx, hearth.EntityFilter{UserID: b.alice, Relation: "brother"}); err != nil || !slices.Equal(names(es), []string{"Jonathan Reed"}) {
			t.Fatalf("by relation %v, %v", names(es), err)
		}
		// A member link to someone outside the owner's family is dropped.
		if e, err := b.st.SaveEntity(b.ctx, hearth.Entity{UserID: b.alice, Name: "Bob", MemberID: b.bob}); err != nil || e.MemberID != 0 {
			t.Fatalf("linked a stranger: %+v, %v", e, err)
		}
		for _, e := range []hearth.Entity{{Name: "x"}, {UserID: b.alice}, {UserID: b.alice, Name: "x", Kind: "robot"}} {
			_, err := b.st.SaveEntity(b.ctx, e)
			wantInvalid(t, err)
		}
	})

	t.Run("attributes over time: a new value closes the old", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		sarah, err := b.st.SaveEntity(b.ctx, hearth.Entity{UserID: b.alice, Name: "Sarah"})
		if err != nil {
			t.Fatal(err)
		}
		set := func(value string, from, to time.Time) hearth.Memory {
			t.Helper()
			m, err := b.st.StoreMemory(b.ctx, "", hearth.Memory{UserID: b.alice, Content: "Sarah works at " + value, About: "Sarah",
				EntityID: sarah.ID, Attribute: hearth.AttrEmployer, Value: value, ValidFrom: from, ValidTo: to})
			if err != nil {
				t.Fatal(err)
			}
			return m
		}
		y := func(year int) time.Time { return time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC) }
		old := set("Initech", y(2015), time.Time{})
		// A past value, bounded, closes nothing.
		set("Globex", y(2010), y(2014))
		acme := set("Acme Corp", y(2020), time.Time{})
		if same := set("acme corp", time.Time{}, time.Time{}); same.ID != acme.ID {
			t.Fatalf("telling the same value again stored %+v", same)
		}
		employer := func(at time.Time, value string) []string {
			t.Helper()
			ms, err := b.st.FindMemories(b.ctx, hearth.MemoryFilter{UserID: b.alice, EntityID: sarah.ID, Attribute: hearth.AttrEmployer, Value: value, AsOf: at})
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, m := range ms {
				out = append(out, m.Value)
			}
			return out
		}
		if got := employer(time.Time{}, ""); !slices.Equal(got, []string{"Acme Corp"}) {
			t.Fatalf("now: %v", got)
		}
		if got := employer(y(2018), ""); !slices.Equal(got, []string{"Initech"}) {
			t.Fatalf("2018: %v", got)
		}
		if got := employer(y(2012), ""); !slices.Equal(got, []string{"Globex"}) {
			t.Fatalf("2012: %v", got)
		}
		if got := employer(time.Time{}, "acme"); !slices.Equal(got, []string{"Acme Corp"}) {
			t.Fatalf("who works at acme: %v", got)
		}
		// Undo of the new value: Initech is current again.
		if err := b.st.UnstoreMemory(b.ctx, b.alice, acme.ID); err != nil {
			t.Fatal(err)
		}
		if got := employer(time.Time{}, ""); !slices.Equal(got, []string{"Initech"}) {
			t.Fatalf("after undo: %v", got)
		}
		if err := b.st.UnstoreMemory(b.ctx, b.alice, acme.ID); err != nil {
			t.Fatalf("retried undo: %v", err)
		}
		// "Sarah no longer works at Initech": the value ends, nothing
		// replaces it, what held until now still did; undo reopens it.
		ended, err := b.st.StoreMemory(b.ctx, "", hearth.Memory{UserID: b.alice, Content: "Sarah no longer works at Initech", About: "Sarah", EntityID: sarah.ID})
		if err != nil {
			t.Fatal(err)
		}
		if err := b.st.EndValues(b.ctx, b.alice, sarah.ID, hearth.AttrEmployer, "initech", ended.ID); err != nil {
			t.Fatal(err)
		}
		if got := employer(time.Time{}, ""); len(got) != 0 {
			t.Fatalf("after the ending, now: %v", got)
		}
		if got := employer(y(2018), ""); !slices.Equal(got, []string{"Initech"}) {
			t.Fatalf("after the ending, 2018: %v", got)
		}
		if err := b.st.UnstoreMemory(b.ctx, b.alice, ended.ID); err != nil {
			t.Fatal(err)
		}
		if got := employer(time.Time{}, ""); !slices.Equal(got, []string{"Initech"}) {
			t.Fatalf("after undoing the ending: %v", got)
		}
		_ = old
		// Places: the nearest first, with distances in metres.
		school := hearth.Coordinates{Lat: 51.5007, Lon: -0.1246}
		for name, at := range map[string]hearth.Coordinates{"Lily": {Lat: 51.5033, Lon: -0.1196}, "Noah": {Lat: 51.5194, Lon: -0.1270}} {
			e, err := b.st.SaveEntity(b.ctx, hearth.Entity{UserID: b.alice, Name: name})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := b.st.StoreMemory(b.ctx, "", hearth.Memory{UserID: b.alice, Content: name + " lives here", About: name,
				EntityID: e.ID, Attribute: "home", Value: name + "'s house", Place: &at}); err != nil {
				t.Fatal(err)
			}
		}
		near, err := b.st.FindMemories(b.ctx, hearth.MemoryFilter{UserID: b.alice, Attribute: "home", Near: &school})
		if err != nil || len(near) != 2 || near[0].About != "Lily" || near[0].Distance < 400 || near[0].Distance > 500 ||
			near[1].Distance < 2000 || near[1].Distance > 2200 || near[0].Place == nil {
			t.Fatalf("near the school: %+v, %v", near, err)
		}
		_, err = b.st.StoreMemory(b.ctx, "", hearth.Memory{UserID: b.alice, Content: "x", EntityID: sarah.ID, Attribute: "home", Value: "x", Place: &hearth.Coordinates{Lat: 91}})
		wantInvalid(t, err)
		// An attribute needs an entity the teller may use, and a value.
		_, err = b.st.StoreMemory(b.ctx, "", hearth.Memory{UserID: b.alice, Content: "x", Attribute: "email", Value: "x@y"})
		wantInvalid(t, err)
		if _, err := b.st.StoreMemory(b.ctx, "", hearth.Memory{UserID: b.bob, Content: "x", EntityID: sarah.ID, Attribute: "email", Value: "x@y"}); err == nil {
			t.Fatal("Bob stored an attribute of Alice's entity")
		}
	})
}

// Messages naming the same node at once, on a day it was not named
// before, count one day and every message; the same message again counts
// nothing.
func TestCountMentionsConcurrently(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	c, err := st.SignIn(ctx, hearth.ChannelWebchat, "mentions", "Ann", "conv-mentions", "Europe/Rome")
	if err != nil {
		t.Fatal(err)
	}
	move, err := st.SaveEntity(ctx, hearth.Entity{UserID: c.User.ID, Name: "house move", Aliases: []string{"the move"}})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 2, 22, 30, 0, 0, time.UTC) // the 2nd in UTC, the 2nd in Rome too (23:30)
	const messages = 8
	var wg sync.WaitGroup
	for i := range messages {
		wg.Go(func() {
			for range 2 { // the second is a retried turn
				ids, err := st.CountMentions(ctx, c.User.ID, "About the move, again!", fmt.Sprint("event:", i), at)
				if err != nil || len(ids) != 1 || ids[0] != move.ID {
					t.Errorf("message %d: counted %v, %v; want [%d]", i, ids, err, move.ID)
				}
			}
		})
	}
	wg.Wait()
	var sources, days int
	if err := st.Pool().QueryRow(ctx, `SELECT mention_sources, mention_days FROM entities WHERE id = $1`, move.ID).Scan(&sources, &days); err != nil {
		t.Fatal(err)
	}
	if sources != messages || days != 1 {
		t.Errorf("%d sources over %d days, want %d over 1", sources, days, messages)
	}
	if ids, err := st.CountMentions(ctx, c.User.ID, "nothing to see", "event:x", at); err != nil || len(ids) != 0 {
		t.Errorf("a message naming no one counted %v, %v", ids, err)
	}
	if _, err := st.CountMentions(ctx, c.User.ID, "the move", "", at); !errors.Is(err, hearth.ErrInvalid) {
		t.Errorf("a mention without a source: %v, want invalid", err)
	}
}
