package main

import (
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"reflect"
	"strings"
	"time"

	"github.com/caarlos0/env/v11"
	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth/integrations/google"
	"github.com/hearthbot/hearth/integrations/smtp"
	"github.com/hearthbot/hearth/memory"
)

// Config is Hearth's configuration, read from the environment. Every
// variable is documented in .env.example.
type Config struct {
	DatabaseURL string `env:"DATABASE_URL,required,notEmpty"`
	HTTPAddr    string `env:"HEARTH_HTTP_ADDR" envDefault:":8080"`
	// PublicURL is where the outside world reaches this server (webhooks).
	PublicURL string `env:"HEARTH_PUBLIC_URL"`
	Webchat   bool   `env:"HEARTH_WEBCHAT" envDefault:"true"`
	// DevSignin is name-only web chat sign-in, for development on a
	// loopback listener; otherwise the web chat needs real sign-in.
	DevSignin bool `env:"HEARTH_DEV_SIGNIN" envDefault:"false"`
	// TLSCert and TLSKey make Hearth terminate TLS itself.
	TLSCert string `env:"HEARTH_TLS_CERT"`
	TLSKey  string `env:"HEARTH_TLS_KEY"`

	LogLevel  slog.Level `env:"HEARTH_LOG_LEVEL" envDefault:"info"`
	LogFormat string     `env:"HEARTH_LOG_FORMAT" envDefault:"auto"`

	DBMaxConns        int32         `env:"HEARTH_DB_MAX_CONNS" envDefault:"0"`
	TurnWorkers       int           `env:"HEARTH_TURN_WORKERS" envDefault:"32"`
	DeliverWorkers    int           `env:"HEARTH_DELIVER_WORKERS" envDefault:"16"`
	ActionWorkers     int           `env:"HEARTH_ACTION_WORKERS" envDefault:"8"`
	FetchCooldown     time.Duration `env:"HEARTH_FETCH_COOLDOWN" envDefault:"5ms"`
	FetchPollInterval time.Duration `env:"HEARTH_FETCH_POLL_INTERVAL" envDefault:"100ms"`
	ShutdownTimeout   time.Duration `env:"HEARTH_SHUTDOWN_TIMEOUT" envDefault:"8s"`
	// ReplicaID names this replica to River, stable across restarts (the
	// pod name), so a restarted replica reclaims its unfinished jobs at
	// once. Must differ between replicas running at the same time.
	ReplicaID string `env:"HEARTH_REPLICA_ID"`
	// ReplicaStaleAfter is how long a replica may fail to heartbeat
	// before the others take its running jobs over; it stops working them
	// itself after 2/3 of it.
	ReplicaStaleAfter time.Duration `env:"HEARTH_REPLICA_STALE_AFTER" envDefault:"15s"`
	// OTLPEndpoint turns on OpenTelemetry traces (a span per turn and per
	// stage), exported over OTLP/HTTP; the exporter reads the other
	// OTEL_EXPORTER_OTLP_* variables itself.
	OTLPEndpoint string `env:"OTEL_EXPORTER_OTLP_ENDPOINT"`

	// Scheduler turns on the planner of reminders and briefings (the
	// leader runs it every SchedulerInterval); SchedulerGrace is how late
	// a missed occurrence may still fire.
	Scheduler         bool          `env:"HEARTH_SCHEDULER" envDefault:"true"`
	SchedulerInterval time.Duration `env:"HEARTH_SCHEDULER_INTERVAL" envDefault:"15s"`
	SchedulerGrace    time.Duration `env:"HEARTH_SCHEDULER_GRACE" envDefault:"6h"`
	SchedulerWorkers  int           `env:"HEARTH_SCHEDULER_WORKERS" envDefault:"8"`

	// UndoWindow is how long after an action "undo" still takes it back;
	// a forgotten fact's last copies are erased once it has passed. Zero
	// means action.DefaultUndoWindow.
	UndoWindow time.Duration `env:"HEARTH_UNDO_WINDOW" envDefault:"24h"`

	// Telegram is on when a bot token is set: by webhook when
	// HEARTH_PUBLIC_URL is set, by long polling otherwise.
	TelegramToken         string `env:"TELEGRAM_BOT_TOKEN"`
	TelegramWebhookSecret string `env:"TELEGRAM_WEBHOOK_SECRET"`
	TelegramAPIURL        string `env:"TELEGRAM_API_URL"`

	// Slack is on when a bot token is set: Events API over HTTP, and
	// Socket Mode too when an app token is set.
	SlackBotToken      string `env:"SLACK_BOT_TOKEN"`
	SlackSigningSecret string `env:"SLACK_SIGNING_SECRET"`
	SlackAppToken      string `env:"SLACK_APP_TOKEN"`
	SlackAPIURL        string `env:"SLACK_API_URL"`

	// Voice notes are transcribed by Transcribe: none, openai (any
	// OpenAI-compatible /v1/audio/transcriptions) or aws (Amazon
	// Transcribe Streaming).
	Transcribe string `env:"HEARTH_TRANSCRIBE" envDefault:"none"`
	// Addresses are placed by Geocoder: none, or aws (an Amazon Location
	// Service place index, AWSPlaceIndex, in GeocoderRegion or
	// AWS_REGION; GeocoderURL replaces its endpoint).
	Geocoder       string `env:"HEARTH_GEOCODER" envDefault:"none"`
	AWSPlaceIndex  string `env:"HEARTH_AWS_PLACE_INDEX"`
	GeocoderURL    string `env:"HEARTH_GEOCODER_URL"`
	GeocoderRegion string `env:"HEARTH_GEOCODER_REGION"`
	// WalkingDistances is the walking distance by age, "AGE:METRES,…,*:METRES".
	WalkingDistances   string `env:"HEARTH_WALKING_DISTANCES" envDefault:"6:400,9:800,12:1200,*:1500"`
	TranscribeURL      string `env:"HEARTH_TRANSCRIBE_URL"`
	TranscribeAPIKey   string `env:"HEARTH_TRANSCRIBE_API_KEY"`
	TranscribeModel    string `env:"HEARTH_TRANSCRIBE_MODEL"`
	TranscribeLanguage string `env:"HEARTH_TRANSCRIBE_LANGUAGE"`
	TranscribeRegion   string `env:"HEARTH_TRANSCRIBE_REGION"`
	// Models (issue 5): none keeps Hearth fully offline.
	LLM          string        `env:"HEARTH_LLM" envDefault:"none"`
	LLMFallback  []string      `env:"HEARTH_LLM_FALLBACK"`
	LLMTimeout   time.Duration `env:"HEARTH_LLM_TIMEOUT" envDefault:"10s"`
	LLMDeadline  time.Duration `env:"HEARTH_LLM_TURN_DEADLINE" envDefault:"2500ms"`
	LLMConfident float64       `env:"HEARTH_LLM_CONFIDENT" envDefault:"0.8"`
	// LLMSpokenConfident is LLMConfident for voice notes' transcripts.
	LLMSpokenConfident float64       `env:"HEARTH_LLM_SPOKEN_CONFIDENT" envDefault:"0.95"`
	LLMDailyTokens     int           `env:"HEARTH_LLM_DAILY_TOKENS" envDefault:"0"`
	LLMPrices          string        `env:"HEARTH_LLM_PRICES"`
	OpenAIBaseURL      string        `env:"OPENAI_BASE_URL"`
	OpenAIAPIKey       string        `env:"OPENAI_API_KEY"`
	OpenAIModel        string        `env:"OPENAI_MODEL"`
	OpenAIFast         string        `env:"OPENAI_FAST_MODEL"`
	OpenAIEmbed        string        `env:"OPENAI_EMBEDDING_MODEL" envDefault:"text-embedding-3-small"`
	BedrockRegion      string        `env:"BEDROCK_REGION"`
	BedrockURL         string        `env:"BEDROCK_ENDPOINT_URL"`
	BedrockModel       string        `env:"BEDROCK_MODEL_ID"`
	BedrockFast        string        `env:"BEDROCK_FAST_MODEL_ID"`
	BedrockEmbed       string        `env:"BEDROCK_EMBEDDING_MODEL_ID" envDefault:"amazon.titan-embed-text-v2:0"`
	Embeddings         string        `env:"HEARTH_EMBEDDINGS" envDefault:"none"`
	EmbeddingDims      int           `env:"HEARTH_EMBEDDING_DIMENSIONS" envDefault:"1024"`
	EmbedInterval      time.Duration `env:"HEARTH_EMBED_INTERVAL" envDefault:"1m"`

	// Google (issue 14) is on when the OAuth client and the encryption
	// key are set. GoogleEndpoint replaces every Google host (tests,
	// self-hosted fakes).
	GoogleClientID     string        `env:"HEARTH_GOOGLE_CLIENT_ID"`
	GoogleClientSecret string        `env:"HEARTH_GOOGLE_CLIENT_SECRET"`
	GoogleEndpoint     string        `env:"HEARTH_GOOGLE_ENDPOINT"`
	GooglePollInterval time.Duration `env:"HEARTH_GOOGLE_POLL_INTERVAL" envDefault:"15m"`
	// GmailTopic is the Pub/Sub topic Gmail pushes to
	// (projects/PROJECT/topics/TOPIC); with HEARTH_PUBLIC_URL, new mail is
	// pushed as well as polled.
	GmailTopic string `env:"HEARTH_GMAIL_PUBSUB_TOPIC"`
	// GmailPushAudience and GmailPushServiceAccount, set together, make a
	// Gmail push need the ID token Pub/Sub signs for that service account
	// and audience besides the URL's token; empty, the URL token alone.
	GmailPushAudience       string `env:"HEARTH_GMAIL_PUSH_AUDIENCE"`
	GmailPushServiceAccount string `env:"HEARTH_GMAIL_PUSH_SERVICE_ACCOUNT"`
	// EncryptionKey seals OAuth tokens at rest and keys every signature
	// (32 random bytes, base64).
	EncryptionKey string `env:"HEARTH_ENCRYPTION_KEY"`
	// EncryptionOldKeys are earlier encryption keys, comma-separated, kept
	// for reading only while `bot keys rotate` re-seals under the current one.
	EncryptionOldKeys string `env:"HEARTH_ENCRYPTION_OLD_KEYS"`
	// Mail (issue 15): with SMTPURL set, approved email is sent through
	// that server from SMTPFrom; without it, it stays in Hearth's outbox.
	SMTPURL  string `env:"HEARTH_SMTP_URL"`
	SMTPFrom string `env:"HEARTH_SMTP_FROM"`
	// SMTPTLS overrides the TLS client configuration of SMTP (tests trust
	// their fake server's certificate with it); not from the environment.
	SMTPTLS *tls.Config `env:"-"`
	// statements counts the database round trips (`bot bench`); nil in
	// `bot serve`.
	statements *statementCounter
}

// LoadConfig reads the environment. A missing or invalid variable is one
// line naming it.
func LoadConfig() (Config, error) {
	cfg, err := env.ParseAs[Config]()
	if err != nil {
		var agg env.AggregateError
		if errors.As(err, &agg) && len(agg.Errors) > 0 {
			err = agg.Errors[0]
		}
		// The library names the Go field; people set the variable.
		var perr env.ParseError
		if errors.As(err, &perr) {
			if f, ok := reflect.TypeFor[Config]().FieldByName(perr.Name); ok {
				name, _, _ := strings.Cut(f.Tag.Get("env"), ",")
				return Config{}, fmt.Errorf("config: %s: %w", name, perr.Err)
			}
		}
		return Config{}, fmt.Errorf("config: %w", err)
	}
	return cfg, cfg.validate()
}

func (c Config) validate() error {
	if _, err := pgx.ParseConfig(c.DatabaseURL); err != nil {
		return errors.New("config: DATABASE_URL is not a valid PostgreSQL URL")
	}
	if _, _, err := net.SplitHostPort(c.HTTPAddr); err != nil {
		return fmt.Errorf("config: HEARTH_HTTP_ADDR %q is not host:port", c.HTTPAddr)
	}
	if c.DevSignin && !loopbackAddr(c.HTTPAddr) {
		return fmt.Errorf("config: HEARTH_DEV_SIGNIN=true needs a loopback HEARTH_HTTP_ADDR (127.0.0.1:8080), not %q: name-only sign-in must not be reachable from other machines", c.HTTPAddr)
	}
	if len(c.ReplicaID) > 100 {
		return errors.New("config: HEARTH_REPLICA_ID is longer than 100 characters")
	}
	if (c.TLSCert == "") != (c.TLSKey == "") {
		return errors.New("config: HEARTH_TLS_CERT and HEARTH_TLS_KEY go together")
	}
	if c.PublicURL != "" {
		u, err := url.Parse(c.PublicURL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return fmt.Errorf("config: HEARTH_PUBLIC_URL %q is not an http(s) URL", c.PublicURL)
		}
	}
	if c.EncryptionKey != "" {
		if _, err := google.ParseKeys(c.EncryptionKey, c.EncryptionOldKeys); err != nil {
			return fmt.Errorf("config: %w", err)
		}
	} else if c.EncryptionOldKeys != "" {
		return errors.New("config: HEARTH_ENCRYPTION_OLD_KEYS is set without HEARTH_ENCRYPTION_KEY")
	}
	if c.GoogleEndpoint != "" {
		u, err := url.Parse(c.GoogleEndpoint)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return fmt.Errorf("config: HEARTH_GOOGLE_ENDPOINT %q is not an http(s) URL", c.GoogleEndpoint)
		}
	}
	if err := google.CheckTopic(c.GmailTopic); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if err := google.CheckPushAuth(c.GmailPushAudience, c.GmailPushServiceAccount); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if c.GooglePollInterval < 0 {
		return errors.New("config: HEARTH_GOOGLE_POLL_INTERVAL must not be negative")
	}
	switch c.LogFormat {
	case "auto", "json", "text":
	default:
		return fmt.Errorf("config: HEARTH_LOG_FORMAT %q must be auto, json or text", c.LogFormat)
	}
	switch {
	case c.TurnWorkers < 1:
		return errors.New("config: HEARTH_TURN_WORKERS must be at least 1")
	case c.DeliverWorkers < 1:
		return errors.New("config: HEARTH_DELIVER_WORKERS must be at least 1")
	case c.ActionWorkers < 1:
		return errors.New("config: HEARTH_ACTION_WORKERS must be at least 1")
	case c.DBMaxConns < 0:
		return errors.New("config: HEARTH_DB_MAX_CONNS must not be negative")
	case c.FetchCooldown < time.Millisecond:
		return errors.New("config: HEARTH_FETCH_COOLDOWN must be at least 1ms")
	case c.FetchPollInterval < time.Millisecond:
		return errors.New("config: HEARTH_FETCH_POLL_INTERVAL must be at least 1ms")
	case c.ReplicaStaleAfter != 0 && c.ReplicaStaleAfter < time.Second:
		return errors.New("config: HEARTH_REPLICA_STALE_AFTER must be at least 1s")
	case c.ShutdownTimeout <= 0:
		return errors.New("config: HEARTH_SHUTDOWN_TIMEOUT must be positive")
	case c.UndoWindow < 0:
		return errors.New("config: HEARTH_UNDO_WINDOW must not be negative")
	case c.Scheduler && c.SchedulerInterval < time.Second:
		return errors.New("config: HEARTH_SCHEDULER_INTERVAL must be at least 1s")
	case c.SchedulerGrace < 0:
		return errors.New("config: HEARTH_SCHEDULER_GRACE must not be negative")
	case c.SchedulerWorkers < 0:
		return errors.New("config: HEARTH_SCHEDULER_WORKERS must not be negative")
	case c.TelegramToken != "" && c.PublicURL != "" && c.TelegramWebhookSecret == "":
		return errors.New("config: TELEGRAM_WEBHOOK_SECRET is required for the Telegram webhook (HEARTH_PUBLIC_URL is set)")
	}
	if c.SlackBotToken != "" && c.SlackSigningSecret == "" && c.SlackAppToken == "" {
		return errors.New("config: SLACK_SIGNING_SECRET is required for Slack's HTTP endpoints (or set SLACK_APP_TOKEN for Socket Mode)")
	}
	if c.SlackAPIURL != "" {
		if u, err := url.Parse(c.SlackAPIURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return fmt.Errorf("config: SLACK_API_URL %q is not an http(s) URL", c.SlackAPIURL)
		}
	}
	if err := c.validateTranscribe(); err != nil {
		return err
	}
	switch c.Geocoder {
	case "", "none":
	case "aws":
		if c.AWSPlaceIndex == "" {
			return errors.New("config: HEARTH_AWS_PLACE_INDEX is required with HEARTH_GEOCODER=aws")
		}
	default:
		return fmt.Errorf("config: HEARTH_GEOCODER must be none or aws, not %q", c.Geocoder)
	}
	if c.GeocoderURL != "" {
		if u, err := url.Parse(c.GeocoderURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return fmt.Errorf("config: HEARTH_GEOCODER_URL %q is not an http(s) URL", c.GeocoderURL)
		}
	}
	if c.WalkingDistances != "" {
		if _, err := memory.ParseWalking(c.WalkingDistances); err != nil {
			return fmt.Errorf("config: HEARTH_WALKING_DISTANCES: %w", err)
		}
	}
	if err := c.validateModels(); err != nil {
		return err
	}
	if c.TelegramAPIURL != "" {
		if u, err := url.Parse(c.TelegramAPIURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return fmt.Errorf("config: TELEGRAM_API_URL %q is not an http(s) URL", c.TelegramAPIURL)
		}
	}
	switch {
	case c.SMTPURL == "" && c.SMTPFrom != "":
		return errors.New("config: HEARTH_SMTP_FROM is set but HEARTH_SMTP_URL is not")
	case c.SMTPURL != "" && c.SMTPFrom == "":
		return errors.New("config: HEARTH_SMTP_FROM is required with HEARTH_SMTP_URL (the address mail is sent from)")
	case c.SMTPURL != "":
		if _, err := smtp.New(c.smtpConfig(), nil); err != nil {
			return fmt.Errorf("config: %w", err)
		}
	}
	return nil
}

func (c Config) smtpConfig() smtp.Config {
	return smtp.Config{URL: c.SMTPURL, From: c.SMTPFrom, TLS: c.SMTPTLS}
}

// loopbackAddr reports whether a listen address (host:port) only accepts
// connections from this machine.
func loopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
