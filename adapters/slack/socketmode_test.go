package slack_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/adapters/slack"
	"github.com/hearthbot/hearth/adapters/slack/slackfake"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/pipeline/pipelinetest"
	"github.com/hearthbot/hearth/store/storetest"
)

// signallingInbox is the real Inbox, reporting each Accept's outcome so
// the test can wait for it.
type signallingInbox struct {
	inbox slack.Inbox
	done  chan error
}

func (s signallingInbox) Accept(ctx context.Context, in hearth.Inbound) (hearth.Receipt, error) {
	r, err := s.inbox.Accept(ctx, in)
	s.done <- err
	return r, err
}

// Over Socket Mode an envelope is acknowledged only once its event is
// stored: with the database down it is left unacknowledged (so Slack
// delivers it again), and the redelivery, once the database is back, is
// stored and acknowledged; a further redelivery is acknowledged as the
// duplicate it is and stores nothing.
func TestSocketModeAcksOnlyWhatIsStored(t *testing.T) {
	t.Parallel()
	dbURL := storetest.NewDatabase(t)
	proxy, proxied := storetest.NewProxy(t, dbURL)
	st, inbox := pipelinetest.NewInbox(t, proxied)
	api := slackfake.NewServer(t)
	accepted := signallingInbox{inbox: inbox, done: make(chan error, 8)}
	sl, err := slack.New(context.Background(), slack.Config{BotToken: "xoxb-test", AppToken: "xapp-test", APIURL: api.URL(), Inbox: accepted})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan error, 1)
	go func() { stopped <- sl.RunSocketMode(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-stopped:
			if err != nil {
				t.Errorf("RunSocketMode: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("RunSocketMode did not stop")
		}
	})
	envelope := func(id string) string {
		return fmt.Sprintf(`{"envelope_id":%q,"type":"events_api","accepts_response_payload":false,"payload":%s}`, id,
			callback("EvSockDown", dm("U1", "anyone home?")))
	}
	acked := func(id string) int {
		n := 0
		for _, a := range api.Acks() {
			if a.EnvelopeID == id {
				n++
			}
		}
		return n
	}
	waitAccept := func() error {
		t.Helper()
		select {
		case err := <-accepted.done:
			return err
		case <-time.After(30 * time.Second):
			t.Fatal("the event never reached the inbox")
			return nil
		}
	}
	waitAck := func(id string) {
		t.Helper()
		deadline := time.NewTimer(20 * time.Second)
		defer deadline.Stop()
		for acked(id) == 0 {
			select {
			case <-api.AckSignal():
			case <-deadline.C:
				t.Fatalf("envelope %s never acknowledged", id)
			}
		}
	}

	proxy.Cut()
	api.SendEnvelope(envelope("env-a"))
	if err := waitAccept(); err == nil {
		t.Fatal("stored with the database down")
	}
	proxy.Restore()
	api.SendEnvelope(envelope("env-b")) // Slack's redelivery
	if err := waitAccept(); err != nil {
		t.Fatal(err)
	}
	waitAck("env-b")
	api.SendEnvelope(envelope("env-c"))
	if err := waitAccept(); err != nil {
		t.Fatal(err)
	}
	waitAck("env-c")
	if acked("env-a") != 0 {
		t.Fatal("an envelope was acknowledged although its event was not stored")
	}
	var n int
	if err := st.Pool().QueryRow(context.Background(), `SELECT count(*) FROM inbound_events WHERE external_id = 'event:EvSockDown'`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d events stored (%v); want 1", n, err)
	}
}

// Over Socket Mode too, an over-long message is acknowledged (Slack would
// only send it again) and answered with the limit.
func TestSocketModeOverLongMessageGetsTheLimit(t *testing.T) {
	t.Parallel()
	_, inbox := pipelinetest.NewInbox(t, storetest.NewDatabase(t))
	api := slackfake.NewServer(t)
	sl, err := slack.New(context.Background(), slack.Config{BotToken: "xoxb-test", AppToken: "xapp-test", APIURL: api.URL(), Inbox: inbox})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan error, 1)
	go func() { stopped <- sl.RunSocketMode(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-stopped
	})
	long := strings.Repeat("word ", pipeline.MaxTextBytes/5+1)
	api.SendEnvelope(fmt.Sprintf(`{"envelope_id":"env-long","type":"events_api","accepts_response_payload":false,"payload":%s}`, callback("EvSockLong", dm("U1", long))))
	sent := api.WaitCalls(t, "chat.postMessage", 1)
	if sent[0].Form.Get("channel") != "D1" || !strings.Contains(sent[0].Form.Get("text"), strconv.Itoa(pipeline.MaxTextBytes)) {
		t.Fatalf("reply %+v; want one in D1 stating the limit", sent[0].Form)
	}
}
