// Package telegramtest is a fake Telegram Bot API server for tests: good
// enough for the real go-telegram/bot client (getMe, sendMessage,
// editMessageText, answerCallbackQuery, setWebhook, deleteWebhook,
// getUpdates from a queue, and getFile with file downloads of what AddFile
// put there), recording every call. Text sent with parse_mode HTML is
// checked as Telegram checks it, and refused the same way.
package telegramtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/hearthbot/hearth/internal/signal"
)

// The fake bot's identity: the token it accepts and what getMe answers.
const (
	Token    = "777:test-token"
	BotID    = 777
	Username = "hearth_home_bot"
)

// Call is one Bot API request the fake received: the method and its form
// fields (the client sends multipart forms).
type Call struct {
	Method string
	Form   map[string]string
}

// Server is the fake Bot API. Point the client at URL.
type Server struct {
	URL string
	srv *httptest.Server

	mu      sync.Mutex
	calls   []Call
	fail    map[string]string // method → raw error answer
	updates []json.RawMessage
	queued  chan struct{}
	files   map[string][]byte // file id → content
	// changed wakes WaitCalls on every call.
	changed signal.Signal
}

// NewServer starts a fake Bot API, closed when the test ends.
func NewServer(t testing.TB) *Server {
	t.Helper()
	f := &Server{fail: map[string]string{}, queued: make(chan struct{}, 1), files: map[string][]byte{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	f.URL = f.srv.URL
	t.Cleanup(f.srv.Close)
	return f
}

func (f *Server) serve(w http.ResponseWriter, r *http.Request) {
	if id, ok := strings.CutPrefix(r.URL.Path, "/file/bot"+Token+"/voice/"); ok {
		f.mu.Lock()
		data, found := f.files[id]
		f.record(Call{Method: "download", Form: map[string]string{"file_id": id}})
		f.mu.Unlock()
		if !found {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(data) //nolint:errcheck // test server
		return
	}
	method, ok := strings.CutPrefix(r.URL.Path, "/bot"+Token+"/")
	if !ok {
		http.Error(w, `{"ok":false,"error_code":401,"description":"Unauthorized"}`, http.StatusUnauthorized)
		return
	}
	form := map[string]string{}
	if err := r.ParseMultipartForm(1 << 20); err == nil {
		for k, v := range r.MultipartForm.Value {
			form[k] = v[0]
		}
	}
	f.mu.Lock()
	f.record(Call{Method: method, Form: form})
	failure, failing := f.fail[method]
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if failing {
		w.Write([]byte(failure)) //nolint:errcheck // test server
		return
	}
	if form["parse_mode"] == "HTML" && (method == "sendMessage" || method == "editMessageText") {
		if err := checkHTML(form["text"]); err != nil {
			// What Telegram answers for markup it cannot parse.
			fmt.Fprintf(w, `{"ok":false,"error_code":400,"description":%q}`, "Bad Request: can't parse entities: "+err.Error())
			return
		}
	}
	var result any
	switch method {
	case "getMe":
		result = map[string]any{"id": BotID, "is_bot": true, "first_name": "Hearth", "username": Username}
	case "sendMessage":
		chat, _ := strconv.ParseInt(form["chat_id"], 10, 64)
		result = map[string]any{"message_id": 42, "date": 1700000000, "chat": map[string]any{"id": chat, "type": "private"}, "text": form["text"]}
	case "editMessageText":
		chat, _ := strconv.ParseInt(form["chat_id"], 10, 64)
		id, _ := strconv.Atoi(form["message_id"])
		result = map[string]any{"message_id": id, "date": 1700000000, "chat": map[string]any{"id": chat, "type": "private"}, "text": form["text"]}
	case "answerCallbackQuery", "setWebhook", "deleteWebhook", "setMyCommands":
		result = true
	case "getUpdates":
		result = f.nextUpdates(r.Context(), form["offset"])
	case "getFile":
		f.mu.Lock()
		data, found := f.files[form["file_id"]]
		f.mu.Unlock()
		if !found {
			w.Write([]byte(`{"ok":false,"error_code":400,"description":"Bad Request: invalid file_id"}`)) //nolint:errcheck // test server
			return
		}
		result = map[string]any{"file_id": form["file_id"], "file_unique_id": "u" + form["file_id"], "file_size": len(data), "file_path": "voice/" + form["file_id"]}
	default:
		w.Write([]byte(`{"ok":false,"error_code":404,"description":"Not Found: method not found"}`)) //nolint:errcheck // test server
		return
	}
	json.NewEncoder(w).Encode(map[string]any{"ok": true, "result": result}) //nolint:errcheck // test server
}

// nextUpdates long-polls the queue briefly: queued updates at or after
// offset, or none after a short wait, as Telegram does with a timeout.
func (f *Server) nextUpdates(ctx context.Context, offset string) []json.RawMessage {
	from, _ := strconv.ParseInt(offset, 10, 64)
	pick := func() []json.RawMessage {
		f.mu.Lock()
		defer f.mu.Unlock()
		out := []json.RawMessage{}
		for _, u := range f.updates {
			var head struct {
				ID int64 `json:"update_id"`
			}
			json.Unmarshal(u, &head) //nolint:errcheck // the test wrote it
			if head.ID >= from {
				out = append(out, u)
			}
		}
		return out
	}
	if out := pick(); len(out) > 0 {
		return out
	}
	select {
	case <-f.queued:
	case <-ctx.Done():
	case <-time.After(200 * time.Millisecond):
	}
	return pick()
}

// Queue adds an update for getUpdates to hand out.
func (f *Server) Queue(update string) {
	f.mu.Lock()
	f.updates = append(f.updates, json.RawMessage(update))
	f.mu.Unlock()
	select {
	case f.queued <- struct{}{}:
	default:
	}
}

// AddFile makes a file available to getFile and its download link.
func (f *Server) AddFile(fileID string, data []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.files[fileID] = data
}

// Fail makes every later call to method answer with the raw JSON answer.
func (f *Server) Fail(method, answer string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fail[method] = answer
}

// record keeps a call; the caller holds f.mu.
func (f *Server) record(c Call) {
	f.calls = append(f.calls, c)
	f.changed.Notify()
}

// WaitCalls waits until method has been called at least n times and
// returns its calls, failing t after 20 seconds. It wakes on each call
// the fake receives, never on a timer.
func (f *Server) WaitCalls(t testing.TB, method string, n int) []Call {
	t.Helper()
	var calls []Call
	f.changed.Await(t, fmt.Sprintf("%d %s calls", n, method), func() bool {
		calls = f.Calls(method)
		return len(calls) >= n
	})
	return calls
}

// Calls returns the requests made for method so far.
func (f *Server) Calls(method string) []Call {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.callsLocked(method)
}

func (f *Server) callsLocked(method string) []Call {
	var out []Call
	for _, c := range f.calls {
		if c.Method == method {
			out = append(out, c)
		}
	}
	return out
}

// telegramTags are the HTML elements the fake accepts, a subset of
// Telegram's list (the ones Hearth uses, and their aliases).
var telegramTags = map[string]bool{"b": true, "strong": true, "i": true, "em": true, "code": true, "pre": true, "a": true, "u": true, "s": true}

// checkHTML refuses what Telegram refuses with parse_mode HTML: unknown
// or unbalanced elements, and a < or & that does not start a tag or an
// entity.
func checkHTML(text string) error {
	var open []string
	z := html.NewTokenizer(strings.NewReader(text))
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if len(open) > 0 {
				return fmt.Errorf("can't find end tag corresponding to start tag %q", open[len(open)-1])
			}
			return nil
		case html.TextToken:
			raw := string(z.Raw())
			if strings.Contains(raw, "<") || strings.Contains(raw, ">") {
				return fmt.Errorf("unsupported start tag in %q", raw)
			}
			for i := strings.IndexByte(raw, '&'); i >= 0; i = strings.IndexByte(raw, '&') {
				raw = raw[i+1:]
				end := strings.IndexByte(raw, ';')
				if end <= 0 || strings.ContainsAny(raw[:end], " &<") {
					return errors.New("unsupported entity: & must be escaped")
				}
			}
		case html.StartTagToken:
			name, _ := z.TagName()
			if !telegramTags[string(name)] {
				return fmt.Errorf("unsupported start tag %q", name)
			}
			open = append(open, string(name))
		case html.EndTagToken:
			name, _ := z.TagName()
			if len(open) == 0 || open[len(open)-1] != string(name) {
				return fmt.Errorf("unmatched end tag %q", name)
			}
			open = open[:len(open)-1]
		default:
			return fmt.Errorf("unsupported markup %q", z.Raw())
		}
	}
}
