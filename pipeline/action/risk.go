package action

import "context"

// Risk says whether an action may run at once or needs the user's
// approval first (ARCHITECTURE.md, invariant 3).
type Risk int

// Risk levels.
const (
	Low Risk = iota
	High
)

// String names the risk as logs and traces show it.
func (r Risk) String() string {
	if r == High {
		return "high"
	}
	return "low"
}

// BulkLimit is how many actions one turn may take without asking: more
// than this and every action of the turn needs approval.
const BulkLimit = 5

// RiskOf is the policy for one action, from the action alone: sending
// email, events with attendees, deleting an event (which may have
// attendees, or be a family's: Engine.Run looks, and deletes one that is
// neither at once, with undo) and deleting a family's list are high; the
// rest is low.
// Deleting a task, one's own list or forgetting a fact is low: each is
// always its owner's own (others may see a fact, never change it), named
// by them, and "undo" restores it (ARCHITECTURE.md, invariant 3:
// "changing or deleting one of your own items that you named is done at
// once, with undo").
func RiskOf(a Action) Risk {
	switch a.Kind {
	case EmailSend, EmailReply, CalendarDelete:
		return High
	case CalendarCreate:
		if p, err := Decode[EventCreateArgs](a); err != nil || len(p.Attendees) > 0 {
			return High
		}
	case CalendarUpdate:
		if p, err := Decode[EventUpdateArgs](a); err != nil || p.Update.Attendees != nil || (p.Update.Description != nil || p.Update.Location != nil) && p.Shared {
			return High
		}
	case NoteDelete:
		// A family's list is every member's: asked about, like an event
		// others are invited to.
		if p, err := Decode[NoteRefArgs](a); err != nil || p.Family {
			return High
		}
	case NoteRename:
		if p, err := Decode[NoteRenameArgs](a); err != nil || p.Family {
			return High
		}
	}
	return Low
}

// Risks applies the policy to a turn's plan, including the bulk rule.
func Risks(plan []Action) []Risk {
	out := make([]Risk, len(plan))
	for i, a := range plan {
		out[i] = RiskOf(a)
		if len(plan) > BulkLimit {
			out[i] = High
		}
	}
	return out
}

// risks is Risks for a turn's plan, with what the actions alone cannot
// tell looked up: deleting one of the user's own events that no one else
// is on is low ("cancel my haircut" is done at once, with undo), as
// deleting one of their tasks is — when the user asked for it in so many
// words (Turn.OwnWords); a delete a model planned, which may have read an
// event's description, still waits for approval, and so do deletes of
// several events at once ("cancel everything on Friday"), a bulk change.
func (e *Engine) risks(ctx context.Context, t Turn, plan []Action) ([]Risk, error) {
	risks := Risks(plan)
	if len(plan) > BulkLimit || !t.OwnWords {
		return risks, nil
	}
	deletes := 0
	for _, a := range plan {
		if a.Kind == CalendarDelete {
			deletes++
		}
	}
	if deletes > 1 {
		// "Cancel everything on Friday": a bulk change, asked about
		// whoever's the events are.
		return risks, nil
	}
	for i, a := range plan {
		if a.Kind != CalendarDelete || risks[i] != High {
			continue
		}
		p, err := Decode[EventRefArgs](a)
		if err != nil {
			continue
		}
		shared, err := e.store.EventShared(ctx, t.UserID, p.ID)
		if err != nil {
			return nil, err
		}
		if !shared {
			risks[i] = Low
		}
	}
	return risks, nil
}
