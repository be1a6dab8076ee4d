package respond

import (
	"strings"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/stage"
)

// mailedAddresses are the addresses the turn's emails go to, lower-cased.
func mailedAddresses(os []stage.Outcome) map[string]bool {
	out := map[string]bool{}
	for _, o := range os {
		if o.Action.Kind != action.EmailDraft && o.Action.Kind != action.EmailSend {
			continue
		}
		p, _ := action.Decode[action.EmailArgs](o.Action)
		for _, addr := range p.Addresses() {
			out[addr] = true
		}
	}
	return out
}

// addressRemembered reports whose email address a stored memory is, when
// it is one of mailed (an address from the user's contacts, or the one
// they just gave, remembered as the email goes to it).
func addressRemembered(o stage.Outcome, mailed map[string]bool) (string, bool) {
	if o.Action.Kind != action.MemoryStore || o.Status != stage.Done {
		return "", false
	}
	p, _ := action.Decode[action.MemoryStoreArgs](o.Action)
	if p.Attribute != hearth.AttrEmail || p.Entity == nil || p.Entity.Name == "" || !mailed[strings.ToLower(strings.TrimSpace(p.Value))] {
		return "", false
	}
	return markdown.Escape(p.Entity.Name), true
}
