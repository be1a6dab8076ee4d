package google

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"golang.org/x/oauth2"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
)

// Paths Hearth serves for Google.
const (
	CallbackPath = "/oauth/google/callback"
	WebhookPath  = "/webhooks/google/calendar"
)

// Scopes, asked for incrementally: the calendar when a user connects, mail
// and notes when those features ask (include_granted_scopes keeps what was
// granted before).
const (
	ScopeEmail    = "email"
	ScopeOpenID   = "openid"
	ScopeCalendar = "https://www.googleapis.com/auth/calendar"
)

// CalendarScopes are the scopes "connect google" asks for.
var CalendarScopes = []string{ScopeOpenID, ScopeEmail, ScopeCalendar}

// Accounts stores connected accounts and their sealed tokens.
type Accounts interface {
	GoogleAccount(ctx context.Context, userID int64) (hearth.GoogleAccount, error)
	SaveGoogleAccount(ctx context.Context, a hearth.GoogleAccount) error
	SetGoogleToken(ctx context.Context, userID int64, token []byte) error
	RevokeGoogleAccount(ctx context.Context, userID int64) (bool, error)
	ClaimGoogleNoticeTx(ctx context.Context, tx pgx.Tx, userID int64) (bool, error)
	DeleteGoogleAccount(ctx context.Context, userID int64) error
	GmailMailbox(ctx context.Context, userID int64) (hearth.MailboxSync, error)
}

// Calendars stores the synced calendars and their push channels.
type Calendars interface {
	AddGoogleCalendar(ctx context.Context, c hearth.GoogleCalendar) error
	GoogleCalendars(ctx context.Context, userID int64) ([]hearth.GoogleCalendar, error)
	GoogleCalendarByChannel(ctx context.Context, channelID string) (hearth.GoogleCalendar, error)
	SetGoogleChannel(ctx context.Context, userID int64, calendarID, channelID, resourceID string, expires time.Time) (hearth.GoogleCalendar, error)
	GoogleCalendarsToWatch(ctx context.Context, before time.Time, limit int) ([]hearth.GoogleCalendar, error)
	AllGoogleCalendars(ctx context.Context, afterUser int64, afterCalendar string, limit int) ([]hearth.GoogleCalendar, error)
	MarkGooglePushTx(ctx context.Context, tx pgx.Tx, userID int64, calendarID string) (int64, error)
}

// Syncs writes the local copy of a calendar.
type Syncs interface {
	BeginGoogleSync(ctx context.Context, userID int64, calendarID string, full, again bool, staleAfter time.Duration) (hearth.GoogleCalendar, error)
	AbortGoogleSync(ctx context.Context, userID int64, calendarID string) error
	SyncGoogleEvents(ctx context.Context, userID int64, calendarID string, gen int64, events []hearth.CalendarEvent, cancelled []string) error
	EndGoogleSync(ctx context.Context, userID int64, calendarID, syncToken string, sweepGen int64) error
	FindEvent(ctx context.Context, userID, id int64) (hearth.CalendarEvent, error)
	RelinkEvent(ctx context.Context, userID, id int64, calendarID, externalID string) error
}

// Store is everything the integration keeps in Hearth's database: the
// built-in calendar (whose rows hold the synced copy) and the Google
// tables. cmd/bot passes the store.
type Store interface {
	action.Calendar
	Accounts
	Calendars
	Syncs
	Imports
	Messages
	Begin(ctx context.Context) (pgx.Tx, error)
}

// People finds the people Hearth knows and what it remembers about them,
// as the user may see them: an attendee named without an address
// ("invite Sam") is invited at the email address memory holds for them.
type People interface {
	FindEntities(ctx context.Context, f hearth.EntityFilter) ([]hearth.Entity, error)
	FindMemories(ctx context.Context, f hearth.MemoryFilter) ([]hearth.Memory, error)
}

// Queue enqueues River jobs (the River client).
type Queue interface {
	Insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
	InsertTx(ctx context.Context, tx pgx.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
	InsertManyTx(ctx context.Context, tx pgx.Tx, params []river.InsertManyParams) ([]*rivertype.JobInsertResult, error)
}

// Config configures the integration.
type Config struct {
	// ClientID and ClientSecret are the OAuth client (required).
	ClientID, ClientSecret string
	// PublicURL is where Google reaches this server: the redirect URI is
	// PublicURL + CallbackPath, push channels post to PublicURL +
	// WebhookPath. Without it consent links still work on localhost, and
	// the periodic poll keeps calendars in sync without push.
	PublicURL string
	// GmailTopic is the Pub/Sub topic Gmail pushes inbox changes to
	// (HEARTH_GMAIL_PUBSUB_TOPIC, projects/PROJECT/topics/TOPIC). With it
	// and PublicURL, mailboxes are watched and pushes arrive at
	// GmailPushURL; without, new mail is found by polling alone.
	GmailTopic string
	// PushAudience and PushServiceAccount, when set
	// (HEARTH_GMAIL_PUSH_AUDIENCE, HEARTH_GMAIL_PUSH_SERVICE_ACCOUNT),
	// make a Gmail push need the ID token Pub/Sub signs for that service
	// account and audience, besides the URL's token (pushauth.go).
	PushAudience, PushServiceAccount string
	// Endpoint replaces every Google host (HEARTH_GOOGLE_ENDPOINT); empty
	// means Google's.
	Endpoint string
	// Keys are derived from HEARTH_ENCRYPTION_KEY (required).
	Keys  *Keys
	Store Store
	// People links attendees named without an address to the people
	// memory knows and their email addresses; nil leaves them uninvited.
	People People
	// Visible reports whether a channel shows messages by committing them
	// to the transcript (the web chat) rather than by a delivery job, as
	// for the scheduler's messages.
	Visible func(hearth.Channel) bool
	// Queue enqueues sync jobs; set it (to the River client) before the
	// server takes requests.
	Queue Queue
	// HTTPClient carries every request to Google. Defaults to
	// http.DefaultClient.
	HTTPClient *http.Client
	// Now is the clock. Defaults to time.Now.
	Now func() time.Time
	// Log defaults to a discarding logger; tokens are never logged.
	Log *slog.Logger
	// PollInterval is how often every calendar is synced and channels are
	// renewed, push or not. Defaults to 15 minutes.
	PollInterval time.Duration
	// ChannelTTL is the lifetime asked for a push channel (Google may
	// give less). Defaults to 7 days.
	ChannelTTL time.Duration
	// RenewBefore renews a channel this long before it expires (the poll
	// renews, so it should be well over PollInterval). Defaults to a day.
	RenewBefore time.Duration
	// Backoff is the pause before retry n (1, 2, …) of a request Google
	// answered 429 or 5xx. Defaults to 500 ms doubling, at most 8 s.
	Backoff func(n int) time.Duration
}

// Google is the integration: OAuth, the calendar provider, push sync.
type Google struct {
	cfg   Config
	ends  Endpoints
	oauth *oauth2.Config
	// pushAuth verifies Gmail pushes' ID tokens; nil when not required.
	pushAuth *pushAuth
}

// New checks the configuration and returns the integration.
func New(cfg Config) (*Google, error) {
	switch {
	case cfg.ClientID == "" || cfg.ClientSecret == "":
		return nil, errors.New("google: HEARTH_GOOGLE_CLIENT_ID and HEARTH_GOOGLE_CLIENT_SECRET are required")
	case cfg.Keys == nil:
		return nil, errors.New("google: HEARTH_ENCRYPTION_KEY is required")
	case cfg.Store == nil:
		return nil, errors.New("google: no store")
	}
	if err := CheckTopic(cfg.GmailTopic); err != nil {
		return nil, err
	}
	if err := CheckPushAuth(cfg.PushAudience, cfg.PushServiceAccount); err != nil {
		return nil, err
	}
	cfg.PublicURL = strings.TrimRight(cfg.PublicURL, "/")
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = http.DefaultClient
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	cfg.PollInterval = cmp.Or(cfg.PollInterval, 15*time.Minute)
	cfg.ChannelTTL = cmp.Or(cfg.ChannelTTL, 7*24*time.Hour)
	cfg.RenewBefore = cmp.Or(cfg.RenewBefore, max(24*time.Hour, 2*cfg.PollInterval))
	if cfg.Backoff == nil {
		cfg.Backoff = func(n int) time.Duration { return min(500*time.Millisecond<<(n-1), 8*time.Second) }
	}
	ends := EndpointsFor(cfg.Endpoint)
	redirect := cmp.Or(cfg.PublicURL, "http://localhost:8080") + CallbackPath
	pa, err := newPushAuth(cfg)
	if err != nil {
		return nil, err
	}
	return &Google{cfg: cfg, ends: ends, pushAuth: pa, oauth: &oauth2.Config{
		ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret, Endpoint: ends.OAuth, RedirectURL: redirect,
	}}, nil
}

// SetQueue sets where jobs are enqueued (the River client, which is made
// after the workers are registered).
func (g *Google) SetQueue(q Queue) { g.cfg.Queue = q }

// RedirectURL is the redirect URI to register with the OAuth client.
func (g *Google) RedirectURL() string { return g.oauth.RedirectURL }

// errNotConnected: the user has no working Google account.
var errNotConnected = errors.New("google is not connected")

// active returns the user's working account, or errNotConnected.
func (g *Google) active(ctx context.Context, userID int64) (hearth.GoogleAccount, error) {
	a, err := g.cfg.Store.GoogleAccount(ctx, userID)
	if errors.Is(err, hearth.ErrNotFound) {
		return a, errNotConnected
	}
	if err != nil {
		return a, fmt.Errorf("google account: %w", err)
	}
	if !a.RevokedAt.IsZero() {
		return a, errNotConnected
	}
	return a, nil
}

// zoneOf is the account's user's zone (UTC until one is known).
func zoneOf(a hearth.GoogleAccount) *time.Location {
	if loc, err := time.LoadLocation(a.Timezone); err == nil && a.Timezone != "" {
		return loc
	}
	return time.UTC
}
