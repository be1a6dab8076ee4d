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

// ReplyLatencies returns, for every user message stored at or after since
// that has a bot reply to the same inbound event, the time from the
// message stored to its first reply stored, and how many of those user
// messages have no reply yet (since leaves out the bench's warm-up). One
// pass over messages (a join, not a lookup per message: there is no
// index on inbound_event_id, and the bench polls this while turns drain).
func (s *Store) ReplyLatencies(ctx context.Context, since time.Time) (latencies []time.Duration, unanswered int, err error) {
	rows, err := s.pool.Query(ctx, `
		SELECT extract(epoch FROM (b.first - u.created_at))::float8
		FROM messages u
		LEFT JOIN (SELECT inbound_event_id, min(created_at) AS first FROM messages
		           WHERE sender = 'bot' AND inbound_event_id IS NOT NULL GROUP BY inbound_event_id) b
		       ON b.inbound_event_id = u.inbound_event_id
		WHERE u.sender = 'user' AND u.inbound_event_id IS NOT NULL AND u.created_at >= $1`, since)
	if err != nil {
		return nil, 0, fmt.Errorf("store reply latencies: %w", translate(err))
	}
	defer rows.Close()
	for rows.Next() {
		var d *float64
		if err := rows.Scan(&d); err != nil {
			return nil, 0, fmt.Errorf("store reply latencies: %w", err)
		}
		if d == nil {
			unanswered++
			continue
		}
		latencies = append(latencies, time.Duration(*d*float64(time.Second)))
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("store reply latencies: %w", translate(err))
	}
	return latencies, unanswered, nil
}
