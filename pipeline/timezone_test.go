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

// transcript is a conversation's visible messages, and the zone stored.
type transcript struct {
	msgs []hearth.Message
	zone string
}

func (tr *transcript) SetTimezone(_ context.Context, _ int64, tz string) error {
	tr.zone = tz
	return nil
}

func (tr *transcript) RecentMessages(context.Context, int64, int) ([]hearth.Message, error) {
	return tr.msgs, nil
}

// The zone's answer carries out the request the question interrupted, and
// only that one: on a platform a reply takes its place in the transcript
// when delivered, so a request sent after the question may stand before
// it there; its own turn answers it.
func TestZoneAnswerResumesTheInterruptedRequest(t *testing.T) {
	t.Parallel()
	user := func(ev int64, text string) hearth.Message {
		return hearth.Message{From: hearth.FromUser, Text: text, EventID: ev}
	}
	question := func(ev int64) hearth.Message {
		return hearth.Message{From: hearth.FromBot, Text: "Before we start: which time zone are you in?", EventID: ev}
	}
	tests := []struct {
		name    string
		msgs    []hearth.Message
		answer  string
		resumed string // "" for none
	}{
		{"the request asked about", []hearth.Message{user(1, "remind me to call mom tomorrow at 5pm"), question(1), user(2, "London")},
			"London", "remind me to call mom tomorrow at 5pm"},
		{"a greeting asked about", []hearth.Message{user(1, "hello"), question(1), user(2, "London")},
			"London", ""},
		{"a request sent after the question, delivered before it", []hearth.Message{
			user(1, "hello"), user(2, "Europe/Berlin"), user(3, "remind me to feed the cat tomorrow at 6pm"), question(1)},
			"Europe/Berlin", ""},
		{"the last question counts", []hearth.Message{
			user(1, "remind me to pay rent on friday"), question(1), user(2, "somewhere nice"),
			user(3, "remind me to call mom tomorrow at 5pm"), question(3), user(4, "Paris")},
			"Paris", "remind me to call mom tomorrow at 5pm"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := &transcript{msgs: tt.msgs}
			var got []string
			h := pipeline.RequireTimezone(tr, pipeline.HandlerFunc(func(_ context.Context, turn pipeline.Turn) (pipeline.Answer, error) {
				got = append(got, turn.Event.Text)
				return pipeline.Reply("done"), nil
			}))
			ans, err := h.HandleTurn(context.Background(), pipeline.Turn{
				Event: hearth.InboundEvent{ID: 99, ConversationID: 7, Kind: hearth.KindMessage, Text: tt.answer},
				User:  hearth.User{ID: 1, DisplayName: "gus"},
			})
			if err != nil || tr.zone == "" {
				t.Fatalf("zone %q stored, %v", tr.zone, err)
			}
			switch {
			case tt.resumed == "" && (len(got) != 0 || len(ans.Replies) != 1):
				t.Errorf("carried out %q, replied %v; want only the thanks", got, ans.Replies)
			case tt.resumed != "" && (len(got) != 1 || got[0] != tt.resumed || len(ans.Replies) != 2):
				t.Errorf("carried out %q, replied %v; want %q carried out after the thanks", got, ans.Replies, tt.resumed)
			}
		})
	}
}
