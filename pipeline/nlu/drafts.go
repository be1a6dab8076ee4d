package nlu

import (
	"regexp"
	"strings"
)

// A request about saved drafts names them by their recipient, their
// topic, "that", or all of them: "delete that draft", "discard my draft
// to Sam", "scrap the email to the landlord about the heater", "get rid
// of all my drafts", "send the draft to Sam". An email that is not said
// to be a draft is one when it is thrown away and nothing but its
// recipient or topic follows ("delete the email from Sam" is received
// mail, which Hearth does not delete), and may be one when it is sent so
// ("send the email to Sam": the saved one when there is one, else a new
// one).
const (
	draftLead  = `(?i)^(?:please\s+)?(?:(?:can|could|would|will)\s+you\s+)?(?:just\s+|go\s+ahead\s+and\s+)?`
	draftWhich = `\s+(?:(all|both)\s+(?:of\s+)?)?(?:(that|the|this|my|those|these|all|both)\s+)?`
	draftTail  = `(?:\s+(?:to|for)\s+(.+?))?(?:\s+(?:about|re|regarding|on)\s+(.+?))?` +
		`(?:\s+(?:please|now|for\s+me|too|as\s+well))?[\s.!]*$`
)

var (
	reDiscard = regexp.MustCompile(draftLead +
		`(?:delete|discard|scrap|bin|trash|ditch|drop|remove|cancel|throw\s+(?:away|out)|get\s+rid\s+of)` + draftWhich +
		`((?:e-?mail\s+)?drafts?(?:\s+e-?mails?)?|e-?mails?)` + draftTail)
	reSendDraft = regexp.MustCompile(draftLead + `send(?:\s+off)?` + draftWhich +
		`((?:e-?mail\s+)?drafts?(?:\s+e-?mails?)?|saved\s+e-?mails?)` + draftTail)
	// reSendEmail reads "send the email to Sam", "send that email":
	// groups as reSendDraft's, the determiner required.
	reSendEmail = regexp.MustCompile(draftLead + `send(?:\s+off)?` + `\s+()(the|that|this|my)\s+(e-?mail)` + draftTail)
)

// DraftRef is a request about saved drafts, as ReadDraftRef read it.
type DraftRef struct {
	// Send is true for "send the draft …", false for throwing it away.
	Send bool
	// To is the recipient named ("to Sam"), About the topic ("about the
	// heater"); both empty for "that draft".
	To, About string
	// All is true for "all my drafts", "both drafts", "the drafts".
	All bool
	// That is true for "that draft", "this email": the one just spoken
	// of.
	That bool
	// Maybe is true for an email sent that is not said to be a draft
	// ("send the email to Sam"): a saved draft when one fits, else a new
	// email to write.
	Maybe bool
}

// ReadDraftRef reads a request to delete or send saved drafts; ok is
// false for any other message.
func ReadDraftRef(text string) (d DraftRef, ok bool) {
	text = strings.TrimSpace(text)
	m := reDiscard.FindStringSubmatch(text)
	if m == nil {
		if m = reSendDraft.FindStringSubmatch(text); m == nil {
			if m = reSendEmail.FindStringSubmatch(text); m == nil {
				return DraftRef{}, false
			}
			d.Maybe = true
		}
		d.Send = true
	}
	noun, det := strings.ToLower(m[3]), strings.ToLower(m[2])
	plural := strings.HasSuffix(noun, "drafts") || strings.HasSuffix(noun, "emails")
	d.To, d.About = strings.TrimSpace(m[4]), strings.TrimSpace(m[5])
	d.All, d.That = m[1] != "" || plural || det == "all" || det == "both", det == "that" || det == "this"
	return d, true
}

// DiscardsDraft reports a request to delete a draft (see ReadDraftRef).
func DiscardsDraft(text string) bool {
	d, ok := ReadDraftRef(text)
	return ok && !d.Send
}
