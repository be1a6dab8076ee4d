package telegram

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCallbackData(t *testing.T) {
	t.Parallel()
	data, err := encodeCallbackData(123, "approve:9")
	if err != nil || data != "123|approve:9" {
		t.Fatalf("encode: %q, %v", data, err)
	}
	if id, button, ok := decodeCallbackData(data); !ok || id != 123 || button != "approve:9" {
		t.Fatalf("decode: %d %q %v", id, button, ok)
	}
	for _, bad := range []string{"", "|", "5|", "|yes", "0|yes", "-3|yes", "+5|yes", "05|yes", "x|yes", "99999999999999999999|yes", "5|" + strings.Repeat("y", 63), "5|\xff"} {
		if _, _, ok := decodeCallbackData(bad); ok {
			t.Errorf("decoded %q", bad)
		}
	}
	if _, err := encodeCallbackData(1, strings.Repeat("y", 63)); err == nil {
		t.Error("encoded more than 64 bytes")
	}
	if _, err := encodeCallbackData(0, "yes"); err == nil {
		t.Error("encoded message id 0")
	}
}

// FuzzCallbackData: the decoder never panics, accepts only what fits in
// Telegram's 64 bytes, and what it accepts encodes back to the same
// bytes (one spelling per click, so dedupe keys cannot diverge).
func FuzzCallbackData(f *testing.F) {
	for _, s := range []string{"1|yes", "123|approve:9", "9223372036854775807|x", "5||", "05|yes", "+5|yes", "", "|", "5|\xff", "1|" + strings.Repeat("é", 31)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		id, button, ok := decodeCallbackData(data)
		if !ok {
			return
		}
		if len(data) > maxCallbackData || id <= 0 || button == "" || !utf8.ValidString(button) {
			t.Fatalf("decoded %q to %d %q", data, id, button)
		}
		again, err := encodeCallbackData(id, button)
		if err != nil || again != data {
			t.Fatalf("%q decoded to %d %q, which encodes to %q, %v", data, id, button, again, err)
		}
	})
}
