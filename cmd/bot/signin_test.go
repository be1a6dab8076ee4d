package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/adapters/webchat"
	"github.com/hearthbot/hearth/pipeline/pipelinetest"
	"github.com/hearthbot/hearth/signin"
	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

// session is one signed-in browser on the web chat under real sign-in.
type session struct {
	t      *testing.T
	base   string
	app    *App
	client *http.Client
	csrf   string
	conv   int64
}

// signInAs makes a user and signs a new browser in with a sign-in link.
func signInAs(t *testing.T, base string, app *App, name string) *session {
	t.Helper()
	ctx := context.Background()
	c, err := app.Store.AddWebUser(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	link, err := app.SignIn.NewLink(ctx, c.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	_, token, _ := strings.Cut(link, "#signin=")
	jar, _ := cookiejar.New(nil)
	s := &session{t: t, base: base, app: app, client: &http.Client{Jar: jar}, conv: c.ConversationID}
	if code, body := s.do("POST", "/api/signin/link", map[string]string{"token": token}); code != 200 {
		t.Fatalf("sign in %s: %d %v", name, code, body)
	}
	if code, body := s.do("POST", "/api/webchat/users", map[string]string{"tz": "Europe/London"}); code != 200 || body["user"] != name {
		t.Fatalf("web chat sign-in of %s: %d %v", name, code, body)
	}
	return s
}

func (s *session) do(method, path string, body any) (int, map[string]any) {
	s.t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, s.base+path, r)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", s.base)
	if s.csrf != "" {
		req.Header.Set(signin.CSRFHeader, s.csrf)
	}
	res, err := s.client.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	json.NewDecoder(res.Body).Decode(&out) //nolint:errcheck // callers check the status
	if csrf, ok := out["csrf"].(string); ok {
		s.csrf = csrf
	}
	return res.StatusCode, out
}

// messages reads the caller's transcript, naming a user in the query
// (which real sign-in ignores).
func (s *session) messages(user string) []webchat.Message {
	s.t.Helper()
	res, err := s.client.Get(s.base + "/api/webchat/messages?" + url.Values{"user": {user}, "after": {"0"}}.Encode())
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		s.t.Fatalf("messages: %d", res.StatusCode)
	}
	var page struct{ Messages []webchat.Message }
	if err := json.NewDecoder(res.Body).Decode(&page); err != nil {
		s.t.Fatal(err)
	}
	return page.Messages
}

// say sends text (with a forged "user" field) and waits for a reply
// with buttons (a draft to approve).
func (s *session) say(text, forgedUser string) webchat.Message {
	s.t.Helper()
	if code, body := s.do("POST", "/api/webchat/messages", map[string]string{"user": forgedUser, "text": text}); code != 202 {
		s.t.Fatalf("say %q: %d %v", text, code, body)
	}
	var got webchat.Message
	wake, stop := s.app.Hub.Subscribe(s.conv)
	defer stop()
	pipelinetest.Wait(s.t, wake, "reply to "+text, func() bool {
		for _, m := range s.messages("") {
			if m.From == hearth.FromBot && len(m.Buttons) > 0 {
				got = m
				return true
			}
		}
		return false
	})
	return got
}

// TestSessionsKeepUsersApart runs Hearth with real sign-in: a session
// reads and acts only on its own user's conversation, whatever user,
// message or button ids the request names.
func TestSessionsKeepUsersApart(t *testing.T) {
	t.Parallel()
	base, app, _ := startAppWith(t, func(c *Config) { c.DevSignin = false })
	if app.SignIn == nil {
		t.Fatal("real sign-in is off")
	}
	// Signed out: nothing is readable or writable, a name is not enough.
	for _, req := range []struct{ method, path, body string }{
		{"GET", "/api/webchat/messages?user=bob", ""},
		{"GET", "/api/webchat/events?user=bob", ""},
		{"POST", "/api/webchat/users", `{"user":"bob","tz":"UTC"}`},
		{"POST", "/api/webchat/messages", `{"user":"bob","text":"hi"}`},
		{"POST", "/api/webchat/buttons", `{"user":"bob","message_id":1,"button_id":"x"}`},
	} {
		r, _ := http.NewRequest(req.method, base+req.path, strings.NewReader(req.body))
		res, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 401 {
			t.Fatalf("%s %s signed out = %d; want 401", req.method, req.path, res.StatusCode)
		}
	}

	ann := signInAs(t, base, app, "Ann")
	bob := signInAs(t, base, app, "Bob")
	draft := bob.say("Email sarah@example.com that I'll be late", "Bob")
	if !strings.Contains(draft.Text, "sarah@example.com") {
		t.Fatalf("Bob's draft: %q", draft.Text)
	}
	approve := draft.Buttons[0]

	// Ann names Bob: her messages land in her own conversation.
	ann.say("Email tom@example.com that the bins go out tonight", "Bob")
	for _, m := range ann.messages("Bob") {
		if strings.Contains(m.Text, "sarah@example.com") {
			t.Fatalf("Ann reads Bob's conversation: %q", m.Text)
		}
	}
	for _, m := range bob.messages("Bob") {
		if strings.Contains(m.Text, "tom@example.com") {
			t.Fatalf("Ann's message reached Bob's conversation: %q", m.Text)
		}
	}
	// Ann clicks Bob's Approve by its message and button ids: refused, and
	// Bob's approval stays pending.
	if code, body := ann.do("POST", "/api/webchat/buttons", map[string]any{"user": "Bob", "message_id": draft.ID, "button_id": approve.ID}); code < 400 || code >= 500 {
		t.Fatalf("Ann clicking Bob's button = %d %v; want a 4xx", code, body)
	}
	var state string
	if err := app.Store.Pool().QueryRow(context.Background(), `SELECT state FROM approvals WHERE conversation_id = $1`, bob.conv).Scan(&state); err != nil {
		t.Fatal(err)
	}
	if state != "pending" {
		t.Fatalf("Bob's approval is %s after Ann's click; want pending", state)
	}
	// Without the CSRF token a signed-in browser cannot post either.
	ann.csrf = ""
	if code, _ := ann.do("POST", "/api/webchat/messages", map[string]string{"text": "hello"}); code != 401 {
		t.Fatalf("post without CSRF token = %d; want 401", code)
	}
}

// TestUserCommands runs `bot user add` and `bot signin-link` as an
// operator would: the printed link signs the user in, once.
func TestUserCommands(t *testing.T) {
	dbURL := storetest.NewDatabase(t)
	t.Setenv("DATABASE_URL", dbURL)
	t.Setenv("HEARTH_PUBLIC_URL", "https://hearth.example")
	ctx := context.Background()
	var out, errOut bytes.Buffer
	if err := run(ctx, []string{"user", "add", "Grace Hopper"}, nil, &out, &errOut); err != nil {
		t.Fatalf("user add: %v\n%s", err, errOut.String())
	}
	if !strings.Contains(out.String(), "added Grace Hopper") || !strings.Contains(out.String(), "https://hearth.example/#signin=") {
		t.Fatalf("user add printed %q", out.String())
	}
	if err := run(ctx, []string{"user", "add", "grace  hopper"}, nil, &out, &errOut); err == nil || !strings.Contains(err.Error(), "exists already") {
		t.Fatalf("adding the same name again: %v; want a conflict", err)
	}
	out.Reset()
	if err := run(ctx, []string{"signin-link", "GRACE HOPPER"}, nil, &out, &errOut); err != nil {
		t.Fatalf("signin-link: %v", err)
	}
	_, token, ok := strings.Cut(strings.TrimSpace(out.String()), "#signin=")
	if !ok {
		t.Fatalf("signin-link printed %q", out.String())
	}
	if err := run(ctx, []string{"signin-link", "Nobody"}, nil, &out, &errOut); err == nil {
		t.Fatal("a link for an unknown user")
	}
	st, err := store.Open(ctx, dbURL, store.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	h := sha256.Sum256([]byte(token))
	if _, err := st.RedeemSigninLink(ctx, h[:]); err != nil {
		t.Fatalf("the printed link does not sign in: %v", err)
	}
	if _, err := st.RedeemSigninLink(ctx, h[:]); err == nil {
		t.Fatal("the printed link signs in twice")
	}
	out.Reset()
	if err := run(ctx, []string{"user", "export", "grace hopper"}, nil, &out, &errOut); err != nil || !strings.Contains(out.String(), `"display_name":"Grace Hopper"`) {
		t.Fatalf("user export: %v %.200s", err, out.String())
	}
	out.Reset()
	if err := run(ctx, []string{"user", "delete", "grace hopper"}, nil, &out, &errOut); err != nil || !strings.Contains(out.String(), "deleted Grace Hopper") {
		t.Fatalf("user delete: %v %q", err, out.String())
	}
	if _, err := st.FindUserByName(ctx, "Grace Hopper"); err == nil {
		t.Fatal("Grace Hopper is still there")
	}
}

// TestSigninLinkFromChat: "/signin" in a chat the person already uses
// (Telegram here) answers with a one-time link, and the link signs the
// browser in as that person, whose web chat is made on the way.
func TestSigninLinkFromChat(t *testing.T) {
	t.Parallel()
	base, app, _ := startAppWith(t, func(c *Config) { c.DevSignin = false })
	tg := &flakySender{}
	tg.fix()
	app.Senders[hearth.ChannelTelegram] = tg
	ctx := context.Background()
	if _, err := app.Inbox.Accept(ctx, hearth.Inbound{
		Channel: hearth.ChannelTelegram, ExternalID: "update:1", ConversationKey: "4242", UserKey: "4242",
		UserName: "Tomas", Timezone: "Europe/Prague", Kind: hearth.KindMessage, Text: "/signin",
	}); err != nil {
		t.Fatal(err)
	}
	pipelinetest.WaitForJobs(t, app.River, "the link in Telegram", func() bool { return tg.count() == 1 })
	tg.mu.Lock()
	reply := tg.sent[0]
	tg.mu.Unlock()
	_, token, ok := strings.Cut(reply, "#signin=")
	if !ok {
		t.Fatalf("reply %q has no sign-in link", reply)
	}
	token = strings.Fields(token)[0]
	jar, _ := cookiejar.New(nil)
	s := &session{t: t, base: base, app: app, client: &http.Client{Jar: jar}}
	if code, body := s.do("POST", "/api/signin/link", map[string]string{"token": token}); code != 200 || body["user"] != "Tomas" {
		t.Fatalf("signing in with the link from Telegram: %d %v", code, body)
	}
	if code, body := s.do("POST", "/api/webchat/users", map[string]string{}); code != 200 || body["timezone"] != "Europe/Prague" {
		t.Fatalf("the web chat of Tomas: %d %v", code, body)
	}
	if code, _ := s.do("POST", "/api/signin/link", map[string]string{"token": token}); code != 401 {
		t.Fatalf("the link from Telegram works twice: %d", code)
	}
}
