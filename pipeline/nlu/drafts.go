package nlu

import (
	"regexp"
	"strings"
)

// reDiscard reads a request to throw a draft away: "delete that draft",
// "discard my draft to Sam", "scrap the email to the landlord about the
// heater", "get rid of all my drafts". An email that is not said to be a
// draft is one only when nothing but its recipient or topic follows
// ("delete the email from Sam" is received mail, which Hearth does not
// delete).
var reDiscard = regexp.MustCompile(`(?i)^(?:please\s+)?(?:(?:can|could|would|will)\s+you\s+)?(?:just\s+)?` +
	`(?:delete|discard|scrap|bin|trash|ditch|drop|remove|cancel|throw\s+(?:away|out)|get\s+rid\s+of)\s+` +
	`(?:(all|both)\s+(?:of\s+)?)?(?:(that|the|this|my|those|these|all|both)\s+)?` +
	`((?:e-?mail\s+)?drafts?(?:\s+e-?mails?)?|e-?mails?)` +
	`(?:\s+(?:to|for)\s+(.+?))?(?:\s+(?:about|re|regarding|on)\s+(.+?))?` +
	`(?:\s+(?:please|for\s+me|too|as\s+well))?[\s.!]*$`)

// Discard is a request to throw drafts away, as DiscardsDraft read it.
type Discard struct {
	// To is the recipient named ("to Sam"), About the topic ("about the
	// heater"); both empty for "that draft".
	To, About string
	// All is true for "all my drafts", "both drafts", "the drafts".
	All bool
	// That is true for "that draft", "this email": the one just spoken
	// of.
	That bool
}

// ReadDiscard reads a request to delete a draft; ok is false for any
// other message.
func ReadDiscard(text string) (d Discard, ok bool) {
	m := reDiscard.FindStringSubmatch(strings.TrimSpace(text))
	if m == nil {
		return Discard{}, false
	}
	noun, det := strings.ToLower(m[3]), strings.ToLower(m[2])
	plural := strings.HasSuffix(noun, "drafts") || strings.HasSuffix(noun, "emails")
	return Discard{
		To: strings.TrimSpace(m[4]), About: strings.TrimSpace(m[5]),
		All: m[1] != "" || plural || det == "all" || det == "both", That: det == "that" || det == "this",
	}, true
}

// DiscardsDraft reports a request to delete a draft (see ReadDiscard).
func DiscardsDraft(text string) bool {
	_, ok := ReadDiscard(text)
	return ok
}
