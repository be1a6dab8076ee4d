package signin

import (
	"net/http"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzCheckName: a name that passes is tidy, valid UTF-8, without control
// characters and at most MaxNameRunes long; one that fails says why.
func FuzzCheckName(f *testing.F) {
	for _, s := range []string{"Ann", "  Ann   Lee ", "", "\x00", "é", strings.Repeat("x", 65), "a\tb", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		name, reason := CheckName(raw)
		if reason != "" {
			if name != "" {
				t.Fatalf("CheckName(%q) = %q with reason %q", raw, name, reason)
			}
			return
		}
		if name == "" || !utf8.ValidString(name) || utf8.RuneCountInString(name) > MaxNameRunes ||
			strings.IndexFunc(name, unicode.IsControl) >= 0 || name != strings.Join(strings.Fields(name), " ") {
			t.Fatalf("CheckName(%q) accepted %q", raw, name)
		}
	})
}

// FuzzClientIP: whatever the peer and X-Forwarded-For say, the client
// address is the peer's or a parsable address a local proxy forwarded,
// never a header's arbitrary text.
func FuzzClientIP(f *testing.F) {
	f.Add("127.0.0.1:5000", "203.0.113.9")
	f.Add("10.0.0.2:1", "1.2.3.4, 5.6.7.8")
	f.Add("198.51.100.1:1", "9.9.9.9")
	f.Add("[::1]:80", "not an ip")
	f.Fuzz(func(t *testing.T, remote, xff string) {
		r := &http.Request{RemoteAddr: remote, Header: http.Header{"X-Forwarded-For": {xff}}}
		ip := clientIP(r)
		if ip == remote || strings.HasPrefix(remote, ip) || strings.HasPrefix(remote, "["+ip+"]") {
			return
		}
		if !strings.Contains(xff, ip) {
			t.Fatalf("clientIP(%q, %q) = %q: from neither", remote, xff, ip)
		}
	})
}
