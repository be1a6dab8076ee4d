package hearth

import (
	"encoding/json"
	"time"
)

// ScheduleKind says what a schedule reminds of.
type ScheduleKind string

// Schedule kinds.
const (
	ScheduleTask     ScheduleKind = "task"
	ScheduleReminder ScheduleKind = "reminder"
	ScheduleBirthday ScheduleKind = "birthday"
	ScheduleBriefing ScheduleKind = "briefing"
	ScheduleSnooze   ScheduleKind = "snooze"
	// ScheduleEvent reminds before a timed calendar event, when the user
	// asked for reminders before events (ScheduleSettings.EventLeadMinutes).
	ScheduleEvent ScheduleKind = "event"
)

// Schedule is one schedulable item with everything needed to compute its
// occurrences: the row itself, the user's zone and settings, and the
// item it points at (fields of other kinds are zero).
type Schedule struct {
	ID     int64
	UserID int64
	Kind   ScheduleKind
	ItemID int64
	// NextAt is the next occurrence not yet planned; zero when none.
	NextAt time.Time
	// PlannedUntil is the last occurrence planned (or skipped); zero when
	// none yet.
	PlannedUntil time.Time
	// Changed is when the item, the user's zone or their settings last
	// changed (database time): a recomputation starts there.
	Changed time.Time
	Muted   bool
	// Timezone is the user's IANA zone ("" when unknown).
	Timezone string
	// Settings are the user's (or the defaults).
	Settings ScheduleSettings

	// Gone is true when the item was deleted (a task or memory), cancelled
	// (a reminder) or no longer exists.
	Gone bool
	// Title is the task's title, the reminder's text, the birthday's
	// person or the snoozed reminder's text.
	Title string
	// Task: due instant (midnight local for AllDay) and whether it is done.
	// Event: its start.
	Due    time.Time
	AllDay bool
	Done   bool
	// Event: where and with whom.
	Location  string
	Attendees []string
	// Reminder: its recur.Rule as JSON.
	Rule json.RawMessage
	// Detail is the kind's own data (birthday: month, day, about, what;
	// snooze: the text and the item snoozed).
	Detail ScheduleDetail
}

// ScheduleDetail is the kind-specific data kept with a schedule.
type ScheduleDetail struct {
	// Birthday or anniversary.
	Month int    `json:"month,omitempty"`
	Day   int    `json:"day,omitempty"`
	About string `json:"about,omitempty"`
	What  string `json:"what,omitempty"`
	// Snooze: what the snoozed reminder said and the item behind it.
	Text   string       `json:"text,omitempty"`
	OfKind ScheduleKind `json:"of_kind,omitempty"`
	OfItem int64        `json:"of_item,omitempty"`
}

// ScheduleSettings are a user's scheduling preferences.
type ScheduleSettings struct {
	BriefingEnabled bool
	// BriefingAt is the local time of the briefing, "HH:MM".
	BriefingAt   string
	BriefingSkip []string
	// ConversationID is the preferred conversation; 0 means the last used.
	ConversationID int64
	LeadDays       []int
	BirthdayDays   int
	// EventLeadMinutes remind before each timed calendar event; 0 is off.
	EventLeadMinutes int
	// QuietFrom and QuietTo ("HH:MM", local) are the quiet hours: reminders
	// the user did not set for that time are held until QuietTo. Both
	// empty: none.
	QuietFrom, QuietTo string
}

// DefaultScheduleSettings are the settings of a user who changed none.
func DefaultScheduleSettings() ScheduleSettings {
	return ScheduleSettings{BriefingEnabled: true, BriefingAt: "07:30", BriefingSkip: []string{}, LeadDays: []int{7, 3, 1}, BirthdayDays: 3}
}

// ScheduleNext is a schedule's new next occurrence; the zero At means none.
// A non-zero Planned records the occurrence just planned (or skipped).
type ScheduleNext struct {
	ID      int64
	At      time.Time
	Planned time.Time
}

// ChangedMemory is a memory written since the planner last looked, for
// the scheduler to recognise birthdays and anniversaries in.
type ChangedMemory struct {
	ID, UserID     int64
	Content, About string
}

// ScheduleSettingsUpdate changes the scheduling settings that are set: nil
// pointers and empty slices leave a setting as it is.
type ScheduleSettingsUpdate struct {
	BriefingEnabled *bool
	// BriefingAt is a local time "HH:MM".
	BriefingAt *string
	// Skip adds sections to leave out of the briefing, Unskip removes them.
	Skip, Unskip   []string
	ConversationID *int64
	LeadDays       []int
	BirthdayDays   *int
	// EventLeadMinutes: 0 turns reminders before events off.
	EventLeadMinutes *int
	// QuietFrom and QuietTo set the quiet hours ("HH:MM"); both "" clear
	// them.
	QuietFrom, QuietTo *string
}

// Briefing is what a daily briefing reports.
type Briefing struct {
	// Events are the calendar's events overlapping the day, by start.
	Events []CalendarEvent
	// Deadlines are open tasks due before the end of the week ahead,
	// overdue ones included, soonest first.
	Deadlines []Task
	// Birthdays are the user's birthday and anniversary schedules (the
	// caller picks those in the coming week).
	Birthdays []ScheduleDetail
	// Memories and Tasks hold, per attendee of the day's events, what
	// Hearth remembers about them and the open tasks naming them.
	Memories map[string][]string
	Tasks    map[string][]string
	// Family are the events from the start of the day to the end of the
	// week ahead of the family members who let the user see their events
	// (see FamilyEvents), grouped by member.
	Family []FamilyEvent
	// Lists are the user's family's lists that still have items to
	// tick off, most recently changed first.
	Lists []Note
	// Storylines are the user's storylines mentioned in the two weeks
	// before the day, most recent first (the "what's going on" line).
	Storylines []Storyline
	// Mail is the user's unread mail of the last day from people Hearth
	// knows (an email address in memory) or marked important, newest
	// first. Its text is untrusted: shown, never followed.
	Mail []InboxMessage
}

// BirthdaySchedule is the yearly schedule a birthday or anniversary fact
// makes.
type BirthdaySchedule struct {
	UserID, FactID int64
	Detail         ScheduleDetail
}
