// Package slack is Hearth's Slack channel: HTTP handlers for the Events
// API, interactivity (Block Kit button clicks) and the /hearth slash
// command that turn verified Slack requests into inbound events on the
// durable path; a Socket Mode loop feeding the same path for setups
// without a public URL; and a Sender that posts bot messages with Block
// Kit buttons.
//
// Slack's API is reached through github.com/slack-go/slack. Every request
// is verified over its raw body with the library's SecretsVerifier before
// anything is parsed, and acknowledged only after the Inbox stored it
// (ARCHITECTURE.md, invariants 1 and 2): a forged request gets 401, a
// database outage 503 so that Slack retries.
//
// The handlers are standalone; mounting them (and running Socket Mode
// when SLACK_APP_TOKEN is set) is the wiring's job.
package slack

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline"
)

// Paths the handlers are meant to be mounted at, under Hearth's public URL.
const (
	EventsPath       = "/slack/events"
	InteractionsPath = "/slack/interactions"
	CommandsPath     = "/slack/commands"
)

// MaxBodyBytes bounds a request body; larger ones get 413.
const MaxBodyBytes = 1 << 20

// MaxClockSkew is how far a request's X-Slack-Request-Timestamp may be
// from the adapter's clock, either way, before it is refused as stale (a
// replay). Slack recommends five minutes.
const MaxClockSkew = 5 * time.Minute

// DefaultAPIURL is Slack's Web API (slack.APIURL).
const DefaultAPIURL = slack.APIURL

// Inbox accepts inbound events onto the durable path.
type Inbox interface {
	Accept(ctx context.Context, in hearth.Inbound) (hearth.Receipt, error)
}

// Config is what the adapter needs. BotToken is required; SigningSecret
// and Inbox are required to receive over HTTP, AppToken and Inbox for
// Socket Mode; a send-only adapter needs neither.
type Config struct {
	// BotToken is the bot user OAuth token, xoxb-… (SLACK_BOT_TOKEN).
	BotToken string
	// SigningSecret verifies every HTTP request (SLACK_SIGNING_SECRET).
	// Without one the handlers refuse every request: an unverified
	// endpoint would let anyone speak as any Slack user.
	SigningSecret string
	// AppToken is the app-level token, xapp-… (SLACK_APP_TOKEN), which
	// enables RunSocketMode. Optional.
	AppToken string
	// APIURL is the Web API base URL, ending in a slash (SLACK_API_URL).
	// Defaults to DefaultAPIURL; set it for GovSlack or tests.
	APIURL string
	// Inbox stores accepted events.
	Inbox Inbox
	// Commands is the registry `/hearth NAME` dispatches to. Nil: every
	// /hearth text is stored as a message.
	Commands Commands
	// Now is the clock request timestamps are checked against. Defaults
	// to time.Now.
	Now func() time.Time
	// Logger defaults to discarding.
	Logger *slog.Logger
}

// Adapter is one Slack app installation: HTTP handlers, the Socket Mode
// loop and the Sender. It is safe for concurrent use.
type Adapter struct {
	cfg Config
	api *slack.Client
	// botUserID is Hearth's own user in the workspace, from auth.test: its
	// mention is cut out of the text the pipeline reads (its own messages
	// carry a bot_id and are never answered).
	botUserID string
	mention   *regexp.Regexp
	// misses are users Slack had no zone for (see UserProfile).
	misses zoneMisses
}

var _ pipeline.Sender = (*Adapter)(nil)

// New builds the client and calls auth.test, which checks the token and
// tells the adapter its own user and bot ids.
func New(ctx context.Context, cfg Config) (*Adapter, error) {
	if strings.TrimSpace(cfg.BotToken) == "" {
		return nil, errors.New("slack: a bot token is required")
	}
	if cfg.APIURL == "" {
		cfg.APIURL = DefaultAPIURL
	}
	// slack-go joins the method name straight onto the URL.
	if !strings.HasSuffix(cfg.APIURL, "/") {
		cfg.APIURL += "/"
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	opts := []slack.Option{slack.OptionAPIURL(cfg.APIURL)}
	if cfg.AppToken != "" {
		opts = append(opts, slack.OptionAppLevelToken(cfg.AppToken))
	}
	a := &Adapter{cfg: cfg, api: slack.New(cfg.BotToken, opts...)}
	me, err := a.api.AuthTestContext(ctx)
	if err != nil {
		return nil, fmt.Errorf("slack: auth.test: %w", err)
	}
	a.botUserID = me.UserID
	if me.UserID != "" {
		re, err := regexp.Compile(`<@` + regexp.QuoteMeta(me.UserID) + `(\|[^>]*)?>`)
		if err != nil {
			return nil, fmt.Errorf("slack: bot user id %q: %w", me.UserID, err)
		}
		a.mention = re
	}
	return a, nil
}

// BotUserID is Hearth's own Slack user id, as auth.test reported it.
func (a *Adapter) BotUserID() string { return a.botUserID }

// Handler routes POST EventsPath, InteractionsPath and CommandsPath to
// ServeEvents, ServeInteractions and ServeCommands.
func (a *Adapter) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc(EventsPath, a.ServeEvents)
	mux.HandleFunc(InteractionsPath, a.ServeInteractions)
	mux.HandleFunc(CommandsPath, a.ServeCommands)
	return mux
}
