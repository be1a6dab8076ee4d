package hearth

import (
	"encoding/json"
	"time"
)

// FileRef says where a file sent for import is, as the platform described
// it at ingress (one of FileID and URL set), or holds it (Data, a web
// chat upload).
type FileRef struct {
	// FileID is the platform's file id (Telegram's file_id, Slack's id).
	FileID string `json:"file_id,omitempty"`
	// URL is a download URL (Slack's url_private_download).
	URL string `json:"url,omitempty"`
	// Size is the announced size in bytes; 0 when unknown.
	Size int64 `json:"size,omitempty"`
	// MIME is the announced media type.
	MIME string `json:"mime,omitempty"`
	// Name is the file name, which names its format (".csv", ".vcf").
	Name string `json:"name,omitempty"`
	// Data is the file itself when it came with the event.
	Data []byte `json:"-"`
}

// ImportState is where an import is in its life.
type ImportState string

// Import states: asking (questions open), ready (the summary awaits
// Approve), committed, and the ends cancelled, expired and undone.
const (
	ImportAsking    ImportState = "asking"
	ImportReady     ImportState = "ready"
	ImportCommitted ImportState = "committed"
	ImportCancelled ImportState = "cancelled"
	ImportExpired   ImportState = "expired"
	ImportUndone    ImportState = "undone"
)

// Import is one file being brought in: the conversation about it and,
// once committed, the tag on every row it wrote.
type Import struct {
	ID             int64
	UserID         int64
	ConversationID int64
	// EventID is the file's inbound event: one import per file event.
	EventID  int64
	FileName string
	// Signature is the file's layout, the key its confirmed mapping is
	// learned under.
	Signature string
	// Plan is the import's working state (its mapping and answers),
	// owned by the imports package.
	Plan  json.RawMessage
	State ImportState
	// Steps counts the questions answered, against a budget.
	Steps     int
	ExpiresAt time.Time
	// Counts is what the commit wrote, or undo removed.
	Counts    ImportCounts
	CreatedAt time.Time
}

// ImportCounts is what an import wrote (or its undo took back).
type ImportCounts struct {
	Tasks  int `json:"tasks"`
	Events int `json:"events"`
	Facts  int `json:"facts"`
	// Merged is how many existing items were updated or superseded.
	Merged int `json:"merged"`
}

// ImportBatch is everything an import writes, in one transaction: new
// items (each tagged with the import), and merges into existing ones
// (their state before is kept, so undo restores it).
type ImportBatch struct {
	Tasks  []Task
	Events []CalendarEvent
	Facts  []Memory
	// TaskMerges and EventMerges are existing items (by ID) with the
	// file's values.
	TaskMerges  []Task
	EventMerges []CalendarEvent
	// FactCorrections replace existing facts: the old one stops being
	// true, as when a user corrects a fact.
	FactCorrections []FactCorrection
}

// FactCorrection is a new fact that supersedes an existing one.
type FactCorrection struct {
	OldID int64
	New   Memory
}

// ImportExisting is what a user already has that a file's rows may
// match: open tasks by title, events by title and start, current facts
// about the people the file names.
type ImportExisting struct {
	Tasks  []Task
	Events []CalendarEvent
	Facts  []Memory
}
