package voice

import (
	"os"
	"testing"
)

// A voice note's bytes come from whoever sent it: reading the sample rate
// from them never panics and always gives a rate Transcribe accepts.
func FuzzOpusSampleRate(f *testing.F) {
	if b, err := os.ReadFile("testdata/voice.ogg"); err == nil {
		f.Add(b[:min(len(b), 64)])
	}
	f.Add([]byte("OggS"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		if r := opusSampleRate(data); r < 8000 || r > 48000 {
			t.Fatalf("sample rate %d", r)
		}
	})
}
