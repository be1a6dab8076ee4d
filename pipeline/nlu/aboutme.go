package nlu

import (
	"slices"
	"strings"
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
