package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hearthbot/hearth"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// SaveTrace stores a turn's trace; a retried turn overwrites its own.
func (s *Store) SaveTrace(ctx context.Context, t hearth.Trace) error {
	return saveTrace(ctx, s.pool, t)
}

// SaveTraceTx is SaveTrace inside tx: with the turn's replies, a trace
// costs no commit of its own.
func (s *Store) SaveTraceTx(ctx context.Context, tx pgx.Tx, t hearth.Trace) error {
	return saveTrace(ctx, tx, t)
}

func saveTrace(ctx context.Context, db interface {
	Exec(context.Context, string, ...any) (pgconn.CommandTag, error)
}, t hearth.Trace) error {
	args := traceArgs(&t)
	_, err := db.Exec(ctx, traceInsert+` VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) `+traceConflict,
		append([]any{t.EventID, t.ConversationID}, args...)...)
	if err != nil {
		return fmt.Errorf("store save trace: %w", translate(err))
	}
	return nil
}

// traceInsert and traceConflict frame a trace's row (event, conversation,
// then traceArgs' values but the first); a retried turn's trace replaces
// the one before.
const (
	traceInsert   = `INSERT INTO turn_traces (event_id, conversation_id, user_id, intent, domains, confidence, timings, actions, model_calls, input_tokens, output_tokens, models)`
	traceConflict = `ON CONFLICT (event_id) DO UPDATE SET intent = EXCLUDED.intent, domains = EXCLUDED.domains, confidence = EXCLUDED.confidence,
			timings = EXCLUDED.timings, actions = EXCLUDED.actions, model_calls = EXCLUDED.model_calls,
			input_tokens = EXCLUDED.input_tokens, output_tokens = EXCLUDED.output_tokens, models = EXCLUDED.models, created_at = now()`
)

// traceArgs is a trace's values after its event and conversation: user,
// intent, domains, confidence, timings, actions, model calls, tokens in
// and out, models. Without a trace they are all null.
func traceArgs(t *hearth.Trace) []any {
	if t == nil {
		return make([]any, 10)
	}
	timings, _ := json.Marshal(t.Timings) // maps of ints always marshal
	actions, _ := json.Marshal(t.Actions)
	models, _ := json.Marshal(t.Models)
	if t.Models == nil {
		models = []byte("[]")
	}
	domains := t.Domains
	if domains == nil {
		domains = []string{}
	}
	return []any{t.UserID, t.Intent, domains, t.Confidence, timings, actions, t.ModelCalls, t.InputTokens, t.OutputTokens, models}
}

// RecentTraces returns the newest n traces, newest first.
func (s *Store) RecentTraces(ctx context.Context, n int) ([]hearth.Trace, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT event_id, conversation_id, user_id, intent, domains, confidence, timings, actions, model_calls, input_tokens, output_tokens, models, created_at
		FROM turn_traces ORDER BY created_at DESC, event_id DESC LIMIT $1`, n)
	if err != nil {
		return nil, fmt.Errorf("store recent traces: %w", translate(err))
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (hearth.Trace, error) {
		var t hearth.Trace
		var conf float32
		err := row.Scan(&t.EventID, &t.ConversationID, &t.UserID, &t.Intent, &t.Domains, &conf, &t.Timings, &t.Actions, &t.ModelCalls, &t.InputTokens, &t.OutputTokens, &t.Models, &t.CreatedAt)
		t.Confidence = float64(conf)
		return t, err
	})
	if err != nil {
		return nil, fmt.Errorf("store recent traces: %w", translate(err))
	}
	return out, nil
}
