package store

import (
	"strings"
	"testing"
	"unicode"
)

// FuzzWordsQuery: whatever the words, the query is made of lexemes, ":*"
// and " & " only, so to_tsquery never fails on a user's text.
func FuzzWordsQuery(f *testing.F) {
	for _, s := range []string{"when does my passport expire?", "peanuts!! & (priya):", "o'brien 10:30", "", "!:*|&"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		q := wordsQuery(text)
		if q == "" {
			return
		}
		for _, term := range strings.Split(q, " & ") {
			lexeme := strings.TrimSuffix(term, ":*")
			if lexeme == "" || strings.IndexFunc(lexeme, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) >= 0 {
				t.Fatalf("wordsQuery(%q) = %q: term %q is not a word", text, q, term)
			}
		}
	})
}
