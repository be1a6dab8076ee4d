package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

// NotifyChannel is the Postgres notification channel on which the id of a
// conversation is published whenever a message in it becomes visible, so
// live views on any replica can refresh.
const NotifyChannel = "hearth_messages"

// AcceptInboundTx stores an inbound event in tx: the event, its
// transcript line, and (when new) its user, identity and conversation.
// The caller owns tx, so the turn job it enqueues commits with the event.
// A duplicate (same channel and external id) writes nothing and returns
// the first event's receipt with Duplicate set; the caller rolls back. A
// first contact racing another for the same identity is hearth.ErrConflict:
// the caller retries in a new transaction, which finds the identity.
func (s *Store) AcceptInboundTx(ctx context.Context, tx pgx.Tx, in hearth.Inbound) (hearth.Receipt, error) {
	r, err := acceptInbound(ctx, tx, in)
	if errors.Is(err, errIdentityRace) {
		err = hearth.ErrConflict
	}
	if err != nil {
		return hearth.Receipt{}, fmt.Errorf("store accept: %w", translate(err))
	}
	return r, nil
}

// Commit commits a transaction the caller owns, with the store's error
// translation (an unreachable database is hearth.ErrUnavailable).
func (s *Store) Commit(ctx context.Context, tx pgx.Tx) error {
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("store commit: %w", translate(err))
	}
	return nil
}

func acceptInbound(ctx context.Context, tx pgx.Tx, in hearth.Inbound) (hearth.Receipt, error) {
	switch in.Kind {
	case hearth.KindMessage:
		r, known, err := acceptKnownMessage(ctx, tx, in)
		if known || err != nil {
			return r, err
		}
	case hearth.KindButton:
		// A repeated click is acknowledged as the duplicate it is, even
		// when the prompt has been answered since.
		if r, err := existingReceipt(ctx, tx, in); err == nil {
			return r, nil
		} else if !errors.Is(err, pgx.ErrNoRows) {
			return hearth.Receipt{}, err
		}
	}
	return acceptGeneral(ctx, tx, in)
}

// acceptKnownMessage is the common case, a message from a user Hearth
// already knows, in one statement: ingress is bound by round trips to the
// database, and this halves them. known is false when the sender or the
// conversation is new; nothing was written then.
func acceptKnownMessage(ctx context.Context, tx pgx.Tx, in hearth.Inbound) (hearth.Receipt, bool, error) {
	var k knownMessage
	if err := tx.QueryRow(ctx, knownMessageSQL, knownMessageArgs(in)...).Scan(k.dest()...); err != nil {
		return hearth.Receipt{}, true, fmt.Errorf("insert event: %w", err)
	}
	return k.receipt(ctx, tx, in)
}

// knownMessageSQL stores a message from a known sender in a known
// conversation; it writes nothing (and returns a null conversation) when
// either is new, and a null event when the message is a duplicate.
const knownMessageSQL = knownMessageCTEs + knownMessageResult

// knownMessageJobSQL is knownMessageSQL that also enqueues the message's
// turn job, River's row written as River's clients write it ($8 kind, $9
// queue, $10 max attempts; priority, metadata and tags their defaults).
const knownMessageJobSQL = knownMessageCTEs + `, j AS (
			INSERT INTO river_job (args, kind, queue, max_attempts, state, scheduled_at)
			SELECT jsonb_build_object('conversation_id', conversation_id, 'event_id', id), $8, $9, $10, 'available', now()
			FROM e
		)` + knownMessageResult

const knownMessageCTEs = `
		WITH c AS (
			SELECT c.id AS conversation_id, c.user_id
			FROM identities i
			JOIN conversations c ON c.channel = i.channel AND c.external_id = $3 AND c.user_id = i.user_id
			WHERE i.channel = $1 AND i.external_id = $2
		), zone AS (
			UPDATE users SET timezone = $4, updated_at = now()
			FROM c WHERE users.id = c.user_id AND $4 <> '' AND users.timezone IS DISTINCT FROM $4
			RETURNING users.id
		), e AS (
			INSERT INTO inbound_events (channel, external_id, conversation_id, user_id, kind, text, payload)
			SELECT $1, $5, c.conversation_id, c.user_id, 'message', $6, $7 FROM c
			ON CONFLICT (channel, external_id) DO NOTHING
			RETURNING id, conversation_id
		), m AS (
			INSERT INTO messages (conversation_id, sender, inbound_event_id, text, seq, delivered_at)
			SELECT conversation_id, 'user', id, $6, nextval('message_seq'), now() FROM e
			RETURNING id
		)`

const knownMessageResult = `
		SELECT (SELECT conversation_id FROM c), (SELECT user_id FROM c), (SELECT id FROM e), (SELECT id FROM m)`

// riverInsertNotifySQL sends River's insert notification, payload $1 (see
// riverInsertPayload), on the topic its producers listen on,
// schema-qualified as River's client qualifies it.
const riverInsertNotifySQL = `SELECT pg_notify(current_schema() || '.river_insert', $1)`

// riverInsertPayload is River's insert notification's payload for queue.
func riverInsertPayload(queue string) string { return fmt.Sprintf(`{"queue": %q}`, queue) }

func knownMessageArgs(in hearth.Inbound) []any {
	return []any{in.Channel, in.UserKey, in.ConversationKey, in.Timezone, in.ExternalID, in.Text, payloadOf(in)}
}

// knownMessage is knownMessageSQL's row.
type knownMessage struct{ conv, user, event, message *int64 }

func (k *knownMessage) dest() []any { return []any{&k.conv, &k.user, &k.event, &k.message} }

// receipt finishes what the row says: a duplicate's receipt is read, a
// new sender or conversation is left to the general path (known false).
func (k *knownMessage) receipt(ctx context.Context, tx rowQuerier, in hearth.Inbound) (hearth.Receipt, bool, error) {
	if k.conv == nil {
		return hearth.Receipt{}, false, nil // a new user or conversation: the general path creates them
	}
	if k.event == nil {
		r, err := existingReceipt(ctx, tx, in)
		return r, true, err
	}
	return hearth.Receipt{ConversationID: *k.conv, UserID: *k.user, EventID: *k.event, MessageID: *k.message}, true, nil
}

// StoreMessages stores inbound messages as AcceptInboundTx stores each,
// each with its turn job (written as job says), for ingress's group
// commit: those from a known sender in a known conversation (the common
// case) go to the database in one round trip and commit together, in the
// batch's implicit transaction, with River's insert notification when
// job.Notify is set. known[i] is false when the sender or the conversation
// of ins[i] is new: nothing was written for it, and the caller accepts it
// on its own (AcceptInboundTx creates them). A duplicate's receipt has
// Duplicate set; it is read after the commit, so an error reading it
// comes with the others stored: accepted again, they are duplicates.
// Every event must be a message. Any other error stored nothing.
func (s *Store) StoreMessages(ctx context.Context, ins []hearth.Inbound, job hearth.TurnJob) (rs []hearth.Receipt, known []bool, err error) {
	for i, in := range ins {
		if in.Kind != hearth.KindMessage {
			return nil, nil, fmt.Errorf("store accept: event %d is a %s, not a message", i, in.Kind)
		}
	}
	rows := make([]knownMessage, len(ins))
	b := &pgx.Batch{}
	for i, in := range ins {
		args := append(knownMessageArgs(in), job.Kind, job.Queue, job.MaxAttempts)
		b.Queue(knownMessageJobSQL, args...).QueryRow(func(row pgx.Row) error {
			return row.Scan(rows[i].dest()...)
		})
	}
	if job.Notify {
		b.Queue(riverInsertNotifySQL, riverInsertPayload(job.Queue))
	}
	if err := s.pool.SendBatch(ctx, b).Close(); err != nil {
		return nil, nil, fmt.Errorf("store accept: insert events: %w", translate(err))
	}
	rs, known = make([]hearth.Receipt, len(ins)), make([]bool, len(ins))
	for i, in := range ins {
		// A duplicate's receipt is read after the commit: within the
		// batch a copy of an earlier message of it is a duplicate too.
		rs[i], known[i], err = rows[i].receipt(ctx, s.pool, in)
		if err != nil {
			return nil, nil, fmt.Errorf("store accept: %w", translate(err))
		}
	}
	return rs, known, nil
}

func payloadOf(in hearth.Inbound) json.RawMessage {
	if len(in.Payload) == 0 {
		return json.RawMessage("{}")
	}
	return in.Payload
}

// acceptGeneral creates whatever is missing (user, identity,
// conversation) and checks button clicks against the offered buttons.
func acceptGeneral(ctx context.Context, tx pgx.Tx, in hearth.Inbound) (hearth.Receipt, error) {
	var r hearth.Receipt
	c, err := upsertContact(ctx, tx, in.Channel, in.UserKey, in.UserName, in.ConversationKey, in.Timezone)
	if err != nil {
		return r, err
	}
	r.ConversationID, r.UserID = c.ConversationID, c.User.ID
	var messageID *int64
	if in.Kind == hearth.KindButton {
		if err := checkButton(ctx, tx, c.ConversationID, in.MessageID, in.ButtonID); err != nil {
			return r, err
		}
		messageID = &in.MessageID
	}
	err = tx.QueryRow(ctx, `
		INSERT INTO inbound_events (channel, external_id, conversation_id, user_id, kind, text, message_id, button_id, payload)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
		ON CONFLICT (channel, external_id) DO NOTHING
		RETURNING id`,
		in.Channel, in.ExternalID, c.ConversationID, c.User.ID, in.Kind, in.Text, messageID, in.ButtonID, payloadOf(in)).
		Scan(&r.EventID)
	if errors.Is(err, pgx.ErrNoRows) {
		return existingReceipt(ctx, tx, in)
	}
	if err != nil {
		return r, fmt.Errorf("insert event: %w", err)
	}
	if in.Kind == hearth.KindVoice {
		if err := insertVoiceNote(ctx, tx, r.EventID, in.Audio); err != nil {
			return r, err
		}
	}
	if in.Kind == hearth.KindFile {
		if err := insertImportFile(ctx, tx, r.EventID, in.File); err != nil {
			return r, err
		}
	}
	if in.Kind == hearth.KindMessage || in.Kind == hearth.KindVoice || in.Kind == hearth.KindCommand || in.Kind == hearth.KindFile {
		// No NOTIFY here: Postgres serialises the commits of notifying
		// transactions, which halves ingress throughput. Live views
		// see the user's line with the bot's reply (which notifies),
		// and the sender's own page shows it at once.
		err = tx.QueryRow(ctx, `
			INSERT INTO messages (conversation_id, sender, inbound_event_id, text, seq, delivered_at)
			VALUES ($1, 'user', $2, $3, nextval('message_seq'), now())
			RETURNING id`,
			c.ConversationID, r.EventID, transcriptLine(in)).Scan(&r.MessageID)
		if err != nil {
			return r, fmt.Errorf("insert message: %w", err)
		}
	}
	return r, nil
}

// existingReceipt reads the receipt of the event accepted before, with a
// statement of its own so that it sees a concurrent first accept that the
// insert waited for.
func existingReceipt(ctx context.Context, tx rowQuerier, in hearth.Inbound) (hearth.Receipt, error) {
	r := hearth.Receipt{Duplicate: true}
	var messageID *int64
	err := tx.QueryRow(ctx, `
		SELECT e.id, e.conversation_id, e.user_id, m.id
		FROM inbound_events e
		LEFT JOIN messages m ON m.inbound_event_id = e.id AND m.sender = 'user'
		WHERE e.channel = $1 AND e.external_id = $2`, in.Channel, in.ExternalID).
		Scan(&r.EventID, &r.ConversationID, &r.UserID, &messageID)
	if errors.Is(err, pgx.ErrNoRows) {
		return hearth.Receipt{}, err
	}
	if err != nil {
		return hearth.Receipt{}, fmt.Errorf("store accept: find duplicate: %w", translate(err))
	}
	if messageID != nil {
		r.MessageID = *messageID
	}
	return r, nil
}

// checkButton makes sure the clicked button was offered by a bot message
// of this conversation, so a click cannot name another user's message. It
// does not wait for the message to be recorded as delivered: the platform
// shows it (and a quick thumb can click it) a moment before that commits.
func checkButton(ctx context.Context, tx pgx.Tx, conversationID, messageID int64, buttonID string) error {
	var buttons []hearth.Button
	err := tx.QueryRow(ctx, `
		SELECT buttons FROM messages
		WHERE id = $1 AND conversation_id = $2 AND sender = 'bot'`,
		messageID, conversationID).Scan(&buttons)
	if errors.Is(err, pgx.ErrNoRows) {
		return hearth.Invalidf("message %d is not a bot message in this conversation", messageID)
	}
	if err != nil {
		return fmt.Errorf("find button message: %w", err)
	}
	if !slices.ContainsFunc(buttons, func(b hearth.Button) bool { return b.ID == buttonID }) {
		return hearth.Invalidf("message %d has no button %q", messageID, buttonID)
	}
	return nil
}
