package telegram_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hearthbot/hearth/adapters/telegram"
	"github.com/hearthbot/hearth/adapters/telegram/telegramtest"
	"github.com/hearthbot/hearth/pipeline/pipelinetest"
)

// BenchmarkWebhookIngress measures one webhook request from a known user,
// verify → store + enqueue → 200, for a text message and for a voice note
// (whose audio reference is stored; nothing is downloaded at ingress).
// Sequential, so it is the latency of one acknowledgement.
//
//	go test -run NONE -bench WebhookIngress -benchtime 2000x ./adapters/telegram
func BenchmarkWebhookIngress(b *testing.B) {
	_, inbox := pipelinetest.NewInbox(b, "")
	api := telegramtest.NewServer(b)
	tg, err := telegram.New(context.Background(), telegram.Config{Token: telegramtest.Token, APIURL: api.URL, WebhookSecret: testSecret, Inbox: inbox})
	if err != nil {
		b.Fatal(err)
	}
	bodies := map[string]func(id int) string{
		"text": func(id int) string { return privateText(int64(id), 4242, "add oat milk to my shopping list") },
		"voice": func(id int) string {
			return fmt.Sprintf(`{"update_id":%d,"message":{"message_id":%d,"date":1700000000,"from":{"id":4242,"is_bot":false,"first_name":"Ann"},`+
				`"chat":{"id":4242,"type":"private"},"voice":{"file_id":"f%d","file_unique_id":"u%d","duration":4,"mime_type":"audio/ogg","file_size":9000}}}`, id, id, id, id)
		},
	}
	next := 1
	post := func(body string) {
		req := httptest.NewRequest(http.MethodPost, telegram.WebhookPath, strings.NewReader(body))
		req.Header.Set(telegram.SecretHeader, testSecret)
		rec := httptest.NewRecorder()
		tg.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), `"duplicate":true`) {
			b.Fatalf("%d %s", rec.Code, rec.Body)
		}
	}
	post(bodies["text"](next)) // the user and the chat exist from here on
	next++
	for _, kind := range []string{"text", "voice"} {
		b.Run(kind, func(b *testing.B) {
			for b.Loop() {
				post(bodies[kind](next))
				next++
			}
		})
	}
}
