package main

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	slackadapter "github.com/hearthbot/hearth/adapters/slack"
	"github.com/hearthbot/hearth/adapters/slack/slackfake"
)

// A Slack user talks to Hearth through the Events API as `bot serve` wires
// it: a signed DM is answered over chat.postMessage, a redelivered event is
// answered once, and a forged one is refused.
func TestSlackEndToEnd(t *testing.T) {
	t.Parallel()
	api := slackfake.NewServer(t)
	const secret = "slack-signing-secret"
	base, app, _ := startAppWith(t, func(c *Config) {
		c.SlackBotToken, c.SlackSigningSecret, c.SlackAPIURL = "xoxb-test", secret, api.URL()
	})
	post := func(body, sig string) int {
		t.Helper()
		ts := strconv.FormatInt(time.Now().Unix(), 10)
		if sig == "" {
			mac := hmac.New(sha256.New, []byte(secret))
			fmt.Fprintf(mac, "v0:%s:%s", ts, body)
			sig = "v0=" + hex.EncodeToString(mac.Sum(nil))
		}
		req, _ := http.NewRequest("POST", base+slackadapter.EventsPath, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Slack-Request-Timestamp", ts)
		req.Header.Set("X-Slack-Signature", sig)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	event := `{"token":"x","team_id":"T1","api_app_id":"A1","type":"event_callback","event_id":"Ev1","event_time":1700000000,` +
		`"event":{"type":"message","channel":"D123","channel_type":"im","user":"U1","text":"hello","ts":"1700000000.000200"}}`
	for range 3 { // Slack retries; one answer
		if code := post(event, ""); code != 200 {
			t.Fatalf("signed event: %d", code)
		}
	}
	api.WaitCalls(t, "chat.postMessage", 1)
	// Slack knows the user's zone (users.info tz), so Hearth does not ask.
	sent := api.Calls("chat.postMessage")
	if len(sent) != 1 || sent[0].Form.Get("channel") != "D123" || strings.Contains(sent[0].Form.Get("blocks")+sent[0].Form.Get("text"), "time zone") {
		t.Fatalf("posted %+v; want an answer, not the time-zone question", sent)
	}
	if n := len(api.Calls("users.info")); n != 1 {
		t.Fatalf("%d users.info calls on first contact; want 1", n)
	}
	// ... and the user's name, so Hearth does not call them "Slack user U…".
	if c, err := app.Store.FindContact(context.Background(), hearth.ChannelSlack, "U1", "D123"); err != nil || c.User.DisplayName != "Ann Lee" || c.User.Timezone != "Europe/Berlin" {
		t.Fatalf("stored user %+v (%v); want Ann Lee in Europe/Berlin from users.info", c.User, err)
	}

	// An approval over Slack: Approve is clicked through interactivity,
	// and the prompt is updated in place (chat.update) without buttons.
	say := func(id, text string) {
		t.Helper()
		before := len(api.Calls("chat.postMessage"))
		ev := strings.NewReplacer("Ev1", id, `"text":"hello"`, fmt.Sprintf("%q:%q", "text", text)).Replace(event)
		if code := post(ev, ""); code != 200 {
			t.Fatalf("event %s: %d", id, code)
		}
		api.WaitCalls(t, "chat.postMessage", before+1)
	}
	say("Ev3", "hi again")
	if n := len(api.Calls("users.info")); n != 1 {
		t.Fatalf("%d users.info calls; a known zone must not be looked up again", n)
	}
	say("Ev4", "Email sarah@example.com that I'll be late")
	blocks := api.Calls("chat.postMessage")[len(api.Calls("chat.postMessage"))-1].Form.Get("blocks")
	var parsed []struct {
		Elements []struct {
			Text  struct{ Text string } `json:"text"`
			Value string                `json:"value"`
		} `json:"elements"`
	}
	if err := json.Unmarshal([]byte(blocks), &parsed); err != nil {
		t.Fatalf("blocks %q: %v", blocks, err)
	}
	approve := ""
	for _, b := range parsed {
		for _, e := range b.Elements {
			if e.Text.Text == "Approve" {
				approve = e.Value
			}
		}
	}
	if approve == "" {
		t.Fatalf("no Approve button in %s", blocks)
	}
	payload := fmt.Sprintf(`{"type":"block_actions","user":{"id":"U1"},"channel":{"id":"D123"},"container":{"channel_id":"D123","message_ts":"1700000000.000100"},"actions":[{"action_id":"a1","block_id":"b1","type":"button","value":%q}]}`, approve)
	form := "payload=" + url.QueryEscape(payload)
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "v0:%s:%s", ts, form)
	req, _ := http.NewRequest("POST", base+slackadapter.InteractionsPath, strings.NewReader(form))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Slack-Request-Timestamp", ts)
	req.Header.Set("X-Slack-Signature", "v0="+hex.EncodeToString(mac.Sum(nil)))
	posted := len(api.Calls("chat.postMessage"))
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != 200 {
		t.Fatalf("click: %v %v", res, err)
	}
	api.WaitCalls(t, "chat.update", 1)
	api.WaitCalls(t, "chat.postMessage", posted+1) // "Done! I sent …"
	if up := api.Calls("chat.update")[0].Form; !strings.Contains(up.Get("text"), "Approved") || strings.Contains(up.Get("blocks"), "Approve\"") {
		t.Fatalf("update %v; want the outcome and no buttons", up)
	}

	if code := post(strings.Replace(event, "Ev1", "Ev2", 1), "v0=forged"); code != http.StatusUnauthorized {
		t.Fatalf("forged signature: %d; want 401", code)
	}

	// A user without a zone in their Slack profile is asked for one.
	api.SetTimezone("")
	before := len(api.Calls("chat.postMessage"))
	if code := post(strings.NewReplacer("Ev1", "Ev5", `"user":"U1"`, `"user":"U2"`, "D123", "D124").Replace(event), ""); code != 200 {
		t.Fatalf("event from U2: %d", code)
	}
	api.WaitCalls(t, "chat.postMessage", before+1)
	if r := api.Calls("chat.postMessage")[before].Form.Get("text"); !strings.Contains(r, "time zone") {
		t.Fatalf("reply to a user without a Slack zone %q; want the time-zone question", r)
	}
}
