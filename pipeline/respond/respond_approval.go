package respond

// How a reply asks for approval: of one action in its own words (an
// email shows its draft), or of a bulk change as one question.

import (
	"fmt"
	"strings"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/stage"
)

// approvalText asks the user to confirm an action that waits for them;
// the runner adds the Approve/Cancel buttons.
func approvalText(o stage.Outcome, t outcomeText, c stage.Context) string {
	switch o.Action.Kind {
	case action.EmailSend, action.EmailReply:
		p, _ := action.Decode[action.EmailArgs](o.Action)
		var b strings.Builder
		fmt.Fprintf(&b, "Here's the draft to %s:\n\n", prose.List(markdown.EscapeAll(p.To)))
		if p.Subject != "" {
			fmt.Fprintf(&b, "Subject: %s\n\n", markdown.Escape(p.Subject))
		}
		b.WriteString(markdown.Escape(p.Body))
		if e, ok := o.Result.(hearth.Email); ok && e.Via.LeavesMachine() {
			var unknown []string
			for _, to := range p.To {
				if !strings.Contains(to, "@") {
					unknown = append(unknown, to)
				}
			}
			if len(unknown) > 0 {
				fmt.Fprintf(&b, "\n\nI don't have an email address for %s, so it can't go out yet: tell me (\"%s email is …\") and ask me again.", prose.List(markdown.EscapeAll(unknown)), markdown.Escape(prose.Possessive(unknown[0])))
			} else {
				b.WriteString("\n\nShall I send it?")
			}
		} else {
			b.WriteString("\n\nApprove to keep it in Hearth's outbox: no mail service is connected, so nothing will leave this machine.")
		}
		if e, ok := o.Result.(hearth.Email); ok && e.Hint != "" {
			b.WriteString("\n" + e.Hint)
		}
		return b.String()
	case action.CalendarCreate:
		p, _ := action.Decode[action.EventCreateArgs](o.Action)
		s := "Shall I add " + markdown.Escape(p.Title) + " to your calendar for " + stage.FormatWhen(p.Start, p.AllDay, c)
		if p.Repeat != nil {
			s = "Shall I add " + markdown.Escape(p.Title) + " to your calendar " + repeats(p, c)
		}
		if len(p.Attendees) > 0 {
			s += " and invite " + prose.List(markdown.EscapeAll(p.Attendees))
		}
		return s + "?"
	case action.CalendarDelete:
		p, _ := action.Decode[action.EventRefArgs](o.Action)
		if p.Series {
			return "Shall I cancel " + quotedOr(p.Title, "that event") + ", every time it repeats?"
		}
		return "Shall I cancel " + quotedOr(p.Title, "that event") + "?"
	case action.CalendarUpdate:
		p, _ := action.Decode[action.EventUpdateArgs](o.Action)
		if len(p.Invited) > 0 {
			return "Shall I invite " + prose.List(markdown.EscapeAll(p.Invited)) + " to " + quotedOr(p.Title, "that event") + "? A connected calendar sends them an invitation."
		}
		if len(p.Uninvited) > 0 {
			return "Shall I take " + prose.List(markdown.EscapeAll(p.Uninvited)) + " off " + quotedOr(p.Title, "that event") + "? A connected calendar tells them."
		}
		if p.Update.Location != nil && p.Shared {
			return "Shall I set the place of " + quotedOr(p.Title, "that event") + " to “" + markdown.Escape(*p.Update.Location) + "”? Everyone invited sees it."
		}
		if p.Noted != "" && p.Shared {
			return "Shall I add “" + markdown.Escape(p.Noted) + "” to the notes of " + quotedOr(p.Title, "that event") + "? Everyone invited sees them."
		}
	case action.NoteDelete:
		p, _ := action.Decode[action.NoteRefArgs](o.Action)
		if p.Family {
			return "Shall I delete " + refList(p) + "? Everyone in your family would lose it (\"undo\" brings it back)."
		}
		return "Shall I delete " + refList(p) + "?"
	}
	return "Shall I " + t.verb + "?"
}

// bulkApprovalText asks about several actions at once: "Shall I cancel
// these 3 events: “Yoga”, “Haircut” and “Dinner with Sam”?", or, for
// actions of several kinds, each in its own words.
func bulkApprovalText(waiting []stage.Outcome, c stage.Context) string {
	var titles []string
	for _, o := range waiting {
		if o.Action.Kind != action.CalendarDelete {
			verbs := make([]string, len(waiting))
			for i, w := range waiting {
				verbs[i] = describeOutcome(w, c).verb
			}
			return "Shall I " + prose.List(verbs) + "?"
		}
		p, _ := action.Decode[action.EventRefArgs](o.Action)
		titles = append(titles, quotedOr(p.Title, "an untitled event"))
	}
	return fmt.Sprintf("Shall I cancel these %d events: %s?", len(titles), prose.List(titles))
}

// repeats says how a repeating event repeats and from when: "every
// Wednesday at 4:00 PM, starting Wednesday"; an all-day one has no time
// of day.
func repeats(p action.EventCreateArgs, c stage.Context) string {
	at := " at " + p.Repeat.At.String()
	clock := ""
	if !p.AllDay {
		clock = " at " + stage.ClockOf(p.Start, c)
	}
	rule, until, _ := strings.Cut(p.Repeat.String(), ", until ")
	s := strings.Replace(rule, at, clock, 1) + ", starting " + stage.FormatWhen(p.Start, true, c)
	if until != "" {
		s += ", until " + until
	}
	return s
}
