package hearth

import "time"

// TaskStatus is whether a task is still to do.
type TaskStatus string

// Task statuses.
const (
	TaskOpen TaskStatus = "open"
	TaskDone TaskStatus = "done"
)

// Task is something a user has to do.
type Task struct {
	ID     int64  `json:"id"`
	UserID int64  `json:"user_id"`
	Title  string `json:"title"`
	Notes  string `json:"notes,omitempty"`
	// Priority is 0 (none), 1 (low), 2 (normal) or 3 (high).
	Priority int `json:"priority,omitempty"`
	// Due is when the task is due; zero when it has no due time. With
	// AllDay it is midnight of the due date in the user's zone.
	Due         time.Time  `json:"due,omitzero"`
	AllDay      bool       `json:"all_day,omitempty"`
	Status      TaskStatus `json:"status"`
	CompletedAt time.Time  `json:"completed_at,omitzero"`
	CreatedAt   time.Time  `json:"created_at,omitzero"`
	UpdatedAt   time.Time  `json:"updated_at,omitzero"`
}

// TaskFilter selects a user's tasks. Zero fields do not filter.
type TaskFilter struct {
	UserID int64
	Status TaskStatus
	// DueBefore keeps tasks due before this instant (open tasks without a
	// due time are kept only when IncludeUndated).
	DueBefore      time.Time
	IncludeUndated bool
	// CompletedSince keeps tasks completed at or after this instant ("what
	// did I finish today?"); open tasks have no completion and are left out.
	CompletedSince time.Time
	// Query matches title and notes (case-insensitive words and trigram
	// similarity, so "mom" finds "Call Mom").
	Query string
	Limit int
}

// TaskUpdate changes the fields that are not nil.
type TaskUpdate struct {
	Title    *string     `json:"title,omitempty"`
	Notes    *string     `json:"notes,omitempty"`
	Priority *int        `json:"priority,omitempty"`
	Due      *time.Time  `json:"due,omitempty"`
	AllDay   *bool       `json:"all_day,omitempty"`
	Status   *TaskStatus `json:"status,omitempty"`
}
