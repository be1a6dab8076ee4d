package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

// LeaseConversation takes (or renews) owner's right to answer the
// conversation for ttl and returns its oldest unprocessed event. leased is
// false when another owner's lease is still running; found is false when
// nothing is pending.
//
// The event is read by a second statement on purpose. A lease taken the
// moment the previous holder's turn commits (the UPDATE waits for that
// row and then re-checks it) would, read in the same statement, see the
// events as they were before that commit, and answer the just-finished
// one again.
func (s *Store) LeaseConversation(ctx context.Context, conversationID int64, owner string, ttl time.Duration) (ev hearth.InboundEvent, u hearth.User, leased, found bool, err error) {
	// The lease need not survive a database crash (the events it guards
	// are durable, and a lost lease is simply taken again), so its commit
	// does not wait for the WAL flush: one fsync fewer per turn.
	tag, err := s.pool.Exec(ctx, `
		WITH fast AS (SELECT set_config('synchronous_commit', 'off', true))
		UPDATE conversations SET turn_owner = $2, turn_lease_until = now() + $3::interval
		FROM fast
		WHERE id = $1 AND (turn_owner IS NULL OR turn_owner = $2 OR turn_lease_until < now())`,
		conversationID, owner, ttl)
	if err != nil {
		return ev, u, false, false, fmt.Errorf("store lease conversation: %w", translate(err))
	}
	if tag.RowsAffected() == 0 {
		return ev, u, false, false, nil
	}
	var msgID *int64
	var zone *string
	err = s.pool.QueryRow(ctx, `
		SELECT e.id, e.channel, e.kind, e.text, e.message_id, e.button_id, e.received_at, e.attempts,
		       u.id, u.display_name, u.timezone
		FROM inbound_events e JOIN users u ON u.id = e.user_id
		WHERE e.conversation_id = $1 AND e.processed_at IS NULL
		ORDER BY e.id
		LIMIT 1`, conversationID).
		Scan(&ev.ID, &ev.Channel, &ev.Kind, &ev.Text, &msgID, &ev.ButtonID, &ev.ReceivedAt, &ev.Attempts, &u.ID, &u.DisplayName, &zone)
	if errors.Is(err, pgx.ErrNoRows) {
		return ev, u, true, false, nil
	}
	if err != nil {
		return ev, u, true, false, fmt.Errorf("store next event: %w", translate(err))
	}
	ev.ConversationID = conversationID
	if msgID != nil {
		ev.MessageID = *msgID
	}
	if zone != nil {
		u.Timezone = *zone
	}
	return ev, u, true, true, nil
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

// CompleteEventTx marks ev processed in tx and stores its replies. done
// is false when ev had been completed before (a retried job): nothing is
// written then. In the same statement it ends owner's lease when no other
// event of the conversation is waiting (released). With visible set the
// replies are stored delivered, visible in the transcript, live views are
// told, and ids is empty; otherwise ids are the replies still to deliver.
func (s *Store) CompleteEventTx(ctx context.Context, tx pgx.Tx, ev hearth.InboundEvent, owner string, replies []hearth.Outbound, visible bool) (done, released bool, ids []int64, err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("store complete event %d: %w", ev.ID, translate(err))
		}
	}()
	err = tx.QueryRow(ctx, `
		WITH done AS (
			UPDATE inbound_events SET processed_at = now() WHERE id = $1 AND processed_at IS NULL RETURNING id
		), released AS (
			UPDATE conversations SET turn_owner = NULL, turn_lease_until = NULL
			WHERE id = $2 AND turn_owner = $3 AND EXISTS (SELECT 1 FROM done)
			  AND NOT EXISTS (SELECT 1 FROM inbound_events WHERE conversation_id = $2 AND processed_at IS NULL AND id <> $1)
			RETURNING id
		)
		SELECT EXISTS (SELECT 1 FROM done), EXISTS (SELECT 1 FROM released)`, ev.ID, ev.ConversationID, owner).Scan(&done, &released)
	if err != nil {
		return false, false, nil, fmt.Errorf("mark processed: %w", err)
	}
	if !done {
		return false, false, nil, nil
	}
	ids, err = insertBotMessages(ctx, tx, ev.ConversationID, &ev.ID, fmt.Sprintf("event:%d", ev.ID), replies)
	if err != nil {
		return false, false, nil, err
	}
	if visible {
		// Delivered by being committed: visible now, and live views told.
		if err := markVisible(ctx, tx, ev.ConversationID, ids); err != nil {
			return false, false, nil, err
		}
		ids = nil
	}
	return true, released, ids, nil
}

// insertBotMessages stores replies with keys "<keyPrefix>:<index>". A key
// seen before is skipped, so a retried producer adds nothing.
func insertBotMessages(ctx context.Context, tx pgx.Tx, conversationID int64, eventID *int64, keyPrefix string, replies []hearth.Outbound) ([]int64, error) {
	ids := make([]int64, 0, len(replies))
	for i, r := range replies {
		buttons := r.Buttons
		if buttons == nil {
			buttons = []hearth.Button{}
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
func (s *Store) FailEvent(ctx context.Context, ev hearth.InboundEvent, reason string) error {
	_, err := s.pool.Exec(ctx, `UPDATE inbound_events SET attempts = attempts + 1, last_error = $2 WHERE id = $1`, ev.ID, reason)
	if err != nil {
		return fmt.Errorf("store fail event %d: %w", ev.ID, translate(err))
	}
	return nil
}
