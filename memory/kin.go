package memory

import (
	"regexp"
	"strings"
)

// reKin reads someone named by what they are to the user: "my sister",
// "my sister's", "our son".
var reKin = regexp.MustCompile(`(?i)\b(?:my|our)\s+(` + relAlt + `)(?:'s|’s|')?(?:\s|[?.!,]|$)`)

// KinIn finds the first person a text names by what they are to the user
// ("when is my sister's birthday?"): phrase is those words as written
// ("my sister"), rel the relation ("sister"). A question asked so is
// answered by what was told of that person by name ("Julia's birthday is
// March 3rd", Julia told to be the sister).
func KinIn(text string) (phrase, rel string, ok bool) {
	m := reKin.FindStringSubmatchIndex(text)
	if m == nil {
		return "", "", false
	}
	return text[m[0]:m[3]], strings.ToLower(text[m[2]:m[3]]), true
}
