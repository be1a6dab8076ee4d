package memory

import (
	"regexp"
	"strings"
)

// reAskedAbout reads a question for everything Hearth knows about someone:
// "what do you remember about me?", "what do you know about Emma?",
// "what have I told you about Bob", "tell me everything you know about
// my sister".
var reAskedAbout = regexp.MustCompile(`(?i)^\s*(?:so\s+|and\s+|ok\s+|okay\s+)?(?:what\s+(?:else\s+)?(?:do|did)\s+you\s+(?:know|remember)|what\s+have\s+i\s+told\s+you|what\s+did\s+i\s+tell\s+you|tell\s+me\s+(?:everything|all|what)\s+you\s+(?:know|remember))(?:\s+(?:about|of|on)\s+(.+?))?\s*[?.!]*\s*$`)

// AskedAbout reports whether text asks for everything Hearth knows about
// someone, and whom: "" for the user themself ("about me", or no one
// named).
func AskedAbout(text string) (who string, ok bool) {
	g := reAskedAbout.FindStringSubmatch(text)
	if g == nil {
		return "", false
	}
	who = strings.TrimSpace(g[1])
	switch strings.ToLower(who) {
	case "", "me", "myself", "me and my life", "my life":
		return "", true
	}
	return strings.TrimSuffix(strings.TrimSuffix(who, "'s"), "’s"), true
}
