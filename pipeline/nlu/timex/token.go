package timex

// The tokenizer splits text into words (ASCII letters, lower-cased, glued
// to any non-ASCII bytes so that "marché" is one word that matches nothing),
// numbers (runs of digits) and single punctuation marks. Every token boundary
// is a valid UTF-8 boundary, so spans built from tokens are always safe to
// slice. Tokens remember whether whitespace preceded them, because "3pm" and
// "15h00" are written glued while "2 / 15" is not.

type tokKind uint8

const (
	tWord tokKind = iota + 1
	tNum
	tPunct
)

type token struct {
	kind       tokKind
	s          string // lower-cased text of the token
	start, end int    // byte offsets in the original text
	n          int    // tNum: value; -1 when longer than maxDigits
	sp         bool   // whitespace (or the start of the text) before it
}

// maxDigits bounds numbers so that no arithmetic on them can overflow.
const maxDigits = 9

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 0x80 }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// lowerASCII lower-cases ASCII letters only, so byte offsets are unchanged.
// It returns s itself when there is nothing to change.
func lowerASCII(s string) string {
	i := 0
	for i < len(s) && !(s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if b[i] >= 'A' && b[i] <= 'Z' {
			b[i] += 'a' - 'A'
		}
	}
	return string(b)
}

// multiByte reports UTF-8 punctuation and spaces that matter: the dashes
// people type for ranges, curly apostrophes, no-break spaces. It returns the
// ASCII stand-in ("" for a space) and the byte length, or n == 0.
func multiByte(s string, i int) (ascii string, n int) {
	switch {
	case i+2 < len(s) && s[i] == 0xe2 && s[i+1] == 0x80 && (s[i+2] == 0x93 || s[i+2] == 0x94):
		return "-", 3 // en dash, em dash
	case i+2 < len(s) && s[i] == 0xe2 && s[i+1] == 0x80 && s[i+2] == 0x99:
		return "'", 3 // right single quotation mark
	case i+1 < len(s) && s[i] == 0xc2 && s[i+1] == 0xa0:
		return "", 2 // no-break space
	}
	return "", 0
}

func tokenize(text string) []token {
	s := lowerASCII(text)
	toks := make([]token, 0, len(s)/4+1)
	sp := true
	for i := 0; i < len(s); {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' {
			sp = true
			i++
			continue
		}
		if c >= 0x80 {
			if a, n := multiByte(s, i); n > 0 {
				if a == "" {
					sp = true
				} else {
					toks = append(toks, token{kind: tPunct, s: a, start: i, end: i + n, sp: sp})
					sp = false
				}
				i += n
				continue
			}
		}
		j := i + 1
		switch {
		case isLetter(c):
			for j < len(s) && isLetter(s[j]) {
				if s[j] >= 0x80 {
					if _, n := multiByte(s, j); n > 0 {
						break
					}
				}
				j++
			}
			toks = append(toks, token{kind: tWord, s: s[i:j], start: i, end: j, sp: sp})
		case isDigit(c):
			n := int(c - '0')
			for j < len(s) && isDigit(s[j]) {
				if j-i < maxDigits {
					n = n*10 + int(s[j]-'0')
				}
				j++
			}
			if j-i > maxDigits {
				n = -1
			}
			toks = append(toks, token{kind: tNum, s: s[i:j], start: i, end: j, n: n, sp: sp})
		default:
			toks = append(toks, token{kind: tPunct, s: s[i:j], start: i, end: j, sp: sp})
		}
		sp = false
		i = j
	}
	return toks
}
