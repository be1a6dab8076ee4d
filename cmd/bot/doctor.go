package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"strings"
	"time"

	slackadapter "github.com/hearthbot/hearth/adapters/slack"
	"github.com/hearthbot/hearth/adapters/telegram"
	"github.com/hearthbot/hearth/integrations/google"
	"github.com/hearthbot/hearth/store"
)

// doctorReport collects the checks' lines and counts the problems.
type doctorReport struct {
	out      io.Writer
	problems int
}

func (r *doctorReport) ok(what, detail string) { fmt.Fprintf(r.out, "%-13s ok    %s\n", what, detail) }

func (r *doctorReport) warn(what, detail, fix string) {
	fmt.Fprintf(r.out, "%-13s note  %s\n%-13s       → %s\n", what, detail, "", fix)
}

func (r *doctorReport) fail(what, detail, fix string) {
	r.problems++
	fmt.Fprintf(r.out, "%-13s FIX   %s\n%-13s       → %s\n", what, detail, "", fix)
}

// requiredExtensions are what the migrations create; the server must
// have them to install.
var requiredExtensions = []string{"vector", "pg_trgm", "cube", "earthdistance"}

// Doctor checks the configuration, the database and each configured
// service, and prints what to fix (`bot doctor`). It changes nothing.
func Doctor(ctx context.Context, cfg Config, out io.Writer) error {
	r := &doctorReport{out: out}
	r.ok("config", "every setting is valid")
	doctorDatabase(ctx, cfg, r)
	doctorWebchat(cfg, r)
	quiet := slog.New(slog.DiscardHandler)
	if cfg.TelegramToken != "" {
		tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		a, err := telegram.New(tctx, telegram.Config{Token: cfg.TelegramToken, APIURL: cfg.TelegramAPIURL, WebhookSecret: cfg.TelegramWebhookSecret, Logger: quiet})
		cancel()
		switch {
		case err != nil:
			r.fail("telegram", err.Error(), "check TELEGRAM_BOT_TOKEN (from @BotFather) and TELEGRAM_API_URL")
		case cfg.PublicURL == "":
			r.ok("telegram", "@"+a.Username()+", by long polling (one instance only; set HEARTH_PUBLIC_URL for the webhook)")
		default:
			r.ok("telegram", "@"+a.Username()+", webhook at "+strings.TrimRight(cfg.PublicURL, "/")+telegram.WebhookPath)
		}
	}
	if cfg.SlackBotToken != "" {
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		a, err := slackadapter.New(sctx, slackadapter.Config{BotToken: cfg.SlackBotToken, SigningSecret: cfg.SlackSigningSecret,
			AppToken: cfg.SlackAppToken, APIURL: cfg.SlackAPIURL, Logger: quiet})
		cancel()
		if err != nil {
			r.fail("slack", err.Error(), "check SLACK_BOT_TOKEN (xoxb-…, from the app's OAuth page) and SLACK_API_URL")
		} else {
			r.ok("slack", "bot user "+a.BotUserID())
		}
	}
	if len(cfg.providerNames()) > 0 || cfg.embeddings() != "" {
		var buf strings.Builder
		err := LLMCheck(ctx, cfg, &buf)
		for _, line := range strings.Split(strings.TrimRight(buf.String(), "\n"), "\n") {
			fmt.Fprintf(out, "%-13s       %s\n", "models", line)
		}
		if err != nil {
			r.fail("models", err.Error(), "see the lines above; Hearth answers offline meanwhile")
		} else {
			r.ok("models", "every configured model answered")
		}
	} else {
		r.ok("models", "none configured: offline understanding (set HEARTH_LLM for a model)")
	}
	doctorGmailPush(cfg, r)
	if cfg.Transcribe != "none" {
		r.ok("voice", cfg.Transcribe+" transcription configured (not tried: it needs audio)")
	}
	if r.problems > 0 {
		fmt.Fprintf(out, "\n%d problem(s): fix the lines marked FIX, then run bot doctor again.\n", r.problems)
		return fmt.Errorf("doctor: %d problem(s)", r.problems)
	}
	fmt.Fprintln(out, "\nAll good.")
	return nil
}

func doctorDatabase(ctx context.Context, cfg Config, r *doctorReport) {
	where := "the database server"
	if u, err := url.Parse(cfg.DatabaseURL); err == nil && u.Host != "" {
		where = u.Host
	}
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	st, err := store.Open(dctx, cfg.DatabaseURL, store.Config{MaxConns: 2, Inspect: true})
	if err == nil {
		defer st.Close()
		err = st.Ping(dctx)
	}
	if err != nil {
		r.fail("database", "cannot reach "+where+": "+err.Error(),
			"start PostgreSQL or correct DATABASE_URL (make run and deploy/bootstrap-db.sh set one up on this machine)")
		return
	}
	version, err := st.ServerVersion(dctx)
	if err != nil {
		r.fail("database", err.Error(), "check that DATABASE_URL's role may read the server settings")
		return
	}
	current, err := st.MigrationsCurrent(dctx)
	switch {
	case err != nil:
		r.fail("database", "PostgreSQL "+version+" at "+where+"; migrations unknown: "+err.Error(), "run bot migrate")
	case !current:
		r.fail("database", "PostgreSQL "+version+" at "+where+"; migrations pending", "run bot migrate (bot serve migrates at start too)")
	default:
		r.ok("database", "PostgreSQL "+version+" at "+where+", migrations current")
	}
	exts, err := st.Extensions(dctx, requiredExtensions...)
	if err != nil {
		r.fail("extensions", err.Error(), "check that DATABASE_URL's role may read pg_available_extensions")
		return
	}
	var missing []string
	for _, e := range exts {
		switch {
		case e.Name == "vector" && e.Available == "":
			r.fail("pgvector", "the server has no pgvector extension",
				"install it on the database server: apt install postgresql-NN-pgvector, the pgvector/pgvector image, or enable it on your managed PostgreSQL (deploy/bootstrap-db.sh does it locally)")
		case e.Name == "vector":
			detail := "pgvector " + e.Available + " available"
			if e.Installed != "" {
				detail = "pgvector " + e.Installed + " installed"
			}
			r.ok("pgvector", detail)
		case e.Available == "":
			missing = append(missing, e.Name)
		}
	}
	if len(missing) > 0 {
		r.fail("extensions", "missing on the server: "+strings.Join(missing, ", "), "install PostgreSQL's contrib extensions (postgresql-contrib) on the database server")
	} else {
		r.ok("extensions", "pg_trgm, cube, earthdistance available")
	}
}

func doctorWebchat(cfg Config, r *doctorReport) {
	if cfg.TLSCert != "" {
		if _, err := tls.LoadX509KeyPair(cfg.TLSCert, cfg.TLSKey); err != nil {
			r.fail("tls", err.Error(), "HEARTH_TLS_CERT and HEARTH_TLS_KEY must name a readable PEM certificate and its key")
		} else {
			r.ok("tls", "Hearth terminates TLS with "+cfg.TLSCert)
		}
	}
	switch {
	case !cfg.Webchat:
		r.ok("web chat", "off (HEARTH_WEBCHAT=false)")
	case cfg.DevSignin:
		r.warn("web chat", "development sign-in on "+cfg.HTTPAddr+": anyone on this machine can use any name",
			"for a household, unset HEARTH_DEV_SIGNIN and sign in with passkeys (bot user add NAME prints a first link)")
	case cfg.PublicURL == "":
		r.warn("web chat", "real sign-in at "+localURL(cfg)+": passkeys work at localhost only",
			"set HEARTH_PUBLIC_URL (https) to sign in from other devices")
	case strings.HasPrefix(cfg.PublicURL, "http://") && cfg.TLSCert == "":
		r.fail("web chat", "HEARTH_PUBLIC_URL is plain http: browsers offer passkeys only over https and cookies travel in clear",
			"put a TLS proxy in front (deploy/Caddyfile) and use an https HEARTH_PUBLIC_URL, or set HEARTH_TLS_CERT/KEY")
	default:
		r.ok("web chat", "real sign-in (passkeys, sign-in links) at "+cfg.PublicURL)
	}
}

// doctorGmailPush prints the push endpoint to give the Pub/Sub
// subscription of HEARTH_GMAIL_PUBSUB_TOPIC (its token is derived from
// HEARTH_ENCRYPTION_KEY, so only the server can print it).
func doctorGmailPush(cfg Config, r *doctorReport) {
	if cfg.GmailTopic == "" {
		if cfg.GmailPushAudience != "" {
			r.warn("gmail push", "HEARTH_GMAIL_PUSH_AUDIENCE is set without HEARTH_GMAIL_PUBSUB_TOPIC: there are no pushes to check",
				"set HEARTH_GMAIL_PUBSUB_TOPIC, or drop the push authentication settings")
		}
		return
	}
	keys, err := google.ParseKeys(cfg.EncryptionKey, cfg.EncryptionOldKeys)
	switch {
	case cfg.GoogleClientID == "" || err != nil:
		r.warn("gmail push", "HEARTH_GMAIL_PUBSUB_TOPIC is set, but Google is off",
			"set HEARTH_GOOGLE_CLIENT_ID, HEARTH_GOOGLE_CLIENT_SECRET and HEARTH_ENCRYPTION_KEY")
	case cfg.PublicURL == "":
		r.warn("gmail push", "HEARTH_GMAIL_PUBSUB_TOPIC is set without HEARTH_PUBLIC_URL: Gmail is polled, not pushed",
			"set HEARTH_PUBLIC_URL, then run bot doctor again for the push endpoint")
	default:
		r.ok("gmail push", "mailboxes are watched on "+cfg.GmailTopic+"; give its push subscription the endpoint")
		fmt.Fprintf(r.out, "%-13s       %s\n", "", google.GmailPushEndpoint(cfg.PublicURL, keys))
		if cfg.GmailPushAudience != "" {
			fmt.Fprintf(r.out, "%-13s       %s\n", "", "with authentication: --push-auth-service-account="+cfg.GmailPushServiceAccount+
				" --push-auth-token-audience="+cfg.GmailPushAudience)
		}
	}
}
