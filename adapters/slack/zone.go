package slack

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/slack-go/slack"

	"github.com/hearthbot/hearth/pipeline"
)

var _ pipeline.ZoneLookup = (*Adapter)(nil)

// maxRateLimitWait is the longest users.info's Retry-After is waited out
// (once) within a turn; a longer one fails the lookup, and the user is
// asked for their zone instead of kept waiting.
const maxRateLimitWait = 5 * time.Second

// zoneMissTTL is how long a user Slack has no zone for is not asked about
// again, so a user who has not answered the time-zone question yet does
// not cost a users.info call every turn.
const zoneMissTTL = time.Hour

// zoneMisses remembers users without a Slack time zone.
type zoneMisses struct {
	mu    sync.Mutex
	until map[string]time.Time
}

func (m *zoneMisses) missed(user string, now time.Time) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	until, ok := m.until[user]
	if ok && now.After(until) {
		delete(m.until, user)
		return false
	}
	return ok
}

func (m *zoneMisses) remember(user string, until time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.until == nil {
		m.until = map[string]time.Time{}
	}
	m.until[user] = until
}

// UserTimezone returns the IANA zone Slack has for userID (users.info,
// field tz), or "" when Slack has none. A rate limit (429) is waited out
// once when its Retry-After is short, bounded by ctx. It is called by
// pipeline.TimezoneFromChannel while a user's zone is unknown, so known
// users never cost a call (ARCHITECTURE.md, invariant 6).
func (a *Adapter) UserTimezone(ctx context.Context, userID string) (string, error) {
	if userID == "" {
		return "", errors.New("slack users.info: a user id is required")
	}
	if a.misses.missed(userID, a.cfg.Now()) {
		return "", nil
	}
	var u *slack.User
	var err error
	for attempt := 0; ; attempt++ {
		u, err = a.api.GetUserInfoContext(ctx, userID)
		var limited *slack.RateLimitedError
		if !errors.As(err, &limited) || attempt > 0 || limited.RetryAfter > maxRateLimitWait {
			break
		}
		t := time.NewTimer(limited.RetryAfter)
		select {
		case <-ctx.Done():
			t.Stop()
			return "", fmt.Errorf("slack users.info %s: %w", userID, ctx.Err())
		case <-t.C:
		}
	}
	if err != nil {
		return "", fmt.Errorf("slack users.info %s: %w", userID, err)
	}
	if u.TZ == "" {
		a.misses.remember(userID, a.cfg.Now().Add(zoneMissTTL))
		return "", nil
	}
	if _, err := pipeline.LoadTimezone(u.TZ); err != nil {
		return "", fmt.Errorf("slack users.info %s: %w", userID, err)
	}
	return u.TZ, nil
}
