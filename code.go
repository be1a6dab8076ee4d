package hearth

import "strings"

// CodeAlphabet is what one-time codes (chat link codes, family
// invitations) are made of: no look-alikes (0/O, 1/I/L), so a code read
// off one screen is typed right on another. Eight of them are about 40
// bits, far beyond guessing in the ten minutes a code lives.
const CodeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

// NormaliseCode returns the one-time code in text ("abcd efgh",
// "ABCD-EFGH") as stored, or "" when text is not one.
func NormaliseCode(text string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(strings.TrimSpace(text)) {
		switch {
		case r == '-' || r == ' ':
		case strings.ContainsRune(CodeAlphabet, r):
			b.WriteRune(r)
		default:
			return ""
		}
	}
	if b.Len() != 8 {
		return ""
	}
	return b.String()
}

// LooksLikeCode reports whether a message is only a one-time code,
// written as shown ("ABCD-EFGH") or with a digit in it, so that a word
// made of code letters ("strength") is not taken for one. Generated codes
// always have a digit.
func LooksLikeCode(s string) bool {
	return NormaliseCode(s) != "" && strings.ContainsAny(s, "-23456789")
}
