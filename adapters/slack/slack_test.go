package slack_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/adapters/slack"
	"github.com/hearthbot/hearth/adapters/slack/slackfake"
	"github.com/hearthbot/hearth/commands"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/pipeline/pipelinetest"
	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

const testSecret = "test-signing-secret"

type testBundle struct {
	store *store.Store
	api   *slackfake.Server
	sl    *slack.Adapter
}

// setup builds the adapter on a fresh database (or dbURL) with a real
// Inbox and an insert-only River client, against slacktest's server.
func setup(t *testing.T, dbURL string) *testBundle {
	t.Helper()
	st, inbox := pipelinetest.NewInbox(t, dbURL)
	api := slackfake.NewServer(t)
	sl, err := slack.New(context.Background(), slack.Config{
		BotToken:      "xoxb-test",
		SigningSecret: testSecret,
		APIURL:        api.URL(),
		Inbox:         inbox,
		Commands:      testCommands(t),
	})
	if err != nil {
		t.Fatal(err)
	}
	return &testBundle{store: st, api: api, sl: sl}
}

// testCommands is a registry with the two private commands a Slack
// channel must refuse, and help.
func testCommands(t *testing.T) *commands.Registry {
	t.Helper()
	noop := commands.HandlerFunc(func(context.Context, commands.Request) (pipeline.Answer, bool, error) {
		return pipeline.Answer{}, true, nil
	})
	reg := &commands.Registry{}
	if err := reg.Register(commands.HelpCommand(reg),
		commands.Command{Name: "briefing", Help: "your briefing now", Private: true, Handler: noop},
		commands.Command{Name: "link", Args: "[CODE]", Help: "link your chats", Private: true, Handler: noop}); err != nil {
		t.Fatal(err)
	}
	return reg
}

func sign(secret string, ts int64, body string) string {
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "v0:%d:%s", ts, body)
	return "v0=" + hex.EncodeToString(mac.Sum(nil))
}

// request is a signed (or deliberately mis-signed) request to path.
type request struct {
	path, body string
	header     http.Header
}

func signed(path, body string) request {
	ts := time.Now().Unix()
	h := http.Header{}
	h.Set("X-Slack-Request-Timestamp", strconv.FormatInt(ts, 10))
	h.Set("X-Slack-Signature", sign(testSecret, ts, body))
	return request{path: path, body: body, header: h}
}

func (b *testBundle) do(t *testing.T, req request) (int, map[string]any) {
	t.Helper()
	return serve(t, b.sl, req)
}

func serve(t *testing.T, sl *slack.Adapter, req request) (int, map[string]any) {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, req.path, strings.NewReader(req.body))
	for k, v := range req.header {
		r.Header[k] = v
	}
	rec := httptest.NewRecorder()
	sl.Handler().ServeHTTP(rec, r)
	var out map[string]any
	json.Unmarshal(rec.Body.Bytes(), &out) //nolint:errcheck // checked by callers through out
	return rec.Code, out
}

func (b *testBundle) count(t *testing.T, where string) int {
	t.Helper()
	var n int
	if err := b.store.Pool().QueryRow(context.Background(), "SELECT count(*) FROM inbound_events WHERE "+where).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func callback(eventID, event string) string {
	return fmt.Sprintf(`{"token":"legacy","team_id":"T1","api_app_id":"A1","type":"event_callback","event_id":%q,"event_time":1700000000,"event":%s}`, eventID, event)
}

func dm(user, text string) string {
	return fmt.Sprintf(`{"type":"message","channel":"D1","channel_type":"im","user":%q,"text":%q,"ts":"1700000000.000001","event_ts":"1700000000.000001"}`, user, text)
}

func mention(text, ts, threadTS string) string {
	thread := ""
	if threadTS != "" {
		thread = fmt.Sprintf(`,"thread_ts":%q`, threadTS)
	}
	return fmt.Sprintf(`{"type":"app_mention","channel":"C1","user":"U1","text":%q,"ts":%q%s,"event_ts":%q}`, text, ts, thread, ts)
}

func TestPublishedSigningExample(t *testing.T) {
	t.Parallel()
	api := slackfake.NewServer(t)
	pinned := func() time.Time { return time.Unix(1531420618, 0) }
	req := request{path: slack.CommandsPath, body: publishedBody, header: http.Header{}}
	req.header.Set("X-Slack-Request-Timestamp", "1531420618")
	req.header.Set("X-Slack-Signature", "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503")
	for _, tt := range []struct {
		name string
		now  func() time.Time
		want int
	}{
		{"clock pinned to its timestamp", pinned, http.StatusOK},
		{"real clock: stale", nil, http.StatusUnauthorized},
		{"pinned, six minutes later: stale", func() time.Time { return pinned().Add(6 * time.Minute) }, http.StatusUnauthorized},
	} {
		sl, err := slack.New(context.Background(), slack.Config{BotToken: "xoxb-test", SigningSecret: "8f742231b10e8888abcd99yyyzzz85a5", APIURL: api.URL(), Now: tt.now})
		if err != nil {
			t.Fatal(err)
		}
		// The example is a slash command with empty text: the help answer,
		// which needs no inbox.
		code, out := serve(t, sl, req)
		if code != tt.want {
			t.Errorf("%s: %d %v; want %d", tt.name, code, out, tt.want)
		}
		if code == http.StatusOK && (out["response_type"] != "ephemeral" || !strings.Contains(out["text"].(string), "help")) {
			t.Errorf("%s: %v; want the ephemeral help", tt.name, out)
		}
	}
}

const publishedBody = "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c"

func TestSignatures(t *testing.T) {
	t.Parallel()
	b := setup(t, "")
	body := callback("Ev1", dm("U1", "hi"))
	now := time.Now().Unix()
	mutate := map[string]func(h http.Header){
		"missing signature": func(h http.Header) { h.Del("X-Slack-Signature") },
		"missing timestamp": func(h http.Header) { h.Del("X-Slack-Request-Timestamp") },
		"forged":            func(h http.Header) { h.Set("X-Slack-Signature", sign("other-secret", now, body)) },
		"not hex":           func(h http.Header) { h.Set("X-Slack-Signature", "v0=zz") },
		"no prefix": func(h http.Header) {
			h.Set("X-Slack-Signature", strings.TrimPrefix(sign(testSecret, now, body), "v0="))
		},
		"stale": func(h http.Header) {
			h.Set("X-Slack-Request-Timestamp", strconv.FormatInt(now-301, 10))
			h.Set("X-Slack-Signature", sign(testSecret, now-301, body))
		},
		"from the future": func(h http.Header) {
			h.Set("X-Slack-Request-Timestamp", strconv.FormatInt(now+400, 10))
			h.Set("X-Slack-Signature", sign(testSecret, now+400, body))
		},
		"other timestamp": func(h http.Header) { h.Set("X-Slack-Request-Timestamp", strconv.FormatInt(now-1, 10)) },
	}
	for name, m := range mutate {
		for _, path := range []string{slack.EventsPath, slack.InteractionsPath, slack.CommandsPath} {
			req := signed(path, body)
			m(req.header)
			if code, out := b.do(t, req); code != http.StatusUnauthorized || out["error"] == "" {
				t.Errorf("%s %s: %d %v; want 401 with a reason", name, path, code, out)
			}
		}
	}
	tampered := signed(slack.EventsPath, body)
	tampered.body = callback("Ev1", dm("U1", "hi!"))
	if code, _ := b.do(t, tampered); code != http.StatusUnauthorized {
		t.Errorf("tampered body: %d; want 401", code)
	}
	if n := b.count(t, "true"); n != 0 {
		t.Fatalf("%d events stored from unverified requests", n)
	}
	if code, _ := b.do(t, signed(slack.EventsPath, body)); code != http.StatusOK {
		t.Fatalf("signed: %d", code)
	}

	// Without a signing secret every request is refused.
	noSecret, err := slack.New(context.Background(), slack.Config{BotToken: "xoxb-test", APIURL: b.api.URL()})
	if err != nil {
		t.Fatal(err)
	}
	if code, _ := serve(t, noSecret, signed(slack.EventsPath, body)); code != http.StatusUnauthorized {
		t.Fatalf("no secret configured: %d; want 401", code)
	}
}

func TestURLVerification(t *testing.T) {
	t.Parallel()
	b := setup(t, "")
	code, out := b.do(t, signed(slack.EventsPath, `{"token":"x","challenge":"3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P","type":"url_verification"}`))
	if code != http.StatusOK || out["challenge"] != "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" {
		t.Fatalf("%d %v", code, out)
	}
}

func TestEventDeliveredThreeTimes(t *testing.T) {
	t.Parallel()
	b := setup(t, "")
	body := callback("Ev10", dm("U1", "remind me to call mum"))
	for i := range 3 {
		req := signed(slack.EventsPath, body)
		if i > 0 {
			req.header.Set("X-Slack-Retry-Num", strconv.Itoa(i))
			req.header.Set("X-Slack-Retry-Reason", "http_timeout")
		}
		code, out := b.do(t, req)
		if code != http.StatusOK || (out["duplicate"] == true) != (i > 0) {
			t.Fatalf("delivery %d: %d %v", i+1, code, out)
		}
	}
	if n := b.count(t, "true"); n != 1 {
		t.Fatalf("%d events after three deliveries; want 1", n)
	}
	var ext, conv, text string
	var hasToken bool
	err := b.store.Pool().QueryRow(context.Background(),
		`SELECT e.external_id, c.external_id, e.text, e.payload ? 'token' FROM inbound_events e JOIN conversations c ON c.id = e.conversation_id`).Scan(&ext, &conv, &text, &hasToken)
	if err != nil {
		t.Fatal(err)
	}
	if ext != "event:Ev10" || conv != "D1" || text != "remind me to call mum" || hasToken {
		t.Fatalf("stored %q in %q: %q (token kept: %v)", ext, conv, text, hasToken)
	}
}

func TestEventMapping(t *testing.T) {
	t.Parallel()
	b := setup(t, "")
	accepted := []struct {
		name, event, conv, text string
	}{
		{"direct message", dm("U1", "what's on today?"), "D1", "what's on today?"},
		{"mention in a channel", mention("<@UHEARTH> remind us to water the plants", "1700000001.000200", ""), "C1:1700000001.000200", "remind us to water the plants"},
		{"mention in a thread", mention("ok <@UHEARTH|hearth>, do it", "1700000002.000300", "1700000001.000200"), "C1:1700000001.000200", "ok , do it"},
		{"bare mention", mention("<@UHEARTH>", "1700000003.000400", ""), "C1:1700000003.000400", "<@UHEARTH>"},
	}
	for i, tt := range accepted {
		code, out := b.do(t, signed(slack.EventsPath, callback("EvA"+strconv.Itoa(i), tt.event)))
		if code != http.StatusOK || out["ignored"] == true {
			t.Errorf("%s: %d %v; want accepted", tt.name, code, out)
			continue
		}
		var conv, text string
		err := b.store.Pool().QueryRow(context.Background(), `SELECT c.external_id, e.text FROM inbound_events e JOIN conversations c ON c.id = e.conversation_id WHERE e.id = $1`,
			int64(out["event_id"].(float64))).Scan(&conv, &text)
		if err != nil {
			t.Fatal(err)
		}
		if conv != tt.conv || text != tt.text {
			t.Errorf("%s: stored %q in %q; want %q in %q", tt.name, text, conv, tt.text, tt.conv)
		}
	}
	before := b.count(t, "true")
	ignored := []struct{ name, body string }{
		{"channel message without mention", callback("EvI1", `{"type":"message","channel":"C1","channel_type":"channel","user":"U1","text":"who picks up Emma?","ts":"1.1"}`)},
		{"bot message", callback("EvI2", `{"type":"message","subtype":"bot_message","channel":"D1","channel_type":"im","bot_id":"B9","text":"beep","ts":"1.2"}`)},
		{"Hearth itself", callback("EvI3", `{"type":"message","channel":"D1","channel_type":"im","user":"UHEARTH","bot_id":"BHEARTH","text":"Done!","ts":"1.3"}`)},
		{"Hearth's user without bot_id", callback("EvI4", dm(slackfake.BotUserID, "Done!"))},
		{"bot mentioning Hearth", callback("EvI5", `{"type":"app_mention","channel":"C1","user":"U9","bot_id":"B9","text":"<@UHEARTH> hi","ts":"1.4"}`)},
		{"edited message", callback("EvI6", `{"type":"message","subtype":"message_changed","channel":"D1","channel_type":"im","message":{"type":"message","user":"U1","text":"hi","ts":"1.5"},"ts":"1.6"}`)},
		{"deleted message", callback("EvI7", `{"type":"message","subtype":"message_deleted","channel":"D1","channel_type":"im","deleted_ts":"1.5","ts":"1.7"}`)},
		{"file without text", callback("EvI8", dm("U1", "  "))},
		{"image shared without text", callback("EvI10", `{"type":"message","subtype":"file_share","channel":"D1","channel_type":"im","user":"U1","text":"","ts":"1.8",`+
			`"files":[{"id":"F9","name":"cat.png","mimetype":"image/png","size":10,"url_private_download":"https://files.slack.com/F9/cat.png"}]}`)},
		{"unknown event type", callback("EvI9", `{"type":"reaction_added","user":"U1","reaction":"thumbsup"}`)},
		{"unknown request type", `{"type":"app_rate_limited","team_id":"T1","minute_rate_limited":1518467820}`},
	}
	for _, tt := range ignored {
		if code, out := b.do(t, signed(slack.EventsPath, tt.body)); code != http.StatusOK || out["ignored"] != true {
			t.Errorf("%s: %d %v; want 200, ignored", tt.name, code, out)
		}
	}
	if n := b.count(t, "true"); n != before {
		t.Fatalf("%d events stored from events Hearth ignores", n-before)
	}
}

// An audio clip shared in the DM (file_share) is stored as a voice event
// with the clip's reference; the audio is not fetched at ingress.
func TestAudioClipEvent(t *testing.T) {
	t.Parallel()
	b := setup(t, "")
	body := callback("EvClip", `{"type":"message","subtype":"file_share","channel":"D1","channel_type":"im","user":"U1","text":"","ts":"1.9",`+
		`"files":[{"id":"F1","name":"audio_message.webm","mimetype":"audio/webm","subtype":"slack_audio","size":5120,`+
		`"url_private":"https://files.slack.com/files-pri/T1-F1/audio_message.webm","url_private_download":"https://files.slack.com/files-pri/T1-F1/download/audio_message.webm"}]}`)
	if code, out := b.do(t, signed(slack.EventsPath, body)); code != http.StatusOK || out["ignored"] == true {
		t.Fatalf("%d %v", code, out)
	}
	var id int64
	if err := b.store.Pool().QueryRow(context.Background(), `SELECT id FROM inbound_events WHERE external_id = 'event:EvClip' AND kind = 'voice'`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	ref, transcript, err := b.store.VoiceNote(context.Background(), id)
	want := hearth.AudioRef{FileID: "F1", URL: "https://files.slack.com/files-pri/T1-F1/download/audio_message.webm", Size: 5120, MIME: "audio/webm", Name: "audio_message.webm"}
	if err != nil || ref != want || transcript != "" {
		t.Fatalf("voice note %+v %q (%v); want %+v", ref, transcript, err, want)
	}
	if dl := b.api.Calls("files.download"); len(dl) != 0 {
		t.Fatalf("ingress downloaded the clip: %+v", dl)
	}
}

func TestBadRequests(t *testing.T) {
	t.Parallel()
	b := setup(t, "")
	tests := []struct {
		name, path, body string
		want             int
	}{
		{"malformed JSON", slack.EventsPath, `{"type":`, 400},
		{"not an object", slack.EventsPath, `[1,2]`, 400},
		{"empty", slack.EventsPath, ``, 400},
		{"no type", slack.EventsPath, `{"event_id":"Ev1"}`, 400},
		{"url_verification without challenge", slack.EventsPath, `{"type":"url_verification"}`, 400},
		{"callback without event_id", slack.EventsPath, `{"type":"event_callback","event":{"type":"message"}}`, 400},
		{"callback without event", slack.EventsPath, `{"type":"event_callback","event_id":"Ev1"}`, 400},
		{"event not an object", slack.EventsPath, callback("Ev1", `"hello"`), 400},
		{"too large", slack.EventsPath, callback("Ev1", dm("U1", strings.Repeat("a", slack.MaxBodyBytes))), 413},
		{"interaction without payload", slack.InteractionsPath, `a=b`, 400},
		{"interaction payload not JSON", slack.InteractionsPath, `payload=%7Bnope`, 400},
		{"command without user", slack.CommandsPath, `command=%2Fhearth&text=hi&channel_id=D1&trigger_id=t1`, 400},
		{"command too large", slack.CommandsPath, "text=" + strings.Repeat("a", slack.MaxBodyBytes), 413},
	}
	for _, tt := range tests {
		if code, out := b.do(t, signed(tt.path, tt.body)); code != tt.want || out["error"] == "" {
			t.Errorf("%s: %d %v; want %d with a reason", tt.name, code, out, tt.want)
		}
	}
	r := httptest.NewRequest(http.MethodGet, slack.EventsPath, nil)
	rec := httptest.NewRecorder()
	b.sl.ServeEvents(rec, r)
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("GET: %d; want 405", rec.Code)
	}
	if n := b.count(t, "true"); n != 0 {
		t.Fatalf("%d events stored from bad requests", n)
	}
}

func TestSlashCommand(t *testing.T) {
	t.Parallel()
	b := setup(t, "")
	form := func(text, trigger string) string {
		return url.Values{"command": {"/hearth"}, "text": {text}, "user_id": {"U1"}, "user_name": {"ann"}, "channel_id": {"D1"}, "trigger_id": {trigger}, "token": {"legacy"}}.Encode()
	}
	inChannel := func(text, trigger string) string {
		return strings.Replace(form(text, trigger), "channel_id=D1", "channel_id=C9", 1)
	}
	for _, tt := range []struct{ body, want string }{
		{form("help", "t-help"), "help"},
		{form("", "t-empty"), "help"},
		{inChannel("briefing", "t-cb"), "only do it in our direct message"},
		{inChannel("link", "t-cl"), "only do it in our direct message"},
		{inChannel("link ABCD-EF23", "t-cl2"), "only do it in our direct message"},
	} {
		code, out := b.do(t, signed(slack.CommandsPath, tt.body))
		if code != http.StatusOK || out["response_type"] != "ephemeral" || !strings.Contains(out["text"].(string), tt.want) {
			t.Errorf("/hearth %s: %d %v; want ephemeral %q", tt.body, code, out, tt.want)
		}
	}
	if n := b.count(t, "true"); n != 0 {
		t.Fatalf("help and channel briefing/link stored %d events", n)
	}
	// In the DM, briefing and link are stored as the commands they name,
	// for the turn to dispatch by name.
	for _, tt := range []struct{ text, trigger, stored string }{
		{"briefing", "t-b", "briefing"},
		{"Link", "t-l", "link"},
		{"link abcd-ef23", "t-l2", "link abcd-ef23"},
	} {
		code, out := b.do(t, signed(slack.CommandsPath, form(tt.text, tt.trigger)))
		if code != http.StatusOK || out["response_type"] != "ephemeral" || !strings.HasPrefix(out["text"].(string), "On it") {
			t.Fatalf("/hearth %s: %d %v", tt.text, code, out)
		}
		if n := b.count(t, fmt.Sprintf("external_id = 'command:%s' AND kind = 'command' AND text = '%s' AND conversation_id IS NOT NULL", tt.trigger, tt.stored)); n != 1 {
			t.Fatalf("/hearth %s: %d events with text %q", tt.text, n, tt.stored)
		}
	}
	code, out := b.do(t, signed(slack.CommandsPath, form("add milk to the shopping list", "t-1")))
	if code != http.StatusOK || out["response_type"] != "ephemeral" || out["text"] != "On it…" {
		t.Fatalf("/hearth add milk: %d %v", code, out)
	}
	if n := b.count(t, "external_id = 'command:t-1' AND text = 'add milk to the shopping list' AND NOT payload ? 'token'"); n != 1 {
		t.Fatalf("%d command events stored; want 1", n)
	}
}

// botReply stores a visible bot message in the conversation, as a
// finished turn would, and returns its id.
func (b *testBundle) botReply(t *testing.T, user, conv string, out hearth.Outbound) int64 {
	t.Helper()
	return pipelinetest.BotReply(t, b.store, hearth.ChannelSlack, user, conv, out)
}

// A reply with buttons goes out as Block Kit in the mention's thread;
// clicking one (twice, as people do) comes back as one button event.
func TestButtons(t *testing.T) {
	t.Parallel()
	b := setup(t, "")
	ctx := context.Background()
	const conv = "C1:1700000001.000200"
	if code, _ := b.do(t, signed(slack.EventsPath, callback("EvB1", mention("<@UHEARTH> book the dentist?", "1700000001.000200", "")))); code != http.StatusOK {
		t.Fatalf("mention: %d", code)
	}
	buttons := []hearth.Button{{ID: "yes", Label: "Yes, book it"}, {ID: "no", Label: "No"}}
	msgID := b.botReply(t, "U1", conv, hearth.Outbound{Text: "Book it for Tuesday?", Buttons: buttons})

	platformID, err := b.sl.Send(ctx, hearth.Delivery{MessageID: msgID, Channel: hearth.ChannelSlack, ConversationKey: conv, Text: "Book it for Tuesday?", Buttons: buttons})
	if err != nil || platformID != "C1:1700000000.000100" {
		t.Fatalf("send: %q, %v", platformID, err)
	}
	sent := b.api.Calls("chat.postMessage")
	if len(sent) != 1 || sent[0].Form.Get("channel") != "C1" || sent[0].Form.Get("thread_ts") != "1700000001.000200" || sent[0].Form.Get("text") != "Book it for Tuesday?" {
		t.Fatalf("chat.postMessage requests: %+v", sent)
	}
	var blocks []struct {
		Type string `json:"type"`
		Text struct {
			Type, Text string
		} `json:"text"`
		Elements []struct {
			Type     string `json:"type"`
			ActionID string `json:"action_id"`
			Value    string `json:"value"`
			Text     struct{ Text string }
		} `json:"elements"`
	}
	if err := json.Unmarshal([]byte(sent[0].Form.Get("blocks")), &blocks); err != nil {
		t.Fatalf("blocks %q: %v", sent[0].Form.Get("blocks"), err)
	}
	if len(blocks) != 2 || blocks[0].Type != "section" || blocks[0].Text.Text != "Book it for Tuesday?" || blocks[1].Type != "actions" ||
		len(blocks[1].Elements) != 2 || blocks[1].Elements[0].Type != "button" || blocks[1].Elements[0].Text.Text != "Yes, book it" ||
		blocks[1].Elements[0].ActionID == blocks[1].Elements[1].ActionID {
		t.Fatalf("blocks: %+v", blocks)
	}
	value := blocks[1].Elements[0].Value

	click := func(user, trigger, value string) string {
		p := fmt.Sprintf(`{"type":"block_actions","token":"legacy","trigger_id":%q,"user":{"id":%q,"name":"ann"},"team":{"id":"T1"},
			"container":{"type":"message","message_ts":"1700000000.000100","channel_id":"C1","thread_ts":"1700000001.000200"},
			"channel":{"id":"C1","name":"family"},
			"message":{"type":"message","user":"UHEARTH","bot_id":"BHEARTH","ts":"1700000000.000100","thread_ts":"1700000001.000200","text":"Book it for Tuesday?"},
			"actions":[{"type":"button","action_id":"hearth_button_0","block_id":"b","value":%q,"text":{"type":"plain_text","text":"Yes, book it"},"action_ts":"1700000005.1"}]}`, trigger, user, value)
		return url.Values{"payload": {p}}.Encode()
	}
	for i, trigger := range []string{"tr-a", "tr-b", "tr-b"} {
		if code, out := b.do(t, signed(slack.InteractionsPath, click("U1", trigger, value))); code != http.StatusOK || out["ignored"] == true {
			t.Fatalf("click %d: %d %v", i+1, code, out)
		}
	}
	if n := b.count(t, fmt.Sprintf("kind = 'button' AND message_id = %d AND button_id = 'yes' AND external_id = 'click:%d:yes'", msgID, msgID)); n != 1 {
		t.Fatalf("%d button events after a double click; want 1", n)
	}
	// Someone else's button value, or not one of Hearth's: acknowledged, not stored.
	for _, v := range []string{"not ours", strconv.FormatInt(msgID+1000, 10) + "|yes"} {
		if code, out := b.do(t, signed(slack.InteractionsPath, click("U1", "tr-c", v))); code != http.StatusOK || out["ignored"] != true {
			t.Fatalf("foreign click %q: %d %v; want 200, ignored", v, code, out)
		}
	}
	if n := b.count(t, "kind = 'button'"); n != 1 {
		t.Fatalf("%d button events; want 1", n)
	}
}

func TestSend(t *testing.T) {
	t.Parallel()
	api := slackfake.NewServer(t)
	sl, err := slack.New(context.Background(), slack.Config{BotToken: "xoxb-test", APIURL: api.URL()})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// A DM: no thread, no buttons, long text split into sections.
	long := strings.Repeat("word ", 1000)
	if id, err := sl.Send(ctx, hearth.Delivery{MessageID: 1, ConversationKey: "D1", Text: long}); err != nil || id != "D1:1700000000.000100" {
		t.Fatalf("send: %q %v", id, err)
	}
	c := api.Calls("chat.postMessage")[0]
	var blocks []map[string]any
	json.Unmarshal([]byte(c.Form.Get("blocks")), &blocks) //nolint:errcheck // checked below
	if c.Form.Get("thread_ts") != "" || len(blocks) != 2 || blocks[0]["type"] != "section" {
		t.Fatalf("request: thread %q, %d blocks", c.Form.Get("thread_ts"), len(blocks))
	}

	d := hearth.Delivery{MessageID: 9, ConversationKey: "C1:1.2", Text: "hello"}
	rateLimited := func(w http.ResponseWriter) {
		w.Header().Set("Retry-After", "7")
		w.WriteHeader(http.StatusTooManyRequests)
	}
	apiError := func(code string) func(http.ResponseWriter) {
		return func(w http.ResponseWriter) { fmt.Fprintf(w, `{"ok":false,"error":%q}`, code) }
	}
	tests := []struct {
		name      string
		answer    func(http.ResponseWriter)
		permanent bool
		contains  string
	}{
		{"channel not found", apiError("channel_not_found"), true, "channel_not_found"},
		{"not in channel", apiError("not_in_channel"), true, "not_in_channel"},
		{"account inactive", apiError("account_inactive"), true, "account_inactive"},
		{"rate limited", rateLimited, false, "retry after 7s"},
		{"internal error", apiError("internal_error"), false, "internal_error"},
		{"server error", func(w http.ResponseWriter) { w.WriteHeader(http.StatusBadGateway) }, false, "502"},
	}
	for _, tt := range tests {
		api.Fail("chat.postMessage", tt.answer)
		_, err := sl.Send(ctx, d)
		if err == nil || errors.Is(err, hearth.ErrPermanent) != tt.permanent || !strings.Contains(err.Error(), tt.contains) {
			t.Errorf("%s: %v; want permanent=%v containing %q", tt.name, err, tt.permanent, tt.contains)
		}
		// The deliver worker waits what Slack asked, not its own backoff.
		var ra *hearth.RetryAfterError
		if limited := errors.As(err, &ra); limited != (tt.name == "rate limited") || limited && ra.After != 7*time.Second {
			t.Errorf("%s: %v; a rate limit must carry its Retry-After (7s)", tt.name, err)
		}
	}
	before := len(api.Calls("chat.postMessage"))
	for _, bad := range []hearth.Delivery{
		{MessageID: 9, ConversationKey: "C1", Text: "pick", Buttons: []hearth.Button{{ID: strings.Repeat("x", 2001), Label: "X"}}},
		{MessageID: 9, ConversationKey: "", Text: "hi"},
		{MessageID: 9, ConversationKey: "C1", Text: " "},
	} {
		if _, err := sl.Send(ctx, bad); !errors.Is(err, hearth.ErrPermanent) {
			t.Errorf("%+v: %v; want permanent", bad, err)
		}
	}
	if len(api.Calls("chat.postMessage")) != before {
		t.Error("an unsendable message was sent")
	}
}

func TestUserProfile(t *testing.T) {
	t.Parallel()
	api := slackfake.NewServer(t)
	sl, err := slack.New(context.Background(), slack.Config{BotToken: "xoxb-test", APIURL: api.URL()})
	if err != nil {
		t.Fatal(err)
	}
	p, err := sl.UserProfile(context.Background(), "U1")
	if err != nil || p != (pipeline.Profile{Timezone: "Europe/Berlin", Name: "Ann Lee"}) {
		t.Fatalf("%+v, %v", p, err)
	}
	if calls := api.Calls("users.info"); len(calls) != 1 || calls[0].Form.Get("user") != "U1" {
		t.Fatalf("users.info requests: %+v", calls)
	}
	// A rate limit with a short Retry-After is waited out once.
	api.Fail("users.info", func(w http.ResponseWriter) {
		api.Fail("users.info", nil) // only this call
		w.Header().Set("Retry-After", "0")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	if p, err := sl.UserProfile(context.Background(), "U2"); err != nil || p.Timezone != "Europe/Berlin" {
		t.Fatalf("after a 429: %+v, %v", p, err)
	}
	if n := len(api.Calls("users.info")); n != 3 {
		t.Fatalf("%d users.info calls; want the 429 and its retry", n-1)
	}
	// A long one fails the lookup at once (the turn asks the user instead).
	api.Fail("users.info", func(w http.ResponseWriter) {
		w.Header().Set("Retry-After", "60")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	if _, err := sl.UserProfile(context.Background(), "U3"); err == nil {
		t.Fatal("a 60 s rate limit was waited out in a turn")
	}
	api.Fail("users.info", func(w http.ResponseWriter) { fmt.Fprint(w, `{"ok":false,"error":"user_not_found"}`) })
	if _, err := sl.UserProfile(context.Background(), "U404"); err == nil || !strings.Contains(err.Error(), "user_not_found") {
		t.Fatalf("unknown user: %v", err)
	}
}

// A user Slack has no zone for is not looked up again for an hour.
func TestUserProfileMissCached(t *testing.T) {
	t.Parallel()
	api := slackfake.NewServer(t)
	api.SetTimezone("")
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	sl, err := slack.New(context.Background(), slack.Config{BotToken: "xoxb-test", APIURL: api.URL(), Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if p, err := sl.UserProfile(context.Background(), "U1"); err != nil || p.Timezone != "" {
			t.Fatalf("%+v, %v", p, err)
		}
	}
	if n := len(api.Calls("users.info")); n != 1 {
		t.Fatalf("%d users.info calls within the hour; want 1", n)
	}
	mu.Lock()
	now = now.Add(61 * time.Minute)
	mu.Unlock()
	api.SetTimezone("Asia/Tokyo")
	if p, err := sl.UserProfile(context.Background(), "U1"); err != nil || p.Timezone != "Asia/Tokyo" {
		t.Fatalf("after the hour: %+v, %v", p, err)
	}
}

func TestNew(t *testing.T) {
	t.Parallel()
	api := slackfake.NewServer(t)
	sl, err := slack.New(context.Background(), slack.Config{BotToken: "xoxb-test", APIURL: strings.TrimSuffix(api.URL(), "/")})
	if err != nil || sl.BotUserID() != slackfake.BotUserID {
		t.Fatalf("%v, %v", sl, err)
	}
	if _, err := slack.New(context.Background(), slack.Config{APIURL: api.URL()}); err == nil {
		t.Fatal("no token was accepted")
	}
	api.Fail("auth.test", func(w http.ResponseWriter) { fmt.Fprint(w, `{"ok":false,"error":"invalid_auth"}`) })
	if _, err := slack.New(context.Background(), slack.Config{BotToken: "xoxb-bad", APIURL: api.URL()}); err == nil {
		t.Fatal("a token Slack refuses was accepted")
	}
}

func TestDatabaseDownIs503(t *testing.T) {
	t.Parallel()
	dbURL := storetest.NewDatabase(t)
	proxy, proxied := storetest.NewProxy(t, dbURL)
	b := setup(t, proxied)
	proxy.Cut()
	body := callback("EvDown", dm("U1", "anyone home?"))
	code, out := b.do(t, signed(slack.EventsPath, body))
	if code != http.StatusServiceUnavailable {
		t.Fatalf("with the database down: %d %v; want 503", code, out)
	}
	proxy.Restore()

	pipelinetest.AssertNothingStored(t, dbURL)
	retry := signed(slack.EventsPath, body)
	retry.header.Set("X-Slack-Retry-Num", "1")
	if code, out := b.do(t, retry); code != http.StatusOK || out["duplicate"] == true {
		t.Fatalf("Slack's retry after the database came back: %d %v; want 200, stored", code, out)
	}
}

// FetchAudio downloads a clip with the bot token and refuses what is too
// large, gone, or on a host that must not see the token.
func TestFetchAudio(t *testing.T) {
	t.Parallel()
	api := slackfake.NewServer(t)
	sl, err := slack.New(context.Background(), slack.Config{BotToken: "xoxb-test", APIURL: api.URL()})
	if err != nil {
		t.Fatal(err)
	}
	clip := api.AddFile("F1/clip.ogg", []byte("OggS-clip"))
	ctx := context.Background()
	a, err := sl.FetchAudio(ctx, hearth.AudioRef{FileID: "F1", URL: clip, MIME: "audio/ogg", Name: "clip.ogg"}, 100)
	if err != nil || string(a.Data) != "OggS-clip" || a.Name != "clip.ogg" {
		t.Fatalf("%+v, %v", a, err)
	}
	tests := []struct {
		name string
		url  string
		want error
	}{
		{"too large", clip, pipeline.ErrAudioTooLarge},
		{"gone", api.URL() + "files/F2/missing.ogg", hearth.ErrPermanent},
		{"foreign host", "https://example.com/steal", hearth.ErrPermanent},
	}
	for _, tt := range tests {
		if _, err := sl.FetchAudio(ctx, hearth.AudioRef{FileID: "F", URL: tt.url}, 4); !errors.Is(err, tt.want) {
			t.Errorf("%s: %v; want %v", tt.name, err, tt.want)
		}
	}
	for _, c := range api.Calls("files.download") {
		if c.Form.Get("authorization") != "Bearer xoxb-test" {
			t.Fatalf("download without the bot token: %+v", c)
		}
	}
}

// A zone Slack reports that Go cannot load is no zone: the name is kept,
// the user is asked for their zone, and Slack is not asked again soon.
func TestUserProfileUnknownZone(t *testing.T) {
	t.Parallel()
	api := slackfake.NewServer(t)
	api.SetTimezone("Mars/Olympus_Mons")
	sl, err := slack.New(context.Background(), slack.Config{BotToken: "xoxb-test", APIURL: api.URL()})
	if err != nil {
		t.Fatal(err)
	}
	if p, err := sl.UserProfile(context.Background(), "U1"); err != nil || p != (pipeline.Profile{Name: "Ann Lee"}) {
		t.Fatalf("%+v, %v; want the name and no zone", p, err)
	}
	if p, err := sl.UserProfile(context.Background(), "U1"); err != nil || p.Timezone != "" {
		t.Fatalf("again: %+v, %v; want no zone", p, err)
	}
	if n := len(api.Calls("users.info")); n != 1 {
		t.Fatalf("%d users.info calls; want 1", n)
	}
}

// A reply's Markdown reaches Slack as mrkdwn: single-asterisk bold, <url|text>
// links and &, <, > escaped, in both the blocks and the fallback text.
func TestSendRendersMarkdown(t *testing.T) {
	t.Parallel()
	b := setup(t, "")
	ctx := context.Background()
	const text = "**Today**\n- 9:00 AM Dentist & <checkup>\nSee [the plan](https://x.test/p)"
	const want = "*Today*\n• 9:00 AM Dentist &amp; &lt;checkup&gt;\nSee <https://x.test/p|the plan>"
	if _, err := b.sl.Send(ctx, hearth.Delivery{MessageID: 1, Channel: hearth.ChannelSlack, ConversationKey: "D1", Text: text}); err != nil {
		t.Fatalf("send: %v", err)
	}
	sent := b.api.Calls("chat.postMessage")
	if len(sent) != 1 || sent[0].Form.Get("text") != want {
		t.Fatalf("chat.postMessage text: %+v; want %q", sent, want)
	}
	var blocks []struct {
		Type string `json:"type"`
		Text struct{ Type, Text string }
	}
	if err := json.Unmarshal([]byte(sent[0].Form.Get("blocks")), &blocks); err != nil {
		t.Fatalf("blocks %q: %v", sent[0].Form.Get("blocks"), err)
	}
	if len(blocks) != 1 || blocks[0].Text.Type != "mrkdwn" || blocks[0].Text.Text != want {
		t.Fatalf("blocks: %+v; want one mrkdwn section %q", blocks, want)
	}
}

// An over-long direct message or mention is not stored; Slack gets a 200
// (a retry would send the same bytes) and the writer a short reply with
// the limit, in the conversation (the mention's thread).
func TestOverLongMessageGetsTheLimit(t *testing.T) {
	t.Parallel()
	b := setup(t, "")
	long := strings.Repeat("word ", pipeline.MaxTextBytes/5+1)
	tests := []struct {
		name, event, channel, thread string
	}{
		{"direct message", dm("U1", long), "D1", ""},
		{"mention", mention("<@UHEARTH> "+long, "1700000009.000100", ""), "C1", "1700000009.000100"},
	}
	for i, tt := range tests {
		code, out := b.do(t, signed(slack.EventsPath, callback(fmt.Sprintf("EvLong%d", i), tt.event)))
		if code != http.StatusOK || out["ignored"] != true {
			t.Fatalf("%s: %d %v; want 200, ignored", tt.name, code, out)
		}
		sent := b.api.WaitCalls(t, "chat.postMessage", i+1)[i]
		limit := strconv.Itoa(pipeline.MaxTextBytes)
		if sent.Form.Get("channel") != tt.channel || sent.Form.Get("thread_ts") != tt.thread || !strings.Contains(sent.Form.Get("text"), limit) {
			t.Errorf("%s: reply %+v; want one in %s (thread %q) stating the limit %s", tt.name, sent.Form, tt.channel, tt.thread, limit)
		}
	}
	if n := b.count(t, "true"); n != 0 {
		t.Fatalf("%d inbound events stored; want none", n)
	}
}
