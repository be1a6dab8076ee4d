package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// CreateScratchDatabase creates an empty database with a fresh name
// ("<prefix>_<random>") on the server serverURL points at, for a run
// that must not touch that database's data (bot eval). It returns the new
// database's URL and a function that drops it. serverURL must be a
// postgres:// URL and its role allowed to create databases.
func CreateScratchDatabase(ctx context.Context, serverURL, prefix string) (string, func(context.Context) error, error) {
	u, err := url.Parse(serverURL)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return "", nil, fmt.Errorf("store scratch database: %q is not a postgres:// URL", redacted(serverURL))
	}
	var b [6]byte
	rand.Read(b[:]) //nolint:errcheck // never fails
	name := strings.ToLower(prefix) + "_" + hex.EncodeToString(b[:])
	conn, err := pgx.Connect(ctx, serverURL)
	if err != nil {
		return "", nil, fmt.Errorf("store scratch database: %w", translate(err))
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		return "", nil, fmt.Errorf("store scratch database %s: %w", name, translate(err))
	}
	drop := func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, serverURL)
		if err != nil {
			return fmt.Errorf("store drop scratch database %s: %w", name, translate(err))
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
			return fmt.Errorf("store drop scratch database %s: %w", name, translate(err))
		}
		return nil
	}
	u.Path = "/" + name
	return u.String(), drop, nil
}

func redacted(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "the database URL"
	}
	return u.Redacted()
}

// Analyze gathers planner statistics for every table of the database
// (ANALYZE), so that plans, pgx's cached ones among them, are made for
// the rows there are: a scratch database is young, autovacuum has not
// looked at it, and a plan made for empty tables (a full scan of
// messages, say) is not the plan a running Hearth makes. The bench calls
// it after its warm-up, before its measured window.
func (s *Store) Analyze(ctx context.Context) error {
	if _, err := s.pool.Exec(ctx, `ANALYZE`); err != nil {
		return fmt.Errorf("store analyze: %w", translate(err))
	}
	return nil
}

// ReplyLatency is one user message's wait for its first reply.
type ReplyLatency struct {
	// Stored is when the user's message was stored.
	Stored time.Time
	// Latency is from Stored to the first reply stored.
	Latency time.Duration
}

// ReplyLatencies returns, for every user message stored at or after since
// that has a bot reply to the same inbound event, when it was stored and
// the time to its first reply stored, and how many of those user
// messages have no reply yet (since leaves out the bench's warm-up).
//
// It is one pass over the messages since, grouped by event, and no join:
// there is no index on inbound_event_id, and with the statistics of the
// bench's warm-up (taken when the table was small) the planner took the
// messages since for a handful and joined them in a nested loop, which
// cost seconds of CPU a poll at 10,000 messages, while turns drained.
func (s *Store) ReplyLatencies(ctx context.Context, since time.Time) (latencies []ReplyLatency, unanswered int, err error) {
	rows, err := s.pool.Query(ctx, `
		SELECT stored, extract(epoch FROM (replied - stored))::float8
		FROM (SELECT min(created_at) FILTER (WHERE sender = 'user') AS stored,
		             min(created_at) FILTER (WHERE sender = 'bot') AS replied
		      FROM messages
		      WHERE inbound_event_id IS NOT NULL AND created_at >= $1
		      GROUP BY inbound_event_id) e
		WHERE stored IS NOT NULL`, since)
	if err != nil {
		return nil, 0, fmt.Errorf("store reply latencies: %w", translate(err))
	}
	defer rows.Close()
	for rows.Next() {
		var at time.Time
		var d *float64
		if err := rows.Scan(&at, &d); err != nil {
			return nil, 0, fmt.Errorf("store reply latencies: %w", err)
		}
		if d == nil {
			unanswered++
			continue
		}
		latencies = append(latencies, ReplyLatency{Stored: at, Latency: time.Duration(*d * float64(time.Second))})
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("store reply latencies: %w", translate(err))
	}
	return latencies, unanswered, nil
}
