package plan

import (
	"net/mail"
	"slices"
	"strings"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// planDrafts plans what a request does to saved drafts: delete them
// (email.discard, undone by "undo") or send them as they are (email.send
// of the draft, approved like any email; cancelled, the draft stays
// saved). "… the draft to Sam" is the one to Sam, "… about the heater"
// the one about it, "that draft" the newest, "all my drafts" each. When
// the words fit several, which is asked, with a button for each; when
// they fit none, the reply says so.
func planDrafts(in stage.PlanInput, d nlu.DraftRef) (stage.Plan, error) {
	verb, act := "delete", discard
	if d.Send {
		verb, act = "send", sendDraft
	}
	p := stage.Plan{Understood: verb + " a draft"}
	drafts := slices.DeleteFunc(slices.Clone(in.Context.Drafts), func(e hearth.Email) bool { return e.Status != hearth.EmailDraft })
	if len(drafts) == 0 {
		return p, needDetails("which draft: I couldn't find any drafts")
	}
	if d.To != "" {
		p.Understood = verb + " the draft to " + d.To
		drafts = slices.DeleteFunc(drafts, func(e hearth.Email) bool { return !draftTo(e, d.To, in.Context) })
		if len(drafts) == 0 {
			return p, needDetails("which draft: I couldn't find a draft to %s", d.To)
		}
	}
	if d.About != "" {
		p.Understood = verb + " the draft about " + d.About
		drafts = slices.DeleteFunc(drafts, func(e hearth.Email) bool { return !draftAbout(e, d.About) })
		if len(drafts) == 0 {
			return p, needDetails("which draft: I couldn't find a draft about “%s”", d.About)
		}
	}
	if d.All || len(drafts) == 1 || d.That && d.To == "" && d.About == "" {
		if !d.All {
			// "That draft": the newest, the one just made or spoken of.
			drafts = drafts[:1]
		}
		for _, e := range drafts {
			a, err := act(e)
			if err != nil {
				return plannedErr(p, err)
			}
			p.Actions = append(p.Actions, a)
		}
		return p, nil
	}
	q := &stage.Question{Text: "Which draft should I " + verb + "?"}
	for _, e := range drafts[:min(len(drafts), 5)] {
		a, err := act(e)
		if err != nil {
			return plannedErr(p, err)
		}
		q.Options = append(q.Options, stage.Option{Label: draftLabel(e), Actions: []action.Action{a}})
	}
	p.Question = q
	return p, nil
}

func discard(e hearth.Email) (action.Action, error) {
	return action.New(action.EmailDiscard, action.DraftRefArgs{ID: e.ID, To: e.To, Subject: e.Subject})
}

func sendDraft(e hearth.Email) (action.Action, error) {
	return action.New(action.EmailSend, action.EmailArgs{To: e.To, Subject: e.Subject, Body: e.Body, DraftID: e.ID})
}

// draftLabel names a draft on its button (plain text): "To
// sam@example.com: Running late".
func draftLabel(e hearth.Email) string {
	l := "To " + prose.List(e.To)
	if e.Subject != "" {
		l += ": " + e.Subject
	}
	return l
}

// draftTo reports whether draft e goes to name: an address of theirs
// Hearth knows, the address itself, or an address whose name or mailbox
// reads as the name ("Sam Lee <…>", "sam.lee@…" for "Sam").
func draftTo(e hearth.Email, name string, c stage.Context) bool {
	var known []string
	for _, r := range slices.Concat(recipients(name, c), bookRecipients(name, c)) {
		if a, err := mail.ParseAddress(r.addr); err == nil {
			known = append(known, strings.ToLower(a.Address))
		}
	}
	want := words.MatchWords(name)
	for _, to := range e.To {
		a, err := mail.ParseAddress(to)
		if err != nil {
			a = &mail.Address{Address: to}
		}
		addr := strings.ToLower(a.Address)
		local, _, _ := strings.Cut(addr, "@")
		if addr == strings.ToLower(strings.TrimSpace(name)) || slices.Contains(known, addr) ||
			len(want) > 0 && (words.AllIn(want, words.MatchWords(local)) || words.AllIn(want, words.MatchWords(a.Name))) {
			return true
		}
	}
	return false
}

// draftAbout reports whether draft e is about topic: every meaningful
// word of it is in the subject or the body.
func draftAbout(e hearth.Email, topic string) bool {
	want := words.MatchWords(topic)
	return len(want) > 0 && words.AllIn(want, words.MatchWords(e.Subject+" "+e.Body))
}
