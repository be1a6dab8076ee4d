package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

// SaveQuestion stores the question a turn asked; q is its JSON form (the
// caller's type). Asking again for the same event changes nothing.
func (s *Store) SaveQuestion(ctx context.Context, eventID, conversationID int64, q any) (int64, error) {
	b, err := json.Marshal(q)
	if err != nil {
		return 0, fmt.Errorf("store save question: %w", err)
	}
	var id int64
	err = s.pool.QueryRow(ctx, `
		WITH ins AS (
			INSERT INTO open_questions (event_id, conversation_id, question) VALUES ($1, $2, $3)
			ON CONFLICT (event_id) DO NOTHING RETURNING id
		)
		SELECT id FROM ins UNION ALL SELECT id FROM open_questions WHERE event_id = $1 LIMIT 1`,
		eventID, conversationID, b).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("store save question: %w", translate(err))
	}
	// Only the asker's newest question is open: an older one is no longer
	// what "the first one" refers to. (In a shared chat, another member's
	// question stays theirs.)
	if _, err := s.pool.Exec(ctx, `
		UPDATE open_questions q SET state = 'dropped'
		FROM inbound_events e, inbound_events asked
		WHERE q.conversation_id = $1 AND q.state = 'open' AND q.id < $2
		  AND e.id = q.event_id AND asked.id = $3 AND e.user_id = asked.user_id`, conversationID, id, eventID); err != nil {
		return 0, fmt.Errorf("store save question: %w", translate(err))
	}
	return id, nil
}

// OpenQuestion returns the open question the conversation asked userID,
// decoding it into q. A question belongs to whoever's message raised it:
// in a shared chat, another member cannot answer it.
func (s *Store) OpenQuestion(ctx context.Context, conversationID, userID int64, q any) (int64, bool, error) {
	var id int64
	var raw []byte
	err := s.pool.QueryRow(ctx, openQuestionSQL, conversationID, userID).Scan(&id, &raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("store open question: %w", translate(err))
	}
	if err := json.Unmarshal(raw, q); err != nil {
		return 0, false, fmt.Errorf("store open question %d: %w", id, err)
	}
	return id, true, nil
}

const openQuestionSQL = `
		SELECT q.id, q.question FROM open_questions q JOIN inbound_events e ON e.id = q.event_id
		WHERE q.conversation_id = $1 AND e.user_id = $2 AND q.state = 'open'
		ORDER BY q.id DESC LIMIT 1`

// Question loads question id of the conversation, asked of userID, into
// q, and whether it is still open. Another user's question is
// hearth.ErrNotFound.
func (s *Store) Question(ctx context.Context, conversationID, userID, id int64, q any) (open bool, err error) {
	var raw []byte
	var state string
	err = s.pool.QueryRow(ctx, `
		SELECT q.question, q.state FROM open_questions q JOIN inbound_events e ON e.id = q.event_id
		WHERE q.id = $1 AND q.conversation_id = $2 AND e.user_id = $3`, id, conversationID, userID).Scan(&raw, &state)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, fmt.Errorf("store question %d: %w", id, hearth.ErrNotFound)
	}
	if err != nil {
		return false, fmt.Errorf("store question %d: %w", id, translate(err))
	}
	return state == "open", json.Unmarshal(raw, q)
}

// AnswerQuestion closes an open question; false when it was not open.
func (s *Store) AnswerQuestion(ctx context.Context, id int64) (bool, error) {
	tag, err := s.pool.Exec(ctx, `UPDATE open_questions SET state = 'answered', answered_at = now() WHERE id = $1 AND state = 'open'`, id)
	if err != nil {
		return false, fmt.Errorf("store answer question %d: %w", id, translate(err))
	}
	return tag.RowsAffected() == 1, nil
}
