package nlu

import (
	"regexp"
	"strings"
)

// reWhenIs reads a question for when one thing is: "when is my haircut?",
// "what time is the dentist?", "when's the car insurance due?".
var reWhenIs = regexp.MustCompile(`(?i)^\s*(?:so\s+|and\s+|hey\s+)?(?:when(?:'s|’s|s|\s+is|\s+was)|what\s+(?:time|day|date)(?:'s|’s|\s+is|\s+was))\s+(?:my|the|our)\s+(.+?)(?:\s+(?:due|happening|again|on))?\s*[?.!]*\s*$`)

// WhenIs reports a question for when one thing named is ("when is my
// haircut?"), and how it names it ("haircut"): an event's or a task's
// title, or a remembered date ("my birthday"), whichever the user has.
func WhenIs(text string) (string, bool) {
	g := reWhenIs.FindStringSubmatch(text)
	if g == nil {
		return "", false
	}
	ref := strings.TrimSpace(g[1])
	return ref, ref != ""
}
