package memory

import (
	"regexp"
	"strings"
)

// reGotNew reads a new value told as news: "Tom got a new number: 555
// 0199", "Sam has a new email, sam@new.example", "I have a new phone
// number 0170 555".
var reGotNew = regexp.MustCompile(`^(?:` + subject + `)\s+(?i:got|has\s+got|have\s+got|has|have|just\s+got|now\s+has|now\s+have)\s+(?i:a\s+)?new\s+(?i:(` + attrAlt + `))(?:\s*[:,–-]\s*|\s+(?i:which\s+is\s+|it's\s+|it\s+is\s+)?)(.+)$`)

// NewValue restates a new value of an attribute told as news ("Tom got a
// new number: 555 0199", "Tom's new number is 555 0199") as the fact it
// makes ("Tom's number is 555 0199"), which ReadStatement reads, so that
// it closes the value Hearth had. ok is false for any other fact.
func NewValue(fact string) (string, bool) {
	fact = strings.TrimRight(strings.TrimSpace(fact), ".!")
	if g := reGotNew.FindStringSubmatch(fact); g != nil {
		s := subjectOf(g[1:7])
		owner := s.Name + "'s" // "my brother Jon" is Jon
		switch {
		case s.Self:
			owner = "My"
		case g[4] != "":
			owner = "My " + s.Relation + "'s" // "my brother", unnamed
		}
		restated := owner + " " + strings.ToLower(g[7]) + " is " + strings.TrimSpace(g[8])
		if _, ok := ReadStatement(restated); ok {
			return restated, true
		}
		return "", false
	}
	// "Tom's new number is …", "my new email is …": the value without
	// "new".
	lc := strings.ToLower(fact)
	i := strings.Index(lc, " new ")
	if i < 0 || !strings.HasSuffix(lc[:i], "'s") && !strings.HasSuffix(lc[:i], "’s") && lc[:i] != "my" && lc[:i] != "our" {
		return "", false
	}
	restated := fact[:i] + " " + fact[i+len(" new "):]
	if st, ok := ReadStatement(restated); ok && st.Attribute != "" {
		return restated, true
	}
	return "", false
}
