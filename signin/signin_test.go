package signin_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/descope/virtualwebauthn"

	"github.com/hearthbot/hearth/signin"
	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

const publicURL = "https://hearth.example"

type testBundle struct {
	store *store.Store
	svc   *signin.Service
	srv   *httptest.Server
}

func setup(t *testing.T) *testBundle {
	t.Helper()
	st, _ := storetest.Open(t)
	svc, err := signin.New(signin.Config{Store: st, PublicURL: publicURL})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(svc)
	t.Cleanup(srv.Close)
	return &testBundle{store: st, svc: svc, srv: srv}
}

// browser is one device: its own cookies, the CSRF token it was given,
// and Hearth's origin on every request, as a browser on the page sends.
type browser struct {
	t      *testing.T
	base   string
	client *http.Client
	csrf   string
	header http.Header
}

func (b *testBundle) browser(t *testing.T) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, base: b.srv.URL, client: &http.Client{Jar: jar}, header: http.Header{"Origin": {publicURL}}}
}

// do sends a request and returns the status and the decoded JSON answer.
func (c *browser) do(method, path string, body any) (int, map[string]any) {
	c.t.Helper()
	var r io.Reader
	if s, ok := body.(string); ok {
		r = strings.NewReader(s)
	} else if body != nil {
		buf, _ := json.Marshal(body)
		r = bytes.NewReader(buf)
	}
	req, err := http.NewRequest(method, c.base+path, r)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header = c.header.Clone()
	req.Header.Set("Content-Type", "application/json")
	if c.csrf != "" {
		req.Header.Set(signin.CSRFHeader, c.csrf)
	}
	res, err := c.client.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	json.NewDecoder(res.Body).Decode(&out) //nolint:errcheck // callers check the status
	if csrf, ok := out["csrf"].(string); ok {
		c.csrf = csrf
	}
	return res.StatusCode, out
}

func tokenOf(t *testing.T, link string) string {
	t.Helper()
	_, token, ok := strings.Cut(link, "#signin=")
	if !ok || !strings.HasPrefix(link, publicURL+"/") {
		t.Fatalf("link %q: want %s/#signin=TOKEN", link, publicURL)
	}
	return token
}

func TestSigninLinks(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	ann, err := b.store.AddWebUser(ctx, "Ann")
	if err != nil {
		t.Fatal(err)
	}
	link, err := b.svc.NewLink(ctx, ann.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	token := tokenOf(t, link)

	phone := b.browser(t)
	if code, _ := phone.do("GET", "/api/signin/me", nil); code != 401 {
		t.Fatalf("me before sign-in = %d; want 401", code)
	}
	if code, body := phone.do("POST", "/api/signin/link", map[string]string{"token": token}); code != 200 || body["user"] != "Ann" {
		t.Fatalf("redeem = %d %v; want 200 signed in as Ann", code, body)
	}
	if code, body := phone.do("GET", "/api/signin/me", nil); code != 200 || body["user"] != "Ann" {
		t.Fatalf("me = %d %v; want Ann", code, body)
	}

	// Used once: a replay (an attacker who saw the link) is refused.
	thief := b.browser(t)
	if code, _ := thief.do("POST", "/api/signin/link", map[string]string{"token": token}); code != 401 {
		t.Fatalf("replayed link = %d; want 401", code)
	}
	// Expired: a link older than its 15 minutes is refused.
	stale := "stale-token"
	h := sha256.Sum256([]byte(stale))
	if err := b.store.CreateSigninLink(ctx, ann.User.ID, h[:], -time.Second); err != nil {
		t.Fatal(err)
	}
	if code, _ := thief.do("POST", "/api/signin/link", map[string]string{"token": stale}); code != 401 {
		t.Fatalf("expired link = %d; want 401", code)
	}
	if code, _ := thief.do("POST", "/api/signin/link", map[string]string{"token": "made-up"}); code != 401 {
		t.Fatalf("made-up link = %d; want 401", code)
	}
	if code, _ := thief.do("GET", "/api/signin/me", nil); code != 401 {
		t.Fatalf("thief is signed in: %d", code)
	}
}

func TestSignOutAndCSRF(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	ann, err := b.store.AddWebUser(ctx, "Ann")
	if err != nil {
		t.Fatal(err)
	}
	signIn := func() *browser {
		link, err := b.svc.NewLink(ctx, ann.User.ID)
		if err != nil {
			t.Fatal(err)
		}
		c := b.browser(t)
		if code, body := c.do("POST", "/api/signin/link", map[string]string{"token": tokenOf(t, link)}); code != 200 {
			t.Fatalf("sign in: %d %v", code, body)
		}
		return c
	}
	laptop, phone, tablet := signIn(), signIn(), signIn()

	// A state-changing request without the CSRF token, with a wrong one,
	// or from another site is refused and changes nothing.
	csrf := laptop.csrf
	laptop.csrf = ""
	if code, _ := laptop.do("POST", "/api/signin/signout", nil); code != 401 {
		t.Fatalf("sign out without CSRF token = %d; want 401", code)
	}
	laptop.csrf = "wrong"
	if code, _ := laptop.do("POST", "/api/signin/signout", nil); code != 401 {
		t.Fatalf("sign out with a wrong CSRF token = %d; want 401", code)
	}
	laptop.csrf = csrf
	laptop.header.Set("Origin", "https://evil.example")
	if code, _ := laptop.do("POST", "/api/signin/signout", nil); code != 401 {
		t.Fatalf("sign out from another origin = %d; want 401", code)
	}
	laptop.header.Set("Origin", publicURL)
	if code, _ := laptop.do("GET", "/api/signin/me", nil); code != 200 {
		t.Fatalf("laptop signed out by a refused request: %d", code)
	}

	// Sign out on this device: the others stay in.
	if code, _ := laptop.do("POST", "/api/signin/signout", map[string]bool{"everywhere": false}); code != 200 {
		t.Fatalf("sign out = %d", code)
	}
	if code, _ := laptop.do("GET", "/api/signin/me", nil); code != 401 {
		t.Fatalf("laptop still signed in: %d", code)
	}
	if code, _ := phone.do("GET", "/api/signin/me", nil); code != 200 {
		t.Fatalf("phone signed out by the laptop: %d", code)
	}
	// Everywhere: every session ends.
	if code, _ := phone.do("POST", "/api/signin/signout", map[string]bool{"everywhere": true}); code != 200 {
		t.Fatalf("sign out everywhere = %d", code)
	}
	for name, c := range map[string]*browser{"phone": phone, "tablet": tablet} {
		if code, _ := c.do("GET", "/api/signin/me", nil); code != 401 {
			t.Fatalf("%s still signed in after sign out everywhere: %d", name, code)
		}
	}
}

func TestFirstAccount(t *testing.T) {
	t.Parallel()
	b := setup(t)
	c := b.browser(t)
	if code, body := c.do("GET", "/api/signin/me", nil); code != 401 || body["first_run"] != true {
		t.Fatalf("me on a fresh install = %d %v; want 401 with first_run", code, body)
	}
	// Through a proxy every request looks local: not trusted for this.
	c.header.Set("X-Forwarded-For", "203.0.113.9")
	if code, _ := c.do("POST", "/api/signin/first", map[string]string{"name": "Ann"}); code != 403 {
		t.Fatalf("first account through a proxy = %d; want 403", code)
	}
	c.header.Del("X-Forwarded-For")
	if code, body := c.do("POST", "/api/signin/first", map[string]string{"name": " Ann  Lee "}); code != 200 || body["user"] != "Ann Lee" {
		t.Fatalf("first account = %d %v", code, body)
	}
	other := b.browser(t)
	if code, body := other.do("GET", "/api/signin/me", nil); code != 401 || body["first_run"] == true {
		t.Fatalf("me after the first account = %d %v; want 401 without first_run", code, body)
	}
	if code, _ := other.do("POST", "/api/signin/first", map[string]string{"name": "Mallory"}); code != 403 {
		t.Fatalf("a second first account = %d; want 403", code)
	}
}

func TestAttemptsAreLimited(t *testing.T) {
	t.Parallel()
	b := setup(t)
	c := b.browser(t)
	for i := range 10 {
		if code, _ := c.do("POST", "/api/signin/link", map[string]string{"token": "guess"}); code != 401 {
			t.Fatalf("attempt %d = %d; want 401", i+1, code)
		}
	}
	if code, _ := c.do("POST", "/api/signin/link", map[string]string{"token": "guess"}); code != 429 {
		t.Fatalf("attempt 11 = %d; want 429", code)
	}
	// Another client is counted on its own.
	other := b.browser(t)
	other.header.Set("X-Forwarded-For", "198.51.100.7")
	if code, _ := other.do("POST", "/api/signin/link", map[string]string{"token": "guess"}); code != 401 {
		t.Fatalf("another client = %d; want 401", code)
	}
}

func TestPasskeys(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	ann, err := b.store.AddWebUser(ctx, "Ann")
	if err != nil {
		t.Fatal(err)
	}
	link, err := b.svc.NewLink(ctx, ann.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	laptop := b.browser(t)
	if code, body := laptop.do("POST", "/api/signin/link", map[string]string{"token": tokenOf(t, link)}); code != 200 {
		t.Fatalf("sign in: %d %v", code, body)
	}

	rp := virtualwebauthn.RelyingParty{Name: "Hearth", ID: "hearth.example", Origin: publicURL}
	authn := virtualwebauthn.NewAuthenticator()
	cred := virtualwebauthn.NewCredential(virtualwebauthn.KeyTypeEC2)

	// Register: only when signed in.
	if code, _ := b.browser(t).do("POST", "/api/signin/passkeys/begin", nil); code != 401 {
		t.Fatalf("register without a session = %d; want 401", code)
	}
	code, begin := laptop.do("POST", "/api/signin/passkeys/begin", nil)
	if code != 200 {
		t.Fatalf("register begin = %d %v", code, begin)
	}
	optJSON, _ := json.Marshal(begin["options"])
	opts, err := virtualwebauthn.ParseAttestationOptions(string(optJSON))
	if err != nil {
		t.Fatal(err)
	}
	attestation := virtualwebauthn.CreateAttestationResponse(rp, authn, cred, *opts)
	if code, body := laptop.do("POST", "/api/signin/passkeys/finish?ceremony="+begin["ceremony"].(string), attestation); code != 201 {
		t.Fatalf("register finish = %d %v", code, body)
	}
	authn.Options.UserHandle = []byte(opts.UserID)
	authn.AddCredential(cred)

	// Sign in on a new device with the passkey, the user not named.
	phone := b.browser(t)
	login := func(c *browser) (int, map[string]any, string) {
		code, begin := c.do("POST", "/api/signin/passkey/begin", nil)
		if code != 200 {
			t.Fatalf("login begin = %d %v", code, begin)
		}
		optJSON, _ := json.Marshal(begin["options"])
		opts, err := virtualwebauthn.ParseAssertionOptions(string(optJSON))
		if err != nil {
			t.Fatal(err)
		}
		assertion := virtualwebauthn.CreateAssertionResponse(rp, authn, cred, *opts)
		path := "/api/signin/passkey/finish?ceremony=" + begin["ceremony"].(string)
		code, body := c.do("POST", path, assertion)
		return code, body, path + "\x00" + assertion
	}
	code, body, used := login(phone)
	if code != 200 || body["user"] != "Ann" || body["passkeys"] != float64(1) {
		t.Fatalf("passkey sign-in = %d %v; want Ann with 1 passkey", code, body)
	}
	// The same assertion sent again (a replay) is refused: its ceremony
	// was spent.
	path, assertion, _ := strings.Cut(used, "\x00")
	if code, _ := b.browser(t).do("POST", path, assertion); code != 400 {
		t.Fatalf("replayed assertion = %d; want 400", code)
	}
	// An assertion for another site's challenge is refused.
	code, begin = b.browser(t).do("POST", "/api/signin/passkey/begin", nil)
	if code != 200 {
		t.Fatal(code)
	}
	evil := virtualwebauthn.RelyingParty{Name: "Evil", ID: "hearth.example", Origin: "https://evil.example"}
	optJSON, _ = json.Marshal(begin["options"])
	aopts, _ := virtualwebauthn.ParseAssertionOptions(string(optJSON))
	forged := virtualwebauthn.CreateAssertionResponse(evil, authn, cred, *aopts)
	if code, _ := b.browser(t).do("POST", "/api/signin/passkey/finish?ceremony="+begin["ceremony"].(string), forged); code != 401 {
		t.Fatalf("assertion from another origin = %d; want 401", code)
	}
	// Signing in again works (the sign count moves on).
	if code, body, _ := login(b.browser(t)); code != 200 || body["user"] != "Ann" {
		t.Fatalf("second passkey sign-in = %d %v", code, body)
	}
}

func TestExportAndDeleteAccount(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	ann, err := b.store.AddWebUser(ctx, "Ann")
	if err != nil {
		t.Fatal(err)
	}
	link, err := b.svc.NewLink(ctx, ann.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	c := b.browser(t)
	if code, _ := c.do("POST", "/api/signin/link", map[string]string{"token": tokenOf(t, link)}); code != 200 {
		t.Fatal(code)
	}
	res, err := c.client.Get(b.srv.URL + "/api/signin/export")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(res.Header.Get("Content-Disposition"), "attachment") || !strings.Contains(string(body), `"Ann"`) {
		t.Fatalf("export: %d %q %.200s", res.StatusCode, res.Header.Get("Content-Disposition"), body)
	}
	if code, _ := b.browser(t).do("GET", "/api/signin/export", nil); code != 401 {
		t.Fatalf("export signed out = %d; want 401", code)
	}
	if code, _ := c.do("POST", "/api/signin/delete", map[string]string{"confirm": "yes"}); code != 400 {
		t.Fatalf("delete without the confirmation = %d; want 400", code)
	}
	if code, _ := c.do("POST", "/api/signin/delete", map[string]string{"confirm": signin.DeleteConfirmation}); code != 200 {
		t.Fatalf("delete = %d", code)
	}
	if code, _ := c.do("GET", "/api/signin/me", nil); code != 401 {
		t.Fatalf("signed in after deleting the account: %d", code)
	}
	if _, err := b.store.FindUserByName(ctx, "Ann"); err == nil {
		t.Fatal("Ann is still there")
	}
}
