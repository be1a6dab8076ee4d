package memory

import (
	"regexp"
	"strings"

	"github.com/hearthbot/hearth"
)

// How a fact says that an attribute's value stopped holding: "Ben no
// longer works at Acme", "Sam doesn't work at Initech anymore", "I don't
// live in Leeds any more", "Mia no longer goes to Lincoln Elementary".
// A plain negation ("Sam doesn't work for free") is not one: it takes "no
// longer", "stopped", or "any more" after the value.
var (
	not       = `(?:n't|n’t|\s+not)`
	anyMore   = `(\s+(?i:any\s?more|now|these\s+days))?[.!]*$`
	endedRule = []struct {
		re   *regexp.Regexp
		attr string
	}{
		{regexp.MustCompile(`^(?:` + subject + `)\s+((?i:no\s+longer|(?:does|do)` + not + `|(?:is|are)` + not + `)\s+(?i:works?|working)|(?i:(?:has\s+|have\s+)?stopped\s+working))\s+(?i:at|for)\s+(.+?)` + anyMore), hearth.AttrEmployer},
		{regexp.MustCompile(`^(?:` + subject + `)\s+((?i:no\s+longer|(?:does|do)` + not + `|(?:is|are)` + not + `)\s+(?i:lives?|living))\s+(?i:in|at|on)\s+(.+?)` + anyMore), AttrHome},
		{regexp.MustCompile(`^(?:` + subject + `)\s+((?i:no\s+longer|(?:does|do)` + not + `)\s+(?i:goes|go|attends?)|(?i:(?:is|are)\s+no\s+longer|(?:is|are)` + not + `)\s+(?i:at|going\s+to))\s+(?i:to\s+)?(.+?\s(?i:school|academy|college|university|elementary|primary|high|kindergarten|nursery|preschool|daycare))` + anyMore), hearth.AttrSchool},
	}
)

// ReadEnding reads a fact that says a value of an attribute no longer
// holds (see above) into the statement of that value: "Ben no longer
// works at Acme" → Ben, employer, Acme. ok is false for any other fact.
func ReadEnding(fact string) (Statement, bool) {
	fact = strings.TrimSpace(fact)
	for _, r := range endedRule {
		g := r.re.FindStringSubmatch(fact)
		if g == nil {
			continue
		}
		verb, v, more := strings.ToLower(g[7]), value(g[8]), g[9]
		if more == "" && !strings.Contains(verb, "no longer") && !strings.Contains(verb, "stopped") {
			return Statement{}, false
		}
		s := subjectOf(g[1:7])
		s.Attribute, s.Value = r.attr, v
		if s.Value == "" || s.Name == "" && !s.Self || r.attr == AttrHome && !aPlace(v) {
			return Statement{}, false
		}
		return s, true
	}
	return Statement{}, false
}

// ToldEnding reports whether text tells, plainly, that a value no longer
// holds (ReadEnding): news to remember, like ToldHome.
func ToldEnding(text string) bool {
	t := strings.TrimSpace(text)
	if strings.Contains(t, "?") {
		return false
	}
	_, ok := ReadEnding(t)
	return ok
}
