package store

import (
	"context"
	"fmt"
	"time"
)

// Heartbeat records that replica id is alive now, and how long a silence
// makes it dead (staleAfter): the living take a dead replica's running
// jobs over (TakeOverJobs) and its claims on sends (ClaimDelivery).
// It has a connection of its own, so busy workers cannot delay it.
func (s *Store) Heartbeat(ctx context.Context, id string, staleAfter time.Duration) error {
	pool, err := s.beat(ctx)
	if err != nil {
		return fmt.Errorf("store heartbeat of replica %s: %w", id, translate(err))
	}
	_, err = pool.Exec(ctx, `
		INSERT INTO replicas (id, stale_after) VALUES ($1, $2::interval)
		ON CONFLICT (id) DO UPDATE SET seen_at = now(), stale_after = EXCLUDED.stale_after`, id, staleAfter)
	if err != nil {
		return fmt.Errorf("store heartbeat of replica %s: %w", id, translate(err))
	}
	return nil
}

// TakeOverJobs makes the running jobs of every dead replica (silent for
// longer than its stale_after) available again at once, each with an
// error entry saying why, and forgets replicas silent for a day that hold
// nothing. It returns how many jobs it took over. Any replica may call it
// at any time: a job is taken once, as the update re-checks its state.
func (s *Store) TakeOverJobs(ctx context.Context) (int64, error) {
	var n int64
	err := s.pool.QueryRow(ctx, `
		WITH dead AS (
			SELECT id FROM replicas WHERE seen_at + stale_after < now()
		), taken AS (
			UPDATE river_job j SET state = 'available', scheduled_at = now(),
				errors = array_append(j.errors, jsonb_build_object('at', now(), 'attempt', j.attempt, 'trace', '',
					'error', 'replica ' || d.id || ' stopped answering; its job was taken over'))
			FROM dead d
			WHERE j.state = 'running' AND j.attempted_by[array_upper(j.attempted_by, 1)] = d.id
			RETURNING j.id
		), gone AS (
			DELETE FROM replicas r WHERE r.seen_at < now() - interval '1 day'
			  AND NOT EXISTS (SELECT 1 FROM river_job j WHERE j.state = 'running' AND j.attempted_by[array_upper(j.attempted_by, 1)] = r.id)
		)
		SELECT count(*) FROM taken`).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store take over jobs: %w", translate(err))
	}
	return n, nil
}

// deliveryClaimMaxAge bounds a claim whose replica stays alive but never
// finished (a panic between claim and send): longer than any delivery job
// may run (River's job timeout, a minute).
const deliveryClaimMaxAge = 2 * time.Minute

// ClaimDelivery claims an undelivered bot message for replica claimant to hand
// to its platform. It is refused (false) while any run holds a live claim
// on it — another replica's, or an overlapping run of the same job on this
// one (a rescued job) — and once it is delivered. A claim is live while its
// replica is and for deliveryClaimMaxAge at most; a failed send gives it up.
func (s *Store) ClaimDelivery(ctx context.Context, messageID int64, claimant string) (bool, error) {
	tag, err := s.pool.Exec(ctx, `
		UPDATE messages m SET send_claimed_by = $2, send_claimed_at = now()
		WHERE m.id = $1 AND m.delivered_at IS NULL AND `+claimable("m", "$3"),
		messageID, claimant, deliveryClaimMaxAge)
	if err != nil {
		return false, fmt.Errorf("store claim send of message %d: %w", messageID, translate(err))
	}
	return tag.RowsAffected() == 1, nil
}

// claimable is the condition under which message m may be claimed: no
// live claim on it (none, one older than maxAge, or its replica's gone
// silent). ClaimDelivery, TakeDelivery and ClaimDeliveries share it.
func claimable(m, maxAge string) string {
	return `(` + m + `.send_claimed_by IS NULL OR ` + m + `.send_claimed_at < now() - ` + maxAge + `::interval
		OR EXISTS (SELECT 1 FROM replicas r WHERE r.id = ` + m + `.send_claimed_by AND r.seen_at + r.stale_after < now()))`
}

// ReleaseDeliveries gives up claimant's claims on messages it did not send
// (the platform refused or failed, or the run stopped first), so a retry
// on any replica may claim them.
func (s *Store) ReleaseDeliveries(ctx context.Context, claimant string, messageIDs []int64) error {
	_, err := s.pool.Exec(ctx, `UPDATE messages SET send_claimed_by = NULL, send_claimed_at = NULL
		WHERE id = ANY($1) AND send_claimed_by = $2 AND delivered_at IS NULL`, messageIDs, claimant)
	if err != nil {
		return fmt.Errorf("store release send of messages %v: %w", messageIDs, translate(err))
	}
	return nil
}
