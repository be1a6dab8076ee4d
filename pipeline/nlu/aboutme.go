package nlu

import (
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hearthbot/hearth/pipeline/nlu/internal/features"
	"github.com/hearthbot/hearth/pipeline/nlu/timex"
)

// What is told to be known: a lasting fact about oneself or someone else,
// said in passing, which the model may take for small talk.

// aboutMe reports a statement of a lasting fact about oneself that the
// model takes for small talk: a favourite ("my favorite color is
// green"), an allergy ("I'm allergic to peanuts"), a diet ("I am
// vegetarian"). They are worth keeping: the family's assistant should
// know them.
func aboutMe(tokens []string) bool {
	if len(tokens) < 2 || len(tokens) > 12 {
		return false
	}
	switch {
	case len(tokens) >= 3 && tokens[0] == "my":
		return favouriteTold(tokens[1:]) || secretTold(tokens[1:]) || possessionTold(tokens[1:])
	case len(tokens) >= 3 && (tokens[0] == "i" || tokens[0] == "we") && tokens[1] == "parked":
		// "I parked on level 3": where the car is, to be asked later.
		return true
	case len(tokens) >= 3 && (tokens[0] == "our" || tokens[0] == "the"):
		// "The wifi password is swordfish": the household's code.
		return secretTold(tokens[1:])
	case tokens[0] == "im" || tokens[0] == "i" && tokens[1] == "am":
		rest := tokens[1:]
		if tokens[0] == "i" {
			rest = tokens[2:]
		}
		rest = slices.DeleteFunc(slices.Clone(rest), func(t string) bool { return t == "a" || t == "also" || t == "severely" || t == "very" })
		if len(rest) == 0 {
			return false
		}
		switch rest[0] {
		case "allergic", "intolerant":
			return true
		case "vegetarian", "vegan", "pescatarian", "diabetic", "celiac", "coeliac", "lactose", "gluten":
			return len(rest) <= 3
		}
	}
	return false
}

// secretTold reports a code told, after whose it is: "wifi password is
// swordfish", "locker combination is 12 34 56", "bike lock code is
// 4471" (its value may be any word at all, which the model need not know).
func secretTold(tokens []string) bool {
	i := slices.Index(tokens, "is")
	if i < 1 || i > 3 || i+1 >= len(tokens) || len(tokens)-i-1 > 4 {
		return false
	}
	switch tokens[i+1] {
	case "not", "wrong", "incorrect", "invalid", "expired", "broken", "missing", "too", "different", "weird", "case":
		return false // "the password is wrong": news of it, not its value
	}
	switch tokens[i-1] {
	case "password", "passcode", "passphrase", "pin", "code", "combination", "combo", "username":
		return true
	}
	return false
}

// possessionTold reports what one of the user's lasting things is, after
// "my": "car is a blue Golf", "licence plate is KX 12 ABC", "shoe size is
// 42", "blood type is O negative"; not how it is today ("car is in the
// garage", "phone is dead").
func possessionTold(tokens []string) bool {
	i := slices.Index(tokens, "is")
	if i < 1 || i > 2 || i+1 >= len(tokens) || len(tokens)-i-1 > 5 || !possessionNouns[tokens[i-1]] {
		return false
	}
	switch tokens[i+1] {
	case "a", "an", "the":
		return i+2 < len(tokens) // "a blue Golf", never "in the garage"
	case "not", "broken", "dead", "slow", "late", "down", "out", "off", "on", "in", "at", "still", "being", "getting", "acting",
		"making", "playing", "low", "empty", "full", "missing", "gone", "fine", "ok", "okay", "great", "bad", "too", "so", "very":
		return false
	}
	return true
}

// possessionAsked reports a question for one of the user's lasting
// things (see possessionTold): "what car do I have?", "which bike did
// we get?".
func possessionAsked(tokens []string) bool {
	return len(tokens) >= 4 && (tokens[0] == "what" || tokens[0] == "which") && possessionNouns[tokens[1]] &&
		(tokens[2] == "do" || tokens[2] == "did") && (tokens[3] == "i" || tokens[3] == "we")
}

// possessionNouns are things of the user's whose make, number or size is
// worth keeping.
var possessionNouns = map[string]bool{
	"car": true, "bike": true, "plate": true, "registration": true, "reg": true, "size": true, "type": true,
	"locker": true, "spot": true, "bay": true,
}

// aboutSomeone reports what is told of someone else as aboutMe reports
// it of the user: "Tom's favourite colour is blue", "Ben's allergic to
// peanuts" (the possessive loses its apostrophe in tokens).
func aboutSomeone(tokens []string) bool {
	if len(tokens) < 3 || len(tokens) > 12 || !strings.HasSuffix(tokens[0], "s") || len(tokens[0]) < 3 {
		return false
	}
	switch tokens[0] {
	case "its", "whats", "thats", "lets", "heres", "theres", "hes", "shes", "this", "was", "is", "has", "does", "yes", "thanks", "as", "us", "ours", "yours":
		return false
	}
	if tokens[1] == "allergic" || tokens[1] == "intolerant" {
		return tokens[2] == "to"
	}
	return favouriteTold(tokens[1:])
}

// favouriteTold reports words that tell a favourite, after whose it is:
// "favourite colour is blue", "fave films are …".
func favouriteTold(tokens []string) bool {
	if len(tokens) < 2 || tokens[0] != "favorite" && tokens[0] != "favourite" && tokens[0] != "fave" {
		return false
	}
	said := tokens[1:min(len(tokens), 5)]
	return slices.Contains(said, "is") || slices.Contains(said, "are")
}

// roleTold reports what someone is, told to be known: "Tom is a pilot",
// "my sister is a nurse at the city hospital", "Priya works as a vet",
// "my dad is retired". Whom it tells of is a name (capitalised in text)
// or "my" and a word for a person; "Monday is a holiday", "my phone is a
// mess" and "Sam is a bit tired" tell of no one's lasting role.
func roleTold(tokens []string, text string) bool {
	i := slices.IndexFunc(tokens, func(t string) bool { return t == "is" || t == "works" })
	if i < 1 || i > 2 || i+2 > len(tokens) || len(tokens)-i-1 > 6 {
		return false
	}
	switch rest := tokens[i+1:]; {
	case tokens[i] == "works":
		if rest[0] != "as" || len(rest) < 2 {
			return false
		}
	case rest[0] == "a" || rest[0] == "an":
		if len(rest) < 2 || slices.Contains([]string{"bit", "little", "lot", "few", "pain", "mess"}, rest[1]) {
			return false
		}
	case len(rest) == 1 && lastingStates[rest[0]]:
	default:
		return false
	}
	return personNamed(tokens[:i], text)
}

// personNamed reports whether the words a statement opens with, subj,
// name a person: a name, one word or two, capitalised in text ("Tom",
// "Sarah Kim", not "Monday"), or "my" and a word for a person ("my
// dad", "our neighbour").
func personNamed(subj []string, text string) bool {
	if subj[0] == "my" || subj[0] == "our" {
		return relationSaid(subj)
	}
	f, n := strings.Fields(text), len(subj)
	return n <= 2 && len(f) >= n && nameLike(f[0]) && (n == 1 || nameLike(f[1])) &&
		len(timex.Find(strings.Join(f[:n], " "), time.Time{}, timex.Options{})) == 0
}

// relationSaid reports "my" or "our" and one word for a person: "my
// dad", "our neighbour".
func relationSaid(subj []string) bool {
	return len(subj) == 2 && (subj[0] == "my" || subj[0] == "our") && (kin[subj[1]] || acquaintances[subj[1]])
}

// nameLike reports a word written as a name: capitalised, and not a word
// that opens sentences capitalised anyway ("I", "It", "This").
func nameLike(w string) bool {
	w = strings.TrimSuffix(strings.TrimSuffix(strings.TrimRight(w, ",.!?"), "'s"), "’s")
	return w != "" && w[0] >= 'A' && w[0] <= 'Z' && !nameStop[w] && !slices.Contains([]string{"This", "That", "He", "She", "They", "We", "You", "Everyone", "Nobody", "Someone", "The", "My", "Our"}, w)
}

// lastingStates are what someone is for good, told in a word ("my dad is
// retired"); "sick" or "late" is news of today.
var lastingStates = map[string]bool{
	"retired": true, "married": true, "divorced": true, "engaged": true, "single": true, "widowed": true,
	"vegetarian": true, "vegan": true, "pescatarian": true, "diabetic": true, "pregnant": true, "unemployed": true,
	"self-employed": true, "freelance": true,
}

// acquaintances are the words for a person who is not kin ("my friend",
// "my neighbour"): "my neighbour is a plumber" tells of them.
var acquaintances = map[string]bool{
	"friend": true, "neighbour": true, "neighbor": true, "colleague": true, "coworker": true, "landlord": true,
	"landlady": true, "doctor": true, "dentist": true, "teacher": true, "nephew": true, "niece": true,
	"grandson": true, "granddaughter": true, "roommate": true, "flatmate": true, "girlfriend": true,
	"boyfriend": true, "fiance": true, "fiancee": true, "kid": true, "child": true, "stepson": true, "stepdaughter": true,
}

// AsksRole reports a question for what someone does for a living: "what
// does Tom do?", "what does my dad do for work?", "what's Sam's job?".
// What they are or do answers it ("Tom is a pilot": TellsRole), not all
// that is known of them.
func AsksRole(text string) bool {
	var buf [features.MaxTokens]string
	tokens, _ := features.Tokens(buf[:0], text)
	if personAsked(tokens) {
		return slices.Contains(tokens, "do")
	}
	if len(tokens) > 1 && tokens[0] == "what" && tokens[1] == "is" {
		tokens = tokens[1:]
	}
	return len(tokens) >= 3 && len(tokens) <= 4 && (tokens[0] == "whats" || tokens[0] == "is") &&
		strings.HasSuffix(tokens[len(tokens)-2], "s") && slices.Contains([]string{"job", "occupation", "profession", "work"}, tokens[len(tokens)-1])
}

// TellsRole reports a fact that tells what someone is or does for a
// living: "Tom is a pilot", "my dad is retired", "Priya works at the
// vet's".
func TellsRole(fact string) bool {
	var buf [features.MaxTokens]string
	tokens, _ := features.Tokens(buf[:0], fact)
	if roleTold(tokens, fact) {
		return true
	}
	i := slices.IndexFunc(tokens, func(t string) bool { return t == "works" || t == "worked" })
	return i >= 1 && i <= 2 && i+2 < len(tokens) && (tokens[i+1] == "at" || tokens[i+1] == "for") && personNamed(tokens[:i], fact)
}

// personAsked reports a question for what someone does or likes: "what
// does my dad do?", "what does Tom do for a living?", "what does my
// sister like?". Memory answers it, not the calendar ("do") or the tasks.
func personAsked(tokens []string) bool {
	if len(tokens) < 4 || tokens[0] != "what" || tokens[1] != "does" && tokens[1] != "do" {
		return false
	}
	i := slices.IndexFunc(tokens[2:], func(t string) bool {
		return slices.Contains([]string{"do", "like", "love", "enjoy", "prefer"}, t)
	}) + 2
	if i < 3 || i > 4 {
		return false
	}
	switch rest := tokens[i+1:]; {
	case len(rest) == 0:
	case tokens[i] == "do" && len(rest) >= 2 && rest[0] == "for" && slices.Contains([]string{"living", "work", "job"}, rest[len(rest)-1]):
	default:
		return false
	}
	switch subj := tokens[2:i]; {
	case subj[0] == "my" || subj[0] == "our":
		return relationSaid(subj)
	default:
		return !slices.Contains([]string{"you", "i", "we", "it", "they", "that", "this", "the", "people", "everyone"}, subj[0])
	}
}

// reHowOld reads "how old is Anna?", "how old is my son now", "how old am
// I?": whom. The question is memory's, answered from when they were born.
var reHowOld = regexp.MustCompile(`(?i)^\s*how\s+old\s+(?:is|will|am)\s+(.+?)(?:\s+(?:now|today|be|turning|this year))*\s*[?.!]*\s*$`)

// AgeAsked reports a question for someone's age and whom it names ("Anna",
// "my son"); self is set for "how old am I?".
func AgeAsked(text string) (who string, self, ok bool) {
	g := reHowOld.FindStringSubmatch(text)
	if g == nil {
		return "", false, false
	}
	return g[1], strings.EqualFold(g[1], "i"), true
}
