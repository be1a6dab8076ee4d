package main

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	slackadapter "github.com/hearthbot/hearth/adapters/slack"
	"github.com/hearthbot/hearth/adapters/telegram"
	"github.com/hearthbot/hearth/adapters/webchat"
	"github.com/hearthbot/hearth/integrations/google"
	"github.com/hearthbot/hearth/store"
)

// routes is every HTTP endpoint Hearth serves: probes and metrics, the
// platforms' webhooks that are configured, and the web chat.
func (a *App) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("ok\n")) //nolint:errcheck // client went away
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := a.Store.Ready(ctx); err != nil {
			http.Error(w, "not ready: "+readyReason(err), http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("ready\n")) //nolint:errcheck // client went away
	})
	mux.Handle("GET /metrics", promhttp.HandlerFor(a.Registry, promhttp.HandlerOpts{}))
	if a.Telegram != nil && a.Config.PublicURL != "" {
		mux.Handle("POST "+telegram.WebhookPath, a.Telegram)
	}
	if a.Slack != nil {
		h := a.Slack.Handler()
		for _, p := range []string{slackadapter.EventsPath, slackadapter.InteractionsPath, slackadapter.CommandsPath} {
			mux.Handle("POST "+p, h)
		}
	}
	if a.Google != nil {
		mux.HandleFunc("GET "+google.CallbackPath, a.Google.Callback)
		mux.HandleFunc("POST "+google.WebhookPath, a.Google.Webhook)
		if a.Google.GmailPushURL() != "" {
			mux.HandleFunc("POST "+google.GmailPushPath, a.Gmail.PushWebhook)
		}
	}
	if a.Config.Webchat {
		wcfg := webchat.Config{Inbox: a.Inbox, Contacts: a.Store, Transcript: a.Store, Names: a.Store, Hub: a.Hub, Logger: a.Log}
		if a.Google != nil {
			wcfg.Google = a.Google // the Connect Google button
		}
		a.signInRoutes(mux, &wcfg)
		mux.Handle("/", webchat.New(wcfg))
	}
	return mux
}

// readyReason is the probe's answer; details stay in the logs.
func readyReason(err error) string {
	if errors.Is(err, store.ErrNotReady) {
		return "migrations pending"
	}
	return "database unreachable"
}
