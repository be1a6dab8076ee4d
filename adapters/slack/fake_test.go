package slack_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"sync"
	"testing"

	"github.com/slack-go/slack/slacktest"
)

const (
	testBotUserID = "UHEARTH"
	testBotID     = "BHEARTH"
)

// call is one Web API request the fake received: its form fields.
type call struct {
	form url.Values
}

// fakeAPI is slacktest's server with auth.test, chat.postMessage and
// users.info replaced by handlers that record requests and can fail on
// demand, driven through the real slack-go client.
type fakeAPI struct {
	srv *slacktest.Server

	mu    sync.Mutex
	calls map[string][]call
	fail  map[string]func(w http.ResponseWriter) // method → failing answer
	tz    string
}

func newFakeAPI(t *testing.T) *fakeAPI {
	t.Helper()
	f := &fakeAPI{calls: map[string][]call{}, fail: map[string]func(http.ResponseWriter){}, tz: "Europe/Berlin"}
	f.srv = slacktest.NewTestServer(func(c slacktest.Customize) {
		c.Handle("/auth.test", f.handle("auth.test", func(url.Values) any {
			return map[string]any{"ok": true, "user_id": testBotUserID, "bot_id": testBotID, "team_id": "T1"}
		}))
		c.Handle("/chat.postMessage", f.handle("chat.postMessage", func(form url.Values) any {
			return map[string]any{"ok": true, "channel": form.Get("channel"), "ts": "1700000000.000100"}
		}))
		c.Handle("/users.info", f.handle("users.info", func(form url.Values) any {
			f.mu.Lock()
			defer f.mu.Unlock()
			return map[string]any{"ok": true, "user": map[string]any{"id": form.Get("user"), "name": "ann", "tz": f.tz}}
		}))
	})
	f.srv.Start()
	t.Cleanup(f.srv.Stop)
	return f
}

func (f *fakeAPI) handle(method string, answer func(url.Values) any) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm() //nolint:errcheck // an empty form is checked by the test
		f.mu.Lock()
		f.calls[method] = append(f.calls[method], call{form: r.PostForm})
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

func (f *fakeAPI) failWith(method string, answer func(w http.ResponseWriter)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fail[method] = answer
}

func (f *fakeAPI) callsTo(method string) []call {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]call(nil), f.calls[method]...)
}
