package commands

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestCallMe: which "call me …" and "change my name to …" messages name
// the user.
func TestCallMe(t *testing.T) {
	t.Parallel()
	cmd := NameCommand(nil)
	for _, tc := range []struct {
		text  string
		match bool   // the command is tried
		name  string // "" when it is not a name after all
	}{
		{"call me Sam", true, "Sam"},
		{"Call me Sam Reyes.", true, "Sam Reyes"},
		{"call me Dr Sam O'Neil", true, "Dr Sam O'Neil"},
		{"call me Dr Sam O Neil", false, ""}, // four words: not tried
		{"call me back", true, ""},
		{"call me tomorrow at 5", true, ""},
		{"call me", false, ""},
		{"please call me Sam", false, ""},
		{"call me Émile", true, "Émile"},
		{"Change my name to Adaline", true, "Adaline"},
		{"change my name to something shorter", true, ""},
	} {
		if got := cmd.Match(Normalise(tc.text)); got != tc.match {
			t.Errorf("%q: matched %v; want %v", tc.text, got, tc.match)
			continue
		}
		if !tc.match {
			continue
		}
		name, ok := newName(tc.text)
		if !ok {
			name = ""
		}
		if name != tc.name {
			t.Errorf("%q: name %q; want %q", tc.text, name, tc.name)
		}
	}
}

// FuzzCallMe: reading a name never panics, and what it takes for a name
// is one to three words, each capitalised, from the message itself.
func FuzzCallMe(f *testing.F) {
	for _, s := range []string{"call me Sam", "CALL ME back", "call me Élise Åström", "call me \u0007X", "call me", "call me  ", "change my name to Ada"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		rest, ok := newName(text)
		if !ok {
			return
		}
		words := strings.Fields(rest)
		if len(words) == 0 || len(words) > 3 || !strings.Contains(text, words[0]) {
			t.Fatalf("%q: took %q for a name", text, rest)
		}
		for _, w := range words {
			if r, _ := utf8.DecodeRuneInString(w); !unicode.IsUpper(r) {
				t.Fatalf("%q: word %q of the name is not capitalised", text, w)
			}
		}
	})
}
