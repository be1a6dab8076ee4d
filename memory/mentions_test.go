package memory_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/memory"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/store/storetest"
)

// TestCountMentions counts each message once per node it names (by name
// or alias, whole words), on the day it arrived; a retried turn adds
// nothing.
func TestCountMentions(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	c, err := st.SignIn(ctx, hearth.ChannelWebchat, fmt.Sprint("cm-", graphSeq.Add(1)), "Ann", "conv-cm", "Europe/Rome")
	if err != nil {
		t.Fatal(err)
	}
	uid := c.User.ID
	move, err := st.SaveEntity(ctx, hearth.Entity{UserID: uid, Name: "house move", Kind: hearth.EntityProject, Aliases: []string{"the move"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.SaveEntity(ctx, hearth.Entity{UserID: uid, Name: "Bob"}); err != nil {
		t.Fatal(err)
	}
	turns := 0
	h := memory.CountMentions(st, nil, nil, pipeline.HandlerFunc(func(context.Context, pipeline.Turn) (pipeline.Answer, error) {
		turns++
		return pipeline.Answer{}, nil
	}))
	day := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	for i, text := range []string{"The move is on Friday!", "Bob will help with the move", "the move again", "Bobby is here", "movers"} {
		ev := hearth.InboundEvent{ID: int64(100 + i), Kind: hearth.KindMessage, Text: text, ReceivedAt: day.AddDate(0, 0, i/2)}
		for range 2 { // the second is a retry
			if _, err := h.HandleTurn(ctx, pipeline.Turn{User: c.User, Event: ev}); err != nil {
				t.Fatal(err)
			}
		}
	}
	ss, err := st.PromoteStorylines(ctx, "Europe/Rome", day.AddDate(0, 0, 3), day.AddDate(0, 0, -30), 2)
	if err != nil || ss != 1 || turns != 10 {
		t.Fatalf("promoted %d, turns %d, %v", ss, turns, err)
	}
	got, err := st.FindStorylines(ctx, hearth.StorylineFilter{UserID: uid})
	if err != nil || len(got) != 1 || got[0].EntityID != move.ID || got[0].Sources != 3 || got[0].Days != 2 {
		t.Fatalf("storylines %+v %v", got, err)
	}
}
