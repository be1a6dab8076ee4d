package hearth

import (
	"errors"
	"fmt"
	"time"
)

// Code classifies an error by what the caller should do about it. The
// HTTP edge (internal/httpreply) turns codes into statuses, and the chat
// pipeline turns them into replies; nothing else looks at them.
type Code string

// The error codes.
const (
	// EInvalid is input that can never be accepted as it is.
	EInvalid Code = "invalid"
	// ENotFound is a reference to something that does not exist (or that
	// the caller may not see).
	ENotFound Code = "not_found"
	// EConflict is a request that clashes with the current state (a code
	// already used, an item changed meanwhile).
	EConflict Code = "conflict"
	// EUnauthorized is a request whose sender could not be verified.
	EUnauthorized Code = "unauthorized"
	// EUnavailable is a dependency (the database, a provider) that cannot
	// be reached now; retrying later may work. Nothing was stored.
	EUnavailable Code = "unavailable"
	// EPermanent is a failure retrying cannot fix (a chat was deleted,
	// the bot was blocked).
	EPermanent Code = "permanent"
	// EInternal is everything else: a bug or an unexpected failure. Its
	// details are logged, never shown.
	EInternal Code = "internal"
)

// Error is an error with a code and a message fit to show whoever caused
// it. A sentinel (one of the Err… variables) matches, with errors.Is,
// every *Error of its code, so callers can test the class of an error
// without knowing its message.
type Error struct {
	Code    Code
	Message string

	sentinel bool
}

// Error returns the message prefixed with what its code means ("invalid
// input: text is empty").
func (e *Error) Error() string {
	if e.sentinel {
		return e.Message
	}
	return codeWords[e.Code] + ": " + e.Message
}

// codeWords are the prefixes of error strings, one per code.
var codeWords = map[Code]string{
	EInvalid:      "invalid input",
	ENotFound:     "not found",
	EConflict:     "conflict",
	EUnauthorized: "unauthorized",
	EUnavailable:  "temporarily unavailable",
	EPermanent:    "permanent failure",
	EInternal:     "internal error",
}

// Is makes errors.Is(err, ErrInvalid) true for every EInvalid error, and
// likewise for the other sentinels.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.sentinel && t.Code == e.Code
}

func sentinel(code Code) *Error { return &Error{Code: code, Message: codeWords[code], sentinel: true} }

// Sentinel errors callers act on; wrap them with %w or match any error of
// their code with errors.Is.
var (
	// ErrInvalid marks input that can never be accepted as it is.
	ErrInvalid error = sentinel(EInvalid)
	// ErrNotFound marks a reference to something that does not exist.
	ErrNotFound error = sentinel(ENotFound)
	// ErrConflict marks a request that clashes with the current state.
	ErrConflict error = sentinel(EConflict)
	// ErrUnauthorized marks a sender that could not be verified.
	ErrUnauthorized error = sentinel(EUnauthorized)
	// ErrUnavailable marks a dependency (the database) that cannot be
	// reached; the caller should retry later. Nothing was stored.
	ErrUnavailable error = sentinel(EUnavailable)
	// ErrPermanent marks a delivery failure that retrying cannot fix (the
	// chat was deleted, the bot was blocked).
	ErrPermanent error = sentinel(EPermanent)
)

// Errorf returns an *Error with the code and a formatted message.
func Errorf(code Code, format string, args ...any) error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Invalidf returns an EInvalid error whose message is the reason shown to
// whoever sent the input.
func Invalidf(format string, args ...any) error { return Errorf(EInvalid, format, args...) }

// ErrorCode returns the code of the first *Error in err's chain: EInternal
// when there is none, "" for a nil error.
func ErrorCode(err error) Code {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EInternal
}

// ErrorMessage returns the message of the first *Error in err's chain,
// which is fit to show the user, or "" when there is none.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return ""
}

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
