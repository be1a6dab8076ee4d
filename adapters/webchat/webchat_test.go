package webchat_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/adapters/webchat"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/pipeline/pipelinetest"
	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

type testBundle struct {
	store *store.Store
	srv   *httptest.Server
	hub   *webchat.Hub
}

// setup serves the web chat on a fresh database. With work set, a River
// client answers every message with the interim acknowledgement.
func setup(t testing.TB, dbURL string, work bool) *testBundle {
	t.Helper()
	if dbURL == "" {
		dbURL = storetest.NewDatabase(t)
	}
	st, err := store.Open(context.Background(), dbURL, store.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	workers := river.NewWorkers()
	turns := pipeline.NewTurnWorker(st, pipeline.RequireTimezone(st, acknowledge), nil, nil)
	turns.Sender = func(hearth.Channel) (pipeline.Sender, bool) { return webchat.Sender{}, true }
	river.AddWorker(workers, turns)
	river.AddWorker(workers, pipeline.NewDeliverWorker(st, map[hearth.Channel]pipeline.Sender{hearth.ChannelWebchat: webchat.Sender{}}, nil, nil))
	cfg := &river.Config{Workers: workers, TestOnly: true, FetchCooldown: 2 * time.Millisecond, FetchPollInterval: 20 * time.Millisecond}
	if work {
		cfg.Queues = map[string]river.QueueConfig{pipeline.QueueTurns: {MaxWorkers: 4}, pipeline.QueueDeliveries: {MaxWorkers: 4}}
	}
	client, err := river.NewClient(riverpgxv5.New(st.Pool()), cfg)
	if err != nil {
		t.Fatal(err)
	}
	b := &testBundle{store: st, hub: &webchat.Hub{}}
	ctx, cancel := context.WithCancel(context.Background())
	if work {
		if err := client.Start(ctx); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { st.Listen(ctx, store.NotifyChannel, nil, b.hub.Notify); close(done) }() //nolint:errcheck // returns at cancel
		t.Cleanup(func() {
			cancel()
			<-done
			stop, c := context.WithTimeout(context.Background(), 10*time.Second)
			defer c()
			client.Stop(stop) //nolint:errcheck // test teardown
		})
	} else {
		t.Cleanup(cancel)
	}
	h := webchat.New(webchat.Config{Inbox: pipeline.NewInbox(st, client, nil), Contacts: st, Transcript: st, Hub: b.hub, Heartbeat: time.Hour})
	b.srv = httptest.NewServer(h)
	t.Cleanup(b.srv.Close)
	return b
}

func (b *testBundle) do(t *testing.T, method, path, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, b.srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	raw, _ := io.ReadAll(res.Body)
	json.Unmarshal(raw, &out) //nolint:errcheck // some answers are not JSON (404 pages)
	return res.StatusCode, out
}

func (b *testBundle) count(t *testing.T, table string) int {
	t.Helper()
	var n int
	if err := b.store.Pool().QueryRow(context.Background(), "SELECT count(*) FROM "+pgx.Identifier{table}.Sanitize()).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestBadInput(t *testing.T) {
	t.Parallel()
	b := setup(t, "", false)
	if code, _ := b.do(t, "POST", "/api/webchat/users", `{"user":"Ann","tz":"Europe/Berlin"}`); code != 200 {
		t.Fatalf("sign in: %d", code)
	}
	users, events := b.count(t, "users"), b.count(t, "inbound_events")
	huge := `{"user":"Ann","text":"` + strings.Repeat("a", webchat.MaxBodyBytes) + `"}`
	tests := []struct {
		name, method, path, body string
		want                     int
	}{
		{"not json", "POST", "/api/webchat/messages", `hello`, 400},
		{"empty body", "POST", "/api/webchat/messages", ``, 400},
		{"json array", "POST", "/api/webchat/messages", `[1,2]`, 400},
		{"trailing data", "POST", "/api/webchat/messages", `{"user":"Ann","text":"hi"} {}`, 400},
		{"wrong type", "POST", "/api/webchat/messages", `{"user":"Ann","text":5}`, 400},
		{"missing user", "POST", "/api/webchat/messages", `{"text":"hi"}`, 400},
		{"missing text", "POST", "/api/webchat/messages", `{"user":"Ann"}`, 400},
		{"blank text", "POST", "/api/webchat/messages", `{"user":"Ann","text":"   "}`, 400},
		{"bad zone", "POST", "/api/webchat/messages", `{"user":"Ann","text":"hi","tz":"Mars/Base"}`, 400},
		{"name too long", "POST", "/api/webchat/messages", `{"user":"` + strings.Repeat("x", 65) + `","text":"hi"}`, 400},
		{"control characters", "POST", "/api/webchat/messages", `{"user":"A\u0000n","text":"hi"}`, 400},
		{"NUL in the text", "POST", "/api/webchat/messages", `{"user":"Ann","text":"hi\u0000there"}`, 400},
		{"invalid UTF-8", "POST", "/api/webchat/messages", "{\"user\":\"Ann\",\"text\":\"caf\xe9\"}", 400},
		{"text over the limit", "POST", "/api/webchat/messages", `{"user":"Ann","text":"` + strings.Repeat("a", 64<<10+1) + `"}`, 400},
		{"too large", "POST", "/api/webchat/messages", huge, 413},
		{"unknown user history", "GET", "/api/webchat/messages?user=Nobody", ``, 400},
		{"bad cursor", "GET", "/api/webchat/messages?user=Ann&after=abc", ``, 400},
		{"unknown user stream", "GET", "/api/webchat/events?user=Nobody", ``, 400},
		{"unknown user click", "POST", "/api/webchat/buttons", `{"user":"Nobody","message_id":1,"button_id":"x"}`, 400},
		{"click without ids", "POST", "/api/webchat/buttons", `{"user":"Ann"}`, 400},
		{"click on missing message", "POST", "/api/webchat/buttons", `{"user":"Ann","message_id":999,"button_id":"x"}`, 400},
		{"unknown route", "GET", "/api/webchat/nope", ``, 404},
		{"unknown page", "GET", "/admin", ``, 404},
		{"wrong method", "DELETE", "/api/webchat/messages", ``, 405},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body := b.do(t, tt.method, tt.path, tt.body)
			if code != tt.want {
				t.Fatalf("%s %s = %d %v; want %d", tt.method, tt.path, code, body, tt.want)
			}
			if code == 400 || code == 413 {
				if reason, _ := body["error"].(string); reason == "" {
					t.Fatalf("a %d must say why; body %v", code, body)
				}
			}
		})
	}
	if u, e := b.count(t, "users"), b.count(t, "inbound_events"); u != users || e != events {
		t.Fatalf("bad input stored something: users %d→%d, events %d→%d", users, u, events, e)
	}
}

// The API round trip: a message is answered, its buttons can be clicked
// once, and the stream sends what the history shows.
func TestConversationOverTheAPI(t *testing.T) {
	t.Parallel()
	b := setup(t, "", true)
	stream := b.openStream(t, "Ann")

	code, body := b.do(t, "POST", "/api/webchat/messages", `{"user":"Ann","text":"hello there","tz":"America/New_York","id":"c1"}`)
	if code != 202 || body["id"] == nil {
		t.Fatalf("post = %d %v", code, body)
	}
	if code, body := b.do(t, "POST", "/api/webchat/messages", `{"user":"ann","text":"hello there","id":"c1"}`); code != 202 || body["duplicate"] != true {
		t.Fatalf("a retried post must be acknowledged as a duplicate, got %d %v", code, body)
	}

	user := stream.next(t)
	reply := stream.next(t)
	if user.From != "user" || user.Text != "hello there" || reply.From != "bot" || !strings.Contains(reply.Text, "hello there") {
		t.Fatalf("stream sent %+v then %+v", user, reply)
	}
	if len(reply.Buttons) != 2 {
		t.Fatalf("reply buttons = %v", reply.Buttons)
	}

	click := fmt.Sprintf(`{"user":"Ann","message_id":%d,"button_id":%q}`, reply.ID, reply.Buttons[0].ID)
	if code, _ := b.do(t, "POST", "/api/webchat/buttons", click); code != 202 {
		t.Fatalf("click = %d", code)
	}
	if code, body := b.do(t, "POST", "/api/webchat/buttons", click); code != 202 || body["duplicate"] != true {
		t.Fatalf("double click = %d %v; want an acknowledged duplicate", code, body)
	}
	picked := stream.next(t)
	if !strings.Contains(picked.Text, reply.Buttons[0].Label) {
		t.Fatalf("click answer %q does not name %q", picked.Text, reply.Buttons[0].Label)
	}

	code, body = b.do(t, "GET", "/api/webchat/messages?user=ANN", "")
	msgs, _ := body["messages"].([]any)
	if code != 200 || len(msgs) != 3 {
		t.Fatalf("history = %d with %d messages; want 3 (one per turn, the click itself is not a line)", code, len(msgs))
	}
	code, body = b.do(t, "GET", "/api/webchat/messages?user=Ann&after="+body["cursor"].(string), "")
	if msgs, _ := body["messages"].([]any); code != 200 || len(msgs) != 0 {
		t.Fatalf("after the cursor: %d, %v; want nothing newer", code, body)
	}
	c, err := b.store.FindContact(context.Background(), hearth.ChannelWebchat, "ann", "ann")
	if err != nil || c.User.Timezone != "America/New_York" {
		t.Fatalf("stored user %+v, %v; want the browser's zone", c.User, err)
	}
}

// With Postgres unreachable the API answers 503 and nothing is stored:
// the client retries later.
func TestDatabaseDownIs503(t *testing.T) {
	t.Parallel()
	dbURL := storetest.NewDatabase(t)
	proxy, proxied := storetest.NewProxy(t, dbURL)
	b := setup(t, proxied, false)
	if code, _ := b.do(t, "POST", "/api/webchat/users", `{"user":"Ann","tz":"UTC"}`); code != 200 {
		t.Fatalf("sign in: %d", code)
	}
	proxy.Cut()
	code, body := b.do(t, "POST", "/api/webchat/messages", `{"user":"Ann","text":"anyone home?"}`)
	if code != 503 {
		t.Fatalf("with the database down: %d %v; want 503", code, body)
	}
	proxy.Restore()

	pipelinetest.AssertNothingStored(t, dbURL)
	if code, _ := b.do(t, "POST", "/api/webchat/messages", `{"user":"Ann","text":"anyone home?"}`); code != 202 {
		t.Fatalf("after the database came back: %d; want 202", code)
	}
}

type stream struct {
	sc     *bufio.Scanner
	events chan webchat.Message
}

func (b *testBundle) openStream(t *testing.T, user string) *stream {
	t.Helper()
	if code, _ := b.do(t, "POST", "/api/webchat/users", fmt.Sprintf(`{"user":%q,"tz":"UTC"}`, user)); code != 200 {
		t.Fatalf("sign in: %d", code)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", b.srv.URL+"/api/webchat/events?user="+user, nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("stream: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	s := &stream{sc: bufio.NewScanner(res.Body), events: make(chan webchat.Message, 16)}
	go func() {
		defer res.Body.Close()
		for s.sc.Scan() {
			if data, ok := strings.CutPrefix(s.sc.Text(), "data: "); ok {
				var m webchat.Message
				if json.Unmarshal([]byte(data), &m) == nil {
					s.events <- m
				}
			}
		}
	}()
	return s
}

func (s *stream) next(t *testing.T) webchat.Message {
	t.Helper()
	select {
	case m := <-s.events:
		return m
	case <-time.After(20 * time.Second):
		t.Fatal("no event on the stream")
		return webchat.Message{}
	}
}

// acknowledge answers every message with its text and two buttons, and a
// click with the button it was: enough to drive the web chat's whole path.
var acknowledge = pipeline.HandlerFunc(func(ctx context.Context, t pipeline.Turn) (pipeline.Answer, error) {
	if t.Event.Kind == hearth.KindButton {
		label := map[string]string{"thanks": "Thanks", "help": "What can you do?"}[t.Event.ButtonID]
		return pipeline.Reply(fmt.Sprintf("You picked %q.", label)), nil
	}
	return pipeline.Answer{Replies: []hearth.Outbound{{
		Text:    fmt.Sprintf("Got it, %s: %q.", t.User.DisplayName, t.Event.Text),
		Buttons: []hearth.Button{{ID: "thanks", Label: "Thanks"}, {ID: "help", Label: "What can you do?"}},
	}}}, nil
})

// fakeSessions decides the caller as real sign-in would, until signed out.
type fakeSessions struct {
	mu  sync.Mutex
	out bool
}

func (f *fakeSessions) Caller(*http.Request) (string, string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.out {
		return "", "", &hearth.Error{Code: hearth.EUnauthorized, Message: "sign in first"}
	}
	return "ann", "Ann", nil
}

func (f *fakeSessions) signOut() { f.mu.Lock(); f.out = true; f.mu.Unlock() }

// TestSignedOutStreamEnds: under real sign-in, an open event stream ends
// at its next heartbeat once its session is signed out.
func TestSignedOutStreamEnds(t *testing.T) {
	t.Parallel()
	b := setup(t, "", false)
	if _, err := b.store.SignIn(context.Background(), hearth.ChannelWebchat, "ann", "Ann", "ann", "UTC"); err != nil {
		t.Fatal(err)
	}
	sessions := &fakeSessions{}
	srv := httptest.NewServer(webchat.New(webchat.Config{Contacts: b.store, Transcript: b.store, Sessions: sessions, Heartbeat: 10 * time.Millisecond}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/webchat/events?user=someone-else", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("stream: %v %v", res, err)
	}
	defer res.Body.Close()
	sessions.signOut()
	if _, err := io.Copy(io.Discard, res.Body); err != nil {
		t.Fatalf("the stream did not end after sign-out: %v", err)
	}
}
