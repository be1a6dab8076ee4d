package action

import (
	"context"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/scheduler/recur"
)

// The interfaces below are where actions land. The built-in providers
// (integrations/builtin, Postgres) implement them, and so will Google's.
//
// Every create takes an idempotency key (the action's "turn:index"): a
// second create with the same key returns the first result and changes
// nothing, so a retried action job never creates twice. Deletes are soft
// and return what was deleted, so they can be undone with Restore. Updates
// return the record before and after, for the audit trail and undo. A
// missing or foreign record is hearth.ErrNotFound: every method is
// scoped to the user.

// Tasks is a user's to-do list.
type Tasks interface {
	CreateTask(ctx context.Context, key string, t hearth.Task) (hearth.Task, error)
	UpdateTask(ctx context.Context, userID, id int64, upd hearth.TaskUpdate) (before, after hearth.Task, err error)
	DeleteTask(ctx context.Context, userID, id int64) (hearth.Task, error)
	RestoreTask(ctx context.Context, userID, id int64) error
	FindTasks(ctx context.Context, f hearth.TaskFilter) ([]hearth.Task, error)
}

// Calendar is a user's calendar.
type Calendar interface {
	CreateEvent(ctx context.Context, key string, e hearth.CalendarEvent) (hearth.CalendarEvent, error)
	UpdateEvent(ctx context.Context, userID, id int64, upd hearth.CalendarEventUpdate) (before, after hearth.CalendarEvent, err error)
	DeleteEvent(ctx context.Context, userID, id int64) (hearth.CalendarEvent, error)
	RestoreEvent(ctx context.Context, userID, id int64) error
	FindEvents(ctx context.Context, f hearth.CalendarEventFilter) ([]hearth.CalendarEvent, error)
	// CreateSeries adds a repeating event and returns its first
	// occurrence; rrule is its RRULE line, for a calendar that expands
	// rules itself, and s the occurrences for one that keeps them.
	CreateSeries(ctx context.Context, key string, s hearth.EventSeries, rrule string) (hearth.CalendarEvent, error)
	// DeleteSeries deletes the repeating event id is an occurrence of,
	// every occurrence, and returns the event as it was (with the
	// series' Recurrence when the calendar keeps rules).
	DeleteSeries(ctx context.Context, userID, id int64) (hearth.CalendarEvent, error)
	// RestoreSeries undoes DeleteSeries of e's series.
	RestoreSeries(ctx context.Context, userID int64, e hearth.CalendarEvent) error
	// UpdateSeries changes the repeating event id is an occurrence of:
	// its title, its place, and with upd.Start and upd.End its time of
	// day (each occurrence as long as End-Start). It returns the
	// occurrence before and after.
	UpdateSeries(ctx context.Context, userID, id int64, upd hearth.CalendarEventUpdate) (before, after hearth.CalendarEvent, err error)
}

// Notes is a user's notes and lists, and their family's: a note with
// Family set is shared by every member, who may read and change it.
type Notes interface {
	CreateNote(ctx context.Context, key string, n hearth.Note) (hearth.Note, error)
	// AppendNote adds text to the body, or items to the checklist, once
	// per key.
	AppendNote(ctx context.Context, key string, userID, id int64, text string, items []hearth.ChecklistItem) (before, after hearth.Note, err error)
	// CheckItems ticks the named checklist items off (done) or back on,
	// once per key.
	CheckItems(ctx context.Context, key string, userID, id int64, texts []string, done bool) (before, after hearth.Note, err error)
	// RemoveItems takes the named checklist items off, once per key.
	RemoveItems(ctx context.Context, key string, userID, id int64, texts []string) (before, after hearth.Note, err error)
	// RenameNote gives a note a new title, once per key.
	RenameNote(ctx context.Context, key string, userID, id int64, title string) (before, after hearth.Note, err error)
	// SetNote puts a note back as it was (undo of an append, a tick or a
	// removal),
	// scoped to n.UserID.
	SetNote(ctx context.Context, n hearth.Note) error
	DeleteNote(ctx context.Context, userID, id int64) (hearth.Note, error)
	RestoreNote(ctx context.Context, userID, id int64) error
	FindNotes(ctx context.Context, f hearth.NoteFilter) ([]hearth.Note, error)
}

// Mail is a user's outbox.
type Mail interface {
	CreateDraft(ctx context.Context, key string, e hearth.Email) (hearth.Email, error)
	// SendEmail sends a draft once; sending it again returns it unchanged.
	SendEmail(ctx context.Context, userID, id int64) (hearth.Email, error)
	DeleteDraft(ctx context.Context, userID, id int64) (hearth.Email, error)
	// Email returns one of the user's emails (a saved draft to send).
	Email(ctx context.Context, userID, id int64) (hearth.Email, error)
	// RestoreDraft brings back a deleted draft (undo of a discard).
	RestoreDraft(ctx context.Context, userID, id int64) error
	FindEmails(ctx context.Context, userID int64, status hearth.EmailStatus, limit int) ([]hearth.Email, error)
}

// Memories is what Hearth remembers for a user.
type Memories interface {
	StoreMemory(ctx context.Context, key string, m hearth.Memory) (hearth.Memory, error)
	// UpdateMemory corrects a memory: the old one stops being true and a
	// new one replaces it; RevertMemory undoes that.
	UpdateMemory(ctx context.Context, userID, id int64, content string) (before, after hearth.Memory, err error)
	RevertMemory(ctx context.Context, userID, id int64) error
	// UnstoreMemory takes back a fact just stored, and reopens the
	// attribute values it closed or ended.
	UnstoreMemory(ctx context.Context, userID, id int64) error
	// EndValues ends an entity's current values of an attribute equal
	// to value, now, for the fact by that says so.
	EndValues(ctx context.Context, userID, entityID int64, attribute, value string, by int64) error
	// SaveEntity finds the entity a name or alias stands for among the
	// owner's, or creates it.
	SaveEntity(ctx context.Context, e hearth.Entity) (hearth.Entity, error)
	ForgetMemory(ctx context.Context, userID, id int64) (hearth.Memory, error)
	// RestoreMemory puts back a fact as ForgetMemory returned it.
	RestoreMemory(ctx context.Context, userID int64, m hearth.Memory) error
	FindMemories(ctx context.Context, f hearth.MemoryFilter) ([]hearth.Memory, error)
}

// Reminders are a user's recurring reminders ("remind me every Monday at
// 9 to …"), each named by its schedule's id.
type Reminders interface {
	// UpdateReminder gives the reminder a new rule and moves its next
	// occurrence to the rule's first one from now, in the user's zone.
	UpdateReminder(ctx context.Context, userID, id int64, rule recur.Rule) (before, after hearth.Schedule, err error)
	// CancelReminder stops the reminder and returns it as it was.
	CancelReminder(ctx context.Context, userID, id int64) (before hearth.Schedule, err error)
	// RestoreReminder brings a cancelled reminder back, same id and
	// rule, its next occurrence the rule's first from now: occurrences
	// it missed while cancelled are not sent late.
	RestoreReminder(ctx context.Context, userID, id int64) (after hearth.Schedule, err error)
}
