// Package telegram is Hearth's Telegram channel: a webhook handler (or a
// long-polling loop, for development without a public URL) that turns
// Telegram updates into inbound events on the durable path, and a Sender
// that delivers bot messages with inline keyboards for their buttons.
//
// The Bot API is reached through github.com/go-telegram/bot. Its own
// webhook handler is not used: it answers 200 to a request with a wrong
// secret token and queues updates in memory, while Hearth must answer 401
// to a forged request and acknowledge an update only after it is stored
// (ARCHITECTURE.md, invariants 1 and 2).
package telegram

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/commands"
	"github.com/hearthbot/hearth/pipeline"
)

// WebhookPath is where the webhook handler is meant to be mounted, under
// Hearth's public URL.
const WebhookPath = "/telegram/webhook"

// SecretHeader is the header in which Telegram repeats the secret token
// the webhook was registered with.
const SecretHeader = "X-Telegram-Bot-Api-Secret-Token"

// MaxBodyBytes bounds a webhook request body; larger ones get 413.
const MaxBodyBytes = 1 << 20

// DefaultAPIURL is Telegram's Bot API server.
const DefaultAPIURL = "https://api.telegram.org"

// Inbox accepts inbound events onto the durable path.
type Inbox interface {
	Accept(ctx context.Context, in hearth.Inbound) (hearth.Receipt, error)
}

// Config is what the adapter needs. Token is required; Inbox is required
// to receive (webhook or polling) and unused by a send-only adapter.
type Config struct {
	// Token is the bot token from BotFather (TELEGRAM_BOT_TOKEN).
	Token string
	// APIURL is the Bot API server (TELEGRAM_API_URL). Defaults to
	// DefaultAPIURL; set it for a self-hosted Bot API server or tests.
	APIURL string
	// WebhookSecret is the secret token every webhook request must carry
	// in SecretHeader (TELEGRAM_WEBHOOK_SECRET). Without one the webhook
	// handler refuses every request: an unauthenticated webhook would let
	// anyone speak as any Telegram user.
	WebhookSecret string
	// Inbox stores accepted updates.
	Inbox Inbox
	// Commands is the registry "/name" messages dispatch to; New sets
	// the bot's command menu from it. Nil: "/name" is an ordinary message.
	Commands Commands
	// AckTimeout bounds the answerCallbackQuery call made after a button
	// click is accepted. Defaults to 2 seconds.
	AckTimeout time.Duration
	// Logger defaults to discarding.
	Logger *slog.Logger
}

// Adapter is one Telegram bot: webhook handler, long-polling loop and
// Sender. It is safe for concurrent use.
type Adapter struct {
	cfg     Config
	bot     *bot.Bot
	me      models.User
	mention *regexp.Regexp
	// files downloads voice notes (see FetchAudio).
	files *http.Client
}

var _ pipeline.Sender = (*Adapter)(nil)

// New connects to the Bot API and calls getMe, which checks the token and
// tells the adapter its own username and id: group messages are only
// answered when they mention the bot or reply to it.
func New(ctx context.Context, cfg Config) (*Adapter, error) {
	if strings.TrimSpace(cfg.Token) == "" {
		return nil, errors.New("telegram: a bot token is required")
	}
	if cfg.APIURL == "" {
		cfg.APIURL = DefaultAPIURL
	}
	cfg.APIURL = strings.TrimRight(cfg.APIURL, "/")
	if cfg.AckTimeout <= 0 {
		cfg.AckTimeout = 2 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	a := &Adapter{cfg: cfg, files: &http.Client{Timeout: 2 * time.Minute}}
	b, err := bot.New(cfg.Token,
		bot.WithServerURL(cfg.APIURL),
		// getMe is called below with the caller's context, and its answer
		// is kept; the library's own call would discard it.
		bot.WithSkipGetMe(),
		bot.WithDefaultHandler(a.onPolledUpdate),
		// Handlers run one at a time in the worker and the queue between
		// the poller and the worker holds nothing: the poller confirms an
		// update to Telegram (by asking for the next offset) only after
		// the worker took it, which bounds what a crash can lose to the
		// one update being stored. See Poll.
		bot.WithNotAsyncHandlers(),
		bot.WithUpdatesChannelCap(0),
		bot.WithAllowedUpdates(bot.AllowedUpdates{models.AllowedUpdateMessage, models.AllowedUpdateCallbackQuery}),
		bot.WithErrorsHandler(func(err error) { cfg.Logger.Warn("telegram client", "error", err) }),
	)
	if err != nil {
		return nil, fmt.Errorf("telegram: %w", err)
	}
	a.bot = b
	me, err := b.GetMe(ctx)
	if err != nil {
		return nil, fmt.Errorf("telegram: getMe: %w", err)
	}
	a.me = *me
	if me.Username != "" {
		// \B before the @ keeps "someone@hearth_bot" (an address) from
		// counting; \b after it keeps "@hearth_bot2" from counting.
		re, err := regexp.Compile(`(?i)\B@` + regexp.QuoteMeta(me.Username) + `\b`)
		if err != nil {
			return nil, fmt.Errorf("telegram: username %q: %w", me.Username, err)
		}
		a.mention = re
	}
	return a, nil
}

// Commands is the registry Telegram commands dispatch to, and what the
// bot's command menu lists.
type Commands interface {
	Lookup(name string) (commands.Command, bool)
	Usages() []commands.Usage
}

// SetCommands sets the bot's command menu (setMyCommands) from the
// registry, so Telegram offers exactly the commands Hearth answers.
func (a *Adapter) SetCommands(ctx context.Context) error {
	if a.cfg.Commands == nil {
		return nil
	}
	var menu []models.BotCommand
	for _, u := range a.cfg.Commands.Usages() {
		desc := u.Help
		if len(desc) > 256 { // Telegram's limit
			desc = desc[:253] + "..."
		}
		menu = append(menu, models.BotCommand{Command: u.Name, Description: desc})
	}
	if _, err := a.bot.SetMyCommands(ctx, &bot.SetMyCommandsParams{Commands: menu}); err != nil {
		return fmt.Errorf("telegram: setMyCommands: %w", err)
	}
	return nil
}

// command reads "/name args" or "/name@this_bot args" naming a registered
// command, as the "name args" a KindCommand event carries.
func (a *Adapter) command(text string) (string, bool) {
	if a.cfg.Commands == nil || !strings.HasPrefix(text, "/") {
		return "", false
	}
	word, args, _ := strings.Cut(strings.TrimSpace(text[1:]), " ")
	name, at, addressed := strings.Cut(word, "@")
	if addressed && !strings.EqualFold(at, a.me.Username) {
		return "", false // another bot's command in a group
	}
	name = strings.ToLower(name)
	if _, ok := a.cfg.Commands.Lookup(name); !ok {
		return "", false
	}
	return strings.TrimSpace(name + " " + strings.TrimSpace(args)), true
}

// Username is the bot's Telegram username, as getMe reported it.
func (a *Adapter) Username() string { return a.me.Username }
