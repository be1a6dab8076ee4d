package pipeline_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline"
)

// A user whose channel gave no zone is asked for one before anything else,
// and the answer is stored; nothing reaches the next handler meanwhile.
func TestRequireTimezoneAsksThenStores(t *testing.T) {
	t.Parallel()
	b := setup(t, newCountingHandler())
	ctx := context.Background()
	in := message("gus", "tz-1", "hello")
	in.Timezone = ""
	r, err := b.inbox.Accept(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	var reached int
	h := pipeline.RequireTimezone(b.store, pipeline.HandlerFunc(func(ctx context.Context, turn pipeline.Turn) (pipeline.Answer, error) {
		reached++
		return pipeline.Answer{}, nil
	}))
	user := hearth.User{ID: r.UserID, DisplayName: "gus"}
	steps := []struct{ text, wantReply string }{
		{"hello", "which time zone"},
		{"somewhere nice", "which time zone"},
		{"Local", "which time zone"},
		{"America/Chicago", "America/Chicago"},
	}
	for _, s := range steps {
		ans, err := h.HandleTurn(ctx, pipeline.Turn{Event: hearth.InboundEvent{Kind: hearth.KindMessage, Text: s.text}, User: user})
		out := ans.Replies
		if err != nil {
			t.Fatal(err)
		}
		if len(out) != 1 || !strings.Contains(out[0].Text, s.wantReply) {
			t.Fatalf("after %q replied %v; want a reply containing %q", s.text, out, s.wantReply)
		}
	}
	if reached != 0 {
		t.Fatal("a turn reached the pipeline before the zone was known")
	}
	c, err := b.store.FindContact(ctx, hearth.ChannelWebchat, "gus", "gus")
	if err != nil || c.User.Timezone != "America/Chicago" {
		t.Fatalf("stored %+v, %v", c.User, err)
	}
	c.User.Timezone = "America/Chicago"
	if _, err := h.HandleTurn(ctx, pipeline.Turn{Event: hearth.InboundEvent{Kind: hearth.KindMessage, Text: "hi"}, User: c.User}); err != nil || reached != 1 {
		t.Fatalf("with a zone the turn must pass through (err %v, reached %d)", err, reached)
	}
}
