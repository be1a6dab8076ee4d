// Package storetest gives tests a real, migrated, private Postgres
// database. The first call in a process builds (once per migration set,
// across concurrent test processes) a template database; each test then
// gets a cheap copy of it, dropped when the test ends.
//
// The server comes from HEARTH_TEST_DATABASE_URL, else DATABASE_URL, else
// postgres://postgres@localhost:5432/postgres; `make test` sets it up.
package storetest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth/migrations"
	"github.com/hearthbot/hearth/store"
)

const defaultURL = "postgres://postgres@localhost:5432/postgres?sslmode=disable"

var (
	templateOnce sync.Once
	templateName string
	templateErr  error
)

// ServerURL returns the URL of the test server's maintenance database.
func ServerURL() string {
	for _, k := range []string{"HEARTH_TEST_DATABASE_URL", "DATABASE_URL"} {
		if v := os.Getenv(k); v != "" {
			return v
		}
	}
	return defaultURL
}

// NewDatabase creates an empty, fully migrated database for this test and
// returns its URL. It is dropped when the test ends.
func NewDatabase(t testing.TB) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	templateOnce.Do(func() { templateName, templateErr = ensureTemplate(ctx) })
	if templateErr != nil {
		t.Fatalf("storetest: %v (is Postgres with pgvector running? `make test` bootstraps one)", templateErr)
	}
	name := "hearth_t_" + randomSuffix()
	admin := adminConn(ctx, t)
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s", name, templateName)); err != nil {
		t.Fatalf("storetest: create database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, withDatabase(ServerURL(), "postgres"))
		if err != nil {
			t.Logf("storetest: drop %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", name)); err != nil {
			t.Logf("storetest: drop %s: %v", name, err)
		}
	})
	return withDatabase(ServerURL(), name)
}

// NewEmptyDatabase creates a database with nothing in it, for testing
// migrations themselves.
func NewEmptyDatabase(t testing.TB) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	name := "hearth_e_" + randomSuffix()
	admin := adminConn(ctx, t)
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("storetest: create database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if conn, err := pgx.Connect(ctx, withDatabase(ServerURL(), "postgres")); err == nil {
			conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)") //nolint:errcheck // best effort
			conn.Close(ctx)
		}
	})
	return withDatabase(ServerURL(), name)
}

// Open returns a Store on a new database, closed when the test ends.
func Open(t testing.TB) (*store.Store, string) {
	t.Helper()
	dbURL := NewDatabase(t)
	st, err := store.Open(context.Background(), dbURL, store.Config{})
	if err != nil {
		t.Fatalf("storetest: open: %v", err)
	}
	t.Cleanup(st.Close)
	return st, dbURL
}

func adminConn(ctx context.Context, t testing.TB) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(ctx, withDatabase(ServerURL(), "postgres"))
	if err != nil {
		t.Fatalf("storetest: connect to %s: %v (run `make test`, which bootstraps Postgres)", redact(ServerURL()), err)
	}
	return conn
}

// ensureTemplate builds the migrated template once per migration set. The
// advisory lock keeps concurrent test binaries from building it twice.
func ensureTemplate(ctx context.Context) (string, error) {
	name := "hearth_tmpl_" + migrationsHash()
	conn, err := pgx.Connect(ctx, withDatabase(ServerURL(), "postgres"))
	if err != nil {
		return "", fmt.Errorf("connect to %s: %w", redact(ServerURL()), err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock(7411)"); err != nil {
		return "", err
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock(7411)") //nolint:errcheck // session ends anyway
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return "", err
	}
	if exists {
		return name, nil
	}
	building := name + "_building"
	conn.Exec(ctx, "DROP DATABASE IF EXISTS "+building+" WITH (FORCE)") //nolint:errcheck // leftover of a killed run
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+building); err != nil {
		return "", err
	}
	if err := store.Migrate(ctx, withDatabase(ServerURL(), building), nil); err != nil {
		return "", fmt.Errorf("migrate template: %w", err)
	}
	if _, err := conn.Exec(ctx, "ALTER DATABASE "+building+" RENAME TO "+name); err != nil {
		return "", err
	}
	return name, nil
}

// migrationsHash names the template after the migration files, so a new
// migration gets a new template instead of a stale one.
func migrationsHash() string {
	h := sha256.New()
	fs.WalkDir(migrations.FS, ".", func(path string, d fs.DirEntry, err error) error { //nolint:errcheck // embedded FS
		if err == nil && !d.IsDir() {
			b, _ := fs.ReadFile(migrations.FS, path)
			h.Write([]byte(path))
			h.Write(b)
		}
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:12]
}

func withDatabase(raw, name string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	u.Path = "/" + name
	return u.String()
}

func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "the test database URL"
	}
	return u.Redacted()
}

func randomSuffix() string {
	var b [6]byte
	rand.Read(b[:]) //nolint:errcheck // never fails
	return hex.EncodeToString(b[:])
}
