package main

import (
	"log/slog"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/integrations/google"
	"github.com/hearthbot/hearth/store"
)

// openGoogle wires the Google integration, or returns nil (with one log
// line saying why) when it is not configured: Hearth then keeps the
// built-in calendar for everyone.
// visible says which channels show messages by committing them (as for
// the scheduler's).
func openGoogle(cfg Config, st *store.Store, log *slog.Logger, visible func(hearth.Channel) bool) (*google.Google, error) {
	switch {
	case cfg.GoogleClientID == "" && cfg.GoogleClientSecret == "":
		log.Info("google is off: set HEARTH_GOOGLE_CLIENT_ID, HEARTH_GOOGLE_CLIENT_SECRET and HEARTH_ENCRYPTION_KEY to connect Google Calendar")
		return nil, nil
	case cfg.GoogleClientID == "" || cfg.GoogleClientSecret == "":
		log.Warn("google is off: HEARTH_GOOGLE_CLIENT_ID and HEARTH_GOOGLE_CLIENT_SECRET must both be set")
		return nil, nil
	case cfg.EncryptionKey == "":
		log.Warn("google is off: HEARTH_ENCRYPTION_KEY is not set, and Google tokens are only stored encrypted (make one with `openssl rand -base64 32`)")
		return nil, nil
	}
	keys, err := google.ParseKey(cfg.EncryptionKey)
	if err != nil {
		return nil, err
	}
	g, err := google.New(google.Config{
		ClientID: cfg.GoogleClientID, ClientSecret: cfg.GoogleClientSecret, PublicURL: cfg.PublicURL,
		Endpoint: cfg.GoogleEndpoint, Keys: keys, Store: st, People: st, PollInterval: cfg.GooglePollInterval,
		Log: log.With("component", "google"), Visible: visible,
	})
	if err != nil {
		return nil, err
	}
	if cfg.PublicURL == "" {
		log.Info("google is on without HEARTH_PUBLIC_URL: no push notifications, calendars are polled", "every", cfg.GooglePollInterval, "redirect_uri", g.RedirectURL())
	} else {
		log.Info("google is on", "redirect_uri", g.RedirectURL())
	}
	return g, nil
}
