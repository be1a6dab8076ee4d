package hearth

import (
	"errors"
	"fmt"
	"time"
)

// Sentinel errors callers act on. Adapters map them to HTTP statuses:
// ErrInvalid → 400, ErrNotFound → 400/404, ErrUnavailable → 503.
var (
	// ErrInvalid marks input that can never be accepted as it is.
	ErrInvalid = errors.New("invalid input")
	// ErrNotFound marks a reference to something that does not exist.
	ErrNotFound = errors.New("not found")
	// ErrUnavailable marks a dependency (the database) that cannot be
	// reached; the caller should retry later. Nothing was stored.
	ErrUnavailable = errors.New("temporarily unavailable")
	// ErrPermanent marks a delivery failure that retrying cannot fix (the
	// chat was deleted, the bot was blocked).
	ErrPermanent = errors.New("permanent failure")
)

// RetryAfterError is a delivery the platform refused for now and asked to
// retry no sooner than After (a rate limit's Retry-After). The deliver
// worker waits exactly that long instead of its own backoff, without
// counting an attempt: the platform, not the message, is the problem.
type RetryAfterError struct {
	After time.Duration
	Err   error
}

// Error says how long the platform asked to wait.
func (e *RetryAfterError) Error() string {
	return fmt.Sprintf("rate limited, retry after %s: %v", e.After, e.Err)
}

// Unwrap returns the platform's error.
func (e *RetryAfterError) Unwrap() error { return e.Err }

// InvalidError is bad input with a reason fit to show whoever sent it. It
// matches ErrInvalid with errors.Is.
type InvalidError struct {
	Reason string
}

// Error returns the reason with a prefix.
func (e *InvalidError) Error() string { return "invalid input: " + e.Reason }

// Is makes errors.Is(err, ErrInvalid) true.
func (e *InvalidError) Is(target error) bool { return target == ErrInvalid }

// Invalidf returns an *InvalidError with a formatted reason.
func Invalidf(format string, args ...any) error {
	return &InvalidError{Reason: fmt.Sprintf(format, args...)}
}
