// Package prose holds the few English-wording rules Hearth's replies share
// (capitals, lists, possessives, speaking back to the user), so the pipeline, the scheduler and the
// family commands write them one way.
package prose

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// UpperFirst upper-cases the first letter: "call mom" → "Call mom".
func UpperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || unicode.IsUpper(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// LowerFirst lower-cases a leading capital unless the word looks like an
// acronym or a name followed by more capitals ("NASA", "I"), is a
// possessive name ("Sarah's party") or is written capitalised anywhere
// ("Christmas gifts", "Monday yoga").
func LowerFirst(s string) string {
	if len(s) < 2 || s[0] < 'A' || s[0] > 'Z' || s[1] < 'a' || s[1] > 'z' {
		return s
	}
	if first, _, _ := strings.Cut(s, " "); strings.HasSuffix(first, "'s") || strings.HasSuffix(first, "’s") || properNouns[strings.TrimRight(first, ",.:;!?")] {
		return s
	}
	return string(s[0]+'a'-'A') + s[1:]
}

// Capitalise gives the words of s that English capitalises wherever they
// stand (properNouns) their capital: "friday afternoon" → "Friday
// afternoon", "before march" → "before March".
func Capitalise(s string) string {
	f := strings.Fields(s)
	changed := false
	for i, w := range f {
		if w == "" || !properNouns[strings.ToUpper(w[:1])+strings.ToLower(w[1:])] && !monthMay(f, i) {
			continue
		}
		f[i], changed = strings.ToUpper(w[:1])+strings.ToLower(w[1:]), true
	}
	if !changed {
		return s
	}
	return strings.Join(f, " ")
}

// monthMay reports that f[i] is the month May, not the verb: after a
// word that names a time ("in may", "until may", "early may") or before a
// day's number ("may 5").
func monthMay(f []string, i int) bool {
	if !strings.EqualFold(f[i], "may") {
		return false
	}
	if i+1 < len(f) && f[i+1] != "" && f[i+1][0] >= '0' && f[i+1][0] <= '9' {
		return true
	}
	if i == 0 {
		return false
	}
	switch strings.ToLower(f[i-1]) {
	case "in", "of", "before", "after", "until", "till", "since", "by", "from", "to", "early", "mid", "late", "next", "last", "through":
		return true
	}
	return false
}

// properNouns are words English capitalises wherever they stand: days,
// months and feasts.
var properNouns = map[string]bool{
	"Monday": true, "Tuesday": true, "Wednesday": true, "Thursday": true, "Friday": true, "Saturday": true, "Sunday": true,
	"January": true, "February": true, "March": true, "April": true, "June": true, "July": true, "August": true,
	"September": true, "October": true, "November": true, "December": true,
	"Christmas": true, "Easter": true, "Thanksgiving": true, "Halloween": true, "Hanukkah": true, "Diwali": true,
	"Ramadan": true, "Eid": true, "Passover": true,
}

// List joins "a", "b" and "c" as "a, b and c".
func List(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// Possessive is "John's", "James'", and "your" for "" or "your".
func Possessive(who string) string {
	switch strings.ToLower(who) {
	case "", "your":
		return "your"
	}
	if strings.HasSuffix(who, "s") {
		return who + "'"
	}
	return who + "'s"
}

// SecondPerson turns what the user said about themselves into what
// the bot says back: "I just closed on my house" → "you just closed on
// your house".
func SecondPerson(s string) string {
	fields := strings.Fields(s)
	for i, f := range fields {
		core := strings.TrimRight(f, ".,!?;:")
		tail := f[len(core):]
		var rep string
		switch core {
		case "I", "i":
			rep = "you"
			if i+1 < len(fields) {
				switch strings.TrimRight(fields[i+1], ".,!?;:") {
				case "am":
					fields[i+1] = "are" + fields[i+1][2:]
				case "was":
					fields[i+1] = "were" + fields[i+1][3:]
				}
			}
		case "I'm", "i'm", "I’m":
			rep = "you're"
		case "I've", "i've", "I’ve":
			rep = "you've"
		case "I'll", "i'll", "I’ll":
			rep = "you'll"
		case "I'd", "i'd", "I’d":
			rep = "you'd"
		case "my", "My":
			rep = "your"
		case "me", "Me":
			rep = "you"
		case "mine", "Mine":
			rep = "yours"
		case "myself", "Myself":
			rep = "yourself"
		default:
			continue
		}
		if i == 0 {
			rep = UpperFirst(rep)
		}
		fields[i] = rep + tail
	}
	return strings.Join(fields, " ")
}
