package main

import (
	"context"
	"errors"
	"fmt"
	"io"
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
	keys, err := google.ParseKeys(cfg.EncryptionKey, cfg.EncryptionOldKeys)
	if err != nil {
		return nil, err
	}
	g, err := google.New(google.Config{
		ClientID: cfg.GoogleClientID, ClientSecret: cfg.GoogleClientSecret, PublicURL: cfg.PublicURL,
		Endpoint: cfg.GoogleEndpoint, Keys: keys, Store: st, People: st, PollInterval: cfg.GooglePollInterval,
		GmailTopic: cfg.GmailTopic, PushAudience: cfg.GmailPushAudience, PushServiceAccount: cfg.GmailPushServiceAccount, Log: log.With("component", "google"), Visible: visible,
	})
	if err != nil {
		return nil, err
	}
	if cfg.GmailTopic != "" && cfg.PublicURL == "" {
		log.Warn("HEARTH_GMAIL_PUBSUB_TOPIC is set without HEARTH_PUBLIC_URL: Gmail is polled, not pushed")
	}
	if cfg.PublicURL == "" {
		log.Info("google is on without HEARTH_PUBLIC_URL: no push notifications, calendars are polled", "every", cfg.GooglePollInterval, "redirect_uri", g.RedirectURL())
	} else {
		log.Info("google is on", "redirect_uri", g.RedirectURL())
	}
	return g, nil
}

// KeysRotate re-seals every stored Google token under HEARTH_ENCRYPTION_KEY,
// opening each under it or one of HEARTH_ENCRYPTION_OLD_KEYS, in one
// transaction: a token no key opens aborts the rotation with nothing written.
func KeysRotate(ctx context.Context, cfg Config, stdout io.Writer) error {
	if cfg.EncryptionKey == "" {
		return errors.New("keys rotate: HEARTH_ENCRYPTION_KEY is not set")
	}
	keys, err := google.ParseKeys(cfg.EncryptionKey, cfg.EncryptionOldKeys)
	if err != nil {
		return err
	}
	st, err := store.Open(ctx, cfg.DatabaseURL, store.Config{MaxConns: 2})
	if err != nil {
		return err
	}
	defer st.Close()
	resealed, total, err := st.ResealGoogleTokens(ctx, keys.Reseal)
	if err != nil {
		return fmt.Errorf("keys rotate (nothing was changed): %w", err)
	}
	fmt.Fprintf(stdout, "re-sealed %d of %d stored tokens under the current key (%d already were)\n", resealed, total, total-resealed)
	return nil
}
