package pipeline

import (
	"errors"
	"fmt"
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
