package gather_test

import (
	"context"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/embedding"
	"github.com/hearthbot/hearth/pipeline/gather"
	"github.com/hearthbot/hearth/pipeline/llm"
	"github.com/hearthbot/hearth/store/storetest"
)

// TestRecallGraphNotes: notes on people are found by meaning after the
// word matches (which stay first, once), only ever those the asker may
// see and live at the turn's instant, on a real database with the
// background job's offline vectors.
func TestRecallGraphNotes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, _ := storetest.Open(t)
	const model = "hashed@256"
	emb := llm.Hashed{Dims: 256}
	user := func(name string) int64 {
		c, err := st.SignIn(ctx, hearth.ChannelWebchat, name, name, name, "UTC")
		if err != nil {
			t.Fatal(err)
		}
		return c.User.ID
	}
	ann, eve := user("ann"), user("eve")
	now := time.Now()
	note := func(uid int64, who, body string, life hearth.Lifetime) hearth.GraphNote {
		t.Helper()
		e, err := st.SaveEntity(ctx, hearth.Entity{UserID: uid, Name: who, Kind: hearth.EntityPerson})
		if err != nil {
			t.Fatal(err)
		}
		n, err := st.AddGraphNote(ctx, hearth.GraphNote{AddedBy: uid, EntityID: e.ID, Body: body, Lifetime: life}, now)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	kim := note(ann, "Kim", "climbing mountains every summer", hearth.LifetimeForever)
	week := note(ann, "Lou", "climbing the garden wall this week", hearth.LifetimeWeek)
	note(eve, "Kim", "climbing with Zed every summer", hearth.LifetimeForever)
	if _, err := (&embedding.Worker{Store: st, Embedder: emb, Model: model}).Run(ctx); err != nil {
		t.Fatal(err)
	}
	meaning := gather.Recall{GraphNotes: st, Embedder: emb, Model: model}
	tests := []struct {
		name   string
		recall gather.Recall
		at     time.Time
		found  []hearth.GraphNote
		want   []int64
	}{
		{name: "without the search, the word matches alone", recall: gather.Recall{Embedder: emb, Model: model}, at: now, found: []hearth.GraphNote{week}, want: []int64{week.ID}},
		{name: "meaning finds Ann's notes, nearest first, never Eve's", recall: meaning, at: now, want: []int64{week.ID, kim.ID}},
		{name: "word matches first, not repeated", recall: meaning, at: now, found: []hearth.GraphNote{kim}, want: []int64{kim.ID, week.ID}},
		{name: "an expired note is not found", recall: meaning, at: now.AddDate(0, 1, 0), want: []int64{kim.ID}},
		{name: "another model's vectors are not compared", recall: gather.Recall{GraphNotes: st, Embedder: emb, Model: "other@256"}, at: now},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.recall.NotesAbout(ctx, ann, "goes climbing", 5, tt.at, tt.found)
			var ids []int64
			for _, n := range got {
				ids = append(ids, n.ID)
			}
			if len(ids) != len(tt.want) {
				t.Fatalf("found %v; want %v", ids, tt.want)
			}
			for i := range ids {
				if ids[i] != tt.want[i] {
					t.Fatalf("found %v; want %v", ids, tt.want)
				}
			}
		})
	}
}
