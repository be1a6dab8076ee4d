package memory

import (
	"regexp"
	"strings"

	"github.com/hearthbot/hearth/pipeline/nlu/timex"
)

// reAskedAbout reads a question for everything Hearth knows about someone:
// "what do you remember about me?", "what do you know about Emma?",
// "what have I told you about Bob", "what did I ask you to remember?",
// "tell me everything you know about my sister".
var reAskedAbout = regexp.MustCompile(`(?i)^\s*(?:so\s+|and\s+|ok\s+|okay\s+)?(?:what\s+(?:else\s+)?(?:do|did)\s+you\s+(?:know|remember)|what\s+have\s+i\s+told\s+you|what\s+did\s+i\s+tell\s+you|what\s+(?:did|have)\s+i\s+ask(?:ed)?\s+you\s+to\s+(?:remember|keep\s+in\s+mind|note)|tell\s+me\s+(?:everything|all|what)\s+you\s+(?:know|remember))(?:\s+(?:about|of|on)\s+(.+?))?\s*[?.!]*\s*$`)

// reTellAbout reads "tell me about Bob", "tell me more about my sister":
// about someone only when a name or "my …" follows (see AskedAbout).
var reTellAbout = regexp.MustCompile(`(?i)^\s*(?:please\s+)?(?:can\s+you\s+)?tell\s+me\s+(?:more\s+|a\s+bit\s+)?about\s+(.+?)\s*[?.!]*\s*$`)

// reWhoIs reads "who is Sam?", "who's Sarah Kim": after someone by name
// only (see AskedAbout).
var reWhoIs = regexp.MustCompile(`(?i)^\s*(?:so\s+|and\s+)?who(?:\s+is|'s|’s)\s+(.+?)\s*[?.!]*\s*$`)

// AskedAbout reports whether text asks for everything Hearth knows about
// someone, and whom: "" for the user themself ("about me", or no one
// named).
func AskedAbout(text string) (who string, ok bool) {
	g := reAskedAbout.FindStringSubmatch(text)
	if g == nil {
		// "Tell me about Bob" asks after a person or thing by its name;
		// "tell me about tomorrow" or "about the weather" is another
		// question.
		t := reTellAbout.FindStringSubmatch(text)
		if t == nil || !aboutSomeone(t[1]) {
			// "Who is Sam?" asks the same of a name; "who is my sister?"
			// asks for one relation (ReadQuestion), "who is there?" for
			// no one.
			t = reWhoIs.FindStringSubmatch(text)
			if t == nil || !reNameOnly.MatchString(t[1]) || notNames[strings.ToLower(strings.Fields(t[1])[0])] {
				return "", false
			}
		}
		g = t
	}
	who = strings.TrimSpace(g[1])
	switch strings.ToLower(who) {
	case "", "me", "myself", "me and my life", "my life":
		return "", true
	}
	return strings.TrimSuffix(strings.TrimSuffix(who, "'s"), "’s"), true
}

// aboutSomeone reports whether what "tell me about" names is someone or
// something by name ("Bob", "Sarah Kim", "my sister"), not a time.
func aboutSomeone(s string) bool {
	s = strings.TrimSpace(s)
	if len(strings.Fields(s)) > 4 || len(timex.Find(s, timeReference, timex.Options{})) > 0 {
		return false
	}
	if rest, ok := strings.CutPrefix(strings.ToLower(s), "my "); ok {
		_, kin := relations[rest]
		return kin
	}
	return reNameOnly.MatchString(s) && !notNames[strings.ToLower(strings.Fields(s)[0])]
}

// reWhoKnown reads a question for the people the user knows by what they
// do or like: "who do I know who is into climbing?", "do I know anyone
// who sails?", "which of my friends plays chess?".
var reWhoKnown = regexp.MustCompile(`(?i)^\s*(?:who\s+do\s+(?:i|we)\s+know|do\s+(?:i|we)\s+know\s+(?:anyone|anybody|someone|somebody)|which\s+of\s+(?:my|our)\s+(?:friends|colleagues|neighbours|neighbors|family)|which\s+friends?\s+of\s+(?:mine|ours))\s+(?:who|that)?\s*(.+?)\s*[?.!]*\s*$`)

// AskedWhoKnown reports whether text asks which of the people the user
// knows does or likes something, and what ("is into climbing").
func AskedWhoKnown(text string) (string, bool) {
	g := reWhoKnown.FindStringSubmatch(text)
	if g == nil || strings.TrimSpace(g[1]) == "" {
		return "", false
	}
	return strings.TrimSpace(g[1]), true
}

// reGiftFor reads a question about a present for someone: "what should I
// get Sam for his birthday?", "any gift ideas for Mom?", "what could I
// buy my sister?", "what would Emma like for Christmas?".
var reGiftFor = regexp.MustCompile(`(?i)^\s*(?:so\s+|and\s+|hmm,?\s+)?(?:what\s+(?:should|shall|could|can|do\s+you\s+think\s+i\s+should)\s+(?:i|we)\s+(?:get|buy|give)\s+(.+?)(?:\s+for\s+.+?)?|what\s+to\s+(?:get|buy|give)\s+(.+?)(?:\s+for\s+.+?)?|(?:any\s+)?(?:gift|present|birthday\s+present|christmas\s+present)\s+ideas?\s+for\s+(.+?)|what\s+would\s+(.+?)\s+(?:like|want|love)\s+(?:as\s+a\s+(?:gift|present)|for\s+.+?))\s*[?.!]*\s*$`)

// GiftFor reports whether text asks what to give someone, and whom: what
// Hearth knows they like answers it. Only a name or "my …" counts as
// someone ("what should I get for dinner?" is not such a question).
func GiftFor(text string) (who string, ok bool) {
	g := reGiftFor.FindStringSubmatch(text)
	if g == nil {
		return "", false
	}
	for _, s := range g[1:] {
		if s == "" {
			continue
		}
		s = strings.TrimSpace(s)
		if _, kin := relations[strings.ToLower(s)]; kin || aboutSomeone(s) {
			return s, true // "Mom", "my sister", "Sam"
		}
		return "", false
	}
	return "", false
}
