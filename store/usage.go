package store

import (
	"context"
	"fmt"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/jackc/pgx/v5"
)

// RecordUsage stores usage rows. Rows are only ever added: a turn that
// fails and is retried spent its tokens twice, and both attempts count.
func (s *Store) RecordUsage(ctx context.Context, rows []hearth.Usage) error {
	if len(rows) == 0 {
		return nil
	}
	_, err := s.pool.CopyFrom(ctx, pgx.Identifier{"llm_usage"},
		[]string{"user_id", "event_id", "day", "stage", "provider", "model", "calls", "input_tokens", "output_tokens", "latency_ms", "cost_usd", "error"},
		pgx.CopyFromSlice(len(rows), func(i int) ([]any, error) {
			u := rows[i]
			return []any{nullID(u.UserID), nullID(u.EventID), dateOf(u.Day), u.Stage, u.Provider, u.Model,
				u.Calls, u.InputTokens, u.OutputTokens, u.Latency.Milliseconds(), u.CostUSD, u.Error}, nil
		}))
	if err != nil {
		return fmt.Errorf("store record usage: %w", translate(err))
	}
	return nil
}

// UsageOn sums a user's usage on their local day.
func (s *Store) UsageOn(ctx context.Context, userID int64, day time.Time) (hearth.UsageTotals, error) {
	var t hearth.UsageTotals
	err := s.pool.QueryRow(ctx, `
		SELECT coalesce(sum(calls), 0), coalesce(sum(input_tokens), 0), coalesce(sum(output_tokens), 0), coalesce(sum(cost_usd), 0)::float8
		FROM llm_usage WHERE user_id = $1 AND day = $2`, userID, dateOf(day)).Scan(&t.Calls, &t.InputTokens, &t.OutputTokens, &t.CostUSD)
	if err != nil {
		return hearth.UsageTotals{}, fmt.Errorf("store usage of user %d: %w", userID, translate(err))
	}
	return t, nil
}

// UsageNoted reports whether a row of the given stage exists for the user on
// day: the budget notice is given once a day by recording a "budget" row.
func (s *Store) UsageNoted(ctx context.Context, userID int64, day time.Time, stage string) (bool, error) {
	var ok bool
	err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM llm_usage WHERE user_id = $1 AND day = $2 AND stage = $3)`,
		userID, dateOf(day), stage).Scan(&ok)
	if err != nil {
		return false, fmt.Errorf("store usage noted: %w", translate(err))
	}
	return ok, nil
}

// dateOf is t's wall-clock date, as a midnight UTC time pgx sends as a date.
func dateOf(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

func nullID(id int64) any {
	if id <= 0 {
		return nil
	}
	return id
}

// UsageSince sums model use per user and day from since's date on,
// newest day first, then most tokens first.
func (s *Store) UsageSince(ctx context.Context, since time.Time) ([]hearth.DailyUsage, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT coalesce(u.user_id, 0), coalesce(us.display_name, ''), u.day,
			sum(u.calls), sum(u.input_tokens), sum(u.output_tokens), sum(u.cost_usd)::float8
		FROM llm_usage u LEFT JOIN users us ON us.id = u.user_id
		WHERE u.day >= $1
		GROUP BY 1, 2, 3
		ORDER BY u.day DESC, sum(u.input_tokens + u.output_tokens) DESC, 1`, dateOf(since))
	if err != nil {
		return nil, fmt.Errorf("store usage since: %w", translate(err))
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.DailyUsage, error) {
		var d hearth.DailyUsage
		err := r.Scan(&d.UserID, &d.User, &d.Day, &d.Calls, &d.InputTokens, &d.OutputTokens, &d.CostUSD)
		return d, err
	})
	if err != nil {
		return nil, fmt.Errorf("store usage since: %w", translate(err))
	}
	return out, nil
}
