package llm

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// step is one scripted answer of a fake provider.
type step func(w http.ResponseWriter, r *http.Request)

// recorded is a request a fake received.
type recorded struct {
	path   string
	header http.Header
	body   []byte
}

// decode unmarshals the request body into a generic map.
func (r recorded) decode(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("request body %s: %v", r.body, err)
	}
	return m
}

// fake is an HTTP server that answers with its script, one step per
// request, and records what it received.
type fake struct {
	t      *testing.T
	script []step
	mu     sync.Mutex
	got    []recorded
	srv    *httptest.Server
}

func newFake(t *testing.T, script ...step) *fake {
	t.Helper()
	f := &fake{t: t, script: script}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fake) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	n := len(f.got)
	f.got = append(f.got, recorded{path: r.URL.Path, header: r.Header.Clone(), body: body})
	f.mu.Unlock()
	if n >= len(f.script) {
		f.t.Errorf("unexpected request %d to %s", n+1, r.URL.Path)
		http.Error(w, "unscripted", http.StatusTeapot)
		return
	}
	f.script[n](w, r)
}

func (f *fake) requests() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorded(nil), f.got...)
}

// reply answers with a status, a JSON body and extra headers (name, value
// pairs).
func reply(status int, body string, header ...string) step {
	return func(w http.ResponseWriter, _ *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body) //nolint:errcheck // the client sees a short body
	}
}

// hang blocks until the client gives up, like a model that never answers.
func hang(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }

// sleeper records the waits the policy asks for and returns at once.
type sleeper struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeper) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.d = append(s.d, d)
	return ctx.Err()
}

func (s *sleeper) waits() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

// testNow is the fixed time of the injected clock.
var testNow = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

// testPolicy is a fast, recorded policy: short timeout, three attempts.
func testPolicy(s *sleeper) Policy {
	return Policy{
		Timeout:     2 * time.Second, // a loaded machine under -race is slow to answer even on loopback
		MaxAttempts: 3,
		BaseDelay:   100 * time.Millisecond,
		MaxDelay:    time.Minute,
		Sleep:       s.sleep,
		Now:         func() time.Time { return testNow },
	}
}

// intentSchema is a small schema like the intent stage's.
const intentSchema = `{"type":"object","properties":{"intent":{"type":"string"}},"required":["intent"],"additionalProperties":false}`

// dig walks a decoded JSON value by keys and indexes.
func dig(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			v = m[k]
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}
