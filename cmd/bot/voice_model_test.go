package main

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/hearthbot/hearth/adapters/telegram/telegramtest"
	"github.com/hearthbot/hearth/pipeline/llm/llmtest"
)

// hear makes the fake transcription server hear text from now on.
func (f *fakeWhisper) hear(text string) {
	f.mu.Lock()
	f.heard = text
	f.mu.Unlock()
}

// A voice note's transcript is classified with a higher bar before the
// model decides (HEARTH_LLM_SPOKEN_CONFIDENT): words the offline
// classifier reads at about 0.92 are left to it when typed, and sent to
// the fast model when spoken; a transcript it is sure of is not. End to
// end: Telegram voice notes, the fake transcription server and the fake
// OpenAI-compatible model (llmtest) through the real clients.
func TestSpokenTurnsAskTheModelSooner(t *testing.T) {
	t.Parallel()
	ogg, err := os.ReadFile("../../adapters/voice/testdata/voice.ogg")
	if err != nil {
		t.Fatal(err)
	}
	whisper := newFakeWhisper(t, "", ogg, 0)
	api := telegramtest.NewServer(t)
	api.AddFile("voice-1", ogg)
	api.AddFile("voice-2", ogg)
	b := newBrain(t)
	var mu sync.Mutex
	var classified []string
	b.set(func(c llmtest.Call) (llmtest.Answer, bool) {
		if strings.HasPrefix(c.System, "You classify") {
			mu.Lock()
			classified = append(classified, message(c.User))
			mu.Unlock()
		}
		return llmtest.Answer{}, false // the brain's usual answer
	})
	asked := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), classified...)
	}
	const secret = "spoken-secret"
	base, app, _ := startModelApp(t, b, func(c *Config) {
		c.TelegramToken, c.TelegramAPIURL, c.TelegramWebhookSecret = telegramtest.Token, api.URL, secret
		c.PublicURL = "https://hearth.example.test"
		c.Transcribe, c.TranscribeURL, c.TranscribeModel = "openai", whisper.srv.URL+"/v1", "whisper-1"
		c.LLMConfident, c.LLMSpokenConfident = 0.8, 0.95
	})
	chat := &telegramChat{t: t, app: app, base: base, api: api, secret: secret}
	chat.send(`"text":"Europe/Berlin"`)
	chat.reply(0)
	before := asked()

	const unsure = "wake me up at seven"
	chat.send(`"text":"` + unsure + `"`)
	chat.reply(1)
	if got := asked(); len(got) != len(before) {
		t.Fatalf("typed %q asked the model (%q): the offline classifier is sure enough of typed words", unsure, got)
	}
	conf := lastTraceConfidence(t, app)
	if conf < 0.8 || conf >= 0.95 {
		t.Fatalf("offline confidence %.3f for %q: the test needs one between the two thresholds", conf, unsure)
	}

	whisper.hear(unsure)
	chat.send(fmt.Sprintf(`"voice":{"file_id":"voice-1","file_unique_id":"v1","duration":2,"mime_type":"audio/ogg","file_size":%d}`, len(ogg)))
	if r := chat.reply(2); !strings.HasPrefix(r, `Heard: "`+unsure+`"`) {
		t.Fatalf("voice reply %q", r)
	}
	if got := asked(); len(got) != len(before)+1 || got[len(got)-1] != unsure {
		t.Fatalf("the model classified %q; want the spoken %q once", got, unsure)
	}

	const sure = "remind me to call the bank friday"
	whisper.hear(sure)
	chat.send(fmt.Sprintf(`"voice":{"file_id":"voice-2","file_unique_id":"v2","duration":2,"mime_type":"audio/ogg","file_size":%d}`, len(ogg)))
	if r := chat.reply(3); !strings.HasPrefix(r, `Heard: "`+sure+`"`) {
		t.Fatalf("voice reply %q", r)
	}
	if got := asked(); len(got) != len(before)+1 {
		t.Fatalf("the model classified %q; a transcript the offline classifier is sure of needs no model", got)
	}
}

// lastTraceConfidence is the intent confidence of the newest turn trace.
func lastTraceConfidence(t *testing.T, app *App) float64 {
	t.Helper()
	ts, err := app.Store.RecentTraces(t.Context(), 1)
	if err != nil || len(ts) == 0 {
		t.Fatalf("traces %v, %v", ts, err)
	}
	return ts[0].Confidence
}
