package timex

import (
	"strings"
	"time"
)

// parser holds one text's tokens and the reference. Every rule is a method
// that takes a token index and returns what it recognised and the index
// after it; rules never consume input they do not use, so callers can try
// several and keep the longest.
type parser struct {
	toks  []token
	ref   time.Time
	loc   *time.Location
	today time.Time // start of the reference day
	opts  Options
	text  string
	depth int // nesting of dateAt, bounded by maxDepth
}

// maxDepth bounds how deeply date rules may nest.
const maxDepth = 3

func newParser(text string, ref time.Time, opts Options) *parser {
	loc := ref.Location()
	return &parser{
		toks:  tokenize(text),
		ref:   ref,
		loc:   loc,
		today: dayStart(ref),
		opts:  opts,
		text:  text,
	}
}

// word returns the text of token i when it is a word, else "".
func (p *parser) word(i int) string {
	if i >= 0 && i < len(p.toks) && p.toks[i].kind == tWord {
		return p.toks[i].s
	}
	return ""
}

// is reports whether token i is exactly s (a word or a punctuation mark).
func (p *parser) is(i int, s string) bool {
	return i >= 0 && i < len(p.toks) && p.toks[i].kind != tNum && p.toks[i].s == s
}

// oneOf returns the index after token i when it is one of words.
func (p *parser) oneOf(i int, words ...string) (int, bool) {
	w := p.word(i)
	if w == "" {
		return i, false
	}
	for _, x := range words {
		if w == x {
			return i + 1, true
		}
	}
	return i, false
}

// opt skips token i when it is one of words.
func (p *parser) opt(i int, words ...string) int {
	j, _ := p.oneOf(i, words...)
	return j
}

// num returns the value of token i when it is a number of at most maxLen
// digits.
func (p *parser) num(i, maxLen int) (int, bool) {
	if i < 0 || i >= len(p.toks) || p.toks[i].kind != tNum || p.toks[i].n < 0 || len(p.toks[i].s) > maxLen {
		return 0, false
	}
	return p.toks[i].n, true
}

// glued reports that token i directly follows token i-1 with no space.
func (p *parser) glued(i int) bool {
	return i > 0 && i < len(p.toks) && !p.toks[i].sp
}

// phrase matches a space-separated word sequence at i, skipping apostrophes,
// hyphens and dots between the words ("new year's", "x-mas").
func (p *parser) phrase(i int, ph string) (int, bool) {
	j := i
	for ph != "" {
		w := ph
		if k := strings.IndexByte(ph, ' '); k >= 0 {
			w, ph = ph[:k], ph[k+1:]
		} else {
			ph = ""
		}
		if j > i {
			for p.is(j, "'") || p.is(j, "-") || p.is(j, ".") {
				j++
			}
		}
		if p.word(j) != w {
			return i, false
		}
		j++
	}
	return j, true
}

// cardinal reads a whole number written in digits or words ("3", "twenty
// three", "twenty-three") up to max.
func (p *parser) cardinal(i, max int) (int, int, bool) {
	if n, ok := p.num(i, 9); ok {
		if n > max {
			return 0, i, false
		}
		return n, i + 1, true
	}
	w := p.word(i)
	if n, ok := smallNumbers[w]; ok && n <= max {
		return n, i + 1, true
	}
	if n, ok := tensNumbers[w]; ok && n <= max {
		j := i + 1
		if p.is(j, "-") {
			j++
		}
		if u, ok := smallNumbers[p.word(j)]; ok && u >= 1 && u <= 9 && n+u <= max {
			return n + u, j + 1, true
		}
		return n, i + 1, true
	}
	return 0, i, false
}

// ordinal reads "3rd", "third", "twenty-first", "21st".
func (p *parser) ordinal(i int) (int, int, bool) {
	if n, ok := p.num(i, 3); ok && p.glued(i+1) && ordinalSuffix[p.word(i+1)] {
		return n, i + 2, true
	}
	w := p.word(i)
	if n, ok := ordinalWords[w]; ok {
		return n, i + 1, true
	}
	if n, ok := tensNumbers[w]; ok {
		j := i + 1
		if p.is(j, "-") {
			j++
		}
		if u, ok := ordinalWords[p.word(j)]; ok && u <= 9 {
			return n + u, j + 1, true
		}
	}
	return 0, i, false
}

// quantity reads a count for an offset: "3", "2.5", "1/4", "three", "a",
// "a couple of", "a few", "half a", "a quarter of an", "three-quarters of
// an". The article of "half an hour" is consumed.
func (p *parser) quantity(i int) (float64, int, bool) {
	j := i
	article := false
	if j2, ok := p.oneOf(j, "a", "an"); ok {
		j, article = j2, true
	}
	if q, ok := quantityWords[p.word(j)]; ok {
		return float64(q), p.opt(j+1, "of"), true
	}
	fraction := func(k int, f float64) (float64, int, bool) {
		k = p.opt(k, "of")
		return f, p.opt(k, "a", "an"), true
	}
	switch p.word(j) {
	case "half":
		return fraction(j+1, 0.5)
	case "quarter":
		return fraction(j+1, 0.25)
	case "three":
		if k := j + 1; !article {
			if p.is(k, "-") {
				k++
			}
			if w := p.word(k); w == "quarters" || w == "quarter" {
				return fraction(k+1, 0.75)
			}
		}
	}
	if article {
		return 1, j, true
	}
	if n, ok := p.num(j, 9); ok {
		if (p.is(j+1, ".") || p.is(j+1, ",")) && p.glued(j+1) && p.glued(j+2) {
			if d, ok := p.num(j+2, 3); ok {
				frac := float64(d)
				for k := 0; k < len(p.toks[j+2].s); k++ {
					frac /= 10
				}
				return float64(n) + frac, j + 3, true
			}
		}
		if p.is(j+1, "/") && p.glued(j+1) && p.glued(j+2) {
			if d, ok := p.num(j+2, 3); ok && d > 0 && n < d {
				return float64(n) / float64(d), j + 3, true
			}
		}
		return float64(n), j + 1, true
	}
	if n, end, ok := p.cardinal(j, 1000); ok {
		return float64(n), end, true
	}
	return 0, i, false
}

// unitAt reads a unit word ("hours", "wk", "fortnight").
func (p *parser) unitAt(i int) (unit, int, bool) {
	if u, ok := unitWords[p.word(i)]; ok {
		return u, i + 1, true
	}
	return unit{}, i, false
}

// year reads a year: four digits, or a number followed by an era ("14
// a.d.", "2014 B.C."). Years without an era are latent on their own.
func (p *parser) year(i int) (int, int, bool) {
	n, ok := p.num(i, 4)
	if !ok {
		return 0, i, false
	}
	j := i + 1
	if e, ej, ok := p.era(j); ok {
		if n == 0 {
			return 0, i, false
		}
		return n * e, ej, true
	}
	if len(p.toks[i].s) != 4 || n < 1000 {
		return 0, i, false
	}
	return n, j, true
}

// era reads "AD", "a.d.", "BC", "B.C.", "BCE", "CE" and returns the sign.
func (p *parser) era(i int) (int, int, bool) {
	letters := ""
	j := i
	for k := 0; k < 3; k++ {
		w := p.word(j)
		if w == "" || len(w) > 3 {
			break
		}
		letters += w
		j++
		if p.is(j, ".") {
			j++
		}
	}
	switch letters {
	case "ad", "ce":
		return 1, j, true
	case "bc", "bce":
		return -1, j, true
	}
	return 0, i, false
}

// yearSuffix reads a year after a date: "2015", "'74" is not supported, but
// a two-digit year is accepted after a comma-free numeric date elsewhere.
func (p *parser) yearSuffix(i int) (int, int, bool) {
	j := i
	if p.is(j, ",") {
		j++
	}
	if p.is(j, "-") && p.glued(j) {
		j++
	}
	if y, end, ok := p.year(j); ok {
		return y, end, true
	}
	return 0, i, false
}

// twoDigitYear expands "74" to 1974 and "12" to 2012.
func twoDigitYear(n int) int {
	if n < 50 {
		return 2000 + n
	}
	return 1900 + n
}
