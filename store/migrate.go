package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/hearthbot/hearth/migrations"
)

// migrateLockKey is the advisory lock every replica takes before
// migrating, so several starting at once apply each migration once.
const migrateLockKey = 0x48656172 // "Hear"

// Migrate brings River's tables and Hearth's schema up to date. It holds a
// session advisory lock for the duration, so concurrent callers (several
// replicas starting together) wait for each other instead of racing.
func Migrate(ctx context.Context, url string, log *slog.Logger) error {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return fmt.Errorf("migrate: parse DATABASE_URL: %w", err)
	}
	defer pool.Close()
	lockConn, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("migrate: connect: %w", translate(err))
	}
	defer lockConn.Release()
	if _, err := lockConn.Exec(ctx, "SELECT pg_advisory_lock($1)", migrateLockKey); err != nil {
		return fmt.Errorf("migrate: lock: %w", translate(err))
	}
	defer lockConn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrateLockKey) //nolint:errcheck // the session ends with the pool anyway

	rm, err := rivermigrate.New(riverpgxv5.New(pool), &rivermigrate.Config{Logger: log})
	if err != nil {
		return fmt.Errorf("migrate: river: %w", err)
	}
	if _, err := rm.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("migrate: river: %w", translate(err))
	}

	db := stdlib.OpenDBFromPool(pool)
	defer db.Close()
	p, err := gooseProvider(db)
	if err != nil {
		return err
	}
	results, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", translate(err))
	}
	for _, r := range results {
		log.InfoContext(ctx, "applied migration", "version", r.Source.Version, "file", r.Source.Path, "duration", r.Duration)
	}
	return nil
}

func gooseProvider(db *sql.DB) (*goose.Provider, error) {
	fsys, err := fs.Sub(migrations.FS, ".")
	if err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	p, err := goose.NewProvider(goose.DialectPostgres, db, fsys)
	if err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	return p, nil
}

// MigrationsCurrent reports whether both River's and Hearth's migrations
// are fully applied, for the readiness probe.
func (s *Store) MigrationsCurrent(ctx context.Context) (bool, error) {
	rm, err := rivermigrate.New(riverpgxv5.New(s.pool), nil)
	if err != nil {
		return false, fmt.Errorf("migrations: river: %w", err)
	}
	have, err := rm.ExistingVersions(ctx)
	if err != nil {
		return false, fmt.Errorf("migrations: river: %w", translate(err))
	}
	all := rm.AllVersions()
	if len(all) == 0 || len(have) == 0 || have[len(have)-1].Version < all[len(all)-1].Version {
		return false, nil
	}
	db := stdlib.OpenDBFromPool(s.pool)
	defer db.Close()
	p, err := gooseProvider(db)
	if err != nil {
		return false, err
	}
	pending, err := p.HasPending(ctx)
	if err != nil {
		return false, fmt.Errorf("migrations: %w", translate(err))
	}
	return !pending, nil
}

// ErrNotReady means the database answers but its migrations are not all
// applied: the server must not take traffic yet.
var ErrNotReady = errors.New("migrations pending")

// Ready reports whether this replica can serve: the database answers and
// both River's and Hearth's migrations are applied.
func (s *Store) Ready(ctx context.Context) error {
	if err := s.Ping(ctx); err != nil {
		return err
	}
	current, err := s.MigrationsCurrent(ctx)
	if err != nil {
		return err
	}
	if !current {
		return ErrNotReady
	}
	return nil
}
