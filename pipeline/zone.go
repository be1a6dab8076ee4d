package pipeline

import (
	"context"
	"fmt"
	"github.com/hearthbot/hearth"
	"log/slog"
	"strings"
)

// Profile is what a platform knows of one of its users.
type Profile struct {
	// Timezone is the user's IANA zone there, "" when it has none.
	Timezone string
	// Name is what the user is called there ("Ann Lee"), "" when unknown.
	Name string
}

// ProfileLookup tells what a platform knows of one of its users.
type ProfileLookup interface {
	UserProfile(ctx context.Context, userKey string) (Profile, error)
}

// ProfileStore finds a user's platform id and stores what the platform
// told of them.
type ProfileStore interface {
	TimezoneSetter
	SetDisplayName(ctx context.Context, userID int64, name string) error
	IdentityKey(ctx context.Context, userID int64, ch hearth.Channel) (string, error)
}

// ProfileConfig is what ProfileFromChannel needs.
type ProfileConfig struct {
	// Store finds identities and stores zones and names. Required.
	Store ProfileStore
	// Lookup returns the profile source of a channel (Slack's
	// users.info); false for channels that have none.
	Lookup func(hearth.Channel) (ProfileLookup, bool)
	// Log records lookups that failed. Defaults to discarding.
	Log *slog.Logger
}

// ProfileFromChannel fills in what a channel knows of a user whose zone is
// unknown (a first contact): the zone (Slack's profile time zone), so the
// time-zone question of RequireTimezone is only asked when no channel can
// answer it, and the name, so a Slack user is greeted and signs emails by
// their name rather than a placeholder. The lookup happens in the turn,
// never at ingress, and only while the user's zone is unknown: once
// stored, turns pass straight through. A failed lookup is not a failed
// turn: the user is asked.
func ProfileFromChannel(cfg ProfileConfig, next Handler) Handler {
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return HandlerFunc(func(ctx context.Context, t Turn) (Answer, error) {
		if t.User.Timezone != "" || cfg.Lookup == nil {
			return next.HandleTurn(ctx, t)
		}
		lookup, ok := cfg.Lookup(t.Event.Channel)
		if !ok || lookup == nil {
			return next.HandleTurn(ctx, t)
		}
		p, err := channelProfile(ctx, cfg.Store, lookup, t)
		if err != nil {
			log.WarnContext(ctx, "profile lookup failed; asking the user for their zone", "channel", t.Event.Channel, "user_id", t.User.ID, "error", err)
			return next.HandleTurn(ctx, t)
		}
		if p.Name != "" && p.Name != t.User.DisplayName {
			if err := cfg.Store.SetDisplayName(ctx, t.User.ID, p.Name); err != nil {
				return Answer{}, fmt.Errorf("set name from %s: %w", t.Event.Channel, err)
			}
			t.User.DisplayName = p.Name
		}
		if p.Timezone != "" {
			if err := cfg.Store.SetTimezone(ctx, t.User.ID, p.Timezone); err != nil {
				return Answer{}, fmt.Errorf("set timezone from %s: %w", t.Event.Channel, err)
			}
			t.User.Timezone = p.Timezone
		}
		return next.HandleTurn(ctx, t)
	})
}

// maxProfileName bounds a platform's name for a user, as the web chat
// bounds a typed one.
const maxProfileName = 64

func channelProfile(ctx context.Context, store ProfileStore, lookup ProfileLookup, t Turn) (Profile, error) {
	key, err := store.IdentityKey(ctx, t.User.ID, t.Event.Channel)
	if err != nil {
		return Profile{}, err
	}
	p, err := lookup.UserProfile(ctx, key)
	if err != nil {
		return Profile{}, err
	}
	if p.Timezone != "" {
		if _, err := LoadTimezone(p.Timezone); err != nil {
			// A zone Go cannot load is no zone: the user is asked.
			p.Timezone = ""
		}
	}
	p.Name = strings.Join(strings.Fields(p.Name), " ")
	if len([]rune(p.Name)) > maxProfileName || strings.ContainsFunc(p.Name, func(r rune) bool { return r < ' ' }) {
		p.Name = ""
	}
	return p, nil
}
