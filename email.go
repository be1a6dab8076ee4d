package hearth

import "time"

// EmailStatus is where an email is in its life.
type EmailStatus string

// Email statuses.
const (
	EmailDraft EmailStatus = "draft"
	EmailSent  EmailStatus = "sent"
)

// MailVia names the provider an email goes through when it is sent, so a
// reply can say truthfully where it went.
type MailVia string

// Mail providers.
const (
	// ViaOutbox is Hearth's built-in outbox: "sent" means approved and
	// recorded, and nothing leaves the machine.
	ViaOutbox MailVia = "outbox"
	// ViaSMTP is the mail server of HEARTH_SMTP_URL.
	ViaSMTP MailVia = "smtp"
	// ViaGmail is the user's Gmail account.
	ViaGmail MailVia = "gmail"
)

// LeavesMachine reports whether mail sent this way is transmitted. The
// zero value is the outbox: nothing is claimed to have left.
func (v MailVia) LeavesMachine() bool { return v == ViaSMTP || v == ViaGmail }

// Email is a message in the user's outbox. Via says which provider sends
// it (for a draft) or sent it: the built-in outbox keeps mail locally,
// "sent" there means approved and recorded.
type Email struct {
	ID        int64       `json:"id"`
	UserID    int64       `json:"user_id"`
	To        []string    `json:"to"`
	Subject   string      `json:"subject"`
	Body      string      `json:"body"`
	InReplyTo int64       `json:"in_reply_to,omitempty"`
	Status    EmailStatus `json:"status"`
	Via       MailVia     `json:"via,omitempty"`
	// MessageID is the RFC 5322 Message-ID of a message that left the
	// machine, without angle brackets.
	MessageID string    `json:"message_id,omitempty"`
	SentAt    time.Time `json:"sent_at,omitzero"`
	CreatedAt time.Time `json:"created_at,omitzero"`
	// Hint is a provider's word to the user about this draft ("say
	// “connect gmail” to send from your Gmail"), shown with it. Not
	// stored.
	Hint string `json:"hint,omitempty"`
}

// MailStyle is how a user writes email: the greeting and sign-off the
// offline composer fills its template with, and what a model drafting in
// their voice is told. Greeting may hold "{name}" for the recipients'
// names ("Hi {name},"); SignOff is the closing line before the user's
// name ("Best,"), or empty for none. The zero value is Hearth's default
// style.
type MailStyle struct {
	UserID   int64  `json:"user_id"`
	Greeting string `json:"greeting,omitempty"`
	SignOff  string `json:"sign_off,omitempty"`
	// Length is the typical length of the user's emails in words.
	Length int `json:"length,omitempty"`
	// Formality is 1 (casual) to 5 (formal); zero when unknown.
	Formality int       `json:"formality,omitempty"`
	UpdatedAt time.Time `json:"updated_at,omitzero"`
}
