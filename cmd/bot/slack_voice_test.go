package main

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	slackadapter "github.com/hearthbot/hearth/adapters/slack"
	"github.com/hearthbot/hearth/adapters/slack/slackfake"
	"github.com/hearthbot/hearth/adapters/telegram/telegramtest"
)

// waitPosts waits until the fake has n chat.postMessage calls and returns
// the text and blocks of the last.
func waitPosts(t *testing.T, app *App, api *slackfake.Server, n int) string {
	t.Helper()
	api.WaitCalls(t, "chat.postMessage", n)
	f := api.Calls("chat.postMessage")[n-1].Form
	return f.Get("text") + f.Get("blocks")
}

// Socket Mode as `bot serve` runs it with an app token: the client opens
// a connection (apps.connections.open), each events_api envelope is
// acknowledged by its envelope_id once the event is stored, the event is
// answered through the same durable path, and a redelivered envelope
// (Slack's retry of the same event) is acknowledged and answered once.
func TestSlackSocketMode(t *testing.T) {
	t.Parallel()
	api := slackfake.NewServer(t)
	_, app, _ := startAppWith(t, func(c *Config) {
		c.SlackBotToken, c.SlackAppToken, c.SlackAPIURL = "xoxb-test", "xapp-test", api.URL()
	})
	envelope := func(envelopeID string, retry int) string {
		return fmt.Sprintf(`{"envelope_id":%q,"type":"events_api","accepts_response_payload":false,"retry_attempt":%d,"retry_reason":"","payload":`+
			`{"team_id":"T1","api_app_id":"A1","type":"event_callback","event_id":"EvSock1","event_time":1700000000,`+
			`"event":{"type":"message","channel":"D777","channel_type":"im","user":"U7","text":"hello over the socket","ts":"1700000000.000300"}}}`, envelopeID, retry)
	}
	waitAck := func(envelopeID string) {
		t.Helper()
		deadline := time.NewTimer(20 * time.Second)
		defer deadline.Stop()
		for {
			for _, a := range api.Acks() {
				if a.EnvelopeID == envelopeID {
					return
				}
			}
			select {
			case <-api.AckSignal():
			case <-deadline.C:
				t.Fatalf("envelope %s was never acknowledged (acks %+v)", envelopeID, api.Acks())
			}
		}
	}
	api.SendEnvelope(envelope("env-1", 0))
	waitAck("env-1")
	if r := waitPosts(t, app, api, 1); api.Calls("chat.postMessage")[0].Form.Get("channel") != "D777" || r == "" {
		t.Fatalf("reply %q to %v", r, api.Calls("chat.postMessage")[0].Form)
	}
	api.SendEnvelope(envelope("env-2", 1))
	waitAck("env-2")
	// The redelivery is acknowledged; a third, fresh event is answered
	// after it, so a second answer to the first would already be there.
	api.SendEnvelope(strings.NewReplacer("EvSock1", "EvSock2", "hello over the socket", "Europe/Paris").Replace(envelope("env-3", 0)))
	waitAck("env-3")
	waitPosts(t, app, api, 2)
	if n := len(api.Calls("chat.postMessage")); n != 2 {
		t.Fatalf("%d replies to two events (one delivered twice)", n)
	}
	if api.Connections() < 1 {
		t.Fatal("apps.connections.open was never called")
	}
	// A slash command over the socket is answered in its ack.
	api.SendEnvelope(`{"envelope_id":"env-cmd","type":"slash_commands","accepts_response_payload":true,"payload":` +
		`{"command":"/hearth","text":"help","user_id":"U7","channel_id":"D777","trigger_id":"tr-sock"}}`)
	waitAck("env-cmd")
	for _, a := range api.Acks() {
		if a.EnvelopeID == "env-cmd" && (!strings.Contains(string(a.Payload), "ephemeral") || !strings.Contains(string(a.Payload), "/hearth link")) {
			t.Fatalf("ack of /hearth help: %s", a.Payload)
		}
	}
}

// A Slack audio clip (a file_share message) is transcribed like a
// Telegram voice note: the signed event stores the file's reference, and
// the turn downloads url_private_download with the bot token, sends it
// to the transcription server, and answers with what it heard.
func TestSlackAudioClip(t *testing.T) {
	t.Parallel()
	ogg, err := os.ReadFile("../../adapters/voice/testdata/voice.ogg")
	if err != nil {
		t.Fatal(err)
	}
	const heard = "Remember that the plumber comes on Friday"
	whisper := newFakeWhisper(t, heard, ogg, 0)
	api := slackfake.NewServer(t)
	clip := api.AddFile("F123/audio_message.ogg", ogg)
	const secret = "slack-signing-secret"
	base, app, _ := startAppWith(t, func(c *Config) {
		c.SlackBotToken, c.SlackSigningSecret, c.SlackAPIURL = "xoxb-test", secret, api.URL()
		c.Transcribe, c.TranscribeURL = "openai", whisper.srv.URL+"/v1"
	})
	body := fmt.Sprintf(`{"type":"event_callback","event_id":"EvClip","event_time":1700000000,"event":{"type":"message","subtype":"file_share",`+
		`"channel":"D888","channel_type":"im","user":"U8","text":"","ts":"1700000000.000400","files":[{"id":"F123","name":"audio_message.ogg",`+
		`"mimetype":"audio/ogg","subtype":"slack_audio","size":%d,"url_private":%q,"url_private_download":%q}]}}`, len(ogg), clip, clip)
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "v0:%s:%s", ts, body)
	req, _ := http.NewRequest("POST", base+slackadapter.EventsPath, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Slack-Request-Timestamp", ts)
	req.Header.Set("X-Slack-Signature", "v0="+hex.EncodeToString(mac.Sum(nil)))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("event: %d", res.StatusCode)
	}
	r := waitPosts(t, app, api, 1)
	if !strings.Contains(r, "Heard:") || !strings.Contains(r, heard) {
		t.Fatalf("reply %q", r)
	}
	dl := api.Calls("files.download")
	if len(dl) != 1 || dl[0].Form.Get("authorization") != "Bearer xoxb-test" {
		t.Fatalf("downloads %+v; want one with the bot token", dl)
	}
	c, err := app.Store.FindContact(context.Background(), "slack", "U8", "D888")
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := app.Store.RecentMessages(context.Background(), c.ConversationID, 10)
	if err != nil || len(msgs) == 0 || msgs[0].Text != heard {
		t.Fatalf("transcript %+v (%v); want the clip's words as the user's line", msgs, err)
	}
}

// `/hearth link` in the Slack DM gives the same one-time code as "/link"
// in any chat, and sending that code from Telegram joins the two.
func TestSlackLinkCommand(t *testing.T) {
	t.Parallel()
	api := slackfake.NewServer(t)
	tg := telegramtest.NewServer(t)
	const secret, tgSecret = "slack-signing-secret", "tg-secret"
	base, app, _ := startAppWith(t, func(c *Config) {
		c.SlackBotToken, c.SlackSigningSecret, c.SlackAPIURL = "xoxb-test", secret, api.URL()
		c.TelegramToken, c.TelegramAPIURL, c.TelegramWebhookSecret = telegramtest.Token, tg.URL, tgSecret
		c.PublicURL = "https://hearth.example.test"
	})
	form := url.Values{"command": {"/hearth"}, "text": {"link"}, "user_id": {"U5"}, "user_name": {"lee"},
		"channel_id": {"D555"}, "channel_name": {"directmessage"}, "trigger_id": {"trig-1"}}.Encode()
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "v0:%s:%s", ts, form)
	req, _ := http.NewRequest("POST", base+slackadapter.CommandsPath, strings.NewReader(form))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Slack-Request-Timestamp", ts)
	req.Header.Set("X-Slack-Signature", "v0="+hex.EncodeToString(mac.Sum(nil)))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("/hearth link: %d", res.StatusCode)
	}
	reply := waitPosts(t, app, api, 1)
	code := regexp.MustCompile(`[A-Z2-9]{4}-?[A-Z2-9]{4}`).FindString(reply)
	if code == "" || api.Calls("chat.postMessage")[0].Form.Get("channel") != "D555" {
		t.Fatalf("no link code in %q", reply)
	}
	chat := &telegramChat{t: t, app: app, base: base, api: tg, secret: tgSecret}
	chat.send(fmt.Sprintf(`"text":%q`, code))
	if r := chat.reply(0); !strings.Contains(r, "Linked") {
		t.Fatalf("Telegram reply to the code: %q", r)
	}
}
