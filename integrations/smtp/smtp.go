// Package smtp sends the user's approved email through a mail server
// (HEARTH_SMTP_URL), for users without Gmail. Drafts stay in Hearth's
// outbox, and only sending goes out: the provider keeps the same
// approval path as every mail provider (pipeline/action's Mail).
//
// A message is transmitted at most once. The draft is claimed in the
// database (committed) before the SMTP conversation starts; a server that
// refuses the message releases the claim so the next attempt may try
// again, and success records the Message-ID. A claim found unfinished (the
// process died mid-conversation) is not retried: the message may have
// gone, and the user is told to check instead of getting a second copy.
package smtp

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
)

// Outbox is where the provider keeps drafts and claims transmissions:
// Hearth's own outbox in Postgres.
type Outbox interface {
	CreateDraft(ctx context.Context, key string, e hearth.Email) (hearth.Email, error)
	DeleteDraft(ctx context.Context, userID, id int64) (hearth.Email, error)
	RestoreDraft(ctx context.Context, userID, id int64) error
	Email(ctx context.Context, userID, id int64) (hearth.Email, error)
	FindEmails(ctx context.Context, userID int64, status hearth.EmailStatus, limit int) ([]hearth.Email, error)
	ClaimSend(ctx context.Context, userID, id int64) (hearth.Email, bool, error)
	FinishSend(ctx context.Context, userID, id int64, via hearth.MailVia, messageID string) (hearth.Email, error)
	ReleaseSend(ctx context.Context, userID, id int64) error
}

// Config configures the provider.
type Config struct {
	// URL is smtps://user:pass@host[:465] (implicit TLS) or
	// smtp://user:pass@host[:587] (STARTTLS, required). Required.
	URL string
	// From is the sender, "Name <address>" or an address. Required.
	From string
	// TLS overrides the TLS client configuration (tests trust their own
	// certificate authority with it). Defaults to the system's roots.
	TLS *tls.Config
	// Timeout bounds one transmission, from dialling to the server's
	// answer. Defaults to 30s.
	Timeout time.Duration
}

// Mailer is the SMTP mail provider. It implements action.Mail.
type Mailer struct {
	outbox  Outbox
	from    *mail.Address
	opts    []gomail.Option
	host    string
	timeout time.Duration
}

var _ action.Mail = (*Mailer)(nil)

// New checks cfg and returns the provider; nothing is dialled until the
// first send. Errors name the setting at fault.
func New(cfg Config, outbox Outbox) (*Mailer, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil || u.Host == "" || u.Hostname() == "" {
		return nil, fmt.Errorf("HEARTH_SMTP_URL: want smtps://user:pass@host:465 or smtp://user:pass@host:587")
	}
	from, err := mail.ParseAddress(cfg.From)
	if err != nil {
		return nil, fmt.Errorf("HEARTH_SMTP_FROM: %q is not an address (want \"Name <me@example.com>\" or an address)", cfg.From)
	}
	port := 0
	if p := u.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil || port < 1 || port > 65535 {
			return nil, fmt.Errorf("HEARTH_SMTP_URL: bad port %q", p)
		}
	}
	host := u.Hostname()
	tlsConf := cfg.TLS
	if tlsConf == nil {
		tlsConf = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	tlsConf = tlsConf.Clone()
	tlsConf.ServerName = cmp.Or(tlsConf.ServerName, host)
	opts := []gomail.Option{gomail.WithTLSConfig(tlsConf), gomail.WithTLSPolicy(gomail.TLSMandatory)}
	switch u.Scheme {
	case "smtps":
		opts = append(opts, gomail.WithSSL(), gomail.WithPort(cmp.Or(port, 465)))
	case "smtp":
		// STARTTLS is required: a server that does not offer it gets
		// nothing, credentials least of all.
		opts = append(opts, gomail.WithPort(cmp.Or(port, 587)))
	default:
		return nil, fmt.Errorf("HEARTH_SMTP_URL: scheme must be smtps (implicit TLS) or smtp (STARTTLS), not %q", u.Scheme)
	}
	if u.User != nil {
		pass, _ := u.User.Password()
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover), gomail.WithUsername(u.User.Username()), gomail.WithPassword(pass))
	}
	return &Mailer{outbox: outbox, from: from, opts: opts, host: host, timeout: cmp.Or(cfg.Timeout, 30*time.Second)}, nil
}

// CreateDraft keeps the draft in the outbox, to be sent through SMTP.
func (m *Mailer) CreateDraft(ctx context.Context, key string, e hearth.Email) (hearth.Email, error) {
	d, err := m.outbox.CreateDraft(ctx, key, e)
	return m.mark(d), err
}

// DeleteDraft deletes a draft from the outbox.
func (m *Mailer) DeleteDraft(ctx context.Context, userID, id int64) (hearth.Email, error) {
	d, err := m.outbox.DeleteDraft(ctx, userID, id)
	return m.mark(d), err
}

// Email returns one of the user's emails.
func (m *Mailer) Email(ctx context.Context, userID, id int64) (hearth.Email, error) {
	e, err := m.outbox.Email(ctx, userID, id)
	return m.mark(e), err
}

// RestoreDraft brings back a deleted draft.
func (m *Mailer) RestoreDraft(ctx context.Context, userID, id int64) error {
	return m.outbox.RestoreDraft(ctx, userID, id)
}

// FindEmails lists the user's drafts or sent mail.
func (m *Mailer) FindEmails(ctx context.Context, userID int64, status hearth.EmailStatus, limit int) ([]hearth.Email, error) {
	es, err := m.outbox.FindEmails(ctx, userID, status, limit)
	for i := range es {
		es[i] = m.mark(es[i])
	}
	return es, err
}

// mark says that a draft goes through SMTP; sent mail keeps the provider
// that sent it.
func (m *Mailer) mark(e hearth.Email) hearth.Email {
	if e.ID != 0 && e.Status == hearth.EmailDraft {
		e.Via = hearth.ViaSMTP
	}
	return e
}

// SendEmail transmits a draft once (see the package doc); sending it
// again returns it unchanged. A recipient that is not an address is an
// hearth.ErrInvalid error, nothing sent; a server that cannot be reached
// or refuses is hearth.ErrUnavailable, and the draft can be sent later.
func (m *Mailer) SendEmail(ctx context.Context, userID, id int64) (hearth.Email, error) {
	e, claimed, err := m.outbox.ClaimSend(ctx, userID, id)
	if err != nil || !claimed {
		return e, err
	}
	msg, msgID, err := m.message(e)
	if err != nil {
		if rerr := m.outbox.ReleaseSend(context.WithoutCancel(ctx), userID, id); rerr != nil {
			return e, errors.Join(err, rerr)
		}
		return e, err
	}
	// The conversation is not cut short by the turn's deadline: a message
	// half sent is one whose fate is unknown.
	sendCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), m.timeout)
	defer cancel()
	// An error after the server accepted the data (a failed QUIT or
	// close) leaves the message delivered: it went out, so it is recorded
	// as sent, never released for a second send.
	if err := m.transmit(sendCtx, msg); err != nil && !msg.IsDelivered() {
		if refused(err) {
			if rerr := m.outbox.ReleaseSend(context.WithoutCancel(ctx), userID, id); rerr != nil {
				return e, errors.Join(err, rerr)
			}
			return e, fmt.Errorf("smtp send email %d: %w: %w", id, hearth.Errorf(hearth.EUnavailable, "the mail server didn't take the message"), err)
		}
		return e, fmt.Errorf("smtp send email %d: %w: %w", id, hearth.Invalidf("the connection to the mail server broke while sending, so I can't tell whether that email went out; I won't send it twice, so please check your sent mail"), err)
	}
	sent, err := m.outbox.FinishSend(context.WithoutCancel(ctx), userID, id, hearth.ViaSMTP, msgID)
	if err != nil {
		return e, fmt.Errorf("smtp send email %d: sent, but recording it failed: %w", id, err)
	}
	return sent, nil
}

// transmit dials, authenticates and sends one message.
func (m *Mailer) transmit(ctx context.Context, msg *gomail.Msg) error {
	c, err := gomail.NewClient(m.host, append(m.opts, gomail.WithTimeout(m.timeout))...)
	if err != nil {
		return err
	}
	return c.DialAndSendWithContext(ctx, msg)
}

// refused reports whether err means the message certainly was not
// accepted: the connection, TLS or login failed, or the server answered
// before or at the end of the data with a refusal.
func refused(err error) bool {
	var se *gomail.SendError
	if !errors.As(err, &se) {
		return true // dial, TLS, STARTTLS or AUTH: before any message
	}
	switch se.Reason {
	case gomail.ErrGetSender, gomail.ErrGetRcpts, gomail.ErrSMTPMailFrom, gomail.ErrSMTPRcptTo, gomail.ErrSMTPData, gomail.ErrConnCheck, gomail.ErrNoUnencoded:
		return true
	case gomail.ErrSMTPDataClose:
		return se.ErrorCode() >= 400 // the server said no; else the line broke
	}
	return false
}

// message builds the RFC 5322 message of e: UTF-8 headers encoded as
// MIME words, a text/plain UTF-8 body, and a Message-ID derived from the
// draft, so any copy of it is recognisably the same message.
func (m *Mailer) message(e hearth.Email) (*gomail.Msg, string, error) {
	msg := gomail.NewMsg(gomail.WithCharset(gomail.CharsetUTF8), gomail.WithEncoding(gomail.EncodingQP), gomail.WithNoDefaultUserAgent())
	msg.FromMailAddress(m.from)
	var bad []string
	for _, to := range e.To {
		a, err := mail.ParseAddress(to)
		if err != nil {
			bad = append(bad, to)
			continue
		}
		msg.AddToMailAddress(a)
	}
	if len(bad) > 0 {
		return nil, "", hearth.Invalidf("I don't have an email address for %s; tell me the address and I'll write it again", strings.Join(bad, ", "))
	}
	domain := m.from.Address[strings.LastIndexByte(m.from.Address, '@')+1:]
	if _, _, err := net.SplitHostPort(domain); err == nil || domain == "" {
		domain = "hearth.invalid"
	}
	msgID := fmt.Sprintf("hearth.%d.%d@%s", e.ID, e.CreatedAt.UnixNano(), domain)
	msg.SetMessageIDWithValue(msgID)
	msg.SetDate()
	msg.Subject(e.Subject)
	msg.SetBodyString(gomail.TypeTextPlain, e.Body)
	return msg, msgID, nil
}
