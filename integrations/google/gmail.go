package google

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net/http"
	"net/mail"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	gmail "google.golang.org/api/gmail/v1"
	"google.golang.org/api/option"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
)

// ScopeGmail lets Hearth read the user's mail, write drafts and send
// them; it is asked for incrementally ("connect gmail", or when a mail
// action first needs it).
const ScopeGmail = "https://www.googleapis.com/auth/gmail.modify"

// GmailScopes are the scopes "connect gmail" asks for (on top of those
// granted before): the calendar too, since a connected account is where
// the user's events go, and the address book (read-only), where the
// recipients of the user's mail are.
var GmailScopes = []string{ScopeOpenID, ScopeEmail, ScopeCalendar, ScopeGmail, ScopeContacts, ScopeOtherContacts}

// MailStore is what the Gmail provider keeps in Hearth's database: the
// outbox (every draft has a row there, Gmail or not), the link to the
// Gmail draft, received mail and where polling continues, and the
// user's mail style.
type MailStore interface {
	CreateDraft(ctx context.Context, key string, e hearth.Email) (hearth.Email, error)
	DeleteDraft(ctx context.Context, userID, id int64) (hearth.Email, error)
	RestoreDraft(ctx context.Context, userID, id int64) error
	FindEmails(ctx context.Context, userID int64, status hearth.EmailStatus, limit int) ([]hearth.Email, error)
	FinishSend(ctx context.Context, userID, id int64, via hearth.MailVia, messageID string) (hearth.Email, error)
	SetGmailDraft(ctx context.Context, userID, emailID int64, draftID, threadID string) error
	GmailDraft(ctx context.Context, userID, emailID int64) (e hearth.Email, draftID, threadID string, err error)
	AdoptGmailDraft(ctx context.Context, userID, emailID int64, window time.Duration) (draftID, threadID string, err error)
	DiscardedGmailDraft(ctx context.Context, userID, emailID int64) (string, error)
	DropGmailDraft(ctx context.Context, userID, emailID int64, draftID string) error
	InboxMessage(ctx context.Context, userID, id int64) (hearth.InboxMessage, error)
	SaveInbox(ctx context.Context, userID int64, msgs []hearth.InboxMessage, historyID string) ([]hearth.InboxMessage, error)
	BeginGmailPoll(ctx context.Context, userID int64, staleAfter time.Duration) (hearth.MailboxSync, error)
	EndGmailPoll(ctx context.Context, userID int64) error
	GmailMailbox(ctx context.Context, userID int64) (hearth.MailboxSync, error)
	MarkGmailPushTx(ctx context.Context, tx pgx.Tx, scope, address string) ([]hearth.MailboxSync, error)
	SetGmailWatch(ctx context.Context, userID int64, expires time.Time) error
	FindInbox(ctx context.Context, f hearth.InboxFilter) ([]hearth.InboxMessage, error)
	GmailMailboxes(ctx context.Context, scope string, afterUser int64, limit int) ([]hearth.MailboxSync, error)
	MailStyle(ctx context.Context, userID int64) (hearth.MailStyle, error)
	SetMailStyle(ctx context.Context, st hearth.MailStyle) (hearth.MailStyle, error)
}

// Mail is the mail provider that routes by user: users who granted Gmail
// write real Gmail drafts (shown in Gmail too) and Approve sends that
// draft; everyone else keeps the fallback (the built-in outbox, or SMTP).
//
// A Gmail draft is sent at most once: Gmail sends a draft only once (a
// sent draft is gone), and a send that finds its draft gone looks for the
// sent message by its Message-ID, so a retry after a crash or a double
// click records the one message instead of sending another.
type Mail struct {
	g        *Google
	st       MailStore
	fallback action.Mail
}

var _ action.Mail = (*Mail)(nil)

// Mail returns the routing mail provider over st, with fallback for
// users without Gmail.
func (g *Google) Mail(st MailStore, fallback action.Mail) *Mail {
	return &Mail{g: g, st: st, fallback: fallback}
}

// gmailFor returns the Gmail API as the user, or nil when the user has no
// working account with the Gmail scope.
func (m *Mail) gmailFor(ctx context.Context, userID int64) (*gmail.Service, hearth.GoogleAccount, error) {
	a, err := m.g.active(ctx, userID)
	if errors.Is(err, errNotConnected) {
		return nil, a, nil
	}
	if err != nil {
		return nil, a, err
	}
	if !hasScope(a.Scopes, ScopeGmail) {
		return nil, a, nil
	}
	svc, err := m.g.gmailService(ctx, a, false)
	return svc, a, err
}

func hasScope(scopes []string, want string) bool {
	for _, s := range scopes {
		if s == want || (want == ScopeGmail && s == "https://mail.google.com/") {
			return true
		}
	}
	return false
}

// gmailService is the Gmail API as the user's account a (replaced: as
// in accountClient).
func (g *Google) gmailService(ctx context.Context, a hearth.GoogleAccount, replaced bool) (*gmail.Service, error) {
	hc, err := g.accountClient(a, replaced)
	if err != nil {
		return nil, err
	}
	opts := []option.ClientOption{option.WithHTTPClient(hc)}
	if g.ends.API != "" {
		opts = append(opts, option.WithEndpoint(g.ends.API))
	}
	svc, err := gmail.NewService(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("gmail client: %w", err)
	}
	return svc, nil
}

// CreateDraft keeps the draft in the outbox and, for a Gmail user, makes
// it a Gmail draft (once per key: a retry finds the link). A reply is
// drafted in the thread of the message it answers.
func (m *Mail) CreateDraft(ctx context.Context, key string, e hearth.Email) (hearth.Email, error) {
	svc, a, err := m.gmailFor(ctx, e.UserID)
	if err != nil {
		return hearth.Email{}, err
	}
	if svc == nil {
		d, err := m.fallback.CreateDraft(ctx, key, e)
		if err == nil && a.UserID != 0 && a.RevokedAt.IsZero() {
			// Google is connected, Gmail is not: the first mail action
			// is where Gmail is asked for.
			d.Hint = "Say “connect gmail” and I'll write your emails as Gmail drafts and send them from your Gmail."
		}
		return d, err
	}
	var parent *hearth.InboxMessage
	if e.InReplyTo != 0 {
		p, err := m.st.InboxMessage(ctx, e.UserID, e.InReplyTo)
		if err != nil {
			return hearth.Email{}, fmt.Errorf("gmail reply: %w", err)
		}
		parent = &p
		if strings.TrimSpace(e.Subject) == "" {
			e.Subject = p.Subject
		}
		if !strings.HasPrefix(strings.ToLower(e.Subject), "re:") {
			e.Subject = "Re: " + e.Subject
		}
	}
	d, err := m.st.CreateDraft(ctx, key, e)
	if err != nil {
		return d, err
	}
	if err := m.toGmail(ctx, svc, a, d, parent); err != nil {
		return hearth.Email{}, err
	}
	return gmailMark(d), nil
}

// toGmail makes draft d a Gmail draft of account a, unless it is one
// already: an edit's takes over the Gmail draft of the one it replaced.
// parent is the message a reply answers, nil for a new email.
func (m *Mail) toGmail(ctx context.Context, svc *gmail.Service, a hearth.GoogleAccount, d hearth.Email, parent *hearth.InboxMessage) error {
	_, draftID, _, err := m.st.GmailDraft(ctx, d.UserID, d.ID)
	if err != nil || draftID != "" {
		return err
	}
	raw, err := Message(a.Email, d, parent, m.g.cfg.Now())
	if err != nil {
		return err
	}
	msg := &gmail.Message{Raw: base64.URLEncoding.EncodeToString(raw)}
	if parent != nil {
		msg.ThreadId = parent.ThreadID
	}
	// An edit: the draft it replaces left its Gmail draft to this one,
	// which updates it (Gmail keeps one draft, with the edited text).
	old, oldThread, err := m.st.AdoptGmailDraft(ctx, d.UserID, d.ID, AdoptWindow)
	if err != nil {
		return err
	}
	if old != "" {
		if msg.ThreadId == "" {
			msg.ThreadId = oldThread
		}
		_, err := svc.Users.Drafts.Update("me", old, &gmail.Draft{Id: old, Message: msg}).Context(ctx).Do()
		if err == nil {
			return nil
		}
		if statusOf(err) != http.StatusNotFound {
			return fmt.Errorf("gmail update draft: %w", unavailable(err))
		}
		// Deleted in Gmail meanwhile: make a new one.
	}
	gd, err := svc.Users.Drafts.Create("me", &gmail.Draft{Message: msg}).Context(ctx).Do()
	if err != nil {
		return fmt.Errorf("gmail create draft: %w", unavailable(err))
	}
	thread := ""
	if gd.Message != nil {
		thread = gd.Message.ThreadId
	}
	return m.st.SetGmailDraft(ctx, d.UserID, d.ID, gd.Id, thread)
}

// gmailMark says that a draft goes through Gmail.
func gmailMark(e hearth.Email) hearth.Email {
	if e.ID != 0 && e.Status == hearth.EmailDraft {
		e.Via = hearth.ViaGmail
	}
	return e
}

// unavailable marks Google's refusals and outages as hearth.ErrUnavailable.
func unavailable(err error) error {
	if errors.Is(err, ErrRevoked) {
		return fmt.Errorf("%w: %w", hearth.Errorf(hearth.EUnavailable, "Google stopped accepting my access; say “connect gmail” to reconnect"), err)
	}
	if s := statusOf(err); s == http.StatusTooManyRequests || s >= 500 {
		return fmt.Errorf("%w: %w", hearth.Errorf(hearth.EUnavailable, "Gmail is not answering just now"), err)
	}
	return err
}

// SendEmail sends the Gmail draft behind a draft, once (see Mail); a
// draft made before the user had Gmail goes through the fallback.
// Sending a sent email returns it unchanged.
func (m *Mail) SendEmail(ctx context.Context, userID, id int64) (hearth.Email, error) {
	e, draftID, _, err := m.st.GmailDraft(ctx, userID, id)
	if err != nil {
		return e, err
	}
	if e.Status == hearth.EmailSent {
		return e, nil
	}
	if draftID == "" {
		return m.fallback.SendEmail(ctx, userID, id)
	}
	svc, a, err := m.gmailFor(ctx, userID)
	if err != nil {
		return e, err
	}
	if svc == nil {
		return e, hearth.Errorf(hearth.EUnavailable, "that draft is in Gmail, and Gmail isn't connected any more; say “connect gmail” and approve it again")
	}
	msgID := messageID(a.Email, e)
	// Not cut short by the turn's deadline: a send half done is one whose
	// fate must be looked up.
	sendCtx := context.WithoutCancel(ctx)
	_, err = svc.Users.Drafts.Send("me", &gmail.Draft{Id: draftID}).Context(sendCtx).Do()
	if statusOf(err) == http.StatusNotFound {
		// Sent by an earlier try (or deleted in Gmail): look for it.
		found, ferr := svc.Users.Messages.List("me").Q("in:sent rfc822msgid:" + msgID).Context(sendCtx).Do()
		if ferr != nil {
			return e, fmt.Errorf("gmail find sent %d: %w", id, unavailable(ferr))
		}
		if len(found.Messages) == 0 {
			return e, hearth.Invalidf("the draft was deleted in Gmail, so I didn't send it; ask me to write it again")
		}
		err = nil
	}
	if err != nil {
		return e, fmt.Errorf("gmail send %d: %w", id, unavailable(err))
	}
	sent, err := m.st.FinishSend(sendCtx, userID, id, hearth.ViaGmail, msgID)
	if err != nil {
		return e, fmt.Errorf("gmail send %d: sent, but recording it failed: %w", id, err)
	}
	return sent, nil
}

// AdoptWindow is how long the Gmail draft of a deleted draft waits for
// an edit to take it over (the edited draft of the same recipients)
// before it is deleted in Gmail.
const AdoptWindow = time.Minute

// GmailDiscardArgs deletes the Gmail draft of a deleted draft, unless an
// edit took it over meanwhile.
type GmailDiscardArgs struct {
	UserID  int64 `json:"user_id"`
	EmailID int64 `json:"email_id"`
}

// Kind names the job.
func (GmailDiscardArgs) Kind() string { return "google_gmail_discard" }

// InsertOpts puts the job on Google's queue.
func (GmailDiscardArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueGoogle, MaxAttempts: 5}
}

// Discard deletes the Gmail draft of a deleted draft, unless an edit
// adopted it.
func (m *Mail) Discard(ctx context.Context, userID, emailID int64) error {
	draftID, err := m.st.DiscardedGmailDraft(ctx, userID, emailID)
	if err != nil || draftID == "" {
		return err
	}
	svc, _, err := m.gmailFor(ctx, userID)
	if err != nil {
		return err
	}
	if svc != nil {
		if err := svc.Users.Drafts.Delete("me", draftID).Context(ctx).Do(); err != nil && statusOf(err) != http.StatusNotFound {
			return fmt.Errorf("gmail delete draft: %w", unavailable(err))
		}
	}
	return m.st.DropGmailDraft(ctx, userID, emailID, draftID)
}

// DeleteDraft deletes a draft; its Gmail draft goes AdoptWindow later,
// unless an edit takes it over (at once when no queue is set).
func (m *Mail) DeleteDraft(ctx context.Context, userID, id int64) (hearth.Email, error) {
	_, draftID, _, err := m.st.GmailDraft(ctx, userID, id)
	if err != nil {
		return hearth.Email{}, err
	}
	if draftID == "" {
		return m.fallback.DeleteDraft(ctx, userID, id)
	}
	d, err := m.st.DeleteDraft(ctx, userID, id)
	if err != nil {
		return d, err
	}
	if q := m.g.cfg.Queue; q != nil {
		_, err := q.Insert(ctx, GmailDiscardArgs{UserID: userID, EmailID: id}, &river.InsertOpts{ScheduledAt: m.g.cfg.Now().Add(AdoptWindow)})
		if err != nil {
			return gmailMark(d), fmt.Errorf("enqueue gmail discard: %w", err)
		}
		return gmailMark(d), nil
	}
	svc, _, err := m.gmailFor(ctx, userID)
	if err != nil || svc == nil {
		return gmailMark(d), err
	}
	if err := svc.Users.Drafts.Delete("me", draftID).Context(ctx).Do(); err != nil && statusOf(err) != http.StatusNotFound {
		return gmailMark(d), fmt.Errorf("gmail delete draft: %w", unavailable(err))
	}
	return gmailMark(d), nil
}

// Email returns one of the user's emails, marked as going through Gmail
// when it is a Gmail draft.
func (m *Mail) Email(ctx context.Context, userID, id int64) (hearth.Email, error) {
	e, draftID, _, err := m.st.GmailDraft(ctx, userID, id)
	if err != nil || draftID != "" {
		return gmailMark(e), err
	}
	return m.fallback.Email(ctx, userID, id)
}

// RestoreDraft brings back a deleted draft. Its Gmail draft waits
// AdoptWindow before it goes: brought back sooner, the draft keeps it;
// later, it is made a Gmail draft again, so that sending it goes through
// Gmail as before.
func (m *Mail) RestoreDraft(ctx context.Context, userID, id int64) error {
	if err := m.st.RestoreDraft(ctx, userID, id); err != nil {
		return err
	}
	svc, a, err := m.gmailFor(ctx, userID)
	if err != nil || svc == nil {
		return err
	}
	d, _, _, err := m.st.GmailDraft(ctx, userID, id)
	if err != nil {
		return err
	}
	var parent *hearth.InboxMessage
	if d.InReplyTo != 0 {
		p, err := m.st.InboxMessage(ctx, userID, d.InReplyTo)
		if err != nil {
			return fmt.Errorf("gmail restore draft: %w", err)
		}
		parent = &p
	}
	return m.toGmail(ctx, svc, a, d, parent)
}

// FindEmails lists the user's drafts or sent mail.
func (m *Mail) FindEmails(ctx context.Context, userID int64, status hearth.EmailStatus, limit int) ([]hearth.Email, error) {
	svc, _, err := m.gmailFor(ctx, userID)
	if err != nil {
		return nil, err
	}
	if svc == nil {
		return m.fallback.FindEmails(ctx, userID, status, limit)
	}
	es, err := m.st.FindEmails(ctx, userID, status, limit)
	for i := range es {
		es[i] = gmailMark(es[i])
	}
	return es, err
}

// messageID is the Message-ID of a draft, derived from it (so any copy
// is recognisably the same message), without angle brackets.
func messageID(from string, e hearth.Email) string {
	domain := "hearth.invalid"
	if at := strings.LastIndexByte(from, '@'); at >= 0 && at < len(from)-1 {
		domain = from[at+1:]
	}
	return fmt.Sprintf("hearth.%d.%d@%s", e.ID, e.CreatedAt.UnixNano(), domain)
}

// Message builds the RFC 5322 message of e from the address from: UTF-8
// headers encoded as MIME words, recipients parsed (a name that is not
// an address is an hearth.ErrInvalid error), a quoted-printable UTF-8
// text body, and, for a reply to parent, In-Reply-To and References.
func Message(from string, e hearth.Email, parent *hearth.InboxMessage, now time.Time) ([]byte, error) {
	fromAddr, err := mail.ParseAddress(from)
	if err != nil {
		return nil, hearth.Invalidf("the Gmail account's address %q is not an address", from)
	}
	var to, bad []string
	for _, t := range e.To {
		a, err := mail.ParseAddress(t)
		if err != nil {
			bad = append(bad, t)
			continue
		}
		to = append(to, a.String())
	}
	if len(bad) > 0 {
		return nil, hearth.Invalidf("I don't have an email address for %s; tell me the address and I'll write it again", strings.Join(bad, ", "))
	}
	if len(to) == 0 {
		return nil, hearth.Invalidf("an email needs a recipient")
	}
	var b bytes.Buffer
	header := func(k, v string) { b.WriteString(k + ": " + v + "\r\n") }
	header("From", fromAddr.String())
	header("To", strings.Join(to, ", "))
	header("Subject", mime.QEncoding.Encode("utf-8", oneLine(e.Subject)))
	header("Date", now.Format(time.RFC1123Z))
	header("Message-ID", "<"+messageID(fromAddr.Address, e)+">")
	if parent != nil && parent.MessageID != "" {
		header("In-Reply-To", parent.MessageID)
		header("References", strings.TrimSpace(oneLine(parent.References)+" "+parent.MessageID))
	}
	header("MIME-Version", "1.0")
	header("Content-Type", "text/plain; charset=UTF-8")
	header("Content-Transfer-Encoding", "quoted-printable")
	b.WriteString("\r\n")
	qp := quotedprintable.NewWriter(&b)
	body := strings.ReplaceAll(strings.ReplaceAll(e.Body, "\r\n", "\n"), "\n", "\r\n")
	if _, err := qp.Write([]byte(body)); err != nil {
		return nil, err
	}
	if err := qp.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// oneLine keeps a header value on one line: no header can be injected
// through a subject.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
