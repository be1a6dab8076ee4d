package pipeline

import (
	"context"
	"fmt"
	"github.com/hearthbot/hearth"
	"strings"
)

// TimezoneSetter stores a user's IANA zone.
type TimezoneSetter interface {
	SetTimezone(ctx context.Context, userID int64, tz string) error
}

// RequireTimezone answers turns of users whose zone is unknown by asking
// for it (and storing it once they name one) and passes everyone else to
// next. Every date Hearth resolves is in the user's zone, never the
// host's (ARCHITECTURE.md, invariant 6).
func RequireTimezone(store TimezoneSetter, next Handler) Handler {
	return HandlerFunc(func(ctx context.Context, t Turn) (Answer, error) {
		if t.User.Timezone != "" {
			return next.HandleTurn(ctx, t)
		}
		name := strings.TrimSpace(t.Event.Text)
		if t.Event.Kind == hearth.KindMessage {
			if _, err := LoadTimezone(name); err == nil {
				if err := store.SetTimezone(ctx, t.User.ID, name); err != nil {
					return Answer{}, fmt.Errorf("set timezone: %w", err)
				}
				return Reply(fmt.Sprintf("Thanks! I'll use %s for your dates and times. What can I do for you?", name)), nil
			}
		}
		return Reply("Before we start: which time zone are you in? Reply with its name, like Europe/Berlin or America/New_York, so the dates and times I note mean what you mean."), nil
	})
}
