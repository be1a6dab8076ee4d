package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

// ReclaimJobs makes the jobs a replica was running when it died
// available again at once: the jobs still marked running whose last
// attempt was made by clientID. Called by that replica (a stable id, such
// as its pod name) before it starts working, so its unfinished turns do
// not wait for the stuck-job rescue. The claims its previous run held on
// messages it was sending are given up with them: under the same id the
// replica looks alive again, so no other replica would take them over
// (ClaimDelivery) until they aged out. It returns how many jobs it
// reclaimed.
func (s *Store) ReclaimJobs(ctx context.Context, clientID string) (int64, error) {
	var n int64
	err := s.pool.QueryRow(ctx, `
		WITH jobs AS (
			UPDATE river_job SET state = 'available', scheduled_at = now()
			WHERE state = 'running' AND attempted_by[array_upper(attempted_by, 1)] = $1
			RETURNING id
		), claims AS (
			UPDATE messages SET send_claimed_by = NULL, send_claimed_at = NULL
			WHERE send_claimed_by = $1 AND delivered_at IS NULL
		)
		SELECT count(*) FROM jobs`, clientID).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store reclaim jobs: %w", translate(err))
	}
	return n, nil
}

// FailedJob is a dead letter: a job River gave up on (discarded after its
// last attempt, or cancelled), with what it was working on.
type FailedJob struct {
	ID          int64
	Kind        string
	Queue       string
	State       string
	Attempt     int
	MaxAttempts int
	FinalizedAt time.Time
	// Error is the last attempt's error.
	Error string
	// Args is the job's arguments as stored (JSON).
	Args string
	// For a turn or a delivery: the conversation, the user and the
	// message it was about (the user's words for a turn, the reply for a
	// delivery).
	ConversationID int64
	User           string
	Text           string
}

// FailedJobs returns the newest dead letters first, at most limit.
func (s *Store) FailedJobs(ctx context.Context, limit int) ([]FailedJob, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT j.id, j.kind, j.queue, j.state::text, j.attempt, j.max_attempts, coalesce(j.finalized_at, j.created_at),
		       coalesce(j.errors[array_upper(j.errors, 1)]->>'error', ''), j.args::text,
		       coalesce(e.conversation_id, m.conversation_id, 0), coalesce(u.display_name, ''),
		       coalesce(e.text, m.text, '')
		FROM river_job j
		LEFT JOIN inbound_events e ON j.kind = 'turn' AND e.id = (j.args->>'event_id')::bigint
		LEFT JOIN messages m ON j.kind = 'deliver' AND m.id = (j.args->>'message_id')::bigint
		LEFT JOIN conversations c ON c.id = coalesce(e.conversation_id, m.conversation_id)
		LEFT JOIN users u ON u.id = c.user_id
		WHERE j.state IN ('discarded', 'cancelled')
		ORDER BY j.finalized_at DESC NULLS LAST, j.id DESC
		LIMIT $1`, limitOf(limit))
	if err != nil {
		return nil, fmt.Errorf("store failed jobs: %w", translate(err))
	}
	jobs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (FailedJob, error) {
		var j FailedJob
		err := r.Scan(&j.ID, &j.Kind, &j.Queue, &j.State, &j.Attempt, &j.MaxAttempts, &j.FinalizedAt,
			&j.Error, &j.Args, &j.ConversationID, &j.User, &j.Text)
		return j, err
	})
	if err != nil {
		return nil, fmt.Errorf("store failed jobs: %w", translate(err))
	}
	return jobs, nil
}

// RetryJob puts a dead letter back to work now, with its attempts
// counted afresh. A job that is not discarded or cancelled is
// hearth.ErrNotFound (a job still working or done is not retried).
func (s *Store) RetryJob(ctx context.Context, id int64) error {
	var kind string
	err := s.pool.QueryRow(ctx, `
		UPDATE river_job SET state = 'available', scheduled_at = now(), finalized_at = NULL,
			attempt = 0, max_attempts = greatest(max_attempts, 1)
		WHERE id = $1 AND state IN ('discarded', 'cancelled')
		RETURNING kind`, id).Scan(&kind)
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("store retry job %d: %w", id, hearth.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("store retry job %d: %w", id, translate(err))
	}
	return nil
}

// JobCount is how many jobs of a queue are in a state.
type JobCount struct {
	Queue string
	State string
	Count int64
}

// JobCounts returns the jobs per queue and state that are waiting,
// running or dead (available, scheduled, retryable, running, discarded,
// cancelled): queue depth and dead letters for the metrics.
func (s *Store) JobCounts(ctx context.Context) ([]JobCount, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT queue, state::text, count(*) FROM river_job
		WHERE state IN ('available', 'scheduled', 'retryable', 'running', 'discarded', 'cancelled')
		GROUP BY queue, state ORDER BY queue, state`)
	if err != nil {
		return nil, fmt.Errorf("store job counts: %w", translate(err))
	}
	counts, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (JobCount, error) {
		var c JobCount
		err := r.Scan(&c.Queue, &c.State, &c.Count)
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("store job counts: %w", translate(err))
	}
	return counts, nil
}
