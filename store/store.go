// Package store is Hearth's Postgres storage: the connection pool, the
// schema migrations, and all of the SQL. Nothing outside this package
// writes SQL. Database errors are translated here into the pipeline's
// sentinel errors.
package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

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
	// Inspect opens a database that may not be migrated yet, without
	// pgvector's types: for looking at it (bot doctor), not for serving.
	Inspect bool
	// IdleInTransactionTimeout makes the server end a session that keeps a
	// transaction open without a statement for this long, releasing its
	// locks: a replica paused mid-transaction (and taken over) must not
	// block the others, nor commit afterwards. Zero: the server's setting.
	IdleInTransactionTimeout time.Duration
	// Tracer, when set, sees every statement of the pool's connections
	// (and, where it implements them, pgx's batch, copy, prepare and
	// pgxpool's acquire tracer interfaces): `bot bench` counts round trips
	// with it. Nil, as in `bot serve`: no tracing and no cost.
	Tracer pgx.QueryTracer
	// Log receives what the store does in the background and cannot
	// return to a caller (a group of notices that failed). Nil: nowhere.
	Log *slog.Logger
}

// DefaultMaxConns is the pool size when neither Config nor the URL sets
// one. pgx's own default (the CPU count, at least 4) is too small for a
// server whose River client keeps listening connections open while dozens
// of workers query.
const DefaultMaxConns = 24

// Store is the database. It is safe for concurrent use.
type Store struct {
	pool *pgxpool.Pool
	log  *slog.Logger
	// notices are the live views' notices waiting to be sent (see
	// NotifyConversation).
	notices notices

	// beat is a one-connection pool of the heartbeat's own, made at the
	// first heartbeat: a replica whose workers hold every connection of
	// the main pool is busy, not dead, and must still say so.
	beatCfg  *pgxpool.Config
	beatMu   sync.Mutex
	beatPool *pgxpool.Pool
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
	if cfg.IdleInTransactionTimeout > 0 {
		pc.ConnConfig.RuntimeParams["idle_in_transaction_session_timeout"] = strconv.FormatInt(cfg.IdleInTransactionTimeout.Milliseconds(), 10)
	}
	if !cfg.Inspect {
		pc.AfterConnect = func(ctx context.Context, conn *pgx.Conn) error {
			return pgxvec.RegisterTypes(ctx, conn)
		}
	}
	if cfg.Tracer != nil {
		pc.ConnConfig.Tracer = cfg.Tracer
	}
	pool, err := pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		return nil, fmt.Errorf("store: open pool: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("store: connect: %w", translate(err))
	}
	beatCfg := pc.Copy()
	beatCfg.MaxConns, beatCfg.MinConns, beatCfg.AfterConnect = 1, 0, nil
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Store{pool: pool, log: log, beatCfg: beatCfg}, nil
}

// beat returns the heartbeat's pool, made on first use.
func (s *Store) beat(ctx context.Context) (*pgxpool.Pool, error) {
	s.beatMu.Lock()
	defer s.beatMu.Unlock()
	if s.beatPool == nil {
		p, err := pgxpool.NewWithConfig(ctx, s.beatCfg)
		if err != nil {
			return nil, err
		}
		s.beatPool = p
	}
	return s.beatPool, nil
}

// Pool returns the connection pool, for River's driver.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// Close sends the notices still waiting and closes every connection.
func (s *Store) Close() {
	s.closeNotices()
	s.pool.Close()
	s.beatMu.Lock()
	defer s.beatMu.Unlock()
	if s.beatPool != nil {
		s.beatPool.Close()
	}
}

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

// beginWith begins a transaction with the statements queue puts in its
// batch, BEGIN travelling with them (pgx's Batch.BeginTx) instead of in a
// round trip of its own, and returns the transaction, open, once their
// callbacks have run. On error nothing is left open.
func (s *Store) beginWith(ctx context.Context, queue func(b *pgx.Batch)) (pgx.Tx, error) {
	b := &pgx.Batch{}
	b.BeginTx(pgx.TxOptions{})
	queue(b)
	br := s.pool.SendBatch(ctx, b)
	tx := br.Tx()
	if err := br.Close(); err != nil {
		tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // the batch's error is the one to report
		return nil, translate(err)
	}
	return tx, nil
}

// inTx runs fn in a transaction, committing when it returns nil.
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

// Helpers shared by the built-in providers' aggregates (tasks, events,
// notes, emails, memories).

// limitOf applies DefaultLimit and MaxLimit to a filter's Limit.
func limitOf(n int) int {
	switch {
	case n <= 0:
		return DefaultLimit
	case n > MaxLimit:
		return MaxLimit
	}
	return n
}

// errKeyTaken means an idempotency key was already used to create a row
// for another user. Keys are (turn, index), so this is a bug upstream, not
// bad input: the other user's row is neither returned nor changed.
var errKeyTaken = errors.New("idempotency key already used by another user")

// createOnce runs insert, which must end in ON CONFLICT (source_key) DO
// NOTHING RETURNING columns. When the key was used before, it returns the
// row the first create made instead, unchanged, provided it is userID's.
// The two statements are deliberately separate (not one CTE): the lookup
// must take a fresh snapshot to see a concurrent first create that the
// insert waited for.
func createOnce[T any](ctx context.Context, s *Store, table, columns string, scan func(pgx.Row) (T, error), key string, userID int64, insert string, args ...any) (T, error) {
	var zero T
	row, err := scan(s.pool.QueryRow(ctx, insert, args...))
	if err == nil {
		return row, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return zero, constraintErr(translate(err))
	}
	var owner int64
	if err := s.pool.QueryRow(ctx, `SELECT user_id FROM `+table+` WHERE source_key = $1`, key).Scan(&owner); err != nil {
		return zero, translate(err)
	}
	if owner != userID {
		return zero, fmt.Errorf("key %q: %w", key, errKeyTaken)
	}
	row, err = scan(s.pool.QueryRow(ctx, `SELECT `+columns+` FROM `+table+` WHERE source_key = $1`, key))
	if err != nil {
		return zero, translate(err)
	}
	return row, nil
}

// softDelete marks a live row of userID deleted and returns it as it was.
func softDelete[T any](ctx context.Context, s *Store, table, columns string, scan func(pgx.Row) (T, error), userID, id int64) (T, error) {
	// updated_at is left alone: a restored row is exactly the row deleted.
	row, err := scan(s.pool.QueryRow(ctx, `
		UPDATE `+table+` SET deleted_at = now()
		WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL
		RETURNING `+columns, id, userID))
	if err != nil {
		var zero T
		return zero, notFound(translate(err), strings.TrimSuffix(table, "s"), id)
	}
	return row, nil
}

// restore undeletes a row of userID. A row that exists and is not deleted
// is already restored: nil, so undo can be retried.
func restore(ctx context.Context, s *Store, table string, userID, id int64) error {
	var found bool
	err := s.pool.QueryRow(ctx, `
		WITH restored AS (
			UPDATE `+table+` SET deleted_at = NULL
			WHERE id = $1 AND user_id = $2 AND deleted_at IS NOT NULL
			RETURNING id
		)
		SELECT EXISTS (SELECT 1 FROM restored) OR EXISTS (SELECT 1 FROM `+table+` WHERE id = $1 AND user_id = $2)`,
		id, userID).Scan(&found)
	if err != nil {
		return translate(err)
	}
	if !found {
		return fmt.Errorf("%s %d: %w", strings.TrimSuffix(table, "s"), id, hearth.ErrNotFound)
	}
	return nil
}

// notFound turns "no row" into hearth.ErrNotFound naming what was
// looked for; other errors pass through.
func notFound(err error, what string, id int64) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("%s %d: %w", what, id, hearth.ErrNotFound)
	}
	return err
}

// constraintErr maps what the schema refuses onto the pipeline's
// vocabulary. The Go validation runs first and should catch every bad
// input; this is the safety net, and the answer for a user that does not
// exist (a foreign key violation).
func constraintErr(err error) error {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return err
	}
	switch pgErr.Code {
	case "23503": // foreign_key_violation: the user is gone
		return fmt.Errorf("%w (%s)", hearth.ErrNotFound, pgErr.ConstraintName)
	case "23514", "23502", "22001": // check, not null, string too long
		return fmt.Errorf("%w: %w", hearth.Invalidf("rejected by %s", pgErr.ConstraintName), err)
	}
	return err
}

// setIf copies *v into *dst when v is not nil (an update's optional field).
func setIf[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// keyArg stores an empty idempotency key as NULL: no idempotency.
func keyArg(key string) any {
	if key == "" {
		return nil
	}
	return key
}

// timeArg stores the zero time as NULL ("no due time", "not sent").
func timeArg(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t
}

// utcOrZero reads a nullable timestamptz; instants are returned in UTC so
// results do not depend on the server's or the host's zone.
func utcOrZero(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.UTC()
}

// nilIfEmpty returns nil for an empty slice, so a row read back compares
// equal to the value written with a nil slice.
func nilIfEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}

// orEmpty returns an empty slice for nil, for NOT NULL array and jsonb
// columns (pgx writes a nil slice as NULL).
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// where builds a WHERE clause with numbered parameters, so each Find sends
// the planner only the conditions it uses (and the indexes can match).
type where struct {
	conds []string
	args  []any
}

// arg adds a parameter and returns its placeholder.
func (w *where) arg(v any) string {
	w.args = append(w.args, v)
	return "$" + strconv.Itoa(len(w.args))
}

func (w *where) add(cond string) { w.conds = append(w.conds, cond) }

func (w *where) String() string { return strings.Join(w.conds, " AND ") }

// maxWords bounds how many words of a query become conditions.
const maxWords = 16

// words returns a condition true when every word of q occurs, ignoring
// case, in at least one of columns, or (fuzzy) is similar by trigrams to
// a word of one of the fuzzy columns. Word by word, so that one word that
// matches well cannot carry another that does not match at all.
func (w *where) words(q string, columns, fuzzy []string) string {
	fields := strings.Fields(q)
	if len(fields) > maxWords {
		fields = fields[:maxWords]
	}
	all := make([]string, 0, len(fields))
	for _, word := range fields {
		p := w.arg("%" + likeEscaper.Replace(word) + "%")
		var either []string
		for _, c := range columns {
			either = append(either, c+" ILIKE "+p)
		}
		if len(fuzzy) > 0 {
			p := w.arg(word)
			for _, c := range fuzzy {
				either = append(either, p+" <% "+c)
			}
		}
		all = append(all, "("+strings.Join(either, " OR ")+")")
	}
	return "(" + strings.Join(all, " AND ") + ")"
}

// likeEscaper makes a word match literally inside a LIKE pattern (the
// default escape character is the backslash).
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
