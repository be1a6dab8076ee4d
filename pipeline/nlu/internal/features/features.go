// Package features turns a message into the sparse binary features the
// intent and domain model is trained on. The classifier and the training
// command share it, so a feature means the same thing on both sides.
package features

import (
	"unicode"
	"unicode/utf8"
)

// MaxTokens caps how many tokens of a message are turned into features.
// What a message wants is said near its start; a pasted 10 KB email would
// otherwise cost time proportional to its length and drown that signal in
// the words of the quoted text.
const MaxTokens = 64

// MaxBytes caps how much of a message the tokenizer reads. MaxTokens
// tokens of even very long words fit in it; the rest is never scanned.
const MaxBytes = 2048

// Tokens appends to dst the normalised tokens of text: lower-case words
// of letters and digits, apostrophes removed ("what's" and "whats" are the
// same word), every token containing a digit replaced by "0" (a number's
// value says nothing about intent). At most MaxTokens are appended.
// A trailing question mark is reported as question.
func Tokens(dst []string, text string) (tokens []string, question bool) {
	if len(text) > MaxBytes {
		text = text[:MaxBytes]
	}
	for i := len(text) - 1; i >= 0; i-- {
		if c := text[i]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			question = c == '?'
			break
		}
	}
	n := 0
	var buf [64]byte
	w := 0
	digit := false
	flush := func() {
		if w > 0 && n < MaxTokens {
			if digit {
				dst = append(dst, "0")
			} else {
				dst = append(dst, string(buf[:w]))
			}
			n++
		}
		w = 0
		digit = false
	}
	for i := 0; i < len(text) && n < MaxTokens; {
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		switch {
		case r == '\'' || r == '\u2019' || r == '`':
			// Dropped inside a word: "don't" → "dont".
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if unicode.IsDigit(r) {
				digit = true
			}
			r = unicode.ToLower(r)
			if w+utf8.RuneLen(r) <= len(buf) {
				w += utf8.EncodeRune(buf[w:], r)
			}
		default:
			flush()
		}
	}
	flush()
	return dst, question
}

// Each calls fn with every feature of the given tokens, as bytes in a
// scratch buffer that is only valid during the call (so the caller can
// look it up in a map without allocating). Features:
//
//	w:word        each word
//	p:prefix      the first 5 letters of words of 6 or more bytes, a cheap
//	              stemmer ("reminders", "reminder" → p:remin)
//	b:a_b         each pair of neighbouring words, with ^ and $ marking the
//	              start and end ("b:^_remind", "b:list_$")
//	s:a_c         words two apart ("remind _ to"), which survive a slot
//	              word in between ("add milk to", "add eggs to")
//	n:k           the length bucket of the message (short answers)
//	q             the message ends with a question mark
func Each(tokens []string, question bool, fn func(feature []byte)) {
	var scratch [160]byte
	emit := func(parts ...string) {
		b := scratch[:0]
		for _, p := range parts {
			b = append(b, p...)
		}
		fn(b)
	}
	for i, t := range tokens {
		emit("w:", t)
		if len(t) >= 6 {
			emit("p:", t[:5])
		}
		prev := "^"
		if i > 0 {
			prev = tokens[i-1]
		}
		emit("b:", prev, "_", t)
		if i >= 2 {
			emit("s:", tokens[i-2], "_", t)
		}
	}
	if len(tokens) > 0 {
		emit("b:", tokens[len(tokens)-1], "_$")
	}
	emit("n:", lengthBucket(len(tokens)))
	if question {
		emit("q")
	}
}

func lengthBucket(n int) string {
	switch {
	case n <= 1:
		return "1"
	case n == 2:
		return "2"
	case n == 3:
		return "3"
	case n <= 5:
		return "4-5"
	case n <= 8:
		return "6-8"
	case n <= 14:
		return "9-14"
	default:
		return "15+"
	}
}
