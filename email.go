package hearth

import "time"

// EmailStatus is where an email is in its life.
type EmailStatus string

// Email statuses.
const (
	EmailDraft EmailStatus = "draft"
	EmailSent  EmailStatus = "sent"
)

// Email is a message in the user's outbox. The built-in provider keeps
// mail locally: "sent" means approved and recorded, nothing leaves the
// machine.
type Email struct {
	ID        int64       `json:"id"`
	UserID    int64       `json:"user_id"`
	To        []string    `json:"to"`
	Subject   string      `json:"subject"`
	Body      string      `json:"body"`
	InReplyTo int64       `json:"in_reply_to,omitempty"`
	Status    EmailStatus `json:"status"`
	SentAt    time.Time   `json:"sent_at,omitzero"`
	CreatedAt time.Time   `json:"created_at,omitzero"`
}
