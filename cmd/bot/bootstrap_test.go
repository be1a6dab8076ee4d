package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth/store/storetest"
)

// TestBootstrapCreatesTheDatabase: `make run` with DATABASE_URL naming a
// database the server does not have yet creates it (deploy/bootstrap-db.sh,
// case 1), instead of failing.
func TestBootstrapCreatesTheDatabase(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("psql"); err != nil {
		t.Skip("no psql: the bootstrap script needs PostgreSQL's client tools")
	}
	server, err := url.Parse(storetest.ServerURL())
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("hearth_bootstrap_%d", time.Now().UnixNano())
	target := *server
	target.Path = "/" + name
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, storetest.ServerURL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		admin.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name) //nolint:errcheck // best effort
		admin.Close(context.Background())                                 //nolint:errcheck // best effort
	})

	cmd := exec.Command("bash", "../../deploy/bootstrap-db.sh")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+target.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bootstrap: %v (%s)", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != target.String() {
		t.Fatalf("bootstrap printed %q; want %q", got, target.String())
	}
	var exists bool
	if err := admin.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil || !exists {
		t.Fatalf("database %s created: %v, %v", name, exists, err)
	}
}
