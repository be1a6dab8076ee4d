package store_test

import (
	"context"
	"errors"
	"io/fs"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth/migrations"
	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

func TestMigrateFromEmptyAndAgain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := storetest.NewEmptyDatabase(t)

	// Several replicas starting together: the advisory lock makes them
	// take turns, and each migration is applied once.
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Go(func() { errs[i] = store.Migrate(ctx, url, nil) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatalf("concurrent migrate: %v", err)
		}
	}
	if err := store.Migrate(ctx, url, nil); err != nil {
		t.Fatalf("re-running migrations: %v", err)
	}

	st, err := store.Open(ctx, url, store.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	current, err := st.MigrationsCurrent(ctx)
	if err != nil || !current {
		t.Fatalf("MigrationsCurrent = %v, %v; want true", current, err)
	}

	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var exts []string
	rows, _ := conn.Query(ctx, "SELECT extname FROM pg_extension WHERE extname IN ('vector','pg_trgm','cube','earthdistance') ORDER BY extname")
	exts, err = pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	if len(exts) != 4 {
		t.Fatalf("extensions = %v; want cube, earthdistance, pg_trgm, vector", exts)
	}
	var applied int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM goose_db_version WHERE version_id > 0").Scan(&applied); err != nil {
		t.Fatal(err)
	}
	files, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	if applied != len(files) {
		t.Fatalf("goose recorded %d applied migrations; want each of the %d once", applied, len(files))
	}
}

func TestOpenRefusesUnmigratedDatabase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := storetest.NewEmptyDatabase(t)
	// A server must not start serving on a schema that was never migrated:
	// Open registers pgvector's types, which only migrations create.
	if _, err := store.Open(ctx, url, store.Config{}); err == nil {
		t.Fatal("Open on an unmigrated database should fail: pgvector's types do not exist yet")
	}
}

// A database that answers but lacks a migration is not ready: the probe
// keeps traffic away until `bot migrate` (or a new replica) applies it.
func TestReadyNeedsEveryMigration(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	if err := st.Ready(ctx); err != nil {
		t.Fatalf("migrated database: %v", err)
	}
	if _, err := st.Pool().Exec(ctx, "DELETE FROM goose_db_version WHERE version_id = (SELECT max(version_id) FROM goose_db_version)"); err != nil {
		t.Fatal(err)
	}
	if err := st.Ready(ctx); !errors.Is(err, store.ErrNotReady) {
		t.Fatalf("Ready = %v; want ErrNotReady", err)
	}
}
