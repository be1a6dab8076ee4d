package voice_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/adapters/voice"
	"github.com/hearthbot/hearth/pipeline"
)

// voiceNote is the project's own OGG/Opus voice note (testdata/make-voice.sh).
func voiceNote(t *testing.T) pipeline.Audio {
	t.Helper()
	data, err := os.ReadFile("testdata/voice.ogg")
	if err != nil {
		t.Fatal(err)
	}
	return pipeline.Audio{Data: data, MIME: "audio/ogg", Name: "voice.ogg"}
}

// The OpenAI-compatible provider sends the recording as a multipart file
// with the model and language, and sorts the server's refusals into
// permanent (reply to the user) and passing (retry the turn).
func TestOpenAI(t *testing.T) {
	t.Parallel()
	note := voiceNote(t)
	tests := []struct {
		name      string
		status    int
		body      string
		want      string
		permanent bool
		fails     bool
	}{
		{name: "heard", status: 200, body: `{"text":" Remind me to water the plants. "}`, want: " Remind me to water the plants. "},
		{name: "refused format", status: 400, body: `{"error":{"message":"Invalid file format.","type":"invalid_request_error"}}`, fails: true, permanent: true},
		{name: "wrong key", status: 401, body: `{"error":{"message":"bad key"}}`, fails: true, permanent: true},
		{name: "rate limited", status: 429, body: `{"error":{"message":"slow down"}}`, fails: true},
		{name: "outage", status: 503, body: `{"error":{"message":"overloaded"}}`, fails: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var got struct{ path, model, language, auth, file string }
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				defer mu.Unlock()
				got.path, got.auth = r.URL.Path, r.Header.Get("Authorization")
				if err := r.ParseMultipartForm(1 << 20); err == nil {
					got.model, got.language = r.FormValue("model"), r.FormValue("language")
					if f, h, err := r.FormFile("file"); err == nil {
						data, _ := io.ReadAll(f)
						if bytes.Equal(data, note.Data) {
							got.file = h.Filename
						}
					}
				}
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tc.status)
				io.WriteString(w, tc.body) //nolint:errcheck // test server
			}))
			t.Cleanup(srv.Close)
			tr := voice.NewOpenAI(voice.OpenAIConfig{BaseURL: srv.URL + "/v1", APIKey: "sk-test", Model: "whisper-large-v3", Language: "en"})
			text, err := tr.Transcribe(context.Background(), note)
			if tc.fails != (err != nil) {
				t.Fatalf("Transcribe: %q, %v", text, err)
			}
			if errors.Is(err, hearth.ErrPermanent) != tc.permanent {
				t.Fatalf("error %v: permanent %v, want %v", err, errors.Is(err, hearth.ErrPermanent), tc.permanent)
			}
			if text != tc.want {
				t.Fatalf("text %q, want %q", text, tc.want)
			}
			mu.Lock()
			defer mu.Unlock()
			if got.path != "/v1/audio/transcriptions" || got.model != "whisper-large-v3" || got.language != "en" || got.auth != "Bearer sk-test" || got.file != "voice.ogg" {
				t.Fatalf("request %+v", got)
			}
		})
	}
}

// fakeTranscribe is Amazon Transcribe Streaming as far as the SDK sees
// it: an HTTP/2 endpoint that takes the signed audio event stream and,
// once the empty end-of-audio event arrives, answers with a partial and a
// final result per phrase. It records the audio it received.
type fakeTranscribe struct {
	srv    *httptest.Server
	heard  []string
	status int // non-zero: refuse the request with this status

	mu     sync.Mutex
	audio  []byte
	header http.Header
}

func newFakeTranscribe(t *testing.T, heard ...string) *fakeTranscribe {
	t.Helper()
	f := &fakeTranscribe{heard: heard}
	f.srv = httptest.NewUnstartedServer(http.HandlerFunc(f.serve))
	f.srv.EnableHTTP2 = true
	f.srv.StartTLS()
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeTranscribe) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.header = r.Header.Clone()
	f.mu.Unlock()
	if f.status != 0 {
		w.Header().Set("X-Amzn-ErrorType", "BadRequestException")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(f.status)
		io.WriteString(w, `{"Message":"Your request is invalid."}`) //nolint:errcheck // test server
		return
	}
	w.Header().Set("Content-Type", "application/vnd.amazon.eventstream")
	w.WriteHeader(http.StatusOK)
	w.(http.Flusher).Flush()
	dec := eventstream.NewDecoder()
	for {
		// Each signed message wraps one serialized audio event; an empty
		// one ends the audio.
		outer, err := dec.Decode(r.Body, nil)
		if err != nil || len(outer.Payload) == 0 {
			break
		}
		inner, err := dec.Decode(bytes.NewReader(outer.Payload), nil)
		if err != nil || inner.Headers.Get(":event-type").String() != "AudioEvent" {
			break
		}
		f.mu.Lock()
		f.audio = append(f.audio, inner.Payload...)
		f.mu.Unlock()
	}
	enc := eventstream.NewEncoder()
	for i, phrase := range f.heard {
		for _, partial := range []bool{true, false} {
			text := phrase
			if partial {
				text = phrase[:len(phrase)/2]
			}
			payload, _ := json.Marshal(map[string]any{"Transcript": map[string]any{"Results": []any{map[string]any{
				"ResultId": fmt.Sprint(i), "IsPartial": partial, "StartTime": i, "EndTime": i + 1,
				"Alternatives": []any{map[string]any{"Transcript": text}},
			}}}})
			enc.Encode(w, eventstream.Message{ //nolint:errcheck // the client went away
				Headers: eventstream.Headers{
					{Name: ":message-type", Value: eventstream.StringValue("event")},
					{Name: ":event-type", Value: eventstream.StringValue("TranscriptEvent")},
					{Name: ":content-type", Value: eventstream.StringValue("application/json")},
				},
				Payload: payload,
			})
			w.(http.Flusher).Flush()
		}
	}
}

func (f *fakeTranscribe) transcriber(t *testing.T) *voice.AWS {
	t.Helper()
	tr, err := voice.NewAWS(context.Background(), voice.AWSConfig{
		Region: "eu-west-1", Language: "en-GB", EndpointURL: f.srv.URL, HTTPClient: f.srv.Client(),
		Credentials: credentials.NewStaticCredentialsProvider("AKIDTEST", "secret", ""),
	})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// Amazon Transcribe Streaming, through the real SDK against the fake: the
// whole voice note goes up as ogg-opus at its own sample rate, and the
// final results come back joined; partial results are not used.
func TestAWS(t *testing.T) {
	t.Parallel()
	note := voiceNote(t)
	f := newFakeTranscribe(t, "Remind me to water the plants", "tomorrow at 9am.")
	text, err := f.transcriber(t).Transcribe(context.Background(), note)
	if err != nil {
		t.Fatal(err)
	}
	if text != "Remind me to water the plants tomorrow at 9am." {
		t.Fatalf("heard %q", text)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if !bytes.Equal(f.audio, note.Data) {
		t.Fatalf("the fake received %d bytes of audio, want the note's %d", len(f.audio), len(note.Data))
	}
	for h, want := range map[string]string{
		"X-Amzn-Transcribe-Media-Encoding": "ogg-opus",
		"X-Amzn-Transcribe-Sample-Rate":    "16000", // the note's OpusHead input rate
		"X-Amzn-Transcribe-Language-Code":  "en-GB",
	} {
		if got := f.header.Get(h); got != want {
			t.Errorf("%s: %q, want %q", h, got, want)
		}
	}
}

// What retrying cannot fix is a permanent failure: a format the streaming
// API cannot read (refused before any request), and the service's
// BadRequestException.
func TestAWSPermanent(t *testing.T) {
	t.Parallel()
	f := newFakeTranscribe(t)
	tr := f.transcriber(t)
	_, err := tr.Transcribe(context.Background(), pipeline.Audio{Data: []byte("ID3 not ogg"), MIME: "audio/mpeg", Name: "clip.mp3"})
	if !errors.Is(err, hearth.ErrPermanent) {
		t.Fatalf("mp3: %v", err)
	}
	f.mu.Lock()
	if f.header != nil {
		t.Fatal("an mp3 was sent to the service")
	}
	f.mu.Unlock()
	f.status = http.StatusBadRequest
	if _, err := tr.Transcribe(context.Background(), voiceNote(t)); !errors.Is(err, hearth.ErrPermanent) {
		t.Fatalf("bad request: %v", err)
	}
}

// The ambient OPENAI_* settings (meant for a chat model) never reach the
// transcription server: no key configured, no Authorization header.
func TestOpenAIIgnoresAmbientKey(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-ambient")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	var mu sync.Mutex
	auth := "unset"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth = r.Header.Get("Authorization")
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"text":"hello"}`) //nolint:errcheck // test server
	}))
	t.Cleanup(srv.Close)
	text, err := voice.NewOpenAI(voice.OpenAIConfig{BaseURL: srv.URL + "/v1"}).Transcribe(context.Background(), voiceNote(t))
	mu.Lock()
	defer mu.Unlock()
	if err != nil || text != "hello" || auth != "" {
		t.Fatalf("%q, %v, Authorization %q", text, err, auth)
	}
}
