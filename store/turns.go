package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

// LeaseConversation takes (or renews) owner's right to answer the
// conversation for ttl and returns its oldest unprocessed event. The
// lease is refused (Leased false) when another owner's lease is still
// running, and not asked for when the owner's own event, eventID, was
// answered already (Answered: a turn drained the conversation before this
// job ran; 0 for none) unless the owner holds it still: a job that
// answered its event and died before it ended runs again, and must drain
// what its lease kept the other jobs from. Found is false when nothing is
// pending. A conversation that is gone (deleted with its events) is
// hearth.ErrNotFound.
//
// A job whose event was answered ends with this one round trip: under a
// backlog most jobs find their event drained by an earlier job of the
// conversation, and each took the lease and gave it back (two round trips
// and two writes of the conversation's row) to learn so.
//
// The event is read by a second statement on purpose. A lease taken the
// moment the previous holder's turn commits (the UPDATE waits for that
// row and then re-checks it) would, read in the same statement, see the
// events as they were before that commit, and answer the just-finished
// one again. The two statements go in one batch, one round trip: a batch
// runs as one implicit transaction, and under READ COMMITTED each of its
// statements still takes its own snapshot, so the read sees that commit.
// When the lease is not taken the read's row is simply not looked at.
func (s *Store) LeaseConversation(ctx context.Context, conversationID, eventID int64, owner string, ttl time.Duration) (l hearth.TurnLease, err error) {
	b := &pgx.Batch{}
	// The lease need not survive a database crash (the events it guards
	// are durable, and a lost lease is simply taken again), so its commit
	// does not wait for the WAL flush: one fsync fewer per turn. The
	// setting is local to the batch's transaction, which writes nothing
	// else.
	var answered *bool
	b.Queue(`
		WITH fast AS (SELECT set_config('synchronous_commit', 'off', true)),
		mine AS (SELECT processed_at IS NOT NULL AS answered FROM inbound_events WHERE id = $4),
		leased AS (
			UPDATE conversations SET turn_owner = $2, turn_lease_until = now() + $3::interval
			FROM fast
			WHERE id = $1 AND (turn_owner IS NULL OR turn_owner = $2 OR turn_lease_until < now())
			  AND (turn_owner = $2 OR NOT COALESCE((SELECT answered FROM mine), false))
			RETURNING id
		)
		SELECT EXISTS (SELECT 1 FROM leased), (SELECT answered FROM mine)`,
		conversationID, owner, ttl, eventID).QueryRow(func(row pgx.Row) error {
		return row.Scan(&l.Leased, &answered)
	})
	var msgID *int64
	var zone *string
	b.Queue(`
		SELECT e.id, e.channel, e.kind, e.text, e.message_id, e.button_id, e.received_at, e.attempts,
		       u.id, u.display_name, u.timezone
		FROM inbound_events e JOIN users u ON u.id = e.user_id
		WHERE e.conversation_id = $1 AND e.processed_at IS NULL
		ORDER BY e.id
		LIMIT 1`, conversationID).QueryRow(func(row pgx.Row) error {
		err := row.Scan(&l.Event.ID, &l.Event.Channel, &l.Event.Kind, &l.Event.Text, &msgID, &l.Event.ButtonID,
			&l.Event.ReceivedAt, &l.Event.Attempts, &l.User.ID, &l.User.DisplayName, &zone)
		l.Found = err == nil
		return noRowsIsNil(err)
	})
	if err := s.pool.SendBatch(ctx, b).Close(); err != nil {
		return hearth.TurnLease{}, fmt.Errorf("store lease conversation: %w", translate(err))
	}
	if answered != nil && *answered && !l.Leased {
		return hearth.TurnLease{Answered: true}, nil
	}
	if !l.Leased {
		// Leased by another, or gone: a job of a conversation deleted with
		// its events would otherwise wait for it forever. (The batch's
		// connection went back first: a worker holding one while it waits
		// for another would, with every worker doing so, wait for good.)
		var exists bool
		if err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM conversations WHERE id = $1)`, conversationID).Scan(&exists); err != nil {
			return hearth.TurnLease{}, fmt.Errorf("store lease conversation: %w", translate(err))
		}
		if !exists {
			return hearth.TurnLease{}, fmt.Errorf("store lease conversation %d: %w", conversationID, hearth.ErrNotFound)
		}
		return hearth.TurnLease{}, nil
	}
	if !l.Found {
		return hearth.TurnLease{Leased: true}, nil
	}
	l.Event.ConversationID = conversationID
	if msgID != nil {
		l.Event.MessageID = *msgID
	}
	if zone != nil {
		l.User.Timezone = *zone
	}
	return l, nil
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
// written then. It ends owner's lease when no other event of the
// conversation is waiting (released). With visible set the replies are
// stored delivered, visible in the transcript, and ids is empty (the
// caller tells live views after its commit: NotifyConversation);
// otherwise ids are the replies still to deliver.
//
// It is one statement, one round trip, on purpose: every turn commits
// through it. Each write is keyed on the event being marked processed
// here (done), so a retried job still writes nothing; the replies' keys
// ("event:<id>:<index>") still make a second insert of a reply a no-op.
// A visible reply is inserted delivered, with its transcript place (seq)
// taken in reply order, rather than inserted and then updated: a
// statement cannot update the rows it inserts.
func (s *Store) CompleteEventTx(ctx context.Context, tx pgx.Tx, ev hearth.InboundEvent, owner string, replies []hearth.Outbound, visible bool, trace *hearth.Trace) (done, released bool, ids []int64, err error) {
	done, released, ids, err = completeEvent(ctx, tx, ev, owner, replies, visible, trace)
	if visible {
		ids = nil // delivered by being committed
	}
	return done, released, ids, err
}

// CompleteEvent is CompleteEventTx for a turn that writes nothing else
// and whose replies are visible (delivered by being committed): its one
// statement commits by itself, so the turn costs no BEGIN and COMMIT
// round trips. The caller tells live views (NotifyConversation).
func (s *Store) CompleteEvent(ctx context.Context, ev hearth.InboundEvent, owner string, replies []hearth.Outbound, trace *hearth.Trace) (done, released bool, err error) {
	done, released, _, err = completeEvent(ctx, s.pool, ev, owner, replies, true, trace)
	return done, released, err
}

// rowQuerier is a transaction or the pool.
type rowQuerier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

func completeEvent(ctx context.Context, db rowQuerier, ev hearth.InboundEvent, owner string, replies []hearth.Outbound, visible bool, trace *hearth.Trace) (done, released bool, ids []int64, err error) {
	texts := make([]string, len(replies))
	buttons := make([]string, len(replies))
	for i, r := range replies {
		b := r.Buttons
		if b == nil {
			b = []hearth.Button{}
		}
		raw, err := json.Marshal(b)
		if err != nil {
			return false, false, nil, fmt.Errorf("store complete event %d: buttons: %w", ev.ID, err)
		}
		texts[i], buttons[i] = r.Text, string(raw)
	}
	err = db.QueryRow(ctx, `
		WITH done AS (
			UPDATE inbound_events SET processed_at = now() WHERE id = $1 AND processed_at IS NULL RETURNING id
		), released AS (
			UPDATE conversations SET turn_owner = NULL, turn_lease_until = NULL
			WHERE id = $2 AND turn_owner = $3 AND EXISTS (SELECT 1 FROM done)
			  AND NOT EXISTS (SELECT 1 FROM inbound_events WHERE conversation_id = $2 AND processed_at IS NULL AND id <> $1)
			RETURNING id
		), replies AS (
			SELECT nextval(pg_get_serial_sequence('messages', 'id')) AS id, r.text, r.buttons::jsonb AS buttons, r.n
			FROM unnest($4::text[], $5::text[]) WITH ORDINALITY AS r(text, buttons, n)
			WHERE EXISTS (SELECT 1 FROM done)
			ORDER BY r.n
		), ins AS (
			INSERT INTO messages (id, conversation_id, sender, inbound_event_id, idempotency_key, text, buttons,
			                      delivered_at, platform_message_id, seq)
			OVERRIDING SYSTEM VALUE
			SELECT id, $2, 'bot', $1, 'event:' || $1 || ':' || (n - 1), text, buttons,
			       CASE WHEN $6 THEN now() END, CASE WHEN $6 THEN 'transcript:' || id ELSE '' END,
			       CASE WHEN $6 THEN nextval('message_seq') END
			FROM replies ORDER BY n
			ON CONFLICT (idempotency_key) DO NOTHING
			RETURNING id
		), traced AS (
			`+traceInsert+`
			SELECT $1, $2, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16
			WHERE $7::bigint IS NOT NULL AND EXISTS (SELECT 1 FROM done)
			`+traceConflict+`
		)
		SELECT EXISTS (SELECT 1 FROM done), EXISTS (SELECT 1 FROM released), ARRAY(SELECT id FROM ins ORDER BY id)`,
		append([]any{ev.ID, ev.ConversationID, owner, texts, buttons, visible}, traceArgs(trace)...)...).
		Scan(&done, &released, &ids)
	if err != nil {
		return false, false, nil, fmt.Errorf("store complete event %d: %w", ev.ID, translate(err))
	}
	if !done {
		return false, false, nil, nil // nothing written: a retried job
	}
	return true, released, ids, nil
}

// FailEvent counts a failed attempt at ev and keeps the reason.
func (s *Store) FailEvent(ctx context.Context, ev hearth.InboundEvent, reason string) error {
	_, err := s.pool.Exec(ctx, `UPDATE inbound_events SET attempts = attempts + 1, last_error = $2 WHERE id = $1`, ev.ID, reason)
	if err != nil {
		return fmt.Errorf("store fail event %d: %w", ev.ID, translate(err))
	}
	return nil
}
