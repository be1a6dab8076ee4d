package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

// Delivery loads a bot message for sending.
func (s *Store) Delivery(ctx context.Context, messageID int64) (hearth.Delivery, error) {
	d, _, _, err := s.TakeDelivery(ctx, messageID, "", 0, false)
	return d, err
}

// deliveryColumns are what a deliver job sends of bot message m in
// conversation c, in hearth.Delivery's order up to Buttons (closed
// buttons are sent as none).
const deliveryColumns = `m.id, m.conversation_id, c.channel, c.external_id, m.text,
	CASE WHEN m.buttons_closed_at IS NULL THEN m.buttons ELSE '[]' END AS buttons`

// earlierUndelivered is whether conversation conv has a bot message older
// than id, written within window (an interval), that is not delivered:
// the deliver jobs keep a conversation's messages in order with it.
func earlierUndelivered(conv, id, window string) string {
	return `EXISTS (SELECT 1 FROM messages e
		WHERE e.conversation_id = ` + conv + ` AND e.sender = 'bot' AND e.id < ` + id + ` AND e.delivered_at IS NULL
		  AND e.created_at > now() - ` + window + `::interval)`
}

// TakeDelivery reads message messageID for its deliver job, in one
// statement: the message, whether an earlier bot message of its
// conversation written within window is still undelivered, and, when
// claim is set and none is, the claim to send it for claimant (see
// ClaimDelivery). A message that is not a bot's is hearth.ErrNotFound.
func (s *Store) TakeDelivery(ctx context.Context, messageID int64, claimant string, window time.Duration, claim bool) (d hearth.Delivery, earlier, claimed bool, err error) {
	var delivered *time.Time
	err = s.pool.QueryRow(ctx, `
		WITH d AS (
			SELECT `+deliveryColumns+`, m.delivered_at, m.platform_message_id
			FROM messages m JOIN conversations c ON c.id = m.conversation_id
			WHERE m.id = $1 AND m.sender = 'bot'
		),
		earlier AS (
			SELECT `+earlierUndelivered("(SELECT conversation_id FROM d)", "$1", "$3")+` AS pending
		),
		claim AS (
			UPDATE messages m SET send_claimed_by = $2, send_claimed_at = now()
			-- Not "sender = 'bot'" (d says so): that would let the planner
			-- take messages_undelivered for the id and read the whole
			-- backlog (2 ms a delivery with 100,000 on their way).
			WHERE $4 AND m.id = $1 AND EXISTS (SELECT 1 FROM d) AND m.delivered_at IS NULL AND NOT (SELECT pending FROM earlier)
			  AND `+claimable("m", "$5")+`
			RETURNING m.id
		)
		SELECT d.*, (SELECT pending FROM earlier), EXISTS (SELECT 1 FROM claim) FROM d`,
		messageID, claimant, window, claim, deliveryClaimMaxAge).
		Scan(&d.MessageID, &d.ConversationID, &d.Channel, &d.ConversationKey, &d.Text, &d.Buttons, &delivered, &d.PlatformMessageID, &earlier, &claimed)
	if errors.Is(err, pgx.ErrNoRows) {
		return hearth.Delivery{}, false, false, fmt.Errorf("store take delivery %d: %w", messageID, hearth.ErrNotFound)
	}
	if err != nil {
		return hearth.Delivery{}, false, false, fmt.Errorf("store take delivery %d: %w", messageID, translate(err))
	}
	if delivered != nil {
		d.DeliveredAt = *delivered
	}
	return d, earlier, claimed, nil
}

// ClaimDeliveries claims, in one statement, those of the bot messages ids
// that can be sent now for claimant (a job delivering several): not
// delivered, no earlier bot message of their conversation written within
// window still undelivered (another of ids counts), and no live claim on
// them (see ClaimDelivery). It returns them, in the order of ids, and the
// ids of the others that are not delivered yet: each needs a job of its
// own, which waits for what it must. Ids of no bot message are in
// neither.
func (s *Store) ClaimDeliveries(ctx context.Context, ids []int64, claimant string, window time.Duration) (claimed []hearth.Delivery, others []int64, err error) {
	rows, err := s.pool.Query(ctx, `
		WITH d AS (
			SELECT `+deliveryColumns+`, m.delivered_at IS NULL AS undelivered,
			       `+earlierUndelivered("m.conversation_id", "m.id", "$3")+` AS pending
			FROM messages m JOIN conversations c ON c.id = m.conversation_id
			WHERE m.id = ANY($1) AND m.sender = 'bot'
		),
		claim AS (
			UPDATE messages m SET send_claimed_by = $2, send_claimed_at = now()
			FROM d WHERE m.id = d.id AND d.undelivered AND NOT d.pending AND m.delivered_at IS NULL
			  AND `+claimable("m", "$4")+`
			RETURNING m.id
		)
		SELECT d.id, d.conversation_id, d.channel, d.external_id, d.text, d.buttons, claim.id IS NOT NULL
		FROM d LEFT JOIN claim ON claim.id = d.id
		WHERE d.undelivered
		ORDER BY array_position($1, d.id)`, ids, claimant, window, deliveryClaimMaxAge)
	if err != nil {
		return nil, nil, fmt.Errorf("store claim deliveries: %w", translate(err))
	}
	var d hearth.Delivery
	var ok bool
	_, err = pgx.ForEachRow(rows, []any{&d.MessageID, &d.ConversationID, &d.Channel, &d.ConversationKey, &d.Text, &d.Buttons, &ok}, func() error {
		if ok {
			claimed = append(claimed, d)
		} else {
			others = append(others, d.MessageID)
		}
		d = hearth.Delivery{}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("store claim deliveries: %w", translate(err))
	}
	return claimed, others, nil
}

// MarkDelivered records the platform's id for a message and gives it its
// place in the transcript, once. The caller tells live views after it
// (NotifyConversation).
func (s *Store) MarkDelivered(ctx context.Context, messageID int64, platformMessageID string) error {
	_, err := s.pool.Exec(ctx, `
		UPDATE messages SET delivered_at = now(), platform_message_id = $2, seq = nextval('message_seq')
		WHERE id = $1 AND delivered_at IS NULL`, messageID, platformMessageID)
	if err != nil {
		return fmt.Errorf("store mark delivered %d: %w", messageID, translate(err))
	}
	return nil
}

// EarlierUndelivered reports whether conversationID has a bot message
// older than messageID, created within window, not delivered yet: the
// deliver worker keeps a conversation's replies in order with it.
func (s *Store) EarlierUndelivered(ctx context.Context, conversationID, messageID int64, window time.Duration) (bool, error) {
	var pending bool
	err := s.pool.QueryRow(ctx, `SELECT `+earlierUndelivered("$1", "$2", "$3"), conversationID, messageID, window).Scan(&pending)
	if err != nil {
		return false, fmt.Errorf("store earlier undelivered %d: %w", messageID, translate(err))
	}
	return pending, nil
}

// Messages returns up to limit visible messages of a conversation with a
// seq greater than after, oldest first.
func (s *Store) Messages(ctx context.Context, conversationID, after int64, limit int) ([]hearth.Message, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT id, conversation_id, seq, sender, text, CASE WHEN buttons_closed_at IS NULL THEN buttons ELSE '[]' END, created_at
		FROM messages
		WHERE conversation_id = $1 AND seq > $2
		ORDER BY seq
		LIMIT $3`, conversationID, after, limit)
	if err != nil {
		return nil, fmt.Errorf("store messages: %w", translate(err))
	}
	msgs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (hearth.Message, error) {
		var m hearth.Message
		err := row.Scan(&m.ID, &m.ConversationID, &m.Seq, &m.From, &m.Text, &m.Buttons, &m.CreatedAt)
		return m, err
	})
	if err != nil {
		return nil, fmt.Errorf("store messages: %w", translate(err))
	}
	return msgs, nil
}

// RecentMessages returns the last n visible messages of a conversation,
// oldest first, for a turn's context.
func (s *Store) RecentMessages(ctx context.Context, conversationID int64, n int) ([]hearth.Message, error) {
	rows, err := s.pool.Query(ctx, recentMessagesOf("$2"), conversationID, n)
	if err != nil {
		return nil, fmt.Errorf("store recent messages: %w", translate(err))
	}
	msgs, err := collectRecent(rows)
	if err != nil {
		return nil, fmt.Errorf("store recent messages: %w", translate(err))
	}
	return msgs, nil
}

// recentMessagesOf selects the last visible messages of conversation $1,
// as many as the parameter limit names, oldest first.
func recentMessagesOf(limit string) string {
	return `
		SELECT * FROM (
			SELECT id, conversation_id, seq, sender, text, CASE WHEN buttons_closed_at IS NULL THEN buttons ELSE '[]' END AS buttons,
			       created_at, COALESCE(inbound_event_id, 0) AS event_id
			FROM messages
			WHERE conversation_id = $1 AND seq IS NOT NULL
			ORDER BY seq DESC
			LIMIT ` + limit + `
		) recent ORDER BY seq`
}

func collectRecent(rows pgx.Rows) ([]hearth.Message, error) {
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (hearth.Message, error) {
		var m hearth.Message
		err := row.Scan(&m.ID, &m.ConversationID, &m.Seq, &m.From, &m.Text, &m.Buttons, &m.CreatedAt, &m.EventID)
		return m, err
	})
}

// TurnOpening reads, in one statement, what every message turn starts
// from: the id of userID's pending approval in the conversation (0 if
// none; PendingApproval reads it whole), its open question (decoded into
// q; 0 if none; see OpenQuestion) and its last n visible messages,
// oldest first (RecentMessages).
//
// One statement rather than two in a batch: every turn runs it, and each
// statement costs the server its own start-up (a snapshot, an executor,
// locks taken and let go). The approval and question ride on every
// message row (the row with no message when there is none), a few bytes
// more for a statement fewer.
func (s *Store) TurnOpening(ctx context.Context, conversationID, userID int64, n int, q any) (approvalID, questionID int64, recent []hearth.Message, err error) {
	rows, err := s.pool.Query(ctx, `
		SELECT o.approval, o.qid, o.question, m.id, m.conversation_id, m.seq, m.sender, m.text, m.buttons, m.created_at, m.event_id
		FROM (
			SELECT (SELECT COALESCE(max(id), 0) FROM approvals WHERE `+pendingApprovalOf+`) AS approval, q.id AS qid, q.question
			FROM (SELECT) one LEFT JOIN LATERAL (`+openQuestionSQL+`) q ON true
		) o LEFT JOIN LATERAL (`+recentMessagesOf("$3")+`) m ON true
		ORDER BY m.seq`, conversationID, userID, n)
	if err != nil {
		return 0, 0, nil, fmt.Errorf("store turn opening: %w", translate(err))
	}
	var (
		qid *int64
		raw []byte
	)
	for rows.Next() {
		// The message columns are null on the row with no message.
		var (
			m             hearth.Message
			id, conv, seq *int64
			from          *hearth.Author
			text          *string
			at            *time.Time
			event         *int64
		)
		if err := rows.Scan(&approvalID, &qid, &raw, &id, &conv, &seq, &from, &text, &m.Buttons, &at, &event); err != nil {
			rows.Close()
			return 0, 0, nil, fmt.Errorf("store turn opening: %w", translate(err))
		}
		if id != nil {
			m.ID, m.ConversationID, m.Seq, m.From, m.Text, m.CreatedAt, m.EventID = *id, *conv, *seq, *from, *text, *at, *event
			recent = append(recent, m)
		}
	}
	if err := rows.Err(); err != nil {
		return 0, 0, nil, fmt.Errorf("store turn opening: %w", translate(err))
	}
	if qid != nil {
		questionID = *qid
		if err := json.Unmarshal(raw, q); err != nil {
			return 0, 0, nil, fmt.Errorf("store open question %d: %w", questionID, err)
		}
	}
	return approvalID, questionID, recent, nil
}

// EditMessageWithButton appends an outcome line to the conversation's bot
// message that offered buttonID (an approval or a question) and closes
// its buttons. The edit gets a new place in the transcript so live views
// receive it again and replace what they show. It returns the ids of the
// messages edited, for platforms that must be told (see pipeline.Editor).
func (s *Store) EditMessageWithButton(ctx context.Context, conversationID int64, buttonID, text string) ([]int64, error) {
	return editMessageWithButton(ctx, s.pool, conversationID, buttonID, text)
}

// EditMessageWithButtonTx is EditMessageWithButton inside tx.
func (s *Store) EditMessageWithButtonTx(ctx context.Context, tx pgx.Tx, conversationID int64, buttonID, text string) ([]int64, error) {
	return editMessageWithButton(ctx, tx, conversationID, buttonID, text)
}

func editMessageWithButton(ctx context.Context, db interface {
	Query(context.Context, string, ...any) (pgx.Rows, error)
}, conversationID int64, buttonID, text string) ([]int64, error) {
	rows, err := db.Query(ctx, `
		WITH m AS (
			UPDATE messages SET text = text || E'\n\n' || $3, buttons_closed_at = now(),
			       seq = CASE WHEN seq IS NULL THEN NULL ELSE nextval('message_seq') END
			WHERE conversation_id = $1 AND sender = 'bot' AND buttons_closed_at IS NULL
			  AND buttons @> jsonb_build_array(jsonb_build_object('id', $2::text))
			RETURNING id, conversation_id, seq
		), n AS (
			SELECT pg_notify($4, conversation_id::text) FROM m WHERE seq IS NOT NULL LIMIT 1
		)
		SELECT id FROM m LEFT JOIN n ON true`, conversationID, buttonID, text, NotifyChannel)
	if err != nil {
		return nil, fmt.Errorf("store edit message: %w", translate(err))
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("store edit message: %w", translate(err))
	}
	return ids, nil
}
