package slack

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestButtonValue(t *testing.T) {
	t.Parallel()
	v, err := encodeButtonValue(123, "approve:9")
	if err != nil || v != "123|approve:9" {
		t.Fatalf("encode: %q, %v", v, err)
	}
	if id, button, ok := decodeButtonValue(v); !ok || id != 123 || button != "approve:9" {
		t.Fatalf("decode: %d %q %v", id, button, ok)
	}
	for _, bad := range []string{"", "|", "5|", "|yes", "0|yes", "-3|yes", "+5|yes", "05|yes", "x|yes", "99999999999999999999|yes", "5|" + strings.Repeat("y", maxButtonValue), "5|\xff"} {
		if _, _, ok := decodeButtonValue(bad); ok {
			t.Errorf("decoded %q", bad)
		}
	}
	if _, err := encodeButtonValue(1, strings.Repeat("y", maxButtonValue)); err == nil {
		t.Error("encoded more than Slack's limit")
	}
	if _, err := encodeButtonValue(0, "yes"); err == nil {
		t.Error("encoded message id 0")
	}
}

// The published example of Slack's "Verifying requests from Slack".
func TestHMACPublishedExample(t *testing.T) {
	t.Parallel()
	if !hmacOK(publishedSecret, publishedTimestamp, publishedSignature, []byte(publishedBody)) {
		t.Fatal("Slack's published example does not verify")
	}
	if hmacOK(publishedSecret, publishedTimestamp, publishedSignature, []byte(publishedBody+"x")) {
		t.Fatal("a changed body verifies")
	}
}

const (
	publishedSecret    = "8f742231b10e8888abcd99yyyzzz85a5"
	publishedTimestamp = "1531420618"
	publishedBody      = "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c"
	publishedSignature = "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503"
)

// FuzzButtonValue: the decoder never panics, accepts only what fits in
// Slack's limit, and what it accepts encodes back to the same bytes (one
// spelling per click, so dedupe keys cannot diverge).
func FuzzButtonValue(f *testing.F) {
	for _, s := range []string{"1|yes", "123|approve:9", "9223372036854775807|x", "5||", "05|yes", "+5|yes", "", "|", "5|\xff", "1|" + strings.Repeat("é", 31)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		id, button, ok := decodeButtonValue(v)
		if !ok {
			return
		}
		if len(v) > maxButtonValue || id <= 0 || button == "" || !utf8.ValidString(button) {
			t.Fatalf("decoded %q to %d %q", v, id, button)
		}
		again, err := encodeButtonValue(id, button)
		if err != nil || again != v {
			t.Fatalf("%q decoded to %d %q, which encodes to %q, %v", v, id, button, again, err)
		}
	})
}
