package google

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"
	"time"
)

func testKeys(t testing.TB, b byte) *Keys {
	t.Helper()
	k, err := NewKeys(bytes.Repeat([]byte{b}, 32))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestParseKey(t *testing.T) {
	tests := []struct {
		name, in string
		ok       bool
	}{
		{"openssl output", base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{1}, 32)), true},
		{"with newline", base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{1}, 32)) + "\n", true},
		{"too short", base64.StdEncoding.EncodeToString([]byte("short")), false},
		{"not base64", "not base64!!", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseKey(tt.in)
			if (err == nil) != tt.ok {
				t.Fatalf("ParseKey: %v", err)
			}
			if err != nil && !strings.Contains(err.Error(), "HEARTH_ENCRYPTION_KEY") {
				t.Fatalf("error does not name the variable: %v", err)
			}
		})
	}
}

func TestSealOpen(t *testing.T) {
	k := testKeys(t, 1)
	sealed := k.Seal(7, []byte(`{"refresh_token":"secret"}`))
	if bytes.Contains(sealed, []byte("secret")) {
		t.Fatal("sealed text shows the plaintext")
	}
	if got, err := k.Open(7, sealed); err != nil || string(got) != `{"refresh_token":"secret"}` {
		t.Fatalf("open: %q %v", got, err)
	}
	if _, err := k.Open(8, sealed); err == nil {
		t.Fatal("another user's row opened the token")
	}
	if _, err := testKeys(t, 2).Open(7, sealed); err == nil {
		t.Fatal("another key opened the token")
	}
	tampered := bytes.Clone(sealed)
	tampered[len(tampered)-1] ^= 1
	if _, err := k.Open(7, tampered); err == nil {
		t.Fatal("a tampered token opened")
	}
	if bytes.Equal(k.Seal(7, []byte("x")), k.Seal(7, []byte("x"))) {
		t.Fatal("nonces repeat")
	}
}

func TestKeysAreSeparatePerUse(t *testing.T) {
	k := testKeys(t, 1)
	if bytes.Equal(k.state, k.channel) {
		t.Fatal("the state and channel keys are the same")
	}
	if !k.ValidChannelToken("c1", k.ChannelToken("c1")) || k.ValidChannelToken("c2", k.ChannelToken("c1")) {
		t.Fatal("channel tokens")
	}
	// A channel token is no state signature.
	if _, err := k.ParseState("1.9999999999.x."+k.ChannelToken("1.9999999999.x"), time.Now()); err == nil {
		t.Fatal("a channel token signed a state")
	}
}

func TestState(t *testing.T) {
	k := testKeys(t, 1)
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	s := k.NewState(42, now)
	if id, err := k.ParseState(s, now.Add(StateTTL-time.Second)); err != nil || id != 42 {
		t.Fatalf("fresh state: %d %v", id, err)
	}
	if _, err := k.ParseState(s, now.Add(StateTTL)); err == nil {
		t.Fatal("an expired state parsed")
	}
	if _, err := testKeys(t, 2).ParseState(s, now); err == nil {
		t.Fatal("another server's state parsed")
	}
}

// FuzzParseState: nothing panics, and only states NewState signed parse
// (every worker process makes its own good state, with its own nonce, so
// a parsed state must be one of those: user 42, signed).
func FuzzParseState(f *testing.F) {
	k := testKeys(f, 1)
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	good := k.NewState(42, now)
	f.Add(good)
	f.Add("")
	f.Add("1.2.3.4")
	f.Add(strings.Replace(good, "42", "43", 1))
	f.Fuzz(func(t *testing.T, s string) {
		id, err := k.ParseState(s, now)
		if err == nil && (id != 42 || !strings.HasPrefix(s, "42.") || strings.Count(s, ".") != 3) {
			t.Fatalf("forged state %q parsed as user %d", s, id)
		}
	})
}

func TestEndpointsFor(t *testing.T) {
	for _, base := range []string{"http://fake:1", "http://fake:1/"} {
		e := EndpointsFor(base)
		if e.OAuth.AuthURL != "http://fake:1/o/oauth2/auth" || e.OAuth.TokenURL != "http://fake:1/token" ||
			e.Revoke != "http://fake:1/revoke" || e.API != "http://fake:1/" {
			t.Fatalf("%s: %+v", base, e)
		}
	}
	if g := EndpointsFor(""); !strings.HasPrefix(g.OAuth.AuthURL, "https://accounts.google.com/") || g.API != "" {
		t.Fatalf("google's: %+v", g)
	}
}

// TestOldKeys: what the old key sealed or signed still reads after a
// rotation (tokens, consent links, push channels); new writes use only
// the current key.
func TestOldKeys(t *testing.T) {
	a, b := testKeys(t, 1), testKeys(t, 2)
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	sealed, state, channel := a.Seal(7, []byte("tok")), a.NewState(42, now), a.ChannelToken("c1")
	rotated := b.WithOld(a)
	if got, err := rotated.Open(7, sealed); err != nil || string(got) != "tok" {
		t.Fatalf("old token: %q %v", got, err)
	}
	if id, err := rotated.ParseState(state, now); err != nil || id != 42 {
		t.Fatalf("old state: %d %v", id, err)
	}
	if !rotated.ValidChannelToken("c1", channel) || rotated.ValidChannelToken("c2", channel) {
		t.Fatal("old channel token")
	}
	// The Gmail push token: the old one is taken while its key is
	// listed; it is not the channel key's MAC of the same words, nor
	// valid under another key alone.
	if !rotated.ValidPushToken(a.PushToken()) || !rotated.ValidPushToken(b.PushToken()) || b.ValidPushToken(a.PushToken()) {
		t.Fatal("old push token")
	}
	if a.PushToken() == a.ChannelToken("gmail push") || rotated.ValidPushToken("") || rotated.ValidPushToken("!!") {
		t.Fatal("push token not its own")
	}
	resealed, changed, err := rotated.Reseal(7, sealed)
	if err != nil || !changed {
		t.Fatalf("reseal: %v %v", changed, err)
	}
	if got, err := b.Open(7, resealed); err != nil || string(got) != "tok" {
		t.Fatalf("resealed under the current key alone: %q %v", got, err)
	}
	if again, changed, err := rotated.Reseal(7, resealed); err != nil || changed || !bytes.Equal(again, resealed) {
		t.Fatalf("reseal of a current token: %v %v", changed, err)
	}
	if _, err := a.Open(7, rotated.Seal(7, []byte("x"))); err == nil {
		t.Fatal("a new seal used the old key")
	}
	if _, _, err := b.Reseal(7, sealed); err == nil || !strings.Contains(err.Error(), "HEARTH_ENCRYPTION_OLD_KEYS") {
		t.Fatalf("reseal without the old key: %v", err)
	}
}

func TestParseKeys(t *testing.T) {
	one := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{1}, 32))
	two := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{2}, 32))
	tests := []struct {
		name, old string
		nOld      int
		ok        bool
	}{
		{"none", "", 0, true},
		{"one", two, 1, true},
		{"two with spaces", " " + two + " , " + one + " ,", 2, true},
		{"a bad one", two + ",short", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, err := ParseKeys(one, tt.old)
			if (err == nil) != tt.ok {
				t.Fatalf("ParseKeys: %v", err)
			}
			if err != nil {
				if !strings.Contains(err.Error(), "HEARTH_ENCRYPTION_OLD_KEYS entry 2") {
					t.Fatalf("error does not say which entry: %v", err)
				}
				return
			}
			if len(k.old) != tt.nOld {
				t.Fatalf("%d old keys, want %d", len(k.old), tt.nOld)
			}
		})
	}
}
