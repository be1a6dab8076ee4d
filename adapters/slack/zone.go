package slack

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/slack-go/slack"

	"github.com/hearthbot/hearth/pipeline"
)

var _ pipeline.ProfileLookup = (*Adapter)(nil)

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

// UserProfile returns what Slack has for userID (users.info): the IANA
// zone (field tz, "" when none) and the name (display name, else real
// name, else handle). A rate limit (429) is waited out once when its
// Retry-After is short, bounded by ctx. It is called by
// pipeline.ProfileFromChannel while a user's zone is unknown, so known
// users never cost a call (ARCHITECTURE.md, invariant 6).
func (a *Adapter) UserProfile(ctx context.Context, userID string) (pipeline.Profile, error) {
	if userID == "" {
		return pipeline.Profile{}, errors.New("slack users.info: a user id is required")
	}
	if a.misses.missed(userID, a.cfg.Now()) {
		return pipeline.Profile{}, nil
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
			return pipeline.Profile{}, fmt.Errorf("slack users.info %s: %w", userID, ctx.Err())
		case <-t.C:
		}
	}
	if err != nil {
		return pipeline.Profile{}, fmt.Errorf("slack users.info %s: %w", userID, err)
	}
	p := pipeline.Profile{Timezone: u.TZ, Name: cmp.Or(u.Profile.DisplayName, u.RealName, u.Profile.RealName, u.Name)}
	if p.Timezone == "" {
		a.misses.remember(userID, a.cfg.Now().Add(zoneMissTTL))
		return p, nil
	}
	if _, err := pipeline.LoadTimezone(p.Timezone); err != nil {
		// A zone Go cannot load is no zone: keep the name, ask the user,
		// and don't ask Slack again within the hour.
		a.misses.remember(userID, a.cfg.Now().Add(zoneMissTTL))
		p.Timezone = ""
	}
	return p, nil
}
