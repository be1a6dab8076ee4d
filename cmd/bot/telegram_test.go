package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/hearthbot/hearth/adapters/telegram"
	"github.com/hearthbot/hearth/adapters/telegram/telegramtest"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/pipeline/pipelinetest"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// A Telegram user talks to Hearth through the webhook, as wired by `bot
// serve`: the bot asks for a time zone (Telegram gives none), stores it,
// and answers the next request; a redelivered update changes nothing.
func TestTelegramEndToEnd(t *testing.T) {
	t.Parallel()
	api := telegramtest.NewServer(t)
	const secret = "s3cret-token"
	base, app, _ := startAppWith(t, func(c *Config) {
		c.TelegramToken, c.TelegramAPIURL, c.TelegramWebhookSecret = telegramtest.Token, api.URL, secret
		c.PublicURL = "https://hearth.example.test"
	})
	api.WaitCalls(t, "setWebhook", 1) // Run registers the webhook as it starts
	if hooks := api.Calls("setWebhook"); len(hooks) != 1 || hooks[0].Form["url"] != "https://hearth.example.test"+telegram.WebhookPath || hooks[0].Form["secret_token"] != secret {
		t.Fatalf("setWebhook calls %+v", hooks)
	}

	update := 0
	say := func(text string) string {
		t.Helper()
		update++
		body := fmt.Sprintf(`{"update_id":%d,"message":{"message_id":%d,"date":1700000000,"chat":{"id":555,"type":"private"},"from":{"id":555,"is_bot":false,"first_name":"Tess"},"text":%q}}`, update, update, text)
		before := len(api.Calls("sendMessage"))
		for range 2 { // Telegram may deliver an update twice
			req, _ := http.NewRequest("POST", base+telegram.WebhookPath, strings.NewReader(body))
			req.Header.Set(telegram.SecretHeader, secret)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != 200 {
				t.Fatalf("webhook answered %d", res.StatusCode)
			}
		}
		api.WaitCalls(t, "sendMessage", before+1)
		sent := api.Calls("sendMessage")
		if len(sent) != before+1 {
			t.Fatalf("%d replies to one (twice delivered) message", len(sent)-before)
		}
		if sent[before].Form["chat_id"] != "555" {
			t.Fatalf("reply went to chat %q", sent[before].Form["chat_id"])
		}
		return sent[before].Form["text"]
	}

	if r := say("hello"); !strings.Contains(r, "time zone") {
		t.Fatalf("first reply %q does not ask for a time zone", r)
	}
	if r := say("Europe/Berlin"); !strings.Contains(r, "Europe/Berlin") {
		t.Fatalf("zone reply %q", r)
	}
	if r := say("Remind me to call mom tomorrow at 5pm"); !strings.Contains(r, "Call mom") {
		t.Fatalf("task reply %q", r)
	}
	// Telegram commands dispatch to the registry by name; the menu set at
	// start-up is generated from it and lists no hidden command.
	if r := say("/briefing"); !strings.Contains(r, "Deadlines") || !strings.Contains(r, "Call mom") {
		t.Fatalf("/briefing reply %q", r)
	}
	if r := say("/help"); !strings.Contains(r, "/briefing") || !strings.Contains(r, "/link [CODE]") || strings.Contains(r, "/approve") {
		t.Fatalf("/help reply %q", r)
	}
	menu := api.Calls("setMyCommands")
	if len(menu) != 1 || !strings.Contains(menu[0].Form["commands"], `"command":"briefing"`) || strings.Contains(menu[0].Form["commands"], "approve") {
		t.Fatalf("setMyCommands calls %+v", menu)
	}

	// Without a transcription provider, a voice note gets a reply saying how
	// to set one up instead of silence.
	update++
	voice := fmt.Sprintf(`{"update_id":%d,"message":{"message_id":%d,"date":1700000000,"chat":{"id":555,"type":"private"},"from":{"id":555,"is_bot":false,"first_name":"Tess"},"voice":{"file_id":"v","file_unique_id":"v","duration":2}}}`, update, update)
	before := len(api.Calls("sendMessage"))
	req, _ := http.NewRequest("POST", base+telegram.WebhookPath, strings.NewReader(voice))
	req.Header.Set(telegram.SecretHeader, secret)
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != 200 {
		t.Fatalf("voice note: %v %v", res, err)
	}
	api.WaitCalls(t, "sendMessage", before+1)
	if r := api.Calls("sendMessage")[before].Form["text"]; !strings.Contains(r, "voice notes are not set up") || !strings.Contains(r, "HEARTH_TRANSCRIBE") {
		t.Fatalf("voice note reply %q", r)
	}

	// Approve with a button: the prompt is edited to show the outcome, its
	// keyboard gone, and the confirmation follows.
	say("Email sarah@example.com that I'll be late")
	// A prompt can be edited once its delivery has kept Telegram's id for
	// it, just after the send: a user clicks what has arrived, and the
	// test waits for that moment too (it raced it, now and then, in CI).
	pipelinetest.WaitForJobs(t, app.River, "the prompt's delivery recorded", func() bool {
		res, err := app.River.JobList(context.Background(), river.NewJobListParams().Queues(pipeline.QueueDeliveries).
			States(rivertype.JobStateAvailable, rivertype.JobStateRunning, rivertype.JobStateRetryable, rivertype.JobStatePending).First(1))
		return err == nil && len(res.Jobs) == 0
	})
	prompt := api.Calls("sendMessage")[len(api.Calls("sendMessage"))-1]
	var kb struct {
		Rows [][]struct {
			Text string `json:"text"`
			Data string `json:"callback_data"`
		} `json:"inline_keyboard"`
	}
	if err := json.Unmarshal([]byte(prompt.Form["reply_markup"]), &kb); err != nil || len(kb.Rows) == 0 || kb.Rows[0][0].Text != "Approve" {
		t.Fatalf("approval keyboard %q (%v)", prompt.Form["reply_markup"], err)
	}
	update++
	click := fmt.Sprintf(`{"update_id":%d,"callback_query":{"id":"cb1","from":{"id":555,"is_bot":false,"first_name":"Tess"},"chat_instance":"x","data":%q,"message":{"message_id":42,"date":1700000000,"chat":{"id":555,"type":"private"}}}}`, update, kb.Rows[0][0].Data)
	before = len(api.Calls("sendMessage"))
	// A double click is two callback queries (two updates): one action.
	doubleClick := strings.NewReplacer(fmt.Sprintf(`"update_id":%d`, update), fmt.Sprintf(`"update_id":%d`, update+1), `"id":"cb1"`, `"id":"cb2"`).Replace(click)
	update++
	for i, body := range []string{click, doubleClick} {
		req, _ := http.NewRequest("POST", base+telegram.WebhookPath, strings.NewReader(body))
		req.Header.Set(telegram.SecretHeader, secret)
		res, err := http.DefaultClient.Do(req)
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("click %d: %v %v", i+1, res, err)
		}
		var ack struct {
			Duplicate bool `json:"duplicate"`
		}
		json.NewDecoder(res.Body).Decode(&ack) //nolint:errcheck // checked below
		res.Body.Close()
		if ack.Duplicate != (i == 1) {
			t.Fatalf("click %d acknowledged with duplicate=%v", i+1, ack.Duplicate)
		}
	}
	api.WaitCalls(t, "editMessageText", 1)
	api.WaitCalls(t, "sendMessage", before+1)
	if len(api.Calls("editMessageText")) != 1 || len(api.Calls("sendMessage")) != before+1 {
		t.Fatalf("a double click made %d edits and %d messages; want one of each", len(api.Calls("editMessageText")), len(api.Calls("sendMessage"))-before)
	}
	edit := api.Calls("editMessageText")[0]
	if edit.Form["message_id"] != "42" || !strings.Contains(edit.Form["text"], "Approved") || edit.Form["reply_markup"] != "" {
		t.Fatalf("edit %+v; want message 42 showing the outcome without a keyboard", edit.Form)
	}

	req, _ = http.NewRequest("POST", base+telegram.WebhookPath, strings.NewReader(`{"update_id":99}`))
	req.Header.Set(telegram.SecretHeader, "wrong")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a wrong secret got %d; want 401", res.StatusCode)
	}
}

// Without a public URL, `bot serve` long-polls Telegram, and shutdown stops
// the poller.
func TestTelegramLongPolling(t *testing.T) {
	t.Parallel()
	api := telegramtest.NewServer(t)
	_, _, stop := startAppWith(t, func(c *Config) {
		c.TelegramToken, c.TelegramAPIURL = telegramtest.Token, api.URL
	})
	api.Queue(`{"update_id":1,"message":{"message_id":1,"date":1700000000,"chat":{"id":77,"type":"private"},"from":{"id":77,"is_bot":false,"first_name":"Pol"},"text":"hi"}}`)
	api.WaitCalls(t, "sendMessage", 1)
	if sent := api.Calls("sendMessage"); sent[0].Form["chat_id"] != "77" || !strings.Contains(sent[0].Form["text"], "time zone") {
		t.Fatalf("reply %+v", sent[0].Form)
	}
	stop() // fails the test unless Run returns nil in time, poller included
}
