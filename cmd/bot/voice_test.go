package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/hearthbot/hearth/adapters/telegram"
	"github.com/hearthbot/hearth/adapters/telegram/telegramtest"
	"github.com/hearthbot/hearth/pipeline"
)

// fakeWhisper is an OpenAI-compatible /v1/audio/transcriptions server: it
// answers with heard for the project's voice note and counts requests;
// the first failures requests fail with 503.
type fakeWhisper struct {
	srv   *httptest.Server
	heard string
	want  []byte

	mu       sync.Mutex
	requests int
	failures int
	files    []string // file name of each request whose audio was the voice note
}

func newFakeWhisper(t *testing.T, heard string, want []byte, failures int) *fakeWhisper {
	t.Helper()
	f := &fakeWhisper{heard: heard, want: want, failures: failures}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.requests++
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path != "/v1/audio/transcriptions" {
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"error":{"message":"no such endpoint"}}`) //nolint:errcheck // test server
			return
		}
		if f.requests <= f.failures {
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, `{"error":{"message":"warming up"}}`) //nolint:errcheck // test server
			return
		}
		file, h, err := r.FormFile("file")
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"error":{"message":"no file"}}`) //nolint:errcheck // test server
			return
		}
		data, _ := io.ReadAll(file)
		if !bytes.Equal(data, f.want) {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"error":{"message":"not the voice note"}}`) //nolint:errcheck // test server
			return
		}
		f.files = append(f.files, h.Filename)
		json.NewEncoder(w).Encode(map[string]string{"text": f.heard}) //nolint:errcheck // test server
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeWhisper) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests
}

// telegramChat posts updates from one private chat to the webhook and
// waits for Hearth's replies on the fake Bot API.
type telegramChat struct {
	t      *testing.T
	app    *App
	base   string
	api    *telegramtest.Server
	secret string
	update int
}

// send posts an update's message body and returns the event id the
// webhook acknowledged.
func (c *telegramChat) send(message string) int64 {
	c.t.Helper()
	c.update++
	body := fmt.Sprintf(`{"update_id":%d,"message":{"message_id":%d,"date":1700000000,"chat":{"id":901,"type":"private"},"from":{"id":901,"is_bot":false,"first_name":"Vic"},%s}}`, c.update, c.update, message)
	req, _ := http.NewRequest("POST", c.base+telegram.WebhookPath, strings.NewReader(body))
	req.Header.Set(telegram.SecretHeader, c.secret)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	var ack struct {
		EventID int64 `json:"event_id"`
	}
	if err := json.NewDecoder(res.Body).Decode(&ack); err != nil || res.StatusCode != 200 {
		c.t.Fatalf("webhook answered %d (%v)", res.StatusCode, err)
	}
	return ack.EventID
}

// reply waits for the reply after the first n sent messages.
func (c *telegramChat) reply(n int) string {
	c.t.Helper()
	c.api.WaitCalls(c.t, "sendMessage", n+1)
	return c.api.Calls("sendMessage")[n].Form["text"]
}

// A Telegram voice note, end to end as `bot serve` wires it: the webhook
// stores only the file reference; the turn downloads the OGG/Opus file
// through getFile, sends it to the transcription server through the
// OpenAI SDK (which first fails, and the turn is retried), stores the
// transcript with the message, and answers the words with what it heard.
// A note over 20 MB is refused without a download.
func TestTelegramVoiceNote(t *testing.T) {
	t.Parallel()
	ogg, err := os.ReadFile("../../adapters/voice/testdata/voice.ogg")
	if err != nil {
		t.Fatal(err)
	}
	const heard = "Remind me to water the plants tomorrow at 9am"
	whisper := newFakeWhisper(t, heard, ogg, 1)
	api := telegramtest.NewServer(t)
	api.AddFile("voice-1", ogg)
	const secret = "voice-secret"
	base, app, _ := startAppWith(t, func(c *Config) {
		c.TelegramToken, c.TelegramAPIURL, c.TelegramWebhookSecret = telegramtest.Token, api.URL, secret
		c.PublicURL = "https://hearth.example.test"
		c.Transcribe, c.TranscribeURL, c.TranscribeModel = "openai", whisper.srv.URL+"/v1", "whisper-1"
	})
	chat := &telegramChat{t: t, app: app, base: base, api: api, secret: secret}
	chat.send(`"text":"Europe/Berlin"`)
	if r := chat.reply(0); !strings.Contains(r, "Europe/Berlin") {
		t.Fatalf("zone reply %q", r)
	}

	event := chat.send(fmt.Sprintf(`"voice":{"file_id":"voice-1","file_unique_id":"v1","duration":3,"mime_type":"audio/ogg","file_size":%d}`, len(ogg)))
	r := chat.reply(1)
	if !strings.HasPrefix(r, fmt.Sprintf("Heard: %q", heard)) || !strings.Contains(strings.ToLower(r), "water the plants") {
		t.Fatalf("voice reply %q", r)
	}
	if n := whisper.count(); n != 2 {
		t.Fatalf("%d transcription requests; want a failed one and its retry", n)
	}
	if dl := api.Calls("download"); len(dl) != 2 || dl[0].Form["file_id"] != "voice-1" {
		t.Fatalf("downloads %+v; want the note, once per attempt", dl)
	}
	_, transcript, err := app.Store.VoiceNote(context.Background(), event)
	if err != nil || transcript != heard {
		t.Fatalf("stored transcript %q (%v)", transcript, err)
	}

	// Too large: refused from the size Telegram announced, nothing fetched.
	chat.send(`"voice":{"file_id":"voice-big","file_unique_id":"v2","duration":900,"mime_type":"audio/ogg","file_size":25000000}`)
	if r := chat.reply(2); !strings.Contains(r, "larger than 20 MB") {
		t.Fatalf("too-large reply %q", r)
	}
	// Too large as getFile finds out (the size was not announced).
	api.Fail("getFile", `{"ok":false,"error_code":400,"description":"Bad Request: file is too big"}`)
	chat.send(`"voice":{"file_id":"voice-big2","file_unique_id":"v3","duration":900}`)
	if r := chat.reply(3); !strings.Contains(r, "larger than 20 MB") {
		t.Fatalf("too-large reply %q", r)
	}
	if n := whisper.count(); n != 2 || len(api.Calls("download")) != 2 {
		t.Fatalf("a too-large note reached the transcriber (%d requests) or was downloaded", n)
	}
	if sent := api.Calls("sendMessage"); len(sent) != 4 {
		t.Fatalf("%d replies to 4 messages", len(sent))
	}
}

// Without a provider, a voice note is answered with how to set one up.
func TestTelegramVoiceNoteNotSetUp(t *testing.T) {
	t.Parallel()
	api := telegramtest.NewServer(t)
	const secret = "voice-secret"
	base, app, _ := startAppWith(t, func(c *Config) {
		c.TelegramToken, c.TelegramAPIURL, c.TelegramWebhookSecret = telegramtest.Token, api.URL, secret
		c.PublicURL = "https://hearth.example.test"
		c.Transcribe = "none"
	})
	chat := &telegramChat{t: t, app: app, base: base, api: api, secret: secret}
	chat.send(`"voice":{"file_id":"v","file_unique_id":"v","duration":2}`)
	if r := chat.reply(0); !strings.Contains(r, "not set up") || !strings.Contains(r, "HEARTH_TRANSCRIBE") {
		t.Fatalf("reply %q", r)
	}
	if len(api.Calls("getFile")) != 0 {
		t.Fatal("a voice note was downloaded with no provider to transcribe it")
	}
}

var _ pipeline.AudioFetcher = (*telegram.Adapter)(nil)

// The transcription settings are checked at start-up, each error one line
// naming the variable.
func TestTranscribeConfig(t *testing.T) {
	vars := []string{"HEARTH_TRANSCRIBE", "HEARTH_TRANSCRIBE_URL", "HEARTH_TRANSCRIBE_API_KEY"}
	tests := []struct {
		name    string
		env     map[string]string
		want    string // the provider chosen
		wantErr string
	}{
		{"default", nil, "none", ""},
		{"openai with a key", map[string]string{"HEARTH_TRANSCRIBE": "openai", "HEARTH_TRANSCRIBE_API_KEY": "sk-x"}, "openai", ""},
		{"openai local", map[string]string{"HEARTH_TRANSCRIBE": "openai", "HEARTH_TRANSCRIBE_URL": "http://localhost:8000/v1"}, "openai", ""},
		{"aws", map[string]string{"HEARTH_TRANSCRIBE": "aws"}, "aws", ""},
		{"unknown provider", map[string]string{"HEARTH_TRANSCRIBE": "whisper"}, "", "HEARTH_TRANSCRIBE"},
		{"openai with nothing to reach", map[string]string{"HEARTH_TRANSCRIBE": "openai"}, "", "HEARTH_TRANSCRIBE_API_KEY"},
		{"bad url", map[string]string{"HEARTH_TRANSCRIBE": "openai", "HEARTH_TRANSCRIBE_URL": "localhost:8000"}, "", "HEARTH_TRANSCRIBE_URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("DATABASE_URL", "postgres://localhost/hearth")
			for _, k := range vars {
				t.Setenv(k, tt.env[k])
			}
			cfg, err := LoadConfig()
			if tt.wantErr == "" {
				if err != nil || cfg.Transcribe != tt.want {
					t.Fatalf("%q, %v; want %q", cfg.Transcribe, err, tt.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q: want one line naming %s", err, tt.wantErr)
			}
		})
	}
}
