package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"time"

	"github.com/jackc/pgx/v5"
)

// CreateScratchDatabase creates a new, empty database named prefix plus a
// random suffix on the server serverURL points at, and returns its URL.
// The role needs CREATEDB. The caller drops it with DropScratchDatabase.
func CreateScratchDatabase(ctx context.Context, serverURL, prefix string) (string, error) {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("store scratch database: %w", err)
	}
	name := prefix + hex.EncodeToString(b[:])
	conn, err := pgx.Connect(ctx, serverURL)
	if err != nil {
		return "", fmt.Errorf("store scratch database: %w", translate(err))
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		return "", fmt.Errorf("store scratch database %s: %w", name, translate(err))
	}
	return withDatabase(serverURL, name)
}

// DropScratchDatabase drops the database dbURL names, connecting through
// serverURL, and ends any sessions still in it.
func DropScratchDatabase(ctx context.Context, serverURL, dbURL string) error {
	u, err := url.Parse(dbURL)
	if err != nil {
		return fmt.Errorf("store drop scratch database: %w", err)
	}
	name := u.Path[1:]
	conn, err := pgx.Connect(ctx, serverURL)
	if err != nil {
		return fmt.Errorf("store drop scratch database: %w", translate(err))
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
		return fmt.Errorf("store drop scratch database %s: %w", name, translate(err))
	}
	return nil
}

func withDatabase(serverURL, name string) (string, error) {
	u, err := url.Parse(serverURL)
	if err != nil || u.Scheme == "" {
		return "", fmt.Errorf("store scratch database: DATABASE_URL must be a postgres:// URL")
	}
	u.Path = "/" + name
	return u.String(), nil
}

// ReplyLatencies returns, for every user message that has a bot reply
// to the same inbound event, the time from the message stored to its
// first reply stored, and how many user messages have no reply yet.
func (s *Store) ReplyLatencies(ctx context.Context) (latencies []time.Duration, unanswered int, err error) {
	rows, err := s.pool.Query(ctx, `
		SELECT extract(epoch FROM (SELECT min(b.created_at) FROM messages b
		         WHERE b.inbound_event_id = u.inbound_event_id AND b.sender = 'bot') - u.created_at)::float8
		FROM messages u
		WHERE u.sender = 'user' AND u.inbound_event_id IS NOT NULL`)
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
