package hearth

import (
	"encoding/json"
	"time"
)

// CalendarEvent is an entry in a user's calendar.
type CalendarEvent struct {
	ID     int64  `json:"id"`
	UserID int64  `json:"user_id"`
	Title  string `json:"title"`
	// Start and End bound the event, End exclusive. For an all-day event
	// they are midnights in the user's zone.
	Start       time.Time `json:"start"`
	End         time.Time `json:"end"`
	AllDay      bool      `json:"all_day,omitempty"`
	Location    string    `json:"location,omitempty"`
	Attendees   []string  `json:"attendees,omitempty"`
	Description string    `json:"description,omitempty"`
	// CalendarID and ExternalID name the event in an outside calendar
	// (Google's calendar and event id) when the row is its synced copy;
	// empty for the built-in calendar's own events.
	CalendarID string `json:"calendar_id,omitempty"`
	ExternalID string `json:"external_id,omitempty"`
	// Recurrence holds RRULE/EXDATE lines for a recurring event being
	// created in a calendar that keeps recurrences (Google's); the synced
	// copy holds its instances, one row each.
	Recurrence []string `json:"recurrence,omitempty"`
	// Series names the repeating event this one is an occurrence of (the
	// built-in calendar's series id, or Google's recurring event id);
	// empty for a one-off.
	Series    string    `json:"series,omitempty"`
	CreatedAt time.Time `json:"created_at,omitzero"`
	UpdatedAt time.Time `json:"updated_at,omitzero"`
}

// EventSeries is a repeating event of the built-in calendar: what each
// occurrence is, how it repeats, and the occurrences kept as events so far.
// The rule stays opaque here (scheduler/recur's JSON, as a Schedule's):
// expanding it is the caller's, in Zone.
type EventSeries struct {
	ID int64 `json:"id"`
	// Event is the first occurrence: its title, place, attendees and
	// length are every occurrence's.
	Event CalendarEvent   `json:"event"`
	Rule  json.RawMessage `json:"rule"`
	Zone  string          `json:"zone"`
	// Occurrences are the ones to keep as events now, in order, Event's
	// times first; the ones starting before Through.
	Occurrences []CalendarEvent `json:"-"`
	Through     time.Time       `json:"through"`
}

// CalendarEventFilter selects a user's events overlapping [From, To).
type CalendarEventFilter struct {
	UserID   int64
	From, To time.Time
	Query    string
	Limit    int
}

// CalendarEventUpdate changes the fields that are not nil.
type CalendarEventUpdate struct {
	Title     *string    `json:"title,omitempty"`
	Start     *time.Time `json:"start,omitempty"`
	End       *time.Time `json:"end,omitempty"`
	AllDay    *bool      `json:"all_day,omitempty"`
	Location  *string    `json:"location,omitempty"`
	Attendees *[]string  `json:"attendees,omitempty"`
	// Description replaces the event's notes.
	Description *string `json:"description,omitempty"`
}
