package llm

import "errors"

// Sentinel errors callers act on, usually by falling back to the next
// provider in a Chain or to the offline engine. Errors returned by this
// package wrap at most one of them (test with errors.Is); errors that wrap
// none are configuration or request mistakes that retrying cannot fix.
var (
	// ErrTimeout marks a model call that took longer than its timeout or
	// the caller's deadline.
	ErrTimeout = errors.New("model timed out")
	// ErrRateLimited marks a provider that kept answering 429, or asked us
	// to wait longer than Policy.MaxDelay.
	ErrRateLimited = errors.New("model rate limited")
	// ErrUnavailable marks a provider that kept failing (5xx, connection
	// errors) or that has nothing configured to answer with.
	ErrUnavailable = errors.New("model unavailable")
	// ErrInvalidOutput marks an answer that did not match the requested
	// schema even after one repair attempt.
	ErrInvalidOutput = errors.New("model output invalid")
)

// Status returns the HTTP status a provider answered a failed request
// with, or 0 when no answer arrived (connection refused, timeout) or err
// is not a provider's. Diagnostics (bot llm check) use it to name the
// setting to fix: 401 and 403 are credentials, 404 a model or URL.
func Status(err error) int {
	if f := inspectOpenAI(err); f.ok {
		return f.status
	}
	if f := inspectAWS(err); f.ok {
		return f.status
	}
	return 0
}
