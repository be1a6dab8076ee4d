package nlu

import (
	"strings"
	"unicode"
)

// foreignWords are common short words of the languages people most often
// write to Hearth in besides English; none is also an English word.
var foreignWords = map[string]bool{
	// Spanish, Portuguese
	"el": true, "los": true, "las": true, "por": true, "para": true, "que": true, "qué": true, "mañana": true, "recuérdame": true, "hola": true, "gracias": true, "tengo": true, "quiero": true, "puedes": true, "mi": true, "mis": true, "con": true, "una": true, "hoy": true, "llamar": true, "del": true, "esta": true, "não": true, "você": true, "obrigado": true, "amanhã": true,
	// French
	"le": true, "les": true, "est": true, "je": true, "tu": true, "nous": true, "vous": true, "avec": true, "demain": true, "rappelle": true, "moi": true, "merci": true, "bonjour": true, "pour": true, "une": true, "des": true,
	// German, Dutch
	"der": true, "die": true, "das": true, "und": true, "ich": true, "nicht": true, "mit": true, "morgen": true, "bitte": true, "erinnere": true, "mich": true, "ist": true, "het": true, "een": true, "niet": true,
	// Italian
	"il": true, "della": true, "sono": true, "domani": true, "grazie": true, "ricordami": true, "di": true, "che": true, "per": true,
}

// OtherLanguage reports a message written in a language other than English:
// mostly letters outside ASCII (Cyrillic, Greek, Arabic, CJK, …), or at
// least three words of which a third (and two or more) are common words of
// another language.
func OtherLanguage(text string) bool {
	letters, other := 0, 0
	for _, r := range text {
		if unicode.IsLetter(r) {
			letters++
			if r > unicode.MaxLatin1 {
				other++
			}
		}
	}
	if letters >= 4 && other*2 > letters {
		return true
	}
	ws := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) })
	if len(ws) < 3 {
		return false
	}
	n := 0
	for _, w := range ws {
		if foreignWords[w] {
			n++
		}
	}
	return n >= 2 && n*3 >= len(ws)
}
