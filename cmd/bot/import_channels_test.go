package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	slackadapter "github.com/hearthbot/hearth/adapters/slack"
	"github.com/hearthbot/hearth/adapters/slack/slackfake"
	"github.com/hearthbot/hearth/adapters/telegram/telegramtest"
)

var todoCSV = []byte("Task,Due\nPay rent,2026-12-01\nCall the plumber,\n")

// A Telegram document is an import: the webhook stores its reference,
// the turn downloads it through getFile and answers with the summary.
// Other documents stay unsupported.
func TestTelegramDocumentImport(t *testing.T) {
	t.Parallel()
	api := telegramtest.NewServer(t)
	api.AddFile("doc-1", todoCSV)
	const secret = "doc-secret"
	base, app, _ := startAppWith(t, func(c *Config) {
		c.TelegramToken, c.TelegramAPIURL, c.TelegramWebhookSecret = telegramtest.Token, api.URL, secret
		c.PublicURL = "https://hearth.example.test"
	})
	chat := &telegramChat{t: t, app: app, base: base, api: api, secret: secret}
	chat.send(`"text":"Europe/Berlin"`)
	chat.reply(0)
	chat.send(fmt.Sprintf(`"document":{"file_id":"doc-1","file_unique_id":"d1","file_name":"todo.csv","mime_type":"text/csv","file_size":%d}`, len(todoCSV)))
	if r := chat.reply(1); !strings.Contains(r, "2 new to-dos") || !strings.Contains(r, "Nothing is written until you approve") {
		t.Fatalf("import reply %q", r)
	}
	if dl := api.Calls("download"); len(dl) != 1 || dl[0].Form["file_id"] != "doc-1" {
		t.Fatalf("downloads %+v; want the document once", dl)
	}
	chat.send(`"document":{"file_id":"doc-2","file_unique_id":"d2","file_name":"scan.pdf","mime_type":"application/pdf","file_size":10}`)
	if r := chat.reply(2); !strings.Contains(r, "can't do anything with a file") {
		t.Fatalf("pdf reply %q", r)
	}
}

// A CSV shared in a Slack DM is an import, downloaded with the bot token.
func TestSlackFileImport(t *testing.T) {
	t.Parallel()
	api := slackfake.NewServer(t)
	link := api.AddFile("F9/todo.csv", todoCSV)
	const secret = "slack-signing-secret"
	base, app, _ := startAppWith(t, func(c *Config) {
		c.SlackBotToken, c.SlackSigningSecret, c.SlackAPIURL = "xoxb-test", secret, api.URL()
	})
	body := fmt.Sprintf(`{"type":"event_callback","event_id":"EvFile","event_time":1700000000,"event":{"type":"message","subtype":"file_share",`+
		`"channel":"D9","channel_type":"im","user":"U9","text":"","ts":"1700000000.000500","files":[{"id":"F9","name":"todo.csv",`+
		`"mimetype":"text/csv","size":%d,"url_private":%q,"url_private_download":%q}]}}`, len(todoCSV), link, link)
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
	if r := waitPosts(t, app, api, 1); !strings.Contains(r, "2 new to-dos") {
		t.Fatalf("reply %q", r)
	}
	if dl := api.Calls("files.download"); len(dl) != 1 || dl[0].Form.Get("authorization") != "Bearer xoxb-test" {
		t.Fatalf("downloads %+v; want one with the bot token", dl)
	}
}
