package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

// The outbox of the built-in mail provider. Nothing here transmits mail:
// sending records that the user approved the message, and when. A
// provider that does transmit (SMTP) keeps its drafts here too, and
// brackets each transmission with ClaimSend and FinishSend.

const emailColumns = `id, user_id, to_addrs, subject, body, in_reply_to, status, via, message_id, sent_at, created_at`

func scanEmail(row pgx.Row) (hearth.Email, error) {
	var e hearth.Email
	var inReplyTo *int64
	var status, via string
	var sent *time.Time
	err := row.Scan(&e.ID, &e.UserID, &e.To, &e.Subject, &e.Body, &inReplyTo, &status, &via, &e.MessageID, &sent, &e.CreatedAt)
	if inReplyTo != nil {
		e.InReplyTo = *inReplyTo
	}
	// A draft here goes nowhere unless another provider takes it: the
	// outbox is where it stays.
	e.Status, e.Via = hearth.EmailStatus(status), hearth.MailVia(cmp.Or(via, string(hearth.ViaOutbox)))
	e.SentAt, e.CreatedAt = utcOrZero(sent), e.CreatedAt.UTC()
	return e, err
}

// CreateDraft stores a draft for e.UserID; e.Status and e.SentAt are
// ignored (a draft is sent only by SendEmail). A second call with the same
// key returns the draft the first one created and changes nothing.
func (s *Store) CreateDraft(ctx context.Context, key string, e hearth.Email) (hearth.Email, error) {
	to := make([]string, 0, len(e.To))
	for _, addr := range e.To {
		if addr = strings.TrimSpace(addr); addr != "" {
			to = append(to, addr)
		}
	}
	var err error
	switch {
	case e.UserID <= 0:
		err = hearth.Invalidf("an email needs a user")
	case len(to) == 0:
		err = hearth.Invalidf("an email needs a recipient")
	case strings.TrimSpace(e.Subject) == "" && strings.TrimSpace(e.Body) == "":
		err = hearth.Invalidf("an email needs a subject or a body")
	}
	if err != nil {
		return hearth.Email{}, fmt.Errorf("store create draft: %w", err)
	}
	var inReplyTo *int64
	if e.InReplyTo != 0 {
		inReplyTo = &e.InReplyTo
	}
	created, err := createOnce(ctx, s, "emails", emailColumns, scanEmail, key, e.UserID, `
		INSERT INTO emails (source_key, user_id, to_addrs, subject, body, in_reply_to)
		VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (source_key) DO NOTHING
		RETURNING `+emailColumns,
		keyArg(key), e.UserID, to, strings.TrimSpace(e.Subject), e.Body, inReplyTo)
	if err != nil {
		return hearth.Email{}, fmt.Errorf("store create draft: %w", err)
	}
	return created, nil
}

// Email returns one of userID's emails, draft or sent; a deleted or
// foreign one is hearth.ErrNotFound.
func (s *Store) Email(ctx context.Context, userID, id int64) (hearth.Email, error) {
	e, err := scanEmail(s.pool.QueryRow(ctx, `SELECT `+emailColumns+` FROM emails
		WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL`, id, userID))
	if err != nil {
		return e, fmt.Errorf("store email %d: %w", id, notFound(translate(err), "email", id))
	}
	return e, nil
}

// SendEmail marks a draft sent through the outbox, once: nothing is
// transmitted (Via is hearth.ViaOutbox). Sending it again returns it
// unchanged, with the first SentAt. A deleted or foreign email is
// hearth.ErrNotFound.
func (s *Store) SendEmail(ctx context.Context, userID, id int64) (hearth.Email, error) {
	var e hearth.Email
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var err error
		e, err = scanEmail(tx.QueryRow(ctx, `SELECT `+emailColumns+` FROM emails
			WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL FOR UPDATE`, id, userID))
		if err != nil {
			return notFound(err, "email", id)
		}
		if e.Status == hearth.EmailSent {
			return nil
		}
		e, err = scanEmail(tx.QueryRow(ctx, `
			UPDATE emails SET status = 'sent', via = 'outbox', sent_at = now(), updated_at = now()
			WHERE id = $1
			RETURNING `+emailColumns, id))
		return err
	})
	if err != nil {
		return hearth.Email{}, fmt.Errorf("store send email %d: %w", id, err)
	}
	return e, nil
}

// ClaimSend claims a draft of userID's for one transmission, committed
// before the caller talks to a mail server. claimed is false, with the
// email, when it was sent already. A draft claimed earlier and never
// finished or released (the sender died mid-conversation) may have gone
// out: it is an hearth.ErrInvalid error saying so, and is never claimed
// again, so a message is transmitted at most once. A deleted or foreign
// email is hearth.ErrNotFound.
func (s *Store) ClaimSend(ctx context.Context, userID, id int64) (e hearth.Email, claimed bool, err error) {
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		var started *time.Time
		var err error
		e, err = scanEmail(tx.QueryRow(ctx, `SELECT `+emailColumns+` FROM emails
			WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL FOR UPDATE`, id, userID))
		if err != nil {
			return notFound(err, "email", id)
		}
		if e.Status == hearth.EmailSent {
			return nil
		}
		if err := tx.QueryRow(ctx, `SELECT send_started_at FROM emails WHERE id = $1`, id).Scan(&started); err != nil {
			return err
		}
		if started != nil {
			return hearth.Invalidf("I was interrupted while sending that email, so I can't tell whether it went out; I won't send it twice, so please check your sent mail")
		}
		claimed = true
		_, err = tx.Exec(ctx, `UPDATE emails SET send_started_at = now() WHERE id = $1`, id)
		return err
	})
	if err != nil {
		return hearth.Email{}, false, fmt.Errorf("store claim send %d: %w", id, err)
	}
	return e, claimed, nil
}

// FinishSend records that a claimed draft was transmitted via a provider
// with the given Message-ID. Finishing a sent email returns it unchanged.
func (s *Store) FinishSend(ctx context.Context, userID, id int64, via hearth.MailVia, messageID string) (hearth.Email, error) {
	e, err := scanEmail(s.pool.QueryRow(ctx, `
		UPDATE emails SET status = 'sent', via = $3, message_id = $4, sent_at = now(), updated_at = now()
		WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL AND status = 'draft'
		RETURNING `+emailColumns, id, userID, string(via), messageID))
	if errors.Is(err, pgx.ErrNoRows) {
		e, err = scanEmail(s.pool.QueryRow(ctx, `SELECT `+emailColumns+` FROM emails
			WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL AND status = 'sent'`, id, userID))
		err = notFound(err, "email", id)
	}
	if err != nil {
		return hearth.Email{}, fmt.Errorf("store finish send %d: %w", id, translate(err))
	}
	return e, nil
}

// ReleaseSend gives up the claim on a draft whose transmission was
// refused before it could have been delivered, so it can be tried again.
func (s *Store) ReleaseSend(ctx context.Context, userID, id int64) error {
	if _, err := s.pool.Exec(ctx, `UPDATE emails SET send_started_at = NULL
		WHERE id = $1 AND user_id = $2 AND status = 'draft'`, id, userID); err != nil {
		return fmt.Errorf("store release send %d: %w", id, translate(err))
	}
	return nil
}

// DeleteDraft deletes a draft softly and returns it. A sent email cannot
// be deleted (hearth.ErrInvalid): the outbox is the record of what was
// sent.
func (s *Store) DeleteDraft(ctx context.Context, userID, id int64) (hearth.Email, error) {
	var e hearth.Email
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var err error
		e, err = scanEmail(tx.QueryRow(ctx, `SELECT `+emailColumns+` FROM emails
			WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL FOR UPDATE`, id, userID))
		if err != nil {
			return notFound(err, "email", id)
		}
		if e.Status != hearth.EmailDraft {
			return hearth.Invalidf("email %d was already sent; only drafts can be deleted", id)
		}
		_, err = tx.Exec(ctx, `UPDATE emails SET deleted_at = now() WHERE id = $1`, id)
		return err
	})
	if err != nil {
		return hearth.Email{}, fmt.Errorf("store delete draft %d: %w", id, err)
	}
	return e, nil
}

// RestoreDraft brings back a deleted draft, the undo of DeleteDraft.
// Restoring a draft that is not deleted does nothing.
func (s *Store) RestoreDraft(ctx context.Context, userID, id int64) error {
	if err := restore(ctx, s, "emails", userID, id); err != nil {
		return fmt.Errorf("store restore draft %d: %w", id, err)
	}
	return nil
}

// FindEmails returns up to limit of a user's emails with the given status
// (any status when empty), newest first: by when they were sent, else
// created. limit defaults to DefaultLimit and is capped at MaxLimit.
func (s *Store) FindEmails(ctx context.Context, userID int64, status hearth.EmailStatus, limit int) ([]hearth.Email, error) {
	if userID <= 0 {
		return nil, fmt.Errorf("store find emails: %w", hearth.Invalidf("an email search needs a user"))
	}
	var w where
	w.add("user_id = " + w.arg(userID))
	w.add("deleted_at IS NULL")
	switch status {
	case "":
	case hearth.EmailDraft, hearth.EmailSent:
		w.add("status = " + w.arg(string(status)))
	default:
		return nil, fmt.Errorf("store find emails: %w", hearth.Invalidf("email status must be %q or %q, not %q", hearth.EmailDraft, hearth.EmailSent, status))
	}
	rows, err := s.pool.Query(ctx, `SELECT `+emailColumns+` FROM emails WHERE `+w.String()+`
		ORDER BY COALESCE(sent_at, created_at) DESC, id DESC
		LIMIT `+w.arg(limitOf(limit)), w.args...)
	if err != nil {
		return nil, fmt.Errorf("store find emails: %w", translate(err))
	}
	emails, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.Email, error) { return scanEmail(r) })
	if err != nil {
		return nil, fmt.Errorf("store find emails: %w", translate(err))
	}
	return emails, nil
}
