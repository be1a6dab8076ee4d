package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Policy is the robustness policy every provider follows. The zero value is
// a valid configuration.
type Policy struct {
	// Timeout bounds one model call (one HTTP request). A call that times
	// out is not retried: the caller has a reply to send and should fall
	// back instead. Defaults to 30s.
	Timeout time.Duration
	// MaxAttempts is how many times one request is sent when the provider
	// answers 429 or 5xx or cannot be reached. Defaults to 3.
	MaxAttempts int
	// BaseDelay is the wait before the first retry; it doubles with every
	// further retry. Defaults to 500ms.
	BaseDelay time.Duration
	// MaxDelay caps the backoff and is the longest Retry-After honoured: a
	// provider asking for a longer wait fails at once, so a Chain can try the
	// next provider instead of stalling a reply. Defaults to 10s.
	MaxDelay time.Duration
	// Sleep waits for d or until ctx is done, whichever is first, and
	// returns ctx's error in the second case. Tests inject one that records
	// d and returns at once. Defaults to a timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now tells the time, for Retry-After dates and Usage.Latency. Defaults
	// to time.Now.
	Now func() time.Time
}

func (p Policy) timeout() time.Duration {
	if p.Timeout > 0 {
		return p.Timeout
	}
	return 30 * time.Second
}

func (p Policy) maxAttempts() int {
	if p.MaxAttempts > 0 {
		return p.MaxAttempts
	}
	return 3
}

func (p Policy) baseDelay() time.Duration {
	if p.BaseDelay > 0 {
		return p.BaseDelay
	}
	return 500 * time.Millisecond
}

func (p Policy) maxDelay() time.Duration {
	if p.MaxDelay > 0 {
		return p.MaxDelay
	}
	return 10 * time.Second
}

func (p Policy) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

func (p Policy) sleep(ctx context.Context, d time.Duration) error {
	if p.Sleep != nil {
		return p.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// httpFailure is what a provider's SDK error says about the HTTP exchange.
// ok is false when no response arrived (connection refused, reset).
type httpFailure struct {
	status int
	header http.Header
	ok     bool
}

// retry sends one request through call until it succeeds, fails in a way
// retrying cannot fix, or runs out of attempts. inspect extracts the HTTP
// status from the provider's errors. The Usage counts every attempt.
func (p Policy) retry(ctx context.Context, call func(context.Context) (Response, error), inspect func(error) httpFailure) (Response, Usage, error) {
	var used Usage
	for attempt := 1; ; attempt++ {
		used.Calls++
		resp, err := p.once(ctx, call)
		if err == nil {
			used.InputTokens += resp.Usage.InputTokens
			used.OutputTokens += resp.Usage.OutputTokens
			return resp, used, nil
		}
		var pe *permanentError
		if ctx.Err() != nil || errors.Is(err, ErrTimeout) || errors.As(err, &pe) {
			return Response{}, used, err
		}
		f := inspect(err)
		kind, retryable := classify(f)
		if kind != nil {
			err = fmt.Errorf("%w: %w", kind, err)
		}
		if !retryable || attempt >= p.maxAttempts() {
			if retryable {
				err = fmt.Errorf("after %d attempts: %w", attempt, err)
			}
			return Response{}, used, err
		}
		wait := p.baseDelay() << (attempt - 1)
		if wait <= 0 || wait > p.maxDelay() { // <= 0: shifted past int64
			wait = p.maxDelay()
		}
		if d, ok := retryAfter(f.header, p.now()); ok {
			if d > p.maxDelay() {
				return Response{}, used, fmt.Errorf("provider asks to wait %s, more than %s: %w", d, p.maxDelay(), err)
			}
			wait = d
		}
		// Deadlines are wall-clock time whatever Now says, hence time.Until.
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < wait {
			return Response{}, used, fmt.Errorf("no time left to wait %s: %w", wait, err)
		}
		if serr := p.sleep(ctx, wait); serr != nil {
			return Response{}, used, fmt.Errorf("waiting to retry: %w", serr)
		}
	}
}

// once makes one call under the per-call timeout and turns running out of
// time into ErrTimeout. A caller that cancelled gets its own error back.
func (p Policy) once(ctx context.Context, call func(context.Context) (Response, error)) (Response, error) {
	cctx, cancel := context.WithTimeout(ctx, p.timeout())
	defer cancel()
	resp, err := call(cctx)
	if err == nil {
		return resp, nil
	}
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		return Response{}, fmt.Errorf("%w: %w", ctx.Err(), err)
	case cctx.Err() != nil: // our timeout or the caller's deadline
		return Response{}, fmt.Errorf("%w: %w", ErrTimeout, err)
	}
	return Response{}, err
}

// classify maps an HTTP outcome to a sentinel and whether to retry. Other
// 4xx answers (bad request, bad key, unknown model) are returned without a
// sentinel: the same request would fail the same way.
func classify(f httpFailure) (kind error, retryable bool) {
	switch {
	case !f.ok:
		return ErrUnavailable, true
	case f.status == http.StatusTooManyRequests:
		return ErrRateLimited, true
	case f.status == http.StatusRequestTimeout || f.status >= 500:
		return ErrUnavailable, true
	}
	return nil, false
}

// retryAfter reads how long the provider asked us to wait: Retry-After in
// seconds or as an HTTP date, or OpenAI's retry-after-ms.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if h == nil {
		return 0, false
	}
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.Atoi(v); err == nil {
		if s < 0 {
			return 0, false
		}
		// Clamp absurd values before multiplying, so they cannot overflow
		// into a short wait; anything this long exceeds MaxDelay anyway.
		return time.Duration(min(s, 1<<20)) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// permanentError marks a failure that sending the request again cannot fix:
// a request that could not be built, an answer that could not be read.
type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

func permanent(err error) error { return &permanentError{err: err} }
