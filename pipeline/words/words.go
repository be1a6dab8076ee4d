// Package words is the word matching the offline stages share: whole-word
// search in lower-cased text, trimming of filler words, and fuzzy matching
// of a named item against titles ("the dentist" → "Dentist appointment").
package words

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/hearthbot/hearth/internal/prose"
)

// StripPoliteness drops what leads into a request without being part of
// it: "please", "can you", "hey", and the second thoughts that start a
// change to what was just said ("actually make it 8", "no, 8pm", "oops").
func StripPoliteness(lc string) string {
	for {
		old := lc
		for _, p := range []string{"please ", "can you ", "could you ", "would you ", "will you ", "hey ", "hi ", "ok ", "okay ", "also ", "and ",
			"actually, ", "actually ", "oh, ", "oh ", "oops, ", "oops ", "hmm, ", "hmm ", "um, ", "um ", "sorry, ", "wait, ", "no, ", "no wait, ", "no wait "} {
			lc = strings.TrimPrefix(lc, p)
		}
		if lc == old {
			return lc
		}
	}
}

// DropFillers takes out what a spoken message carries that is no word
// of the request: "um", "uh", "erm" anywhere, and a leading "so" ("ok so
// tomorrow I have …", a voice note's "call the plumber uh tomorrow").
// Line breaks and the rest stay as they are.
func DropFillers(text string) string {
	text = reFiller.ReplaceAllString(text, "")
	return reLeadingSo.ReplaceAllString(text, "")
}

var (
	reFiller    = regexp.MustCompile(`(?i)\b(?:um+|uh+|uhm|erm|ehm)\b[,.…]*[ \t]*`)
	reLeadingSo = regexp.MustCompile(`(?i)^\s*(?:(?:ok|okay|alright|right|hey|hi)[,!]?\s+)?so[,]?\s+`)
)

// asciiLower lower-cases ASCII letters only, so byte offsets in the
// result are offsets in the original.
func ASCIILower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func IsWordChar(c byte) bool {
	return c == '\'' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// wordAt finds t in s (both lower-case) where it starts a word, and
// ends one if t ends in a letter (a separator like ":" may follow a
// word directly).
func WordAt(s, t string) int {
	for off := 0; off <= len(s); {
		i := strings.Index(s[off:], t)
		if i < 0 {
			return -1
		}
		i += off
		end := i + len(t)
		startOK := i == 0 || !IsWordChar(s[i-1]) || !IsWordChar(t[0])
		endOK := end == len(s) || !IsWordChar(t[len(t)-1]) || !IsWordChar(s[end])
		if startOK && endOK {
			return i
		}
		off = i + 1
	}
	return -1
}

func ContainsWord(lc, t string) bool { return WordAt(lc, t) >= 0 }

// afterAny returns what follows the first trigger found (at a word
// start, case-insensitively) in s, keeping s's case.
func AfterAny(s string, triggers ...string) (rest, trigger string, ok bool) {
	lc := ASCIILower(s)
	best := -1
	for _, t := range triggers {
		if i := WordAt(lc, t); i >= 0 && (best < 0 || i < best || i == best && len(t) > len(trigger)) {
			best, trigger = i, t
		}
	}
	if best < 0 {
		return "", "", false
	}
	return strings.TrimSpace(s[best+len(trigger):]), trigger, true
}

// cutBefore returns s up to the first separator found at a word start,
// and what follows it.
func CutBefore(s string, seps ...string) (before, rest string, found bool) {
	before, rest, sep := CutSep(s, seps...)
	return before, rest, sep != ""
}

// cutSep is cutBefore that also says which separator it cut at.
func CutSep(s string, seps ...string) (before, rest, sep string) {
	lc := ASCIILower(s)
	best := -1
	for _, p := range seps {
		if i := WordAt(lc, p); i >= 0 && (best < 0 || i < best) {
			best, sep = i, p
		}
	}
	if best < 0 {
		return s, "", ""
	}
	return strings.TrimSpace(s[:best]), strings.TrimSpace(s[best+len(sep):]), sep
}

func TrimPrefixFold(s, p string) string {
	if len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) {
		return s[len(p):]
	}
	return s
}

// trimWordsLeft drops any of the given leading words, repeatedly.
func TrimWordsLeft(s string, matchWords ...string) string {
	for {
		old := s
		for _, w := range matchWords {
			s = strings.TrimSpace(TrimPrefixFold(s, w+" "))
		}
		if s == old {
			return s
		}
	}
}

// trimWordsRight drops any of the given trailing words, repeatedly.
func TrimWordsRight(s string, matchWords ...string) string {
	for {
		old := s
		for _, w := range matchWords {
			if len(s) > len(w) && strings.EqualFold(s[len(s)-len(w)-1:], " "+w) {
				s = strings.TrimSpace(s[:len(s)-len(w)-1])
			}
		}
		if s == old {
			return s
		}
	}
}

// tidySlot trims spaces, quotes, trailing punctuation and politeness off a
// piece of a message.
func TidySlot(s string) string {
	for {
		old := s
		s = strings.TrimSpace(s)
		// What a possessive day leaves ("Sunday's call" less "Sunday"):
		// no part of a name.
		s = strings.TrimPrefix(strings.TrimPrefix(s, "'s "), "’s ")
		s = strings.Trim(s, "\"“”'‘’")
		s = strings.TrimRight(s, " .!?,;:…")
		s = strings.TrimLeft(s, " :,;-–—")
		s = TrimWordsRight(s, "please", "pls", "thanks", "thank you", "for me")
		s = TrimWordsLeft(s, "please", "that")
		if s == old {
			return s
		}
	}
}

// asSentence makes s a capitalised sentence ending in one full stop
// (or the user's own "!" or "?").
func AsSentence(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimRight(s, " ,;:")
	if s == "" {
		return ""
	}
	s = prose.UpperFirst(s)
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "!") && !strings.HasSuffix(s, "?") {
		s += "."
	}
	return s
}

// firstWords returns at most n words of s.
func FirstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		f = f[:n]
	}
	return strings.Join(f, " ")
}

// stopWords carry no meaning for matching a task, event, memory or note.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "my": true, "our": true, "your": true, "to": true, "for": true, "of": true,
	"on": true, "in": true, "at": true, "with": true, "and": true, "is": true, "are": true, "was": true, "it": true,
	"that": true, "this": true, "task": true, "tasks": true, "reminder": true, "i": true, "me": true, "about": true,
	"what": true, "when": true, "where": true, "who": true, "how": true, "do": true, "does": true, "did": true,
	"you": true, "know": true, "s": true, "please": true, "from": true, "list": true, "one": true, "as": true,
	"am": true, "any": true, "anything": true, "something": true, "everything": true,
}

// matchWords returns the meaningful lower-case words of s, singular-ish
// ("groceries" → "grocery"), possessives dropped ("John's" → "john").
func MatchWords(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’'
	}) {
		f = strings.TrimSuffix(strings.TrimSuffix(f, "'s"), "’s")
		f = strings.Trim(f, "'’")
		if f == "" || stopWords[f] {
			continue
		}
		out = append(out, stemWord(f))
	}
	return out
}

// AllIn reports whether every word of want is among have (MatchWords'
// words, say).
func AllIn(want, have []string) bool {
	return !slices.ContainsFunc(want, func(w string) bool { return !slices.Contains(have, w) })
}

// stemWord folds the endings that matter for matching titles: plurals
// ("eggs"), and the -ing of "I finished calling Tom" against "Call Tom"
// ("swimming" → "swim", "taking" → "take") and the -ed of a past
// ("parked" → "park"). A word is never cut to
// another word's stem ("care" stays apart from "car").
func stemWord(w string) string {
	switch {
	case len(w) > 4 && (strings.HasSuffix(w, "ies") || strings.HasSuffix(w, "ied")):
		return w[:len(w)-3] + "y"
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		return w[:len(w)-1]
	case len(w) > 5 && strings.HasSuffix(w, "ing"), len(w) > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed"):
		// "-ed" as "-ing": "parked" → "park", "stopped" → "stop",
		// "baked" → "bake" ("where did I park?" finds "my car is
		// parked on level 3").
		if strings.HasSuffix(w, "ing") {
			w = w[:len(w)-3]
		} else {
			w = w[:len(w)-2]
		}
		n := len(w)
		switch {
		case w[n-1] == w[n-2] && !strings.ContainsRune("lsfzaeiou", rune(w[n-1])):
			w = w[:n-1] // "swimm", "shopp"
		case n == 3 && !vowel(w[0]) && vowel(w[1]) && !vowel(w[2]) && !strings.ContainsRune("wxy", rune(w[2])):
			w += "e" // "tak", "mak", "com": one syllable that lost its e
		}
		return w
	}
	return w
}

func vowel(c byte) bool { return strings.IndexByte("aeiou", c) >= 0 }

// matchScore says how well a reference the user typed ("the report")
// names a candidate ("Finish the quarterly report"): the share of the
// reference's words found in the candidate, 1 when one contains the
// other outright.
func matchScore(ref, candidate string) float64 {
	r, c := strings.ToLower(strings.TrimSpace(ref)), strings.ToLower(strings.TrimSpace(candidate))
	if r == "" || c == "" {
		return 0
	}
	if r == c {
		return 2 // an exact title beats any partial one
	}
	rw, cw := MatchWords(r), MatchWords(c)
	if len(rw) == 0 {
		return 0
	}
	hit, typo := 0.0, false
	for _, w := range rw {
		switch {
		case slices.Contains(cw, w):
			hit++
		case slices.ContainsFunc(cw, func(c string) bool { return oneTypo(w, c) }):
			// "dentsit" for "dentist": a slip counts, a little less.
			hit += 0.9
			typo = true
		}
	}
	score := hit / float64(len(rw))
	if score == 1 && len(cw) == len(rw) && !typo {
		return 1.5 // same words, different case or articles
	}
	return score
}

// Covers reports whether candidate has every meaningful word of ref (a
// slip allowed, as BestMatches allows one): "dentist" covers "Dentist
// appointment", "lunch with Sam" does not cover "Team lunch", though it
// is BestMatches' best for it.
func Covers(ref, candidate string) bool {
	rw, cw := MatchWords(ref), MatchWords(candidate)
	if len(rw) == 0 {
		return false
	}
	for _, w := range rw {
		if !slices.Contains(cw, w) && !slices.ContainsFunc(cw, func(c string) bool { return oneTypo(w, c) }) {
			return false
		}
	}
	return true
}

// oneTypo reports whether a and b, both at least five letters long, differ
// by one slip: a letter changed, added, dropped, or two neighbours swapped.
func oneTypo(a, b string) bool {
	if len(a) < 5 || len(b) < 5 || a == b {
		return false
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	switch len(b) - len(a) {
	case 0:
		diff := []int{}
		for i := 0; i < len(a); i++ {
			if a[i] != b[i] {
				diff = append(diff, i)
				if len(diff) > 2 {
					return false
				}
			}
		}
		switch len(diff) {
		case 1:
			return true
		case 2:
			i, j := diff[0], diff[1]
			return j == i+1 && a[i] == b[j] && a[j] == b[i]
		}
		return false
	case 1:
		i := 0
		for i < len(a) && a[i] == b[i] {
			i++
		}
		return a[i:] == b[i+1:]
	}
	return false
}

// bestMatches returns the indexes of the candidates that match ref
// best, if that is at least half of ref's words.
func BestMatches(ref string, candidates []string) []int {
	best := 0.0
	var out []int
	for i, c := range candidates {
		s := matchScore(ref, c)
		switch {
		case s < 0.5:
		case s > best:
			best, out = s, []int{i}
		case s == best:
			out = append(out, i)
		}
	}
	return out
}

func StartsWithAny(lc string, ps ...string) bool {
	for _, p := range ps {
		if strings.HasPrefix(lc, p) {
			return true
		}
	}
	return false
}

// StartsWithWords reports whether lc begins with one of ps as whole
// words: "no thanks" begins with "no", "nothing" does not.
func StartsWithWords(lc string, ps ...string) bool {
	for _, p := range ps {
		if strings.HasPrefix(lc, p) && (len(lc) == len(p) || !IsWordChar(lc[len(p)])) {
			return true
		}
	}
	return false
}

// lowerLead lowercases a sentence's first word only when it is a common
// word ("My sister's name…" → "my sister's name…"), so a fact that starts
// with a name keeps it: "John likes dark chocolate".
func LowerLead(s string) string {
	first, _, _ := strings.Cut(s, " ")
	if !leadWords[strings.ToLower(first)] {
		return s
	}
	return prose.LowerFirst(s)
}

var leadWords = map[string]bool{
	"my": true, "our": true, "your": true, "his": true, "her": true, "their": true, "its": true,
	"the": true, "a": true, "an": true, "this": true, "that": true, "these": true, "those": true,
	"there": true, "it": true, "we": true, "they": true, "he": true, "she": true, "you": true,
	"you're": true, "you’re": true, "we're": true, "they're": true, "it's": true,
}
