package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth/adapters/telegram/telegramtest"
	"github.com/hearthbot/hearth/store/storetest"
)

func TestDoctor(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	healthy := storetest.NewDatabase(t)
	api := telegramtest.NewServer(t)
	base := Config{HTTPAddr: "127.0.0.1:8080", Webchat: true, LogFormat: "text", TurnWorkers: 1, DeliverWorkers: 1, ActionWorkers: 1,
		FetchCooldown: time.Millisecond, FetchPollInterval: time.Millisecond, ShutdownTimeout: time.Second,
		LLM: "none", Embeddings: "none", Transcribe: "none", EmbeddingDims: 1024}
	tests := []struct {
		name      string
		configure func(*Config)
		wantErr   bool
		want      []string
	}{
		{"all good", func(c *Config) { c.DatabaseURL = healthy; c.DevSignin = true },
			false, []string{"database      ok    PostgreSQL", "migrations current", "pgvector      ok", "development sign-in", "All good."}},
		{"unreachable database", func(c *Config) { c.DatabaseURL = "postgres://postgres@127.0.0.1:1/nowhere?connect_timeout=2" },
			true, []string{"database      FIX   cannot reach 127.0.0.1:1", "start PostgreSQL or correct DATABASE_URL", "1 problem(s)"}},
		{"empty database", func(c *Config) { c.DatabaseURL = storetest.NewEmptyDatabase(t) },
			true, []string{"migrations pending", "run bot migrate"}},
		{"telegram and an http public URL", func(c *Config) {
			c.DatabaseURL = healthy
			c.PublicURL = "http://hearth.example"
			c.TelegramToken, c.TelegramAPIURL, c.TelegramWebhookSecret = telegramtest.Token, api.URL, "s"
		}, true, []string{"telegram      ok    @", "webhook at http://hearth.example/telegram/webhook", "web chat      FIX   HEARTH_PUBLIC_URL is plain http"}},
		{"gmail push", func(c *Config) {
			c.DatabaseURL, c.DevSignin = healthy, true
			c.PublicURL, c.GmailTopic = "https://hearth.example", "projects/p/topics/gmail"
			c.GoogleClientID, c.GoogleClientSecret, c.EncryptionKey = "id", "secret", "BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc="
		}, false, []string{"gmail push    ok    mailboxes are watched on projects/p/topics/gmail", "https://hearth.example/webhooks/google/gmail?token="}},
		{"gmail push with authentication", func(c *Config) {
			c.DatabaseURL, c.DevSignin = healthy, true
			c.PublicURL, c.GmailTopic = "https://hearth.example", "projects/p/topics/gmail"
			c.GmailPushAudience, c.GmailPushServiceAccount = "https://hearth.example/gmail", "push@p.iam.gserviceaccount.com"
			c.GoogleClientID, c.GoogleClientSecret, c.EncryptionKey = "id", "secret", "BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc="
		}, false, []string{"--push-auth-service-account=push@p.iam.gserviceaccount.com --push-auth-token-audience=https://hearth.example/gmail"}},
		{"gmail push authentication without a topic", func(c *Config) {
			c.DatabaseURL, c.DevSignin = healthy, true
			c.GmailPushAudience, c.GmailPushServiceAccount = "https://hearth.example/gmail", "push@p.iam.gserviceaccount.com"
		}, false, []string{"gmail push    note  HEARTH_GMAIL_PUSH_AUDIENCE is set without HEARTH_GMAIL_PUBSUB_TOPIC"}},
		{"gmail push without a public URL", func(c *Config) {
			c.DatabaseURL, c.DevSignin, c.GmailTopic = healthy, true, "projects/p/topics/gmail"
			c.GoogleClientID, c.GoogleClientSecret, c.EncryptionKey = "id", "secret", "BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc="
		}, false, []string{"gmail push    note  HEARTH_GMAIL_PUBSUB_TOPIC is set without HEARTH_PUBLIC_URL"}},
		{"wrong telegram token", func(c *Config) {
			c.DatabaseURL = healthy
			c.TelegramToken, c.TelegramAPIURL = "123:wrong", api.URL
		}, true, []string{"telegram      FIX", "check TELEGRAM_BOT_TOKEN"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := base
			tt.configure(&cfg)
			var out strings.Builder
			err := Doctor(ctx, cfg, &out)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v; want error %v\n%s", err, tt.wantErr, out.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("report lacks %q:\n%s", w, out.String())
				}
			}
		})
	}
}
