package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/hearthbot/hearth"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
)

// MaxTextBytes bounds an inbound message's text. Longer text is refused
// rather than truncated, so nothing is silently lost.
const MaxTextBytes = 64 << 10

// EventStore persists inbound events in a transaction the Inbox owns.
// AcceptInboundTx stores the event (and its user, identity and
// conversation when new); a duplicate returns a Receipt with Duplicate set
// and writes nothing; a race with another first contact is
// hearth.ErrConflict, worth a retry.
type EventStore interface {
	Begin(ctx context.Context) (pgx.Tx, error)
	AcceptInboundTx(ctx context.Context, tx pgx.Tx, in hearth.Inbound) (hearth.Receipt, error)
	Commit(ctx context.Context, tx pgx.Tx) error
}

// Inbox is the front door of the durable path: an event it accepts has
// been stored and its turn enqueued, so the adapter may acknowledge it.
type Inbox struct {
	store  EventStore
	river  *river.Client[pgx.Tx]
	metric *Metrics
	// groups is store as a GroupStore (nil: every event is accepted
	// alone), and group the messages waiting for it.
	groups GroupStore
	group  grouper
	// now is the clock TurnSlot reads; tests set it.
	now func() time.Time
	// NotifyCooldown is how often at most a group's turn jobs come with
	// River's insert notification; set it to the River client's
	// FetchCooldown, as River's client limits its own notifications.
	// Defaults to River's default FetchCooldown.
	NotifyCooldown time.Duration
}

// NewInbox returns an Inbox that stores events in store and enqueues turns
// with client (an insert-only client is enough). metrics may be nil. When
// store is also a GroupStore, messages arriving together are committed
// together (see groupcommit.go).
func NewInbox(store EventStore, client *river.Client[pgx.Tx], metrics *Metrics) *Inbox {
	groups, _ := store.(GroupStore)
	return &Inbox{store: store, river: client, metric: metrics, groups: groups, now: time.Now, NotifyCooldown: river.FetchCooldownDefault}
}

// Accept validates, stores and enqueues one inbound event. Errors wrap
// ErrInvalid (bad input, nothing stored) or ErrUnavailable (database down,
// nothing stored).
func (b *Inbox) Accept(ctx context.Context, in hearth.Inbound) (hearth.Receipt, error) {
	if err := validateInbound(in); err != nil {
		return hearth.Receipt{}, err
	}
	var r hearth.Receipt
	var err error
	if b.groups != nil && in.Kind == hearth.KindMessage {
		r, err = b.acceptGrouped(ctx, in)
	} else {
		r, err = b.acceptOne(ctx, in)
	}
	if err != nil {
		return hearth.Receipt{}, fmt.Errorf("accept %s event: %w", in.Channel, err)
	}
	b.metric.accepted(in.Channel, r.Duplicate)
	return r, nil
}

// acceptOne accepts one event in a transaction of its own.
func (b *Inbox) acceptOne(ctx context.Context, in hearth.Inbound) (r hearth.Receipt, err error) {
	for range 3 { // a first contact racing another finds it on the next try
		if r, err = b.accept(ctx, in); !errors.Is(err, hearth.ErrConflict) {
			break
		}
	}
	return r, err
}

// accept is ingress's unit of work: the event (with its user, identity
// and conversation when new) and its turn job commit together, or not at
// all. A duplicate commits nothing.
func (b *Inbox) accept(ctx context.Context, in hearth.Inbound) (hearth.Receipt, error) {
	tx, err := b.store.Begin(ctx)
	if err != nil {
		return hearth.Receipt{}, err
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // after Commit this is a no-op
	r, err := b.store.AcceptInboundTx(ctx, tx, in)
	if err != nil || r.Duplicate {
		return r, err
	}
	if _, err := b.river.InsertTx(ctx, tx, TurnArgs{ConversationID: r.ConversationID, EventID: r.EventID}, nil); err != nil {
		return hearth.Receipt{}, fmt.Errorf("enqueue turn: %w", err)
	}
	return r, b.store.Commit(ctx, tx)
}

// validateInbound refuses an event that can never be accepted as it is.
func validateInbound(in hearth.Inbound) error {
	switch {
	case in.Channel == "":
		return hearth.Invalidf("channel is required")
	case in.ExternalID == "":
		return hearth.Invalidf("event id is required")
	case in.ConversationKey == "":
		return hearth.Invalidf("conversation is required")
	case in.UserKey == "":
		return hearth.Invalidf("user is required")
	case !utf8.ValidString(in.Text):
		return hearth.Invalidf("text is not valid UTF-8")
	case strings.IndexByte(in.Text, 0) >= 0:
		return hearth.Invalidf("text contains a NUL character")
	case len(in.Text) > MaxTextBytes:
		return hearth.Invalidf("text is longer than %d bytes", MaxTextBytes)
	}
	switch in.Kind {
	case hearth.KindMessage:
		if strings.TrimSpace(in.Text) == "" {
			return hearth.Invalidf("text is empty")
		}
	case hearth.KindButton:
		if in.MessageID <= 0 || in.ButtonID == "" {
			return hearth.Invalidf("a button click needs message_id and button_id")
		}
	case hearth.KindCommand:
		if strings.TrimSpace(in.Text) == "" {
			return hearth.Invalidf("a command needs its name")
		}
	case hearth.KindUnsupported:
		if strings.TrimSpace(in.Text) == "" {
			return hearth.Invalidf("an unsupported message needs a description of what it was")
		}
	case hearth.KindVoice:
		if err := validateAudio(in.Audio); err != nil {
			return err
		}
	case hearth.KindFile:
		switch f := in.File; {
		case f == nil:
			return hearth.Invalidf("a file event needs its file")
		case f.FileID == "" && f.URL == "" && f.Data == nil:
			return hearth.Invalidf("a file event needs a file id, a download URL or the file")
		case f.Size < 0:
			return hearth.Invalidf("a file's size cannot be negative")
		}
	default:
		return hearth.Invalidf("unknown event kind %q", in.Kind)
	}
	if in.Timezone != "" {
		if _, err := LoadTimezone(in.Timezone); err != nil {
			return err
		}
	}
	return nil
}

// LoadTimezone resolves an IANA zone name. It refuses "Local" and the
// empty name: a user's zone must never silently become the host's
// (ARCHITECTURE.md, invariant 6).
func LoadTimezone(name string) (*time.Location, error) {
	if name == "" || name == "Local" {
		return nil, hearth.Invalidf("unknown time zone %q", name)
	}
	if loc, ok := zones.Load(name); ok {
		return loc.(*time.Location), nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, hearth.Invalidf("unknown time zone %q", name)
	}
	zones.Store(name, loc)
	return loc, nil
}

// zones caches the zones loaded: time.LoadLocation reads and parses the
// zone's file every time, and every turn needs its user's zone. Only
// zones that exist are kept, so the cache is bounded by the zone database.
var zones sync.Map // name -> *time.Location
