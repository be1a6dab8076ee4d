package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth/pipeline"
)

// LeaseConversation takes (or renews) owner's right to answer the
// conversation for ttl and returns its oldest unprocessed event in the
// same statement. leased is false when another owner's lease is still
// running; found is false when nothing is pending.
func (s *Store) LeaseConversation(ctx context.Context, conversationID int64, owner string, ttl time.Duration) (ev pipeline.Event, u pipeline.User, leased, found bool, err error) {
	var evID, msgID *int64
	var zone, kind, channel, text, buttonID *string
	var received *time.Time
	var attempts, userID *int64
	var userName *string
	err = s.pool.QueryRow(ctx, `
		WITH lease AS (
			UPDATE conversations SET turn_owner = $2, turn_lease_until = now() + $3::interval
			WHERE id = $1 AND (turn_owner IS NULL OR turn_owner = $2 OR turn_lease_until < now())
			RETURNING id
		), next AS (
			SELECT e.id, e.channel, e.kind, e.text, e.message_id, e.button_id, e.received_at, e.attempts,
			       u.id AS user_id, u.display_name, u.timezone
			FROM inbound_events e JOIN users u ON u.id = e.user_id
			WHERE e.conversation_id = $1 AND e.processed_at IS NULL AND EXISTS (SELECT 1 FROM lease)
			ORDER BY e.id
			LIMIT 1
		)
		SELECT EXISTS (SELECT 1 FROM lease), next.id, next.channel, next.kind, next.text, next.message_id, next.button_id,
		       next.received_at, next.attempts, next.user_id, next.display_name, next.timezone
		FROM (SELECT 1) one LEFT JOIN next ON true`, conversationID, owner, ttl).
		Scan(&leased, &evID, &channel, &kind, &text, &msgID, &buttonID, &received, &attempts, &userID, &userName, &zone)
	if err != nil {
		return ev, u, false, false, fmt.Errorf("store lease conversation: %w", translate(err))
	}
	if evID == nil {
		return ev, u, leased, false, nil
	}
	ev = pipeline.Event{ID: *evID, ConversationID: conversationID, Channel: pipeline.Channel(*channel), Kind: pipeline.EventKind(*kind),
		Text: *text, ButtonID: *buttonID, ReceivedAt: *received, Attempts: int(*attempts)}
	if msgID != nil {
		ev.MessageID = *msgID
	}
	u = pipeline.User{ID: *userID, DisplayName: *userName}
	if zone != nil {
		u.Timezone = *zone
	}
	return ev, u, leased, true, nil
}

// ReleaseConversation ends owner's lease, if it still holds it, and
// reports whether events are waiting, so the caller can look again: an
// event that arrived while the lease was held has a job that may have
// given up on it.
func (s *Store) ReleaseConversation(ctx context.Context, conversationID int64, owner string) (pending bool, err error) {
	err = s.pool.QueryRow(ctx, `
		WITH released AS (
			UPDATE conversations SET turn_owner = NULL, turn_lease_until = NULL
			WHERE id = $1 AND turn_owner = $2
		)
		SELECT EXISTS (SELECT 1 FROM inbound_events WHERE conversation_id = $1 AND processed_at IS NULL)`,
		conversationID, owner).Scan(&pending)
	if err != nil {
		return false, fmt.Errorf("store release conversation: %w", translate(err))
	}
	return pending, nil
}

// CompleteEvent marks ev processed and stores its replies as bot messages
// keyed "event:<id>:<index>", calling enqueue with their ids in the same
// transaction. Completing an event twice stores nothing the second time.
func (s *Store) CompleteEvent(ctx context.Context, ev pipeline.Event, replies []pipeline.Outbound, enqueue func(ctx context.Context, tx pgx.Tx, messageIDs []int64) error) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE inbound_events SET processed_at = now() WHERE id = $1 AND processed_at IS NULL`, ev.ID)
		if err != nil {
			return fmt.Errorf("mark processed: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return errAlreadyDone
		}
		ids, err := insertBotMessages(ctx, tx, ev.ConversationID, &ev.ID, fmt.Sprintf("event:%d", ev.ID), replies)
		if err != nil {
			return err
		}
		return enqueue(ctx, tx, ids)
	})
	if errors.Is(err, errAlreadyDone) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store complete event %d: %w", ev.ID, err)
	}
	return nil
}

var errAlreadyDone = errors.New("already done")

// insertBotMessages stores replies with keys "<keyPrefix>:<index>". A key
// seen before is skipped, so a retried producer adds nothing.
func insertBotMessages(ctx context.Context, tx pgx.Tx, conversationID int64, eventID *int64, keyPrefix string, replies []pipeline.Outbound) ([]int64, error) {
	ids := make([]int64, 0, len(replies))
	for i, r := range replies {
		buttons := r.Buttons
		if buttons == nil {
			buttons = []pipeline.Button{}
		}
		var id int64
		err := tx.QueryRow(ctx, `
			INSERT INTO messages (conversation_id, sender, inbound_event_id, idempotency_key, text, buttons)
			VALUES ($1, 'bot', $2, $3, $4, $5)
			ON CONFLICT (idempotency_key) DO NOTHING
			RETURNING id`, conversationID, eventID, fmt.Sprintf("%s:%d", keyPrefix, i), r.Text, buttons).Scan(&id)
		if errors.Is(err, pgx.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("insert reply: %w", err)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// FailEvent counts a failed attempt at ev and keeps the reason.
func (s *Store) FailEvent(ctx context.Context, ev pipeline.Event, reason string) error {
	_, err := s.pool.Exec(ctx, `UPDATE inbound_events SET attempts = attempts + 1, last_error = $2 WHERE id = $1`, ev.ID, reason)
	if err != nil {
		return fmt.Errorf("store fail event %d: %w", ev.ID, translate(err))
	}
	return nil
}
