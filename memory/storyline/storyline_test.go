package storyline_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/memory/storyline"
	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

var seq atomic.Int64

func newUser(t testing.TB, st *store.Store, name, zone string) int64 {
	t.Helper()
	key := fmt.Sprintf("%s-%d", name, seq.Add(1))
	c, err := st.SignIn(context.Background(), hearth.ChannelWebchat, key, name, key, zone)
	if err != nil {
		t.Fatal(err)
	}
	return c.User.ID
}

func entity(t testing.TB, st *store.Store, user int64, name string, k hearth.EntityKind) hearth.Entity {
	t.Helper()
	e, err := st.SaveEntity(context.Background(), hearth.Entity{UserID: user, Name: name, Kind: k})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// mention records that source mentioned the entities at at.
func mention(t testing.TB, st *store.Store, source string, at time.Time, es ...hearth.Entity) {
	t.Helper()
	var ms []hearth.Mention
	for _, e := range es {
		ms = append(ms, hearth.Mention{EntityID: e.ID, Source: source, At: at})
	}
	if err := st.RecordMentions(context.Background(), ms); err != nil {
		t.Fatal(err)
	}
}

// TestPromotion counts mentions per source and per local day, promotes
// at night in each zone only, and converges: a second run, or two runs at
// once, promote nothing more.
func TestPromotion(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	ann := newUser(t, st, "Ann", "Europe/Rome")
	ned := newUser(t, st, "Ned", "America/New_York")
	move := entity(t, st, ann, "house move", hearth.EntityProject)
	emma := entity(t, st, ann, "Emma", hearth.EntityPerson)
	piano := entity(t, st, ann, "piano lessons", hearth.EntityConcept)
	boat := entity(t, st, ned, "boat repair", hearth.EntityProject)

	d0 := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	// 22:30 and 23:30 UTC on the 2nd are the 2nd and the 3rd in Rome.
	mention(t, st, "m1", d0.Add(22*time.Hour+30*time.Minute), move, emma, piano)
	mention(t, st, "m2", d0.Add(23*time.Hour+30*time.Minute), move, emma)
	mention(t, st, "m2", d0.Add(23*time.Hour+30*time.Minute), move) // the same source again: once
	mention(t, st, "m3", d0.Add(24*time.Hour+10*time.Hour), move, emma, piano)
	mention(t, st, "m4", d0.Add(72*time.Hour), move, emma)
	for i := range 3 {
		mention(t, st, fmt.Sprintf("n%d", i), d0.Add(time.Duration(i)*24*time.Hour+12*time.Hour), boat)
	}

	jobs := storyline.New(st, storyline.Config{})
	// 03:10 in Rome on the 6th: night there, evening in New York.
	night := time.Date(2026, 3, 6, 2, 10, 0, 0, time.UTC)
	r, err := jobs.Nightly(ctx, night)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Zones) != 1 || r.Zones[0] != "Europe/Rome" || r.Promoted != 1 {
		t.Fatalf("first night: %+v", r)
	}
	ss, err := st.FindStorylines(ctx, hearth.StorylineFilter{UserID: ann})
	if err != nil {
		t.Fatal(err)
	}
	// The move: 4 sources (m2 once) on 3 Rome days (2nd, 3rd, 5th; m3 is
	// the 3rd too). Emma is a person (cast, not a thread), piano lessons
	// were mentioned on 2 days only.
	if len(ss) != 1 || ss[0].Title != "house move" || ss[0].Sources != 4 || ss[0].Days != 4-1 {
		t.Fatalf("storylines: %+v", ss)
	}
	// Again, and twice at once: nothing changes.
	var wg sync.WaitGroup
	var again atomic.Int64
	for range 3 {
		wg.Go(func() {
			r, err := jobs.Nightly(ctx, night.Add(time.Minute))
			if err != nil {
				t.Error(err)
			}
			again.Add(int64(r.Promoted))
		})
	}
	wg.Wait()
	if again.Load() != 0 {
		t.Errorf("repeated runs promoted %d", again.Load())
	}
	// Ned's night comes six hours later.
	r, err = jobs.Nightly(ctx, night.Add(6*time.Hour))
	if err != nil || len(r.Zones) != 1 || r.Zones[0] != "America/New_York" || r.Promoted != 1 {
		t.Fatalf("New York night: %+v %v", r, err)
	}
	// A new day of mentions updates the storyline the next night.
	mention(t, st, "m5", night.Add(10*time.Hour), piano, move)
	r, err = jobs.Nightly(ctx, night.Add(24*time.Hour))
	if err != nil || r.Promoted != 2 { // the move updated, piano lessons promoted
		t.Fatalf("next night: %+v %v", r, err)
	}
	// Nobody else sees Ann's storylines.
	if ss, _ := st.FindStorylines(ctx, hearth.StorylineFilter{UserID: ned}); len(ss) != 1 || ss[0].Title != "boat repair" {
		t.Errorf("Ned sees %+v", ss)
	}
	if ss, _ := st.FindStorylines(ctx, hearth.StorylineFilter{UserID: ann, Name: "the move"}); len(ss) != 1 {
		t.Errorf("the move: %+v", ss)
	}
}

// TestThemes groups linked storylines into one theme named after the
// most-mentioned, weekly, and converges.
func TestThemes(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	ann := newUser(t, st, "Ann", "Europe/Rome")
	move := entity(t, st, ann, "house move", hearth.EntityProject)
	boxes := entity(t, st, ann, "moving boxes", hearth.EntityConcept)
	school := entity(t, st, ann, "new school", hearth.EntityPlace)
	piano := entity(t, st, ann, "piano lessons", hearth.EntityConcept)
	d0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	for i := range 4 {
		at := d0.Add(time.Duration(i) * 24 * time.Hour)
		mention(t, st, fmt.Sprintf("a%d", i), at, move, boxes) // co-mentioned: linked
		mention(t, st, fmt.Sprintf("b%d", i), at, school)
		mention(t, st, fmt.Sprintf("c%d", i), at, piano)
	}
	mention(t, st, "a9", d0.Add(4*24*time.Hour), move) // the move: most days
	if _, err := st.SaveRelationship(ctx, hearth.Relationship{UserID: ann, FromID: school.ID, ToID: move.ID, Label: "part of"}); err != nil {
		t.Fatal(err)
	}
	jobs := storyline.New(st, storyline.Config{})
	sunday := time.Date(2026, 3, 8, 2, 30, 0, 0, time.UTC) // 03:30 Sunday in Rome
	if _, err := jobs.Nightly(ctx, sunday); err != nil {
		t.Fatal(err)
	}
	r, err := jobs.Weekly(ctx, sunday)
	if err != nil || r.Regroup != 3 {
		t.Fatalf("weekly: %+v %v", r, err)
	}
	ss, _ := st.FindStorylines(ctx, hearth.StorylineFilter{UserID: ann})
	themes := map[string]string{}
	for _, s := range ss {
		themes[s.Title] = s.ThemeTitle
	}
	want := map[string]string{"house move": "house move", "moving boxes": "house move", "new school": "house move", "piano lessons": ""}
	for k, v := range want {
		if themes[k] != v {
			t.Errorf("%s: theme %q, want %q (all: %v)", k, themes[k], v, themes)
		}
	}
	if r, err := jobs.Weekly(ctx, sunday.Add(time.Minute)); err != nil || r.Regroup != 0 {
		t.Errorf("second weekly run: %+v %v", r, err)
	}
	// Not Sunday: no zone.
	if r, err := jobs.Weekly(ctx, sunday.Add(24*time.Hour)); err != nil || len(r.Zones) != 0 {
		t.Errorf("Monday: %+v %v", r, err)
	}
	// "What's been going on with the move?" finds it by theme too.
	if ss, _ := st.FindStorylines(ctx, hearth.StorylineFilter{UserID: ann, Name: "the house move"}); len(ss) != 3 {
		t.Errorf("by theme: %+v", ss)
	}
}

// TestThemesGrouping is the grouping alone.
func TestThemesGrouping(t *testing.T) {
	t.Parallel()
	g := hearth.StorylineGraph{
		Storylines: []hearth.Storyline{
			{UserID: 1, EntityID: 10, Title: "a", Days: 2}, {UserID: 1, EntityID: 11, Title: "b", Days: 5},
			{UserID: 1, EntityID: 12, Title: "c", Days: 3}, {UserID: 1, EntityID: 13, Title: "d", Days: 9},
			{UserID: 2, EntityID: 20, Title: "e", Days: 3},
		},
		Links: [][2]int64{{12, 10}, {11, 12}, {13, 20}, {99, 10}},
	}
	groups, users := storyline.Themes(g)
	if len(groups) != 1 || groups[0].Key != 10 || groups[0].Title != "b" || len(groups[0].EntityIDs) != 3 || len(users) != 2 {
		t.Errorf("groups %+v users %v", groups, users)
	}
}

// TestConsolidateDescriptions: at night a relationship without a
// description gets the first sentence of its newest live note, once; one
// with a description keeps it.
func TestConsolidateDescriptions(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	ann := newUser(t, st, "Ann", "Europe/Rome")
	emma, lily := entity(t, st, ann, "Emma", hearth.EntityPerson), entity(t, st, ann, "Lily", hearth.EntityPerson)
	acme := entity(t, st, ann, "Acme", hearth.EntityOrganisation)
	bare, err := st.SaveRelationship(ctx, hearth.Relationship{UserID: ann, FromID: emma.ID, ToID: lily.ID, Label: "friend"})
	if err != nil {
		t.Fatal(err)
	}
	told, err := st.SaveRelationship(ctx, hearth.Relationship{UserID: ann, FromID: emma.ID, ToID: acme.ID, Description: "Emma interned at Acme."})
	if err != nil {
		t.Fatal(err)
	}
	night := time.Date(2026, 3, 6, 2, 10, 0, 0, time.UTC)
	for _, n := range []hearth.GraphNote{
		{AddedBy: ann, RelationshipID: bare.ID, Body: "They met at swimming. Lily is a year older."},
		{AddedBy: ann, RelationshipID: told.ID, Body: "She liked it."},
	} {
		if _, err := st.AddGraphNote(ctx, n, night.Add(-time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	jobs := storyline.New(st, storyline.Config{})
	for i, want := range []int{1, 0} {
		r, err := jobs.Nightly(ctx, night)
		if err != nil || r.Described != want {
			t.Fatalf("night %d: %+v %v", i, r, err)
		}
	}
	rs, err := st.FindRelationships(ctx, hearth.RelationshipFilter{UserID: ann, EntityID: emma.ID})
	if err != nil {
		t.Fatal(err)
	}
	got := map[int64]string{}
	for _, r := range rs {
		got[r.ID] = r.Description
	}
	if got[bare.ID] != "They met at swimming." || got[told.ID] != "Emma interned at Acme." {
		t.Errorf("descriptions %v", got)
	}
}
