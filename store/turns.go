package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth/pipeline"
)

// LeaseConversation takes (or renews) the right to answer the
// conversation's events for ttl, for owner. It reports false when another
// owner's lease is still running.
func (s *Store) LeaseConversation(ctx context.Context, conversationID int64, owner string, ttl time.Duration) (bool, error) {
	tag, err := s.pool.Exec(ctx, `
		UPDATE conversations SET turn_owner = $2, turn_lease_until = now() + $3::interval
		WHERE id = $1 AND (turn_owner IS NULL OR turn_owner = $2 OR turn_lease_until < now())`,
		conversationID, owner, ttl)
	if err != nil {
		return false, fmt.Errorf("store lease conversation: %w", translate(err))
	}
	return tag.RowsAffected() == 1, nil
}

// ReleaseConversation ends owner's lease, if it still holds it.
func (s *Store) ReleaseConversation(ctx context.Context, conversationID int64, owner string) error {
	_, err := s.pool.Exec(ctx, `
		UPDATE conversations SET turn_owner = NULL, turn_lease_until = NULL
		WHERE id = $1 AND turn_owner = $2`, conversationID, owner)
	if err != nil {
		return fmt.Errorf("store release conversation: %w", translate(err))
	}
	return nil
}

// NextEvent returns the conversation's oldest unprocessed event and its
// sender.
func (s *Store) NextEvent(ctx context.Context, conversationID int64) (pipeline.Event, pipeline.User, bool, error) {
	var ev pipeline.Event
	var u pipeline.User
	var zone *string
	var messageID *int64
	err := s.pool.QueryRow(ctx, `
		SELECT e.id, e.conversation_id, e.channel, e.kind, e.text, e.message_id, e.button_id, e.received_at, e.attempts,
		       u.id, u.display_name, u.timezone
		FROM inbound_events e JOIN users u ON u.id = e.user_id
		WHERE e.conversation_id = $1 AND e.processed_at IS NULL
		ORDER BY e.id
		LIMIT 1`, conversationID).
		Scan(&ev.ID, &ev.ConversationID, &ev.Channel, &ev.Kind, &ev.Text, &messageID, &ev.ButtonID, &ev.ReceivedAt, &ev.Attempts,
			&u.ID, &u.DisplayName, &zone)
	if errors.Is(err, pgx.ErrNoRows) {
		return pipeline.Event{}, pipeline.User{}, false, nil
	}
	if err != nil {
		return pipeline.Event{}, pipeline.User{}, false, fmt.Errorf("store next event: %w", translate(err))
	}
	if messageID != nil {
		ev.MessageID = *messageID
	}
	if zone != nil {
		u.Timezone = *zone
	}
	return ev, u, true, nil
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
