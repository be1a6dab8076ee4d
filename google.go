package hearth

import "time"

// GoogleAccount is the Google account a user connected. Token is the OAuth
// token sealed with AES-256-GCM (ARCHITECTURE invariant 7): only the
// integrations/google package opens it.
type GoogleAccount struct {
	UserID int64
	// Timezone is the user's zone, read with the account.
	Timezone string
	Email    string
	Token    []byte
	// Scopes are the scopes the user granted so far (asked incrementally).
	Scopes []string
	// RevokedAt is when Google refused the grant; zero while it works.
	RevokedAt time.Time
	// NotifiedAt is when the user was told to reconnect.
	NotifiedAt time.Time
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// GoogleCalendar is one of a user's Google calendars that Hearth syncs
// into its events, with its sync state and push channel.
type GoogleCalendar struct {
	UserID     int64
	CalendarID string
	Summary    string
	// Default is the calendar new events go to.
	Default bool
	// Family is the calendar events about the family go to.
	Family bool
	// SyncToken continues incremental sync; empty means a full sync next.
	SyncToken string
	// Generation counts full syncs (mark and sweep).
	Generation int64
	SyncedAt   time.Time
	PushedAt   time.Time
	// SyncStarted counts syncs begun (see SyncArgs in integrations/google).
	SyncStarted int64
	// ChannelID, ChannelResourceID and ChannelExpiresAt describe the push
	// channel (events.watch); empty when there is none.
	ChannelID         string
	ChannelResourceID string
	ChannelExpiresAt  time.Time
}
