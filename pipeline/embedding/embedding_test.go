package embedding_test

import (
	"context"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/embedding"
	"github.com/hearthbot/hearth/pipeline/gather"
	"github.com/hearthbot/hearth/pipeline/llm"
	"github.com/hearthbot/hearth/pipeline/llm/llmtest"
	"github.com/hearthbot/hearth/store/storetest"
)

const model = "openai/emb@256"

func TestEmbedThenRecall(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, _ := storetest.Open(t)
	fake := llmtest.New(t, func(llmtest.Call) llmtest.Answer { return llmtest.Answer{} })
	emb := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: fake.OpenAIBaseURL(), APIKey: "k", EmbeddingModel: "emb", Dimensions: 256})

	user := func(name string) int64 {
		c, err := st.SignIn(ctx, hearth.ChannelWebchat, name, name, name, "UTC")
		if err != nil {
			t.Fatal(err)
		}
		return c.User.ID
	}
	alice, bob := user("alice"), user("bob")
	remember := func(uid int64, about, content string) hearth.Memory {
		m, err := st.StoreMemory(ctx, "", hearth.Memory{UserID: uid, About: about, Content: content})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	sailing := remember(alice, "John", "likes sailing")
	remember(alice, "", "allergic to cats")
	remember(bob, "", "sailing lessons on Saturday")

	w := &embedding.Worker{Store: st, Embedder: emb, Model: model, Batch: 2}
	n, err := w.Run(ctx)
	if err != nil || n != 3 {
		t.Fatalf("run = %d, %v; want 3 embedded in batches of 2", n, err)
	}
	if again, err := w.Run(ctx); err != nil || again != 0 {
		t.Fatalf("second run = %d, %v; want nothing left", again, err)
	}
	if got := fake.Embeddings(); got != 3 {
		t.Fatalf("%d texts embedded; want 3", got)
	}

	tests := []struct {
		name     string
		recall   gather.Recall
		query    string
		wantIDs  []int64
		wantCall bool
	}{
		{name: "text search alone finds no word match", recall: gather.Recall{Text: st}, query: "sailing trips"},
		{name: "meaning finds Alice's sailing memory, never Bob's", recall: gather.Recall{Text: st, Similar: st, Embedder: emb, Model: model, MaxDistance: 0.7},
			query: "sailing trips", wantIDs: []int64{sailing.ID}, wantCall: true},
		{name: "another model's vectors are not compared", recall: gather.Recall{Text: st, Similar: st, Embedder: emb, Model: "other@256", MaxDistance: 0.7},
			query: "sailing trips", wantCall: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := fake.Embeddings()
			got, err := tt.recall.FindMemories(ctx, hearth.MemoryFilter{UserID: alice, Query: tt.query, Limit: 5})
			if err != nil {
				t.Fatal(err)
			}
			var ids []int64
			for _, m := range got {
				ids = append(ids, m.ID)
			}
			if len(ids) != len(tt.wantIDs) || len(ids) > 0 && ids[0] != tt.wantIDs[0] {
				t.Fatalf("found %v; want %v", ids, tt.wantIDs)
			}
			if called := fake.Embeddings() > before; called != tt.wantCall {
				t.Fatalf("embedded the query: %v; want %v", called, tt.wantCall)
			}
		})
	}
}
