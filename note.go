package hearth

import "time"

// Note is a Keep-like note: free text, labels and an optional checklist
// (a shopping list is a note with items).
type Note struct {
	ID     int64 `json:"id"`
	UserID int64 `json:"user_id"`
	// Family is true for a note owned by the user's family (a shared
	// shopping list): every member reads and changes it. UserID is then
	// who created it.
	Family    bool            `json:"family,omitempty"`
	Title     string          `json:"title"`
	Body      string          `json:"body,omitempty"`
	Labels    []string        `json:"labels,omitempty"`
	Items     []ChecklistItem `json:"items,omitempty"`
	CreatedAt time.Time       `json:"created_at,omitzero"`
	UpdatedAt time.Time       `json:"updated_at,omitzero"`
	// Where says, for the reply, where a provider other than the
	// built-in notes put the note ("in Google Keep"), or why it did not;
	// empty for the built-in notes. Not stored.
	Where string `json:"where,omitempty"`
}

// ChecklistItem is one line of a note's checklist.
type ChecklistItem struct {
	Text string `json:"text"`
	Done bool   `json:"done,omitempty"`
}

// NoteFilter selects the notes a user sees: their own and their
// family's.
type NoteFilter struct {
	UserID int64
	// Title matches a note's title loosely ("shopping" finds "Shopping list").
	Title string
	Query string
	Limit int
}
