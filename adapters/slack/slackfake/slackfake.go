// Package slackfake is a fake Slack Web API for tests: slack-go's own
// slacktest server with auth.test, chat.postMessage, chat.update and
// users.info answered by handlers that record every request and can fail
// on demand, private file downloads (AddFile), and Socket Mode
// (apps.connections.open and a WebSocket that sends envelopes and records
// acknowledgements), driven through the real slack-go client.
package slackfake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"testing"

	"github.com/hearthbot/hearth/internal/signal"
	"github.com/slack-go/slack/slacktest"
)

// Hearth's identities in the fake workspace, as auth.test answers them.
const (
	BotUserID = "UHEARTH"
	BotID     = "BHEARTH"
)

// Call is one Web API request the fake received: its form fields.
type Call struct {
	Form url.Values
}

// Server is the fake. Point the client's APIURL at URL().
type Server struct {
	srv *slacktest.Server

	mu    sync.Mutex
	calls map[string][]Call
	fail  map[string]func(w http.ResponseWriter) // method → failing answer
	tz    string
	files map[string][]byte // path under /files/ → content
	// changed wakes WaitCalls on every call.
	changed signal.Signal

	socket *socket
}

// NewServer starts the fake, stopped when the test ends. users.info
// answers Ann Lee (handle ann, no display name) in Europe/Berlin.
func NewServer(t testing.TB) *Server {
	t.Helper()
	f := &Server{calls: map[string][]Call{}, fail: map[string]func(http.ResponseWriter){}, tz: "Europe/Berlin",
		files: map[string][]byte{}, socket: newSocket()}
	f.srv = slacktest.NewTestServer(func(c slacktest.Customize) {
		c.Handle("/auth.test", f.handle("auth.test", func(url.Values) any {
			return map[string]any{"ok": true, "user_id": BotUserID, "bot_id": BotID, "team_id": "T1"}
		}))
		c.Handle("/chat.postMessage", f.handle("chat.postMessage", func(form url.Values) any {
			return map[string]any{"ok": true, "channel": form.Get("channel"), "ts": "1700000000.000100"}
		}))
		c.Handle("/chat.update", f.handle("chat.update", func(form url.Values) any {
			return map[string]any{"ok": true, "channel": form.Get("channel"), "ts": form.Get("ts")}
		}))
		c.Handle("/users.info", f.handle("users.info", func(form url.Values) any {
			f.mu.Lock()
			defer f.mu.Unlock()
			return map[string]any{"ok": true, "user": map[string]any{"id": form.Get("user"), "name": "ann", "real_name": "Ann Lee", "tz": f.tz,
				"profile": map[string]any{"real_name": "Ann Lee", "display_name": ""}}}
		}))
		c.Handle("/files/", f.serveFile)
		c.Handle("/apps.connections.open", f.connectionsOpen)
		c.Handle("/socket", f.socket.serve)
	})
	f.srv.Start()
	t.Cleanup(f.srv.Stop)
	return f
}

func (f *Server) handle(method string, answer func(url.Values) any) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm() //nolint:errcheck // an empty form is checked by the test
		f.mu.Lock()
		f.record(method, Call{Form: r.PostForm})
		failing := f.fail[method]
		f.mu.Unlock()
		if failing != nil {
			failing(w)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(answer(r.PostForm)) //nolint:errcheck // test server
	}
}

// Fail makes later calls to method answer with answer.
func (f *Server) Fail(method string, answer func(w http.ResponseWriter)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fail[method] = answer
}

// record keeps a call; the caller holds f.mu.
func (f *Server) record(method string, c Call) {
	f.calls[method] = append(f.calls[method], c)
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

// Calls returns the requests made to method so far.
func (f *Server) Calls(method string) []Call {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Call(nil), f.calls[method]...)
}

// SetTimezone changes the zone users.info answers ("" for none).
func (f *Server) SetTimezone(tz string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tz = tz
}

// AddFile serves data as a private file and returns its download URL, on
// the fake's own host (where slack-go may send the bot token).
func (f *Server) AddFile(name string, data []byte) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.files[name] = data
	return f.URL() + "files/" + name
}

// serveFile answers a file download that carries the bot token, and
// records it as the call "files.download".
func (f *Server) serveFile(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Path[len("/files/"):]
	f.mu.Lock()
	data, ok := f.files[name]
	f.record("files.download", Call{Form: url.Values{"name": {name}, "authorization": {r.Header.Get("Authorization")}}})
	f.mu.Unlock()
	if !ok || r.Header.Get("Authorization") == "" {
		http.NotFound(w, r)
		return
	}
	w.Write(data) //nolint:errcheck // test server
}

// URL is the Web API base URL to configure the client with.
func (f *Server) URL() string { return f.srv.GetAPIURL() }
