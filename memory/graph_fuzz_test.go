package memory_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hearthbot/hearth/memory"
)

// FuzzReadGraph feeds arbitrary text to the memory graph's readers: they
// never panic, a note read has a name, a body and a valid lifetime, and a
// question read names at most five words.
func FuzzReadGraph(f *testing.F) {
	for _, s := range []string{"note that Bob is stressed about the move for a week", "note on Bob: x forever",
		"what notes do you have on Bob?", "who is Emma close to?", "how do I know Priya?", "what's going on?",
		"note that  for a week", "note on : ", "what's been going on with ?"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		name, body, l, ok := memory.ReadGraphNote(s)
		if ok && (strings.TrimSpace(name) == "" || body == "" || !l.Valid()) {
			t.Errorf("%q: note %q %q %q", s, name, body, l)
		}
		if ok && utf8.ValidString(s) && !utf8.ValidString(body) {
			t.Errorf("%q: body %q not UTF-8", s, body)
		}
		if q, ok := memory.ReadGraphQuestion(s); ok && len(strings.Fields(q.Name)) > 5 {
			t.Errorf("%q: question %+v", s, q)
		}
	})
}
