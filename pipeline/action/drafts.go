package action

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/hearthbot/hearth"
)

// The draft an email's approval shows, and what becomes of it when the
// approval is cancelled.

// Draft creates (once, keyed by the action) the draft an email.send or
// email.reply will send, so the user sees exactly what awaits approval.
func (x *Executor) Draft(ctx context.Context, r Record) (hearth.Email, error) {
	e := hearth.Email{UserID: r.UserID, Status: hearth.EmailDraft}
	switch r.Action.Kind {
	case EmailSend:
		p, err := Decode[EmailArgs](r.Action)
		if err != nil {
			return e, err
		}
		if p.DraftID != 0 {
			// A saved draft, sent as it is (once: sending it again, a
			// retry, returns it as sent), and only as the approval
			// showed it.
			d, err := x.Mail.Email(ctx, r.UserID, p.DraftID)
			if err == nil && (!slices.Equal(d.To, p.To) || d.Subject != p.Subject || d.Body != p.Body) {
				err = hearth.Invalidf("draft %d is not the one shown for approval", p.DraftID)
			}
			return d, err
		}
		e.To, e.Subject, e.Body = p.To, p.Subject, p.Body
	case EmailReply:
		p, err := Decode[EmailReplyArgs](r.Action)
		if err != nil {
			return e, err
		}
		e.To, e.Subject, e.Body, e.InReplyTo = p.To, p.Subject, p.Body, p.InReplyTo
	default:
		return e, hearth.Invalidf("%s has no draft", r.Action.Kind)
	}
	return x.Mail.CreateDraft(ctx, r.Key(), e)
}

// DiscardDraft deletes the draft an email.send or email.reply made for
// its approval, once the approval is cancelled. A draft already gone, or
// sent, is left as it is.
func (x *Executor) DiscardDraft(ctx context.Context, r Record) error {
	if p, err := Decode[EmailArgs](r.Action); err == nil && r.Action.Kind == EmailSend && p.DraftID != 0 {
		return nil // a saved draft the user asked to send stays saved
	}
	d, err := x.Draft(ctx, r)
	if err != nil {
		return err
	}
	if d.Status != hearth.EmailDraft {
		return nil
	}
	if _, err := x.Mail.DeleteDraft(ctx, r.UserID, d.ID); err != nil && !errors.Is(err, hearth.ErrNotFound) {
		return fmt.Errorf("discard draft %d: %w", d.ID, err)
	}
	return nil
}
