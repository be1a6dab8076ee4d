package gather_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/embedding"
	"github.com/hearthbot/hearth/pipeline/gather"
	"github.com/hearthbot/hearth/pipeline/llm"
	"github.com/hearthbot/hearth/pipeline/llm/llmtest"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/respond"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/store/storetest"
)

// TestRecallNotes checks that notes are found by their words and, with an
// embedder, by meaning too, only ever the asking user's, on a real
// database with the background job's vectors (the fake embedder's vectors
// are close when texts share words).
func TestRecallNotes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, _ := storetest.Open(t)
	fake := llmtest.New(t, func(llmtest.Call) llmtest.Answer { return llmtest.Answer{} })
	const model = "openai/emb@256"
	emb := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: fake.OpenAIBaseURL(), APIKey: "k", EmbeddingModel: "emb", Dimensions: 256})

	user := func(name string) int64 {
		c, err := st.SignIn(ctx, hearth.ChannelWebchat, name, name, name, "UTC")
		if err != nil {
			t.Fatal(err)
		}
		return c.User.ID
	}
	alice, bob := user("alice"), user("bob")
	note := func(uid int64, title, body string) hearth.Note {
		n, err := st.CreateNote(ctx, "", hearth.Note{UserID: uid, Title: title, Body: body})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	boiler := note(alice, "House", "The boiler was serviced in May by Sam")
	trip := note(alice, "Lisbon", "Trip: flights on the 3rd, hotel near the river")
	note(alice, "Groceries", "eggs")
	note(bob, "Mine", "boiler repairs cost 300")
	if _, err := (&embedding.Worker{Store: st, Embedder: emb, Model: model}).Run(ctx); err != nil {
		t.Fatal(err)
	}

	text := gather.Recall{NoteText: st}
	meaning := gather.Recall{NoteText: st, Similar: st, Embedder: emb, Model: model, MaxDistance: 0.8}
	tests := []struct {
		name     string
		recall   gather.Recall
		query    string
		wantIDs  []int64
		wantCall bool
	}{
		{name: "words find the note they are in", recall: text, query: "boiler", wantIDs: []int64{boiler.ID}},
		{name: "without an embedder, no word match is nothing", recall: text, query: "boiler repairs"},
		{name: "meaning finds Alice's boiler note, never Bob's", recall: meaning, query: "boiler repairs", wantIDs: []int64{boiler.ID}, wantCall: true},
		{name: "word matches come first, then meaning", recall: meaning, query: "trip", wantIDs: []int64{trip.ID}, wantCall: true},
		{name: "another model's vectors are not compared", recall: gather.Recall{NoteText: st, Similar: st, Embedder: emb, Model: "other@256", MaxDistance: 0.8},
			query: "boiler repairs", wantCall: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := fake.Embeddings()
			got, err := tt.recall.FindNotes(ctx, hearth.NoteFilter{UserID: alice, Query: tt.query, Limit: 5})
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range got {
				if n.UserID != alice {
					t.Fatalf("found another user's note %+v", n)
				}
			}
			if len(got) < len(tt.wantIDs) || len(tt.wantIDs) == 0 && len(got) != 0 || len(got) > 0 && len(tt.wantIDs) > 0 && got[0].ID != tt.wantIDs[0] {
				t.Fatalf("found %+v; want first %v", got, tt.wantIDs)
			}
			if called := fake.Embeddings() > before; called != tt.wantCall {
				t.Fatalf("embedded the query: %v; want %v", called, tt.wantCall)
			}
		})
	}

	// The context stage looks notes up by the question's content words,
	// and the answer is the note found, not a list of titles.
	for _, tt := range []struct {
		name, text string
		notes      interface {
			FindNotes(context.Context, hearth.NoteFilter) ([]hearth.Note, error)
		}
		want string
	}{
		{"by its words, store alone", "What did I write about the boiler?", st, "serviced in May"},
		{"by its words, through Recall", "find my note on the trip", meaning, "flights on the 3rd"},
		{"by meaning", "what did I write about boiler repairs?", meaning, "serviced in May"},
		{"a list by its title still", "what do I need from the groceries?", meaning, "eggs"},
	} {
		t.Run("context "+tt.name, func(t *testing.T) {
			src := gather.Sources{Tasks: st, Calendar: st, Notes: tt.notes, Memories: st, Mail: st}
			u := nlu.Result{Intent: nlu.AskInfo, Domains: []nlu.Domain{nlu.Keep}}
			c, err := src.Gather(ctx, u, tt.text, hearth.User{ID: alice}, nil, time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC))
			if err != nil {
				t.Fatal(err)
			}
			reply, err := respond.NewTemplateResponder(nil).Respond(ctx, stage.RespondInput{Text: tt.text, Understanding: u, Context: c})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(reply, tt.want) {
				t.Fatalf("reply %q; want it to contain %q (found %d of %d notes)", reply, tt.want, c.NotesFound, len(c.Notes))
			}
		})
	}
}
