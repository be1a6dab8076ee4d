package memory

import (
	"slices"
	"strings"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/words"
)

// tierCues are the words that put a fact in a tier, most private first:
// a fact that names a medicine and a birthday is private. A cue with a
// space or an apostrophe is matched as written, one ending in * as the
// start of a word, any other as a whole word.
var tierCues = []struct {
	tier hearth.Tier
	cues []string
}{
	{hearth.TierPrivate, []string{
		// health
		"doctor", "hospital", "diagnosed", "diagnosis", "medication", "medicine", "prescription", "pills",
		"allergic", "allergy", "allergies", "therapy", "therapist", "surgery", "pregnant", "blood pressure",
		"diabetes", "asthma", "cancer", "depression", "anxiety", "dentist", "symptoms", "illness", "sick",
		// money and secrets
		"salary", "bank", "account number", "pin", "password", "debt", "loan", "mortgage", "credit card",
		"tax", "taxes", "income", "savings", "paid me", "owe", "owes", "social security", "passport number",
	}},
	{hearth.TierPersonal, []string{
		"birthday", "anniversary", "favourite", "favorite", "prefers", "prefer", "likes", "loves", "hates",
		"dislikes", "phone", "number is", "email", "address", "lives at", "lives in", "grade", "grades",
		"shoe size", "size", "vegetarian", "vegan", "diet", "hobby", "into",
	}},
	{hearth.TierEvents, []string{
		"graduat*", "wedding", "married", "engaged", "born", "moved", "moving", "new job", "started at",
		"promoted", "retired", "school play", "recital", "concert", "trip", "holiday", "vacation",
		"closed on", "bought a house", "new house", "won", "passed", "competition", "match",
	}},
	{hearth.TierBasic, []string{
		"is my", "'s name is", "name is", "are my", "is called", "works at", "colleague", "neighbour", "neighbor",
	}},
}

// Tier classifies a new fact by its words. sure is false when no cue
// decides it; the tier is then TierPersonal, the safe middle (family
// members see it only through a grant of tier 2 or lower), and the caller
// may ask.
func Tier(fact string) (tier hearth.Tier, sure bool) {
	lc := words.ASCIILower(fact)
	for _, t := range tierCues {
		for _, c := range t.cues {
			var hit bool
			switch {
			case strings.HasSuffix(c, "*"):
				hit = strings.Contains(" "+lc, " "+strings.TrimSuffix(c, "*"))
			case strings.ContainsAny(c, " '"):
				hit = strings.Contains(lc, c)
			default:
				hit = words.ContainsWord(lc, c)
			}
			if hit {
				return t.tier, true
			}
		}
	}
	return hearth.TierPersonal, false
}

// Subject is what a fact states something about, for telling a correction
// from a new fact: the words before its verb, lower-cased ("John's
// birthday is March 15th" → "john's birthday"; "My phone number is …" →
// "my phone number"; "I parked on level 3" → "i parked"). It is "" when the fact has no "is"/"are"/"was"
// stating a value, or the subject is a single word ("Emma is allergic
// to …" may be one of many facts about Emma).
func Subject(fact string) string {
	lc := words.ASCIILower(strings.TrimSpace(fact))
	for _, parked := range []string{"i parked ", "we parked "} {
		// "I parked on level 3": where the car is now, which the next
		// "I parked …" replaces.
		if strings.HasPrefix(lc, parked) {
			return strings.TrimSpace(parked)
		}
	}
	for _, verb := range []string{" is ", " are ", " was ", " were ", " changed to ", " moved to "} {
		if i := strings.Index(lc, verb); i > 0 {
			subj := strings.Join(strings.Fields(lc[:i]), " ")
			if len(strings.Fields(subj)) < 2 {
				return ""
			}
			return subj
		}
	}
	return ""
}

// SameSubject reports whether two subjects (Subject's) name the same
// thing: equal, or the same owner and head noun with one's other words
// among the other's ("tom's number" and "tom's phone number"; not "my
// work number" and "my home number").
func SameSubject(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if a == b {
		return true
	}
	af, bf := strings.Fields(a), strings.Fields(b)
	if len(af) < 2 || len(bf) < 2 || af[0] != bf[0] || af[len(af)-1] != bf[len(bf)-1] {
		return false
	}
	if len(af) > len(bf) {
		af, bf = bf, af
	}
	for _, w := range af[1 : len(af)-1] {
		if !slices.Contains(bf[1:len(bf)-1], w) {
			return false
		}
	}
	return true
}

// ChangedValue reads the new value of a fact told as a change ("Tom's
// number changed to 555 0199", "our dentist moved to Elm Street").
func ChangedValue(fact string) (string, bool) {
	lc := words.ASCIILower(fact)
	for _, verb := range []string{" changed to ", " moved to ", " is now "} {
		if i := strings.Index(lc, verb); i > 0 {
			v := strings.TrimRight(strings.TrimSpace(fact[i+len(verb):]), ".!")
			return v, v != ""
		}
	}
	return "", false
}
