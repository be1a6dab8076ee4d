package pipeline

import (
	"context"
	"fmt"
	"log/slog"
)

// ZoneLookup tells the IANA zone a platform has for one of its users
// ("" when it has none).
type ZoneLookup interface {
	UserTimezone(ctx context.Context, userKey string) (string, error)
}

// ZoneStore finds a user's platform id and stores zones.
type ZoneStore interface {
	TimezoneSetter
	IdentityKey(ctx context.Context, userID int64, ch Channel) (string, error)
}

// ZoneConfig is what TimezoneFromChannel needs.
type ZoneConfig struct {
	// Store finds identities and stores zones. Required.
	Store ZoneStore
	// Lookup returns the zone source of a channel (Slack's users.info);
	// false for channels that have none.
	Lookup func(Channel) (ZoneLookup, bool)
	// Log records lookups that failed. Defaults to discarding.
	Log *slog.Logger
}

// TimezoneFromChannel fills in the zone of a user whose zone is unknown
// from the channel, when it knows one (Slack's profile time zone), so the
// time-zone question of RequireTimezone is only asked when no channel can
// answer it. The lookup happens in the turn, never at ingress, and only
// while the user's zone is unknown: once stored, turns pass straight
// through. A failed lookup is not a failed turn: the user is asked.
func TimezoneFromChannel(cfg ZoneConfig, next Handler) Handler {
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return HandlerFunc(func(ctx context.Context, t Turn) ([]Outbound, error) {
		if t.User.Timezone != "" || cfg.Lookup == nil {
			return next.HandleTurn(ctx, t)
		}
		lookup, ok := cfg.Lookup(t.Event.Channel)
		if !ok || lookup == nil {
			return next.HandleTurn(ctx, t)
		}
		zone, err := channelZone(ctx, cfg.Store, lookup, t)
		if err != nil {
			log.WarnContext(ctx, "time zone lookup failed; asking the user", "channel", t.Event.Channel, "user_id", t.User.ID, "error", err)
			return next.HandleTurn(ctx, t)
		}
		if zone != "" {
			if err := cfg.Store.SetTimezone(ctx, t.User.ID, zone); err != nil {
				return nil, fmt.Errorf("set timezone from %s: %w", t.Event.Channel, err)
			}
			t.User.Timezone = zone
		}
		return next.HandleTurn(ctx, t)
	})
}

func channelZone(ctx context.Context, store ZoneStore, lookup ZoneLookup, t Turn) (string, error) {
	key, err := store.IdentityKey(ctx, t.User.ID, t.Event.Channel)
	if err != nil {
		return "", err
	}
	zone, err := lookup.UserTimezone(ctx, key)
	if err != nil || zone == "" {
		return "", err
	}
	if _, err := LoadTimezone(zone); err != nil {
		return "", err
	}
	return zone, nil
}
