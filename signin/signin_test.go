package signin_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"sync"
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
	clock *clock
}

// clock is the service's injected clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *clock) add(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.now = c.now.Add(d) }

func setup(t *testing.T) *testBundle { return setupWith(t, nil) }

// setupWith is setup with the service's config changed by edit.
func setupWith(t *testing.T, edit func(*signin.Config)) *testBundle {
	t.Helper()
	st, _ := storetest.Open(t)
	clk := &clock{now: time.Now()}
	cfg := signin.Config{Store: st, PublicURL: publicURL, Now: clk.Now}
	if edit != nil {
		edit(&cfg)
	}
	svc, err := signin.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(svc)
	t.Cleanup(srv.Close)
	return &testBundle{store: st, svc: svc, srv: srv, clock: clk}
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
	// A name is an account too: 30 attempts an hour on it, from anywhere.
	for i := range 31 {
		c := b.browser(t)
		c.header.Set("X-Forwarded-For", fmt.Sprintf("203.0.113.%d", i))
		code, _ := c.do("POST", "/api/signin/first", map[string]string{"name": "eve"})
		if (code == 429) != (i == 30) {
			t.Fatalf("attempt %d on the name eve = %d; want 429 only from the 31st", i+1, code)
		}
	}
}

// passkeyCredential is a virtual authenticator's P-256 credential whose public
// key coordinates are a full 32 bytes. virtualwebauthn encodes them with
// big.Int.Bytes, which drops leading zeros, so about one key in 128 reaches
// the server malformed and the registration is (rightly) refused.
func passkeyCredential(t *testing.T) virtualwebauthn.Credential {
	t.Helper()
	for {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		if len(key.X.Bytes()) != 32 || len(key.Y.Bytes()) != 32 {
			continue
		}
		der, err := x509.MarshalPKCS8PrivateKey(key)
		if err != nil {
			t.Fatal(err)
		}
		return virtualwebauthn.NewCredentialWithImportedKey(virtualwebauthn.KeyTypeEC2, der)
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
	cred := passkeyCredential(t)

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

	// Attempts on Ann's account from many addresses: counted together,
	// 30 an hour (3 so far), then 429, her own passkey included, until
	// the hour has passed.
	from := func(i int) *browser {
		c := b.browser(t)
		c.header.Set("X-Forwarded-For", fmt.Sprintf("198.51.100.%d", i))
		return c
	}
	forge := func(c *browser) int {
		code, begin := c.do("POST", "/api/signin/passkey/begin", nil)
		if code != 200 {
			t.Fatalf("login begin = %d %v", code, begin)
		}
		optJSON, _ := json.Marshal(begin["options"])
		aopts, _ := virtualwebauthn.ParseAssertionOptions(string(optJSON))
		code, _ = c.do("POST", "/api/signin/passkey/finish?ceremony="+begin["ceremony"].(string),
			virtualwebauthn.CreateAssertionResponse(evil, authn, cred, *aopts))
		return code
	}
	for i := 3; i < 30; i++ {
		if code := forge(from(i)); code != 401 {
			t.Fatalf("attempt %d on the account = %d; want 401", i+1, code)
		}
	}
	if code := forge(from(100)); code != 429 {
		t.Fatalf("attempt 31 on the account, from a new address = %d; want 429", code)
	}
	if code, _, _ := login(from(101)); code != 429 {
		t.Fatalf("Ann's own passkey while her account is limited = %d; want 429", code)
	}
	b.clock.add(time.Hour)
	if code, body, _ := login(from(102)); code != 200 || body["user"] != "Ann" {
		t.Fatalf("Ann's passkey an hour later = %d %v; want 200", code, body)
	}
}

// TestSessionsRenewedOnUse: a session used in its last 7 days lasts 30
// days from then (and the page's cookie follows), an unused one expires;
// with renewal from the first day, use writes at most once an hour.
func TestSessionsRenewedOnUse(t *testing.T) {
	t.Parallel()
	const day = 24 * time.Hour
	for _, tc := range []struct {
		name        string
		renewWithin time.Duration
		after       time.Duration
		renewed     bool
		expired     bool
	}{
		{"used early: left alone", 0, 22 * day, false, false},
		{"used in its last week: renewed", 0, 24 * day, true, false},
		{"not used: expired", 0, 30*day + time.Second, false, true},
		{"renewing always: not within the hour", 30 * day, 59 * time.Minute, false, false},
		{"renewing always: after the hour", 30 * day, 61 * time.Minute, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := setupWith(t, func(c *signin.Config) { c.RenewWithin = tc.renewWithin })
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
				t.Fatalf("sign in = %d", code)
			}
			expiry := func() time.Time {
				var at time.Time
				if err := b.store.Pool().QueryRow(ctx, `SELECT expires_at FROM web_sessions`).Scan(&at); err != nil {
					t.Fatal(err)
				}
				return at
			}
			signedIn := b.clock.Now()
			b.clock.add(tc.after)
			used := b.clock.Now()
			req, _ := http.NewRequest("GET", b.srv.URL+"/api/signin/me", nil)
			res, err := c.client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if tc.expired {
				if res.StatusCode != 401 {
					t.Fatalf("me %s after sign-in = %d; want 401", tc.after, res.StatusCode)
				}
				return
			}
			if res.StatusCode != 200 {
				t.Fatalf("me = %d", res.StatusCode)
			}
			want := signedIn.Add(30 * day)
			if tc.renewed {
				want = used.Add(30 * day)
			}
			if got := expiry(); got.Sub(want).Abs() > time.Millisecond {
				t.Fatalf("session expires %s after sign-in; want %s", got.Sub(signedIn), want.Sub(signedIn))
			}
			cookies := res.Cookies()
			if len(cookies) != 1 || time.Duration(cookies[0].MaxAge)*time.Second-want.Sub(used) > time.Second || cookies[0].MaxAge <= 0 {
				t.Fatalf("cookie %v; want it kept %s", cookies, want.Sub(used))
			}
		})
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
