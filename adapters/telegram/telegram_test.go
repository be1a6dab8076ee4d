package telegram_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/adapters/telegram"
	"github.com/hearthbot/hearth/adapters/telegram/telegramtest"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/pipeline/pipelinetest"
	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

const testSecret = "s3cret-token_1"

type testBundle struct {
	store *store.Store
	api   *telegramtest.Server
	tg    *telegram.Adapter
}

// setup builds the adapter on a fresh database (or dbURL) with a real
// Inbox and an insert-only River client, against a fake Bot API.
func setup(t *testing.T, dbURL string) *testBundle {
	t.Helper()
	st, inbox := pipelinetest.NewInbox(t, dbURL)
	api := telegramtest.NewServer(t)
	tg, err := telegram.New(context.Background(), telegram.Config{
		Token:         telegramtest.Token,
		APIURL:        api.URL,
		WebhookSecret: testSecret,
		Inbox:         inbox,
	})
	if err != nil {
		t.Fatal(err)
	}
	return &testBundle{store: st, api: api, tg: tg}
}

// post sends body to the webhook with the given secret ("" for none).
func (b *testBundle) post(t *testing.T, secret, body string) (int, map[string]any) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, telegram.WebhookPath, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if secret != "" {
		req.Header.Set(telegram.SecretHeader, secret)
	}
	rec := httptest.NewRecorder()
	b.tg.ServeHTTP(rec, req)
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

func privateText(updateID, userID int64, text string) string {
	return fmt.Sprintf(`{"update_id":%d,"message":{"message_id":%d,"date":1700000000,
		"from":{"id":%d,"is_bot":false,"first_name":"Ann","last_name":"Lee","username":"ann"},
		"chat":{"id":%d,"type":"private","first_name":"Ann"},"text":%q}}`, updateID, updateID, userID, userID, text)
}

func groupText(updateID int64, text, extra string) string {
	return fmt.Sprintf(`{"update_id":%d,"message":{"message_id":%d,"date":1700000000,
		"from":{"id":5001,"is_bot":false,"first_name":"Bo"},
		"chat":{"id":-100500,"type":"supergroup","title":"Family"},"text":%q%s}}`, updateID, updateID, text, extra)
}

func TestNewCallsGetMe(t *testing.T) {
	t.Parallel()
	api := telegramtest.NewServer(t)
	tg, err := telegram.New(context.Background(), telegram.Config{Token: telegramtest.Token, APIURL: api.URL})
	if err != nil {
		t.Fatal(err)
	}
	if tg.Username() != telegramtest.Username || len(api.Calls("getMe")) != 1 {
		t.Fatalf("username %q after %d getMe calls", tg.Username(), len(api.Calls("getMe")))
	}
	if _, err := telegram.New(context.Background(), telegram.Config{Token: "1:wrong", APIURL: api.URL}); err == nil {
		t.Fatal("a token the API refuses was accepted")
	}
	if _, err := telegram.New(context.Background(), telegram.Config{APIURL: api.URL}); err == nil {
		t.Fatal("no token was accepted")
	}
}

func TestSecretToken(t *testing.T) {
	t.Parallel()
	b := setup(t, "")
	for _, secret := range []string{"", "wrong", testSecret + "x", strings.ToUpper(testSecret)} {
		if code, _ := b.post(t, secret, privateText(1, 1001, "hi")); code != http.StatusUnauthorized {
			t.Errorf("secret %q: %d; want 401", secret, code)
		}
	}
	// The secret is checked before the body is read: garbage is a 401 too.
	if code, _ := b.post(t, "wrong", `{not json`); code != http.StatusUnauthorized {
		t.Errorf("bad body with a wrong secret: %d; want 401", code)
	}
	if n := b.count(t, "true"); n != 0 {
		t.Fatalf("%d events stored from forged requests", n)
	}
	if code, _ := b.post(t, testSecret, privateText(1, 1001, "hi")); code != http.StatusOK {
		t.Fatalf("right secret: %d", code)
	}
}

func TestWithoutSecretEverythingIsRefused(t *testing.T) {
	t.Parallel()
	api := telegramtest.NewServer(t)
	tg, err := telegram.New(context.Background(), telegram.Config{Token: telegramtest.Token, APIURL: api.URL})
	if err != nil {
		t.Fatal(err)
	}
	b := &testBundle{tg: tg}
	if code, _ := b.post(t, "", privateText(1, 1001, "hi")); code != http.StatusUnauthorized {
		t.Fatalf("no secret configured, none sent: %d; want 401", code)
	}
}

func TestPrivateMessage(t *testing.T) {
	t.Parallel()
	b := setup(t, "")
	body := privateText(10, 1001, "remind me to call mum")
	for i := range 3 {
		code, out := b.post(t, testSecret, body)
		if code != http.StatusOK {
			t.Fatalf("delivery %d: %d %v", i+1, code, out)
		}
		if dup := out["duplicate"] == true; dup != (i > 0) {
			t.Fatalf("delivery %d: duplicate = %v", i+1, out["duplicate"])
		}
	}
	if n := b.count(t, "true"); n != 1 {
		t.Fatalf("%d events after three deliveries; want 1", n)
	}
	var ext, text, payloadChat string
	err := b.store.Pool().QueryRow(context.Background(),
		`SELECT external_id, text, payload->'message'->'chat'->>'id' FROM inbound_events`).Scan(&ext, &text, &payloadChat)
	if err != nil {
		t.Fatal(err)
	}
	if ext != "update:10" || text != "remind me to call mum" || payloadChat != "1001" {
		t.Fatalf("stored %q %q payload chat %q", ext, text, payloadChat)
	}
	c, err := b.store.FindContact(context.Background(), hearth.ChannelTelegram, "1001", "1001")
	if err != nil {
		t.Fatal(err)
	}
	if c.User.DisplayName != "Ann Lee" || c.User.Timezone != "" {
		t.Fatalf("user %+v; want Ann Lee with no time zone yet", c.User)
	}
}

// A private message Hearth cannot read (a photo, a file) is stored as an
// unsupported event, so the user gets a reply instead of silence; a voice
// note is stored as a voice event with the reference to its audio, which
// the turn downloads (nothing is fetched at ingress).
func TestUnsupportedMessages(t *testing.T) {
	t.Parallel()
	b := setup(t, "")
	for i, tt := range []struct{ field, kind, want string }{
		{`"voice":{"file_id":"v","file_unique_id":"v","duration":3,"mime_type":"audio/ogg","file_size":4200}`, "voice", "voice note"},
		{`"video_note":{"file_id":"n","file_unique_id":"n","length":240,"duration":3}`, "unsupported", "video note"},
		{`"photo":[{"file_id":"p","file_unique_id":"p","width":1,"height":1}]`, "unsupported", "photo"},
		{`"document":{"file_id":"d","file_unique_id":"d"}`, "unsupported", "file"},
	} {
		body := fmt.Sprintf(`{"update_id":%d,"message":{"message_id":1,"date":1,"from":{"id":1001,"is_bot":false,"first_name":"Ann"},"chat":{"id":1001,"type":"private"},%s}}`, 60+i, tt.field)
		if code, out := b.post(t, testSecret, body); code != http.StatusOK {
			t.Fatalf("%s: %d %v", tt.want, code, out)
		}
		var id int64
		var kind, text string
		err := b.store.Pool().QueryRow(context.Background(), `SELECT id, kind, text FROM inbound_events WHERE external_id = $1`, fmt.Sprintf("update:%d", 60+i)).Scan(&id, &kind, &text)
		if err != nil || kind != tt.kind || text != tt.want {
			t.Fatalf("stored %q %q (%v); want %s %q", kind, text, err, tt.kind, tt.want)
		}
		if kind == "voice" {
			ref, transcript, err := b.store.VoiceNote(context.Background(), id)
			want := hearth.AudioRef{FileID: "v", Size: 4200, MIME: "audio/ogg", Name: "voice.ogg", Duration: 3}
			if err != nil || ref != want || transcript != "" {
				t.Fatalf("voice note %+v %q (%v); want %+v, not transcribed", ref, transcript, err, want)
			}
		}
	}
	if calls := b.api.Calls("getFile"); len(calls) != 0 {
		t.Fatalf("ingress downloaded audio: %+v", calls)
	}
}

func TestIgnored(t *testing.T) {
	t.Parallel()
	b := setup(t, "")
	tests := []struct{ name, body string }{
		{"group without mention", groupText(20, "who is picking up Emma?", "")},
		{"group mentioning another bot", groupText(21, "@other_bot hi", `,"entities":[{"type":"mention","offset":0,"length":10}]`)},
		{"group with a longer username", groupText(22, "@hearth_home_bot2 hi", "")},
		{"bot author", `{"update_id":23,"message":{"message_id":1,"date":1,"from":{"id":9,"is_bot":true,"first_name":"Other"},"chat":{"id":9,"type":"private"},"text":"hi"}}`},
		{"Hearth itself", fmt.Sprintf(`{"update_id":24,"message":{"message_id":1,"date":1,"from":{"id":%d,"is_bot":true,"first_name":"Hearth"},"chat":{"id":-100500,"type":"group"},"text":"@%s hi"}}`, telegramtest.BotID, telegramtest.Username)},
		{"sticker in a group", `{"update_id":25,"message":{"message_id":1,"date":1,"from":{"id":1001,"is_bot":false,"first_name":"Ann"},"chat":{"id":-100500,"type":"group"},"sticker":{"file_id":"x"}}}`},
		{"service message", `{"update_id":29,"message":{"message_id":1,"date":1,"from":{"id":1001,"is_bot":false,"first_name":"Ann"},"chat":{"id":1001,"type":"private"},"new_chat_title":"x"}}`},
		{"channel post", `{"update_id":26,"channel_post":{"message_id":1,"date":1,"chat":{"id":-1001,"type":"channel"},"text":"news"}}`},
		{"edited message", `{"update_id":27,"edited_message":{"message_id":1,"date":1,"from":{"id":1001,"is_bot":false,"first_name":"Ann"},"chat":{"id":1001,"type":"private"},"text":"hi"}}`},
		{"unknown update type", `{"update_id":28,"some_future_thing":{"x":1}}`},
		{"poll answer", `{"update_id":29,"poll_answer":{"poll_id":"p","option_ids":[0]}}`},
		{"undecodable callback", `{"update_id":30,"callback_query":{"id":"cq1","from":{"id":1001,"is_bot":false,"first_name":"Ann"},"message":{"message_id":42,"date":1,"chat":{"id":1001,"type":"private"}},"data":"not ours"}}`},
		{"inline-mode callback", `{"update_id":31,"callback_query":{"id":"cq2","from":{"id":1001,"is_bot":false,"first_name":"Ann"},"inline_message_id":"im","data":"5|yes"}}`},
	}
	for _, tt := range tests {
		if code, out := b.post(t, testSecret, tt.body); code != http.StatusOK || out["ignored"] != true {
			t.Errorf("%s: %d %v; want 200, ignored", tt.name, code, out)
		}
	}
	if n := b.count(t, "true"); n != 0 {
		t.Fatalf("%d events stored from updates Hearth ignores", n)
	}
	// Ignored clicks still stop the user's spinner.
	if n := len(b.api.Calls("answerCallbackQuery")); n != 2 {
		t.Fatalf("%d callback answers; want 2", n)
	}
}

func TestGroupMessagesForTheBot(t *testing.T) {
	t.Parallel()
	b := setup(t, "")
	tests := []struct {
		name, body, text string
	}{
		{"mention entity", groupText(40, "@hearth_home_bot remind me to buy milk", `,"entities":[{"type":"mention","offset":0,"length":16}]`), "remind me to buy milk"},
		{"mention in text, any case", groupText(41, "what's on today, @Hearth_Home_Bot?", ""), "what's on today, ?"},
		{"mention after emoji", groupText(42, "🎉 @hearth_home_bot party at 6", `,"entities":[{"type":"mention","offset":3,"length":16}]`), "🎉  party at 6"},
		{"reply to the bot", groupText(43, "yes please", fmt.Sprintf(`,"reply_to_message":{"message_id":7,"date":1,"from":{"id":%d,"is_bot":true,"first_name":"Hearth"},"chat":{"id":-100500,"type":"supergroup"},"text":"Shall I?"}`, telegramtest.BotID)), "yes please"},
		{"bare mention", groupText(44, "@hearth_home_bot", ""), "@hearth_home_bot"},
	}
	for _, tt := range tests {
		code, out := b.post(t, testSecret, tt.body)
		if code != http.StatusOK || out["ignored"] == true {
			t.Errorf("%s: %d %v; want accepted", tt.name, code, out)
			continue
		}
		var text string
		if err := b.store.Pool().QueryRow(context.Background(), `SELECT text FROM inbound_events WHERE id = $1`, int64(out["event_id"].(float64))).Scan(&text); err != nil {
			t.Fatal(err)
		}
		if text != tt.text {
			t.Errorf("%s: stored %q; want %q", tt.name, text, tt.text)
		}
	}
}

func TestBadRequests(t *testing.T) {
	t.Parallel()
	b := setup(t, "")
	huge := privateText(50, 1001, strings.Repeat("a", telegram.MaxBodyBytes))
	tests := []struct {
		name, body string
		want       int
	}{
		{"malformed JSON", `{"update_id":`, 400},
		{"not an object", `[1,2]`, 400},
		{"empty", ``, 400},
		{"wrong type", `{"update_id":"seven"}`, 400},
		{"no update id", `{"message":{"message_id":1,"date":1,"chat":{"id":1,"type":"private"},"text":"hi"}}`, 400},
		{"too large", huge, 413},
	}
	for _, tt := range tests {
		if code, out := b.post(t, testSecret, tt.body); code != tt.want || out["error"] == "" {
			t.Errorf("%s: %d %v; want %d with a reason", tt.name, code, out, tt.want)
		}
	}
	req := httptest.NewRequest(http.MethodGet, telegram.WebhookPath, nil)
	rec := httptest.NewRecorder()
	b.tg.ServeHTTP(rec, req)
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("GET: %d; want 405", rec.Code)
	}
	if n := b.count(t, "true"); n != 0 {
		t.Fatalf("%d events stored from bad requests", n)
	}
}

// A reply with buttons goes out as an inline keyboard; clicking one
// (twice, as people do) comes back as one button event.
func TestButtons(t *testing.T) {
	t.Parallel()
	b := setup(t, "")
	ctx := context.Background()
	if code, _ := b.post(t, testSecret, privateText(60, 1001, "should I book the dentist?")); code != http.StatusOK {
		t.Fatalf("message: %d", code)
	}
	msgID := b.botReply(t, "1001", hearth.Outbound{Text: "Book it for Tuesday?", Buttons: []hearth.Button{{ID: "yes", Label: "Yes, book it"}, {ID: "no", Label: "No"}}})

	platformID, err := b.tg.Send(ctx, hearth.Delivery{MessageID: msgID, Channel: hearth.ChannelTelegram, ConversationKey: "1001", Text: "Book it for Tuesday?",
		Buttons: []hearth.Button{{ID: "yes", Label: "Yes, book it"}, {ID: "no", Label: "No"}}})
	if err != nil || platformID != "42" {
		t.Fatalf("send: %q, %v; want 42", platformID, err)
	}
	sent := b.api.Calls("sendMessage")
	if len(sent) != 1 || sent[0].Form["chat_id"] != "1001" || sent[0].Form["text"] != "Book it for Tuesday?" {
		t.Fatalf("sendMessage requests: %+v", sent)
	}
	var markup struct {
		InlineKeyboard [][]struct {
			Text         string `json:"text"`
			CallbackData string `json:"callback_data"`
		} `json:"inline_keyboard"`
	}
	if err := json.Unmarshal([]byte(sent[0].Form["reply_markup"]), &markup); err != nil {
		t.Fatalf("reply_markup %q: %v", sent[0].Form["reply_markup"], err)
	}
	if len(markup.InlineKeyboard) != 2 || markup.InlineKeyboard[0][0].Text != "Yes, book it" || markup.InlineKeyboard[1][0].Text != "No" {
		t.Fatalf("keyboard: %+v", markup.InlineKeyboard)
	}
	data := markup.InlineKeyboard[0][0].CallbackData
	if len(data) > 64 {
		t.Fatalf("callback data %q is longer than Telegram allows", data)
	}

	click := func(updateID int64, queryID string) string {
		return fmt.Sprintf(`{"update_id":%d,"callback_query":{"id":%q,"from":{"id":1001,"is_bot":false,"first_name":"Ann"},
			"message":{"message_id":42,"date":1700000000,"chat":{"id":1001,"type":"private"},"text":"Book it for Tuesday?"},
			"chat_instance":"ci","data":%q}}`, updateID, queryID, data)
	}
	for i, body := range []string{click(61, "cq-a"), click(62, "cq-b"), click(62, "cq-b")} {
		if code, out := b.post(t, testSecret, body); code != http.StatusOK || out["ignored"] == true {
			t.Fatalf("click %d: %d %v", i+1, code, out)
		}
	}
	if n := b.count(t, fmt.Sprintf("kind = 'button' AND message_id = %d AND button_id = 'yes'", msgID)); n != 1 {
		t.Fatalf("%d button events after a double click; want 1", n)
	}
	answers := b.api.Calls("answerCallbackQuery")
	if len(answers) != 3 || answers[0].Form["callback_query_id"] != "cq-a" || answers[1].Form["callback_query_id"] != "cq-b" {
		t.Fatalf("callback answers: %+v", answers)
	}

	// A click naming a message of another chat (a forged or stale
	// callback) is refused, but acknowledged: a 400 would only make
	// Telegram redeliver it.
	other := strings.ReplaceAll(click(63, "cq-c"), `"id":1001`, `"id":2002`)
	other = strings.Replace(other, data, markup.InlineKeyboard[1][0].CallbackData, 1)
	if code, out := b.post(t, testSecret, other); code != http.StatusOK || out["ignored"] != true {
		t.Fatalf("a click from another chat: %d %v; want 200, ignored", code, out)
	}
	if last := b.api.Calls("answerCallbackQuery")[3]; last.Form["text"] == "" {
		t.Fatalf("a refused click was answered without a reason: %+v", last)
	}
	if n := b.count(t, "kind = 'button'"); n != 1 {
		t.Fatalf("%d button events; want 1", n)
	}
}

// botReply stores a visible bot message in the chat's conversation, as a
// finished turn would, and returns its id.
func (b *testBundle) botReply(t *testing.T, chat string, out hearth.Outbound) int64 {
	t.Helper()
	return pipelinetest.BotReply(t, b.store, hearth.ChannelTelegram, chat, chat, out)
}

func TestSendErrors(t *testing.T) {
	t.Parallel()
	api := telegramtest.NewServer(t)
	tg, err := telegram.New(context.Background(), telegram.Config{Token: telegramtest.Token, APIURL: api.URL})
	if err != nil {
		t.Fatal(err)
	}
	d := hearth.Delivery{MessageID: 9, ConversationKey: "1001", Text: "hello"}
	tests := []struct {
		name, answer string
		permanent    bool
		contains     string
	}{
		{"blocked", `{"ok":false,"error_code":403,"description":"Forbidden: bot was blocked by the user"}`, true, "blocked"},
		{"chat not found", `{"ok":false,"error_code":400,"description":"Bad Request: chat not found"}`, true, "chat not found"},
		{"upgraded group", `{"ok":false,"error_code":400,"description":"Bad Request: group chat was upgraded to a supergroup chat","parameters":{"migrate_to_chat_id":-1009}}`, true, "-1009"},
		{"rate limited", `{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 7","parameters":{"retry_after":7}}`, false, "retry after 7s"},
		{"server error", `{"ok":false,"error_code":500,"description":"Internal Server Error"}`, false, "500"},
	}
	for _, tt := range tests {
		api.Fail("sendMessage", tt.answer)
		_, err := tg.Send(context.Background(), d)
		if err == nil || errors.Is(err, hearth.ErrPermanent) != tt.permanent || !strings.Contains(err.Error(), tt.contains) {
			t.Errorf("%s: %v; want permanent=%v containing %q", tt.name, err, tt.permanent, tt.contains)
		}
		// The deliver worker waits what Telegram asked, not its own backoff.
		var ra *hearth.RetryAfterError
		if limited := errors.As(err, &ra); limited != (tt.name == "rate limited") || limited && ra.After != 7*time.Second {
			t.Errorf("%s: %v; a rate limit must carry its retry_after (7s)", tt.name, err)
		}
	}
	before := len(api.Calls("sendMessage"))
	long := hearth.Delivery{MessageID: 9, ConversationKey: "1001", Text: "pick", Buttons: []hearth.Button{{ID: strings.Repeat("x", 70), Label: "X"}}}
	if _, err := tg.Send(context.Background(), long); !errors.Is(err, hearth.ErrPermanent) {
		t.Errorf("a button id too long for callback data: %v; want permanent", err)
	}
	if len(api.Calls("sendMessage")) != before {
		t.Error("a message with an unencodable button was sent")
	}
}

func TestDatabaseDownIs503(t *testing.T) {
	t.Parallel()
	dbURL := storetest.NewDatabase(t)
	proxy, proxied := storetest.NewProxy(t, dbURL)
	b := setup(t, proxied)
	proxy.Cut()
	code, out := b.post(t, testSecret, privateText(70, 1001, "anyone home?"))
	if code != http.StatusServiceUnavailable {
		t.Fatalf("with the database down: %d %v; want 503", code, out)
	}
	proxy.Restore()

	pipelinetest.AssertNothingStored(t, dbURL)
	if code, _ := b.post(t, testSecret, privateText(70, 1001, "anyone home?")); code != http.StatusOK {
		t.Fatalf("Telegram's retry after the database came back: %d; want 200", code)
	}
}

func TestPoll(t *testing.T) {
	t.Parallel()
	b := setup(t, "")
	b.api.Queue(privateText(80, 1001, "hello from polling"))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.tg.Poll(ctx) }()
	// Each getUpdates the poller makes is a moment to look again: the
	// update is stored before the poller asks past it.
	for n := 1; b.count(t, "external_id = 'update:80'") == 0; n++ {
		b.api.WaitCalls(t, "getUpdates", n)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("poll: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Poll did not return after its context ended")
	}
	if len(b.api.Calls("deleteWebhook")) != 1 {
		t.Fatal("Poll did not remove the webhook first")
	}
	if n := b.count(t, "true"); n != 1 {
		t.Fatalf("%d events; want 1", n)
	}
}

func TestSetWebhook(t *testing.T) {
	t.Parallel()
	b := setup(t, "")
	ctx := context.Background()
	if err := b.tg.SetWebhook(ctx, "https://hearth.example.org/", testSecret); err != nil {
		t.Fatal(err)
	}
	calls := b.api.Calls("setWebhook")
	if len(calls) != 1 || calls[0].Form["url"] != "https://hearth.example.org/telegram/webhook" || calls[0].Form["secret_token"] != testSecret ||
		!strings.Contains(calls[0].Form["allowed_updates"], "callback_query") {
		t.Fatalf("setWebhook requests: %+v", calls)
	}
	for _, bad := range []struct{ url, secret string }{
		{"https://hearth.example.org", "other-secret"},
		{"https://hearth.example.org", "has spaces"},
		{"hearth.example.org", testSecret},
	} {
		if err := b.tg.SetWebhook(ctx, bad.url, bad.secret); err == nil {
			t.Errorf("SetWebhook(%q, %q) succeeded", bad.url, bad.secret)
		}
	}
}

// A reply's Markdown reaches Telegram as escaped HTML with parse_mode HTML,
// which the fake parses as Telegram does; an edit is rendered the same way.
func TestSendRendersMarkdown(t *testing.T) {
	t.Parallel()
	api := telegramtest.NewServer(t)
	tg, err := telegram.New(context.Background(), telegram.Config{Token: telegramtest.Token, APIURL: api.URL})
	if err != nil {
		t.Fatal(err)
	}
	const text = "**Today**\n- 9:00 AM Dentist & <checkup>, *bring* `card`\nSee [the plan](https://x.test/p?a=1&b=2)"
	const want = "<b>Today</b>\n• 9:00 AM Dentist &amp; &lt;checkup&gt;, <i>bring</i> <code>card</code>\nSee <a href=\"https://x.test/p?a=1&amp;b=2\">the plan</a>"
	if _, err := tg.Send(context.Background(), hearth.Delivery{MessageID: 9, ConversationKey: "1001", Text: text}); err != nil {
		t.Fatalf("send: %v", err)
	}
	if err := tg.Edit(context.Background(), hearth.Delivery{MessageID: 9, ConversationKey: "1001", PlatformMessageID: "42", Text: text}); err != nil {
		t.Fatalf("edit: %v", err)
	}
	for _, method := range []string{"sendMessage", "editMessageText"} {
		sent := api.Calls(method)
		if len(sent) != 1 || sent[0].Form["parse_mode"] != "HTML" || sent[0].Form["text"] != want {
			t.Errorf("%s requests: %+v; want parse_mode HTML and %q", method, sent, want)
		}
	}
}

// An over-long message is not stored; Telegram gets a 200 (a 400 would
// only make it redeliver) and the writer a short reply with the limit,
// whether it came by webhook or by polling.
func TestOverLongMessageGetsTheLimit(t *testing.T) {
	t.Parallel()
	b := setup(t, "")
	long := strings.Repeat("word ", pipeline.MaxTextBytes/5+1)
	limit := strconv.Itoa(pipeline.MaxTextBytes)
	code, out := b.post(t, testSecret, privateText(90, 1001, long))
	if code != http.StatusOK || out["ignored"] != true {
		t.Fatalf("webhook: %d %v; want 200, ignored", code, out)
	}
	sent := b.api.WaitCalls(t, "sendMessage", 1)
	if sent[0].Form["chat_id"] != "1001" || !strings.Contains(sent[0].Form["text"], limit) {
		t.Fatalf("reply %+v; want one to 1001 stating the limit %s", sent[0].Form, limit)
	}

	b.api.Queue(privateText(91, 1002, long))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.tg.Poll(ctx) }()
	sent = b.api.WaitCalls(t, "sendMessage", 2)
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("poll: %v", err)
	}
	if sent[1].Form["chat_id"] != "1002" || !strings.Contains(sent[1].Form["text"], limit) {
		t.Fatalf("polled reply %+v; want one to 1002 stating the limit %s", sent[1].Form, limit)
	}
	if n := b.count(t, "true"); n != 0 {
		t.Fatalf("%d events stored; want none", n)
	}
}
