package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/hearthbot/hearth"
)

// TestDisplayName: what Hearth calls a user (and signs their drafts with)
// is set apart from the name they sign in with: through the JSON API and
// by "call me …" in chat; "call me back" is not a name; a bad name is a
// 400 that changes nothing.
func TestDisplayName(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "sam92", "Europe/London")
	name := func() string {
		t.Helper()
		u, err := app.Store.FindUserByName(context.Background(), "sam92")
		if err != nil {
			t.Fatal(err)
		}
		return u.DisplayName
	}
	for _, tc := range []struct {
		display string
		code    int
		want    string
	}{
		{"  Samantha   Reyes ", 200, "Samantha Reyes"},
		{strings.Repeat("x", 65), 400, "Samantha Reyes"},
		{"Sam\u0007", 400, "Samantha Reyes"},
	} {
		code, body := c.post("/api/webchat/users", map[string]any{"user": "sam92", "display_name": tc.display})
		if code != tc.code || name() != tc.want {
			t.Fatalf("display_name %q: %d %v, name %q; want %d and %q", tc.display, code, body, name(), tc.code, tc.want)
		}
		if code == 200 && body["display_name"] != tc.want {
			t.Fatalf("answer %v; want display_name %q", body, tc.want)
		}
	}
	// The login is unchanged: the same name signs in to the same person.
	if code, body := c.post("/api/webchat/users", map[string]any{"user": "SAM92"}); code != 200 || body["display_name"] != "Samantha Reyes" {
		t.Fatalf("sign in again: %d %v", code, body)
	}
	mustContain(t, c.say("call me Sammy"), "call you Sammy")
	if got := name(); got != "Sammy" {
		t.Fatalf("after “call me Sammy” the name is %q", got)
	}
	if r := c.say("call me back"); strings.Contains(r.Text, "call you") {
		t.Fatalf("“call me back” was taken for a name: %q", r.Text)
	}
	if got := name(); got != "Sammy" {
		t.Fatalf("after “call me back” the name is %q", got)
	}
	// Drafts are signed with it.
	c.say("Email sarah@example.com that I'll be late on Tuesday")
	drafts, err := app.Store.FindEmails(context.Background(), c.contact().User.ID, hearth.EmailDraft, 10)
	if err != nil || len(drafts) != 1 || !strings.Contains(drafts[0].Body, "Sammy") || strings.Contains(drafts[0].Body, "sam92") {
		t.Fatalf("drafts %+v (%v); want one signed Sammy", drafts, err)
	}
}

// TestConnectGoogleFromThePage: with Google configured, the page's API
// says the account is not connected, hands out the same consent link as
// the chat command, and after consent names the connected account;
// without Google it says so and hands out nothing.
func TestConnectGoogleFromThePage(t *testing.T) {
	t.Parallel()
	get := func(base, user string) map[string]any {
		t.Helper()
		res, err := http.Get(base + "/api/webchat/google?" + url.Values{"user": {user}}.Encode())
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("google status: %d", res.StatusCode)
		}
		var out map[string]any
		if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	t.Run("configured", func(t *testing.T) {
		t.Parallel()
		base, app, fake := startGoogleApp(t)
		c := newChatter(t, base, app, "Gail", "Europe/Paris")
		if st := get(base, "Gail"); st["configured"] != true || st["connected"] != false {
			t.Fatalf("before connecting: %v", st)
		}
		code, body := c.post("/api/webchat/google/connect", map[string]any{"user": "Gail"})
		link, _ := body["url"].(string)
		if code != 200 || !strings.HasPrefix(link, fake.URL) || !strings.Contains(link, "state=") {
			t.Fatalf("connect: %d %v", code, body)
		}
		fake.SetConsent("gail@example.com")
		res, err := http.Get(link)
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || !strings.Contains(string(page), "gail@example.com") {
			t.Fatalf("consent: %d %s", res.StatusCode, page)
		}
		if st := get(base, "Gail"); st["connected"] != true || st["account"] != "gail@example.com" {
			t.Fatalf("after connecting: %v", st)
		}
		if code, _ := c.post("/api/webchat/google/connect", map[string]any{"user": "nobody here"}); code != 400 {
			t.Fatalf("connect for an unknown user = %d; want 400", code)
		}
	})
	t.Run("not configured", func(t *testing.T) {
		t.Parallel()
		base, app, _ := startApp(t)
		c := newChatter(t, base, app, "Nell", "UTC")
		if st := get(base, "Nell"); st["configured"] != false {
			t.Fatalf("status without Google: %v", st)
		}
		if code, _ := c.post("/api/webchat/google/connect", map[string]any{"user": "Nell"}); code != 404 {
			t.Fatalf("connect without Google = %d; want 404", code)
		}
	})
}
