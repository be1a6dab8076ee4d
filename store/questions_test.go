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

	// A turn's opening reads each member's own question (and no
	// approval: none is pending), and the chat's recent messages.
	for _, tt := range []struct {
		user int64
		want int64
		text string
	}{{a.UserID, qa, "Which Sarah?"}, {b.UserID, qb, "Which calendar?"}} {
		var q question
		ap, id, recent, err := st.TurnOpening(ctx, a.ConversationID, tt.user, 10, &q)
		if err != nil || ap != 0 || id != tt.want || q.Text != tt.text || len(recent) != 2 {
			t.Errorf("user %d's opening: approval %d, question %d %+v, %d recent, %v; want no approval, question %d %q, 2 recent",
				tt.user, ap, id, q, len(recent), err, tt.want, tt.text)
		}
	}
	if _, err := st.AnswerQuestion(ctx, qa); err != nil {
		t.Fatal(err)
	}
	if ap, id, _, err := st.TurnOpening(ctx, a.ConversationID, a.UserID, 10, &q); err != nil || ap != 0 || id != 0 {
		t.Errorf("ann's opening once her question is answered: approval %d, question %d, %v; want none", ap, id, err)
	}
}
