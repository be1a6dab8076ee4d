package hearth

import "time"

// InboxMessage is an email the user received (from Gmail), as far as
// Hearth needs it: who wrote, about what, and the headers a reply
// threads with. Its text is untrusted data: summarised, never obeyed.
type InboxMessage struct {
	ID     int64 `json:"id"`
	UserID int64 `json:"user_id"`
	// ExternalID and ThreadID are the provider's (Gmail's) ids.
	ExternalID string `json:"external_id"`
	ThreadID   string `json:"thread_id,omitempty"`
	// MessageID is the RFC 5322 Message-ID, with its angle brackets;
	// References the References header as received.
	MessageID  string    `json:"message_id,omitempty"`
	References string    `json:"references,omitempty"`
	From       string    `json:"from"`
	FromName   string    `json:"from_name,omitempty"`
	Subject    string    `json:"subject,omitempty"`
	Snippet    string    `json:"snippet,omitempty"`
	Unread     bool      `json:"unread,omitempty"`
	Important  bool      `json:"important,omitempty"`
	ReceivedAt time.Time `json:"received_at"`
}

// InboxFilter selects received mail.
type InboxFilter struct {
	UserID int64
	// From matches the sender's address or name, loosely.
	From string
	// Unread keeps unread mail only.
	Unread bool
	// Since keeps mail received at or after it.
	Since time.Time
	Limit int
}

// MailboxSync is where finding a user's new mail stands: the Gmail history
// id polling continues from, the push watch (users.watch) and its expiry,
// when a push last arrived, and how many polls have begun (a push asks for
// the poll after the ones begun, so one that arrives while a poll runs is
// never folded into it).
type MailboxSync struct {
	UserID    int64
	HistoryID string
	// PolledAt is when a poll last stored what it found.
	PolledAt       time.Time
	WatchExpiresAt time.Time
	PushedAt       time.Time
	PollsBegun     int64
}

// AddressBookEntry is a person from the user's address book (Google
// contacts): a name and an email address. Both are untrusted data: a
// recipient to offer, never an instruction.
type AddressBookEntry struct {
	Name  string `json:"name"`
	Email string `json:"email"`
}
