package google_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hearthbot/hearth/integrations/google"
	"github.com/hearthbot/hearth/integrations/google/googletest"
)

const (
	pushAudience = "https://hearth.example/gmail-push"
	pushAccount  = "pubsub-push@hearth-test.iam.gserviceaccount.com"
)

// logged keeps what the integration logs, for the refusals' reasons.
type logged struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logged) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// take returns what was logged since the last take.
func (l *logged) take() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.buf.String()
	l.buf.Reset()
	return s
}

func withPushAuth(log *logged) func(c *google.Config) {
	return func(c *google.Config) {
		c.GmailTopic = topic
		c.PushAudience, c.PushServiceAccount = pushAudience, pushAccount
		c.Log = slog.New(slog.NewTextHandler(log, nil))
	}
}

// pushWith posts a Pub/Sub delivery to url with an Authorization header
// (none when empty) and returns the status.
func pushWith(t *testing.T, url, authorization string, body []byte) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// pushClaims are the claims of the token Pub/Sub attaches for the
// configured subscription, changed by edit.
func pushClaims(edit func(map[string]any)) map[string]any {
	now := time.Now()
	c := map[string]any{
		"iss": "https://accounts.google.com", "aud": pushAudience, "azp": "1234567890",
		"email": pushAccount, "email_verified": true, "sub": "1234567890",
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(),
	}
	if edit != nil {
		edit(c)
	}
	return c
}

func TestGmailPushSignedToken(t *testing.T) {
	t.Parallel()
	var log logged
	b := setup(t, "UTC", withPushAuth(&log))
	b.connectWith(t, google.GmailScopes...)
	url := b.g.GmailPushURL()
	body := b.fake.GmailPush(email)
	// The poll connecting enqueued begins, so that a push asks for the
	// next one.
	if _, err := b.mail().Poll(context.Background(), b.user.ID); err != nil {
		t.Fatal(err)
	}
	polls := b.jobs(t, "google_mail_poll")

	mine, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	valid := b.fake.IDToken(pushClaims(nil))
	head, rest, _ := strings.Cut(valid, ".")
	_, sig, _ := strings.Cut(rest, ".")
	// Another token's payload, valid in itself, under the valid token's
	// signature.
	otherPayload := strings.Split(b.fake.IDToken(pushClaims(func(c map[string]any) { c["sub"] = "someone else" })), ".")[1]

	for _, tc := range []struct {
		name, authorization, reason string
	}{
		{"missing", "", "no bearer token"},
		{"not bearer", "Basic " + valid, "no bearer token"},
		{"empty bearer", "Bearer ", "no bearer token"},
		{"not a JWT", "Bearer abc", "not an RS256 token"},
		{"wrong audience", "Bearer " + b.fake.IDToken(pushClaims(func(c map[string]any) { c["aud"] = "https://elsewhere.example" })), "audience"},
		{"wrong email", "Bearer " + b.fake.IDToken(pushClaims(func(c map[string]any) { c["email"] = "someone@evil.iam.gserviceaccount.com" })), "not the push service account"},
		{"email not verified", "Bearer " + b.fake.IDToken(pushClaims(func(c map[string]any) { c["email_verified"] = false })), "email not verified"},
		{"no email", "Bearer " + b.fake.IDToken(pushClaims(func(c map[string]any) { delete(c, "email") })), "not the push service account"},
		{"wrong issuer", "Bearer " + b.fake.IDToken(pushClaims(func(c map[string]any) { c["iss"] = "https://evil.example" })), "is not Google"},
		{"expired", "Bearer " + b.fake.IDToken(pushClaims(func(c map[string]any) { c["exp"] = time.Now().Add(-time.Minute).Unix() })), "expired"},
		{"signed by another key", "Bearer " + googletest.SignJWT(mine, googletest.KeyID, pushClaims(nil)), "verification error"},
		{"unknown key id", "Bearer " + googletest.SignJWT(mine, "other-kid", pushClaims(nil)), "could not find matching cert"},
		{"payload swapped", "Bearer " + head + "." + otherPayload + "." + sig, "verification error"},
		{"signature cut", "Bearer " + head + "." + strings.Split(valid, ".")[1] + "." + sig[:len(sig)-4], "verification error"},
		{"ES256 header", "Bearer eyJhbGciOiJFUzI1NiIsImtpZCI6IngifQ." + strings.Split(valid, ".")[1] + ".AAAA", "not an RS256 token"},
	} {
		if s := pushWith(t, url, tc.authorization, body); s != http.StatusForbidden {
			t.Errorf("%s: %d, want 403", tc.name, s)
		}
		// Refused for the reason the case is about, and the token is
		// not in the log.
		got := log.take()
		if !strings.Contains(got, tc.reason) {
			t.Errorf("%s: logged %q, want the reason %q", tc.name, got, tc.reason)
		}
		if _, tok, _ := strings.Cut(tc.authorization, " "); len(tok) > 8 && strings.Contains(got, tok) {
			t.Errorf("%s: the token was logged", tc.name)
		}
	}
	if n := b.jobs(t, "google_mail_poll"); n != polls {
		t.Fatalf("refused pushes enqueued %d polls", n-polls)
	}

	// A valid token without the URL's token is still refused.
	if s := pushWith(t, b.hook.URL+google.GmailPushPath, "Bearer "+valid, body); s != http.StatusForbidden {
		t.Fatalf("a valid signed token without the URL token: %d, want 403", s)
	}
	// Both: accepted and enqueued; the other issuer form too.
	if s := pushWith(t, url, "Bearer "+valid, body); s != http.StatusNoContent {
		t.Fatalf("a valid push: %d, want 204", s)
	}
	if n := b.jobs(t, "google_mail_poll"); n != polls+1 {
		t.Fatalf("%d mail polls after a valid push, want %d", n, polls+1)
	}
	bare := b.fake.IDToken(pushClaims(func(c map[string]any) { c["iss"] = "accounts.google.com" }))
	if s := pushWith(t, url, "bearer "+bare, body); s != http.StatusNoContent {
		t.Fatalf("a valid push (iss accounts.google.com): %d, want 204", s)
	}
	// Google's certificates were fetched once, then cached as their
	// Cache-Control allows.
	if n := b.fake.Count("GET /oauth2/v3/certs"); n != 1 {
		t.Fatalf("certificates fetched %d times, want 1", n)
	}
}

func TestGmailPushAuthConfig(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		audience, account string
		ok                bool
	}{
		{"", "", true},
		{pushAudience, pushAccount, true},
		{pushAudience, "", false},
		{"", pushAccount, false},
		{pushAudience, "not an address", false},
		{pushAudience, "Push <" + pushAccount + ">", false},
	} {
		err := google.CheckPushAuth(tc.audience, tc.account)
		if (err == nil) != tc.ok || (err != nil && !strings.Contains(err.Error(), "HEARTH_GMAIL_PUSH_")) {
			t.Errorf("CheckPushAuth(%q, %q): %v", tc.audience, tc.account, err)
		}
	}
}

func FuzzJWTAlg(f *testing.F) {
	for _, s := range []string{
		"eyJhbGciOiJSUzI1NiJ9.e30.sig", "eyJhbGciOiJFUzI1NiIsImtpZCI6IngifQ.x.y", "abc", "", ".", "e30.", "eyJhbGciOjF9.x.y", "eyJhbGciOiJSUzI1NiJ9==.x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tok string) {
		alg, err := google.JWTAlg(tok)
		if err != nil && alg != "" {
			t.Fatalf("an error with an algorithm %q", alg)
		}
		if err == nil && !strings.Contains(tok, ".") {
			t.Fatalf("%q read as a JWT", tok)
		}
	})
}
