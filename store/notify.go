package store

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// Listen delivers the payload of every notification on channel to fn until
// ctx ends, reconnecting with backoff when the connection breaks. Each time
// the LISTEN is in place, the first one included, fn is called with an
// empty payload, meaning "something may have been missed: refresh
// everything": a notification sent before the listener was connected is
// otherwise lost (a test caught a stream opened at start-up that never
// saw its reply).
func (s *Store) Listen(ctx context.Context, channel string, log *slog.Logger, fn func(payload string)) error {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	backoff := 100 * time.Millisecond
	for {
		err := s.listenOnce(ctx, channel, func() {
			fn("")
			backoff = 100 * time.Millisecond
		}, fn)
		if ctx.Err() != nil {
			return nil
		}
		log.WarnContext(ctx, "notification listener lost its connection; reconnecting", "channel", channel, "error", err, "backoff", backoff)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 10*time.Second)
	}
}

func (s *Store) listenOnce(ctx context.Context, channel string, connected func(), fn func(string)) error {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("listen: %w", translate(err))
	}
	// A LISTENing connection must never be handed to anyone else.
	defer func() {
		conn.Conn().Close(context.WithoutCancel(ctx)) //nolint:errcheck // discarding it anyway
		conn.Release()
	}()
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{channel}.Sanitize()); err != nil {
		return fmt.Errorf("listen: %w", translate(err))
	}
	connected()
	for {
		n, err := conn.Conn().WaitForNotification(ctx)
		if err != nil {
			return fmt.Errorf("listen: %w", translate(err))
		}
		fn(n.Payload)
	}
}

// Live views are told of new messages in groups. Every notice costs the
// server more than its round trip: its commit takes the lock that
// serialises notifying commits, and every session listening in the
// database is woken to read the queue (River's listener as well as
// Hearth's). Measured with `bot bench turns -rate 400` on two cores, in
// turn with the build before: 4.2-4.6 ms of machine CPU per turn with
// the notices grouped, 4.5-5.0 with one per turn. So a notice waits up to noticeLinger for others, and those that gather while
// a group is being sent go with the next: one statement and one wake-up
// per group. A live view re-reads from its cursor whatever the notice, so
// it only learns of a message that much later.
const (
	// noticeLinger is how long the first notice of a group waits for
	// others; well under what a person sees.
	noticeLinger = 10 * time.Millisecond
	// noticeTimeout bounds sending one group.
	noticeTimeout = 10 * time.Second
)

// notices is the group of conversations waiting to be told of, and the
// goroutine sending them: started by the first notice, it ends when none
// is waiting.
type notices struct {
	mu      sync.Mutex
	waiting map[int64]struct{} // a conversation told twice is told once
	sending bool
	closed  bool
	wg      sync.WaitGroup
}

// NotifyConversation tells live views that conversationID has a new
// message, after the write that made it visible has committed. It
// returns at once: the notice goes with others of the next group (see
// noticeLinger) and is sent by the store, which logs a failure
// (Config.Log): the notice is a hint, not worth a retry. A view not told
// learns of the message with the next one, or when it reconnects: it
// reads from its cursor.
//
// The group's transaction writes nothing but its commit record (queued
// notifications carry the transaction's id), and that record need not be
// flushed: the notice is a hint to re-read, and one lost to a crash is as
// harmless as one never sent. So it commits without waiting for the
// flush, holding Postgres's notify lock only briefly. It returns an error
// only once the store is closed.
func (s *Store) NotifyConversation(_ context.Context, conversationID int64) error {
	n := &s.notices
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return fmt.Errorf("store notify conversation %d: the store is closed", conversationID)
	}
	if n.waiting == nil {
		n.waiting = map[int64]struct{}{}
	}
	n.waiting[conversationID] = struct{}{}
	if !n.sending {
		n.sending = true
		n.wg.Add(1)
		go s.sendNotices()
	}
	return nil
}

// sendNotices sends groups of notices until none is waiting.
func (s *Store) sendNotices() {
	n := &s.notices
	defer n.wg.Done()
	time.Sleep(noticeLinger)
	for {
		n.mu.Lock()
		group := n.waiting
		if len(group) == 0 {
			n.sending = false
			n.mu.Unlock()
			return
		}
		n.waiting = nil
		n.mu.Unlock()
		if err := s.notifyGroup(group); err != nil {
			s.log.Warn("live views not told of new messages", "conversations", len(group), "error", err)
		}
	}
}

// notifyGroup sends one notice per conversation of group, in one
// statement.
func (s *Store) notifyGroup(group map[int64]struct{}) error {
	ctx, cancel := context.WithTimeout(context.Background(), noticeTimeout)
	defer cancel()
	ids := make([]string, 0, len(group))
	for id := range group {
		ids = append(ids, strconv.FormatInt(id, 10))
	}
	if _, err := s.pool.Exec(ctx, `
		WITH fast AS (SELECT set_config('synchronous_commit', 'off', true))
		SELECT pg_notify($1, c) FROM fast, unnest($2::text[]) AS c`, NotifyChannel, ids); err != nil {
		return fmt.Errorf("store notify %d conversations: %w", len(group), translate(err))
	}
	return nil
}

// closeNotices sends the notices still waiting and refuses new ones.
func (s *Store) closeNotices() {
	n := &s.notices
	n.mu.Lock()
	n.closed = true
	n.mu.Unlock()
	n.wg.Wait()
}
