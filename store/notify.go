package store

import (
	"context"
	"fmt"
	"log/slog"
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
