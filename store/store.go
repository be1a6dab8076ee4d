// Package store is Hearth's Postgres storage: the connection pool, the
// schema migrations, and all of the SQL. Nothing outside this package
// writes SQL. Database errors are translated here into the pipeline's
// sentinel errors.
package store

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	pgxvec "github.com/pgvector/pgvector-go/pgx"

	"github.com/hearthbot/hearth"
)

// Config tunes the pool. The zero value uses pgx's defaults.
type Config struct {
	// MaxConns caps the pool. Defaults to the URL's pool_max_conns, or
	// else DefaultMaxConns.
	MaxConns int32
}

// DefaultMaxConns is the pool size when neither Config nor the URL sets
// one. pgx's own default (the CPU count, at least 4) is too small for a
// server whose River client keeps listening connections open while dozens
// of workers query.
const DefaultMaxConns = 24

// Store is the database. It is safe for concurrent use.
type Store struct {
	pool *pgxpool.Pool
}

// Open connects to the database at url. The schema must already be
// migrated (see Migrate): the pool registers pgvector's types on every
// connection, and they exist only once the vector extension is created.
func Open(ctx context.Context, url string, cfg Config) (*Store, error) {
	pc, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("store: parse DATABASE_URL: %w", err)
	}
	switch {
	case cfg.MaxConns > 0:
		pc.MaxConns = cfg.MaxConns
	case !strings.Contains(url, "pool_max_conns"):
		pc.MaxConns = DefaultMaxConns
	}
	pc.AfterConnect = func(ctx context.Context, conn *pgx.Conn) error {
		return pgxvec.RegisterTypes(ctx, conn)
	}
	pool, err := pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		return nil, fmt.Errorf("store: open pool: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("store: connect: %w", translate(err))
	}
	return &Store{pool: pool}, nil
}

// Pool returns the connection pool, for River's driver.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// Close closes every connection.
func (s *Store) Close() { s.pool.Close() }

// Ping reports whether the database answers.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.pool.Ping(ctx); err != nil {
		return fmt.Errorf("store: ping: %w", translate(err))
	}
	return nil
}

// translate maps driver errors onto the pipeline's sentinels. Anything
// that is not an error reported by the server itself means the server
// could not be reached or the connection broke: the caller may retry.
func translate(err error) error {
	if err == nil {
		return nil
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code[:2] {
		case "08", "53", "57": // connection exception, insufficient resources, operator intervention
			return fmt.Errorf("%w: %w", hearth.ErrUnavailable, err)
		}
		return err
	}
	if errors.Is(err, pgx.ErrNoRows) || errors.Is(err, context.Canceled) {
		return err
	}
	var netErr net.Error
	var connErr *pgconn.ConnectError
	if errors.As(err, &netErr) || errors.As(err, &connErr) || errors.Is(err, context.DeadlineExceeded) || pgconn.SafeToRetry(err) {
		return fmt.Errorf("%w: %w", hearth.ErrUnavailable, err)
	}
	return err
}

// inTx runs fn in a transaction, committing when it returns nil.
// Begin starts a transaction for a caller that owns a unit of work (a
// turn's replies, deliveries and writes); the caller commits or rolls it
// back.
func (s *Store) Begin(ctx context.Context) (pgx.Tx, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return nil, fmt.Errorf("store begin: %w", translate(err))
	}
	return tx, nil
}

func (s *Store) inTx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return translate(err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // after Commit this is a no-op
	if err := fn(tx); err != nil {
		return translate(err)
	}
	return translate(tx.Commit(ctx))
}
