package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/pipelinetest"
)

// In a shared chat (a Telegram group), a question belongs to the member
// whose message raised it: another member's question neither closes it
// nor can be answered by them.
func TestQuestionsBelongToTheAsker(t *testing.T) {
	t.Parallel()
	st, inbox := pipelinetest.NewInbox(t, "")
	ctx := context.Background()
	say := func(user, id string) hearth.Receipt {
		t.Helper()
		r, err := inbox.Accept(ctx, hearth.Inbound{Channel: hearth.ChannelTelegram, ExternalID: id, ConversationKey: "-100",
			UserKey: user, UserName: user, Timezone: "UTC", Kind: hearth.KindMessage, Text: "email Sarah"})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	a, b := say("ann", "u1"), say("bob", "u2")
	if a.ConversationID != b.ConversationID || a.UserID == b.UserID {
		t.Fatalf("receipts %+v, %+v; want two users in one group", a, b)
	}
	type question struct{ Text string }
	qa, err := st.SaveQuestion(ctx, a.EventID, a.ConversationID, question{"Which Sarah?"})
	if err != nil {
		t.Fatal(err)
	}
	qb, err := st.SaveQuestion(ctx, b.EventID, b.ConversationID, question{"Which calendar?"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		user int64
		want int64
	}{{a.UserID, qa}, {b.UserID, qb}} {
		var q question
		if id, open, err := st.OpenQuestion(ctx, a.ConversationID, tt.user, &q); err != nil || !open || id != tt.want {
			t.Errorf("user %d's open question: %d, %v, %v; want %d", tt.user, id, open, err, tt.want)
		}
	}
	var q question
	if _, err := st.Question(ctx, a.ConversationID, b.UserID, qa, &q); !errors.Is(err, hearth.ErrNotFound) {
		t.Errorf("bob loading ann's question: %v; want ErrNotFound", err)
	}
}
