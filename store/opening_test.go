package store_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/pipelinetest"
)

// A turn's opening is one statement: the asker's pending approval, their
// open question and the chat's last messages, oldest first, each with
// its buttons; with no message asked for, the approval and question
// still come.
func TestTurnOpening(t *testing.T) {
	t.Parallel()
	st, inbox := pipelinetest.NewInbox(t, "")
	ctx := context.Background()
	r, err := inbox.Accept(ctx, hearth.Inbound{Channel: hearth.ChannelWebchat, ExternalID: "m1", ConversationKey: "c",
		UserKey: "ann", UserName: "Ann", Timezone: "UTC", Kind: hearth.KindMessage, Text: "email Sarah"})
	if err != nil {
		t.Fatal(err)
	}
	ev := hearth.InboundEvent{ID: r.EventID, ConversationID: r.ConversationID}
	replies := []hearth.Outbound{{Text: "one"}, {Text: "two", Buttons: []hearth.Button{{ID: "b1", Label: "Yes"}}}, {Text: "three"}}
	if done, _, err := st.CompleteEvent(ctx, ev, "job:1", replies, nil); err != nil || !done {
		t.Fatalf("CompleteEvent = %v, %v", done, err)
	}
	body, err := json.Marshal(action.EmailArgs{To: []string{"Sarah <sarah@example.com>"}, Subject: "Hi", Body: "Hello."})
	if err != nil {
		t.Fatal(err)
	}
	plan := []action.Action{{Kind: action.EmailSend, Payload: body}}
	_, recs, err := st.PlanActions(ctx, r.EventID, r.ConversationID, r.UserID, plan, action.Risks(plan), time.Hour)
	if err != nil || len(recs) != 1 || recs[0].ApprovalID == 0 {
		t.Fatalf("PlanActions = %+v, %v; want one awaiting approval", recs, err)
	}
	type question struct{ Text string }
	qid, err := st.SaveQuestion(ctx, r.EventID, r.ConversationID, question{"Which Sarah?"})
	if err != nil {
		t.Fatal(err)
	}

	var q question
	ap, id, recent, err := st.TurnOpening(ctx, r.ConversationID, r.UserID, 3, &q)
	if err != nil || ap != recs[0].ApprovalID || id != qid || q.Text != "Which Sarah?" {
		t.Fatalf("opening: approval %d, question %d %+v, %v; want approval %d, question %d", ap, id, q, err, recs[0].ApprovalID, qid)
	}
	var texts []string
	for i, m := range recent {
		texts = append(texts, m.Text)
		if m.ConversationID != r.ConversationID || m.From != hearth.FromBot || m.EventID != r.EventID || m.CreatedAt.IsZero() ||
			(i > 0 && m.Seq <= recent[i-1].Seq) {
			t.Errorf("recent[%d] = %+v; want a bot reply to the event, after the one before", i, m)
		}
	}
	if len(texts) != 3 || texts[0] != "one" || texts[2] != "three" || len(recent[1].Buttons) != 1 || recent[1].Buttons[0].ID != "b1" {
		t.Errorf("recent = %q (%+v); want the three replies, oldest first, the second with its button", texts, recent)
	}

	q = question{}
	if ap, id, recent, err := st.TurnOpening(ctx, r.ConversationID, r.UserID, 0, &q); err != nil || ap != recs[0].ApprovalID || id != qid || len(recent) != 0 || q.Text == "" {
		t.Errorf("opening with no messages: approval %d, question %d %+v, %d recent, %v; want the approval and question alone", ap, id, q, len(recent), err)
	}
	if ap, id, recent, err := st.TurnOpening(ctx, r.ConversationID, r.UserID+1000, 10, &q); err != nil || ap != 0 || id != 0 || len(recent) != 4 {
		t.Errorf("another user's opening: approval %d, question %d, %d recent, %v; want neither, and all four messages", ap, id, len(recent), err)
	}
}
