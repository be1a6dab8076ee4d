package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

// Gmail: the Gmail draft behind an outbox draft, received mail and where
// history polling continues (see migrations/00045_gmail.sql).

// SetGmailDraft links userID's outbox email to its Gmail draft (and the
// thread a reply belongs to), replacing any link before.
func (s *Store) SetGmailDraft(ctx context.Context, userID, emailID int64, draftID, threadID string) error {
	tag, err := s.pool.Exec(ctx, `
		INSERT INTO gmail_drafts (email_id, user_id, draft_id, thread_id)
		SELECT id, user_id, $3, $4 FROM emails WHERE id = $1 AND user_id = $2
		ON CONFLICT (email_id) DO UPDATE SET draft_id = EXCLUDED.draft_id, thread_id = EXCLUDED.thread_id`,
		emailID, userID, draftID, threadID)
	if err != nil {
		return fmt.Errorf("store set gmail draft: %w", constraintErr(translate(err)))
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("store set gmail draft: %w", hearth.Errorf(hearth.ENotFound, "email %d not found", emailID))
	}
	return nil
}

// GmailDraft returns userID's email (a draft or sent, not deleted) and the
// Gmail draft linked to it; draftID is empty when there is none. A
// foreign or missing email is hearth.ErrNotFound.
func (s *Store) GmailDraft(ctx context.Context, userID, emailID int64) (e hearth.Email, draftID, threadID string, err error) {
	var d, th *string
	row := s.pool.QueryRow(ctx, `SELECT `+prefixed("e.", emailColumns)+`, g.draft_id, g.thread_id
		FROM emails e LEFT JOIN gmail_drafts g ON g.email_id = e.id
		WHERE e.id = $1 AND e.user_id = $2 AND e.deleted_at IS NULL`, emailID, userID)
	e, err = scanEmail(scanRow(func(dest ...any) error { return row.Scan(append(dest, &d, &th)...) }))
	if err != nil {
		return e, "", "", fmt.Errorf("store gmail draft: %w", notFound(translate(err), "email", emailID))
	}
	if d != nil {
		draftID, threadID = *d, *th
	}
	return e, draftID, threadID, nil
}

// scanRow turns a scan function into a pgx.Row.
type scanRow func(dest ...any) error

func (f scanRow) Scan(dest ...any) error { return f(dest...) }

// prefixed qualifies a comma-separated column list with p.
func prefixed(p, columns string) string {
	cs := strings.Split(columns, ",")
	for i, c := range cs {
		cs[i] = p + strings.TrimSpace(c)
	}
	return strings.Join(cs, ", ")
}

const inboxColumns = `id, user_id, external_id, thread_id, message_id, refs, from_addr, from_name, subject, snippet, unread, important, received_at`

func scanInbox(row pgx.Row) (hearth.InboxMessage, error) {
	var m hearth.InboxMessage
	err := row.Scan(&m.ID, &m.UserID, &m.ExternalID, &m.ThreadID, &m.MessageID, &m.References, &m.From, &m.FromName,
		&m.Subject, &m.Snippet, &m.Unread, &m.Important, &m.ReceivedAt)
	m.ReceivedAt = m.ReceivedAt.UTC()
	return m, err
}

// SaveInbox stores userID's received messages (each once, whatever the
// polls: a message seen again updates its unread and important marks)
// and, in the same transaction, the history id polling continues from,
// ending the poll (see BeginGmailPoll).
// It returns the messages that were new.
func (s *Store) SaveInbox(ctx context.Context, userID int64, msgs []hearth.InboxMessage, historyID string) ([]hearth.InboxMessage, error) {
	var added []hearth.InboxMessage
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		for _, m := range msgs {
			var inserted bool
			got, err := scanInbox(scanRow(func(dest ...any) error {
				return tx.QueryRow(ctx, `
					INSERT INTO inbox_messages (user_id, external_id, thread_id, message_id, refs, from_addr, from_name, subject, snippet, unread, important, received_at)
					VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
					ON CONFLICT (user_id, external_id) DO UPDATE SET unread = EXCLUDED.unread, important = EXCLUDED.important
					RETURNING `+inboxColumns+`, (xmax = 0)`,
					userID, m.ExternalID, m.ThreadID, m.MessageID, m.References, m.From, m.FromName, m.Subject, m.Snippet,
					m.Unread, m.Important, m.ReceivedAt).Scan(append(dest, &inserted)...)
			}))
			if err != nil {
				return err
			}
			if inserted {
				added = append(added, got)
			}
		}
		_, err := tx.Exec(ctx, `INSERT INTO gmail_sync (user_id, history_id, polled_at) VALUES ($1, $2, now())
			ON CONFLICT (user_id) DO UPDATE SET history_id = EXCLUDED.history_id, polled_at = now(), poll_started_at = NULL`, userID, historyID)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store save inbox: %w", constraintErr(translate(err)))
	}
	return added, nil
}

// GmailHistory returns where userID's history polling continues from;
// empty before the first poll.
func (s *Store) GmailHistory(ctx context.Context, userID int64) (string, error) {
	var h string
	err := s.pool.QueryRow(ctx, `SELECT history_id FROM gmail_sync WHERE user_id = $1`, userID).Scan(&h)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store gmail history: %w", translate(err))
	}
	return h, nil
}

// InboxMessage returns one of userID's received messages.
func (s *Store) InboxMessage(ctx context.Context, userID, id int64) (hearth.InboxMessage, error) {
	m, err := scanInbox(s.pool.QueryRow(ctx, `SELECT `+inboxColumns+` FROM inbox_messages WHERE id = $1 AND user_id = $2`, id, userID))
	if err != nil {
		return m, fmt.Errorf("store inbox message: %w", notFound(translate(err), "message", id))
	}
	return m, nil
}

// FindInbox returns a user's received mail, newest first.
func (s *Store) FindInbox(ctx context.Context, f hearth.InboxFilter) ([]hearth.InboxMessage, error) {
	if f.UserID <= 0 {
		return nil, fmt.Errorf("store find inbox: %w", hearth.Invalidf("an inbox search needs a user"))
	}
	var w where
	w.add("user_id = " + w.arg(f.UserID))
	if f.From != "" {
		p := w.arg("%" + f.From + "%")
		w.add("(from_addr ILIKE " + p + " OR from_name ILIKE " + p + ")")
	}
	if f.Unread {
		w.add("unread")
	}
	if !f.Since.IsZero() {
		w.add("received_at >= " + w.arg(f.Since))
	}
	rows, err := s.pool.Query(ctx, `SELECT `+inboxColumns+` FROM inbox_messages WHERE `+w.String()+`
		ORDER BY received_at DESC, id DESC LIMIT `+w.arg(limitOf(f.Limit)), w.args...)
	if err != nil {
		return nil, fmt.Errorf("store find inbox: %w", translate(err))
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.InboxMessage, error) { return scanInbox(r) })
	if err != nil {
		return nil, fmt.Errorf("store find inbox: %w", translate(err))
	}
	return out, nil
}

// GmailMailboxes returns the mailbox state of up to limit users after
// afterUser, in order, whose working Google account granted scope (the
// periodic mail poll pages through them); a mailbox never polled is the
// zero state but its user id.
func (s *Store) GmailMailboxes(ctx context.Context, scope string, afterUser int64, limit int) ([]hearth.MailboxSync, error) {
	rows, err := s.pool.Query(ctx, `SELECT a.user_id, COALESCE(g.history_id, ''), g.polled_at, g.watch_expires_at, g.pushed_at, COALESCE(g.polls_begun, 0)
		FROM google_accounts a LEFT JOIN gmail_sync g ON g.user_id = a.user_id
		WHERE `+gmailScoped+` AND a.user_id > $2 ORDER BY a.user_id LIMIT $3`, scope, afterUser, limitOf(limit))
	if err != nil {
		return nil, fmt.Errorf("store gmail mailboxes: %w", translate(err))
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.MailboxSync, error) { return scanMailbox(r) })
	if err != nil {
		return nil, fmt.Errorf("store gmail mailboxes: %w", translate(err))
	}
	return out, nil
}

// AdoptGmailDraft moves the Gmail draft of userID's draft deleted within
// window before now (the draft an edit replaced), to the same
// recipients, onto the new email emailID, so the edit updates that Gmail
// draft instead of making another. It returns the Gmail draft and thread
// ids, or "" when there is none to adopt. One adoption per Gmail draft:
// the move is one conditional statement.
func (s *Store) AdoptGmailDraft(ctx context.Context, userID, emailID int64, window time.Duration) (draftID, threadID string, err error) {
	err = s.pool.QueryRow(ctx, `
		WITH old AS (
			SELECT g.email_id FROM gmail_drafts g
			JOIN emails o ON o.id = g.email_id
			JOIN emails n ON n.id = $2 AND n.user_id = $1
			WHERE g.user_id = $1 AND o.deleted_at IS NOT NULL AND o.status = 'draft'
			  AND o.deleted_at > now() - $3::interval AND o.to_addrs = n.to_addrs
			  AND NOT EXISTS (SELECT 1 FROM gmail_drafts x WHERE x.email_id = $2)
			ORDER BY o.deleted_at DESC LIMIT 1
			FOR UPDATE OF g SKIP LOCKED
		)
		UPDATE gmail_drafts g SET email_id = $2 FROM old WHERE g.email_id = old.email_id
		RETURNING g.draft_id, g.thread_id`, userID, emailID, window).Scan(&draftID, &threadID)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", "", nil
	}
	if err != nil {
		return "", "", fmt.Errorf("store adopt gmail draft: %w", constraintErr(translate(err)))
	}
	return draftID, threadID, nil
}

// DiscardedGmailDraft returns the Gmail draft still linked to userID's
// deleted draft emailID (not adopted by an edit); "" when none.
func (s *Store) DiscardedGmailDraft(ctx context.Context, userID, emailID int64) (string, error) {
	var d string
	err := s.pool.QueryRow(ctx, `SELECT g.draft_id FROM gmail_drafts g JOIN emails e ON e.id = g.email_id
		WHERE g.email_id = $1 AND g.user_id = $2 AND e.deleted_at IS NOT NULL`, emailID, userID).Scan(&d)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store discarded gmail draft: %w", translate(err))
	}
	return d, nil
}

// DropGmailDraft forgets the Gmail draft of userID's deleted draft, once
// it is deleted in Gmail.
func (s *Store) DropGmailDraft(ctx context.Context, userID, emailID int64, draftID string) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM gmail_drafts WHERE email_id = $1 AND user_id = $2 AND draft_id = $3`, emailID, userID, draftID); err != nil {
		return fmt.Errorf("store drop gmail draft: %w", translate(err))
	}
	return nil
}

// gmailScoped is the condition on google_accounts (aliased a) that the
// account works and granted the Gmail scope $1 (or full mail access).
const gmailScoped = `a.revoked_at IS NULL AND ($1 = ANY (a.scopes) OR 'https://mail.google.com/' = ANY (a.scopes))`

// MarkGmailPushTx notes, in the caller's transaction, a push for the
// mailbox address (case-insensitive) and returns the mailbox state of
// every user whose working account with scope it is (usually one; none
// for an address Hearth does not know), with the polls begun so far.
func (s *Store) MarkGmailPushTx(ctx context.Context, tx pgx.Tx, scope, address string) ([]hearth.MailboxSync, error) {
	rows, err := tx.Query(ctx, `
		INSERT INTO gmail_sync AS g (user_id, pushed_at)
		SELECT a.user_id, now() FROM google_accounts a WHERE lower(a.email) = lower($2) AND `+gmailScoped+`
		ON CONFLICT (user_id) DO UPDATE SET pushed_at = now()
		RETURNING `+mailboxColumns, scope, address)
	if err != nil {
		return nil, fmt.Errorf("store mark gmail push: %w", translate(err))
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.MailboxSync, error) { return scanMailbox(r) })
	if err != nil {
		return nil, fmt.Errorf("store mark gmail push: %w", translate(err))
	}
	return out, nil
}

const mailboxColumns = `g.user_id, g.history_id, g.polled_at, g.watch_expires_at, g.pushed_at, g.polls_begun`

func scanMailbox(row pgx.Row) (hearth.MailboxSync, error) {
	var m hearth.MailboxSync
	var polled, watch, pushed *time.Time
	err := row.Scan(&m.UserID, &m.HistoryID, &polled, &watch, &pushed, &m.PollsBegun)
	m.PolledAt, m.WatchExpiresAt, m.PushedAt = utcOrZero(polled), utcOrZero(watch), utcOrZero(pushed)
	return m, err
}

// BeginGmailPoll begins a poll of userID's mailbox: it is counted (a push
// after this asks for the next poll) and marked running, and the mailbox
// state is returned. While another poll runs, begun less than staleAfter
// ago, it is hearth.ErrConflict (one poll of a mailbox at a time; a
// crashed one is taken over once stale). SaveInbox or EndGmailPoll ends
// it.
func (s *Store) BeginGmailPoll(ctx context.Context, userID int64, staleAfter time.Duration) (hearth.MailboxSync, error) {
	m, err := scanMailbox(s.pool.QueryRow(ctx, `
		INSERT INTO gmail_sync AS g (user_id, polls_begun, poll_started_at) VALUES ($1, 1, now())
		ON CONFLICT (user_id) DO UPDATE SET polls_begun = g.polls_begun + 1, poll_started_at = now()
		WHERE g.poll_started_at IS NULL OR g.poll_started_at < now() - $2::interval
		RETURNING `+mailboxColumns, userID, staleAfter))
	if errors.Is(err, pgx.ErrNoRows) {
		return m, fmt.Errorf("store begin gmail poll: %w", hearth.Errorf(hearth.EConflict, "a poll of the mailbox is running"))
	}
	if err != nil {
		return m, fmt.Errorf("store begin gmail poll: %w", constraintErr(translate(err)))
	}
	return m, nil
}

// EndGmailPoll ends a poll of userID's mailbox that stored nothing (it
// failed), so the next may begin.
func (s *Store) EndGmailPoll(ctx context.Context, userID int64) error {
	if _, err := s.pool.Exec(ctx, `UPDATE gmail_sync SET poll_started_at = NULL WHERE user_id = $1`, userID); err != nil {
		return fmt.Errorf("store end gmail poll: %w", translate(err))
	}
	return nil
}

// GmailMailbox returns where finding userID's new mail stands; the zero
// state (but the user id) before anything was polled or watched.
func (s *Store) GmailMailbox(ctx context.Context, userID int64) (hearth.MailboxSync, error) {
	m, err := scanMailbox(s.pool.QueryRow(ctx, `SELECT `+mailboxColumns+` FROM gmail_sync g WHERE g.user_id = $1`, userID))
	if errors.Is(err, pgx.ErrNoRows) {
		return hearth.MailboxSync{UserID: userID}, nil
	}
	if err != nil {
		return m, fmt.Errorf("store gmail mailbox: %w", translate(err))
	}
	return m, nil
}

// SetGmailWatch records when userID's users.watch expires (zero: there is
// none).
func (s *Store) SetGmailWatch(ctx context.Context, userID int64, expires time.Time) error {
	var at *time.Time
	if !expires.IsZero() {
		at = &expires
	}
	if _, err := s.pool.Exec(ctx, `INSERT INTO gmail_sync (user_id, watch_expires_at) VALUES ($1, $2)
		ON CONFLICT (user_id) DO UPDATE SET watch_expires_at = EXCLUDED.watch_expires_at`, userID, at); err != nil {
		return fmt.Errorf("store set gmail watch: %w", constraintErr(translate(err)))
	}
	return nil
}
