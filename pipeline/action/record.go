package action

import (
	"encoding/json"
	"errors"
	"time"
)

// State is where an action row is in its life.
type State string

// Action states.
const (
	StatePlanned          State = "planned"
	StateAwaitingApproval State = "awaiting_approval"
	StateRunning          State = "running"
	StateDone             State = "done"
	StateFailed           State = "failed"
	StateRejected         State = "rejected"
	StateExpired          State = "expired"
	StateUndone           State = "undone"
)

// Record is a stored action: the (event, index) it belongs to, what it
// is, and what became of it.
type Record struct {
	ID             int64
	EventID        int64
	Index          int
	ConversationID int64
	UserID         int64
	Action         Action
	Risk           Risk
	State          State
	// Result is the provider's answer (the created task, the listed
	// events…); Before is the record as it was before an update or delete.
	Result     json.RawMessage
	Before     json.RawMessage
	Error      string
	ExecutedAt time.Time
	// ApprovalID is set for high-risk actions.
	ApprovalID int64
	// Retryable is set by the run that failed, when trying again cannot
	// repeat an effect: an email the mail server or Gmail refused
	// (nothing went out). Not stored on the action: the approval keeps it.
	Retryable bool
}

// Key is the action's idempotency key for providers.
func (r Record) Key() string { return "action:" + itoa(r.EventID) + ":" + itoa(int64(r.Index)) }

// ApprovalState is where an approval is.
type ApprovalState string

// Approval states.
const (
	ApprovalPending  ApprovalState = "pending"
	ApprovalApproved ApprovalState = "approved"
	ApprovalExecuted ApprovalState = "executed"
	ApprovalFailed   ApprovalState = "failed"
	ApprovalRejected ApprovalState = "rejected"
	ApprovalExpired  ApprovalState = "expired"
)

// Approval is a request to the user to allow one exact action.
type Approval struct {
	ID             int64
	ActionID       int64
	UserID         int64
	ConversationID int64
	Action         Action
	Hash           string
	State          ApprovalState
	ExpiresAt      time.Time
	// Retryable is true for a failed approval whose action may be tried
	// again (see Engine.Retry); Retries counts the tries again so far.
	Retryable bool
	Retries   int
}

// Reasons an approval decision is refused. The reply tells the user which.
var (
	ErrNotYours       = errors.New("only the person who asked can decide this")
	ErrAlreadyDecided = errors.New("already decided")
	ErrExpired        = errors.New("expired")
	ErrTampered       = errors.New("the approved payload does not match its hash")
	// ErrNotRetryable refuses a try again of an approval that did not
	// fail in a way that can be retried (it succeeded, its fate is
	// unknown, or that try was made already).
	ErrNotRetryable = errors.New("cannot be tried again")
)

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func jsonMarshal(v any) ([]byte, error) {
	if raw, ok := v.([]byte); ok {
		return raw, nil
	}
	if raw, ok := v.(json.RawMessage); ok {
		return raw, nil
	}
	return json.Marshal(v)
}
