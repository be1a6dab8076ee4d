package hearth

import "time"

// MemoryCategory groups what Hearth remembers.
type MemoryCategory string

// Memory categories.
const (
	MemoryPersonal  MemoryCategory = "personal"
	MemoryWork      MemoryCategory = "work"
	MemoryKnowledge MemoryCategory = "knowledge"
)

// Memory is a fact Hearth remembers for a user ("John's birthday is March
// 15th"), about someone or something.
type Memory struct {
	ID        int64          `json:"id"`
	UserID    int64          `json:"user_id"`
	Content   string         `json:"content"`
	About     string         `json:"about,omitempty"`
	Category  MemoryCategory `json:"category"`
	CreatedAt time.Time      `json:"created_at,omitzero"`
	UpdatedAt time.Time      `json:"updated_at,omitzero"`
}

// MemoryFilter selects a user's memories. Query is full-text search over
// content and about; About matches the subject loosely.
type MemoryFilter struct {
	UserID int64
	Query  string
	About  string
	Limit  int
}
