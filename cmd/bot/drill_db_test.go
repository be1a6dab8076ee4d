package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth/pipeline/pipelinetest"
	"github.com/hearthbot/hearth/store/storetest"
)

// TestDrillDatabaseDown cuts the network between a running Hearth and its
// database (the test proxy) under web chat load and restores it.
func TestDrillDatabaseDown(t *testing.T) {
	t.Parallel()
	dbURL := storetest.NewDatabase(t)
	proxy, proxied := storetest.NewProxy(t, dbURL)
	databaseDrill(t, proxied, "cut", proxy.Cut, proxy.Restore)
}

// TestDrillDatabaseRestart stops the PostgreSQL server itself (a fast
// shutdown, as a restart or a failover does) under web chat load and
// starts it again: a private cluster made by the test with initdb, with
// the extensions Hearth needs, never the shared server. It skips where
// PostgreSQL's server binaries are not installed.
func TestDrillDatabaseRestart(t *testing.T) {
	t.Parallel()
	pg := newPrivateCluster(t)
	databaseDrill(t, pg.url, "restarted", pg.stop, pg.start)
}

// databaseDrill runs Hearth on dbURL under web chat load, takes the
// database away with down and brings it back with up: while it is down
// every request is answered 503 with Retry-After (never a hang or a 500)
// and /readyz says not ready; after, Hearth recovers by itself and every
// acknowledged message (and every refused one, sent again) is answered
// exactly once. Times are reported.
func databaseDrill(t *testing.T, dbURL, how string, down, up func()) {
	base, app, _ := startAppWith(t, func(c *Config) { c.DatabaseURL = dbURL })
	client := &http.Client{Timeout: 15 * time.Second}
	post := func(path string, body map[string]string) (int, time.Duration) {
		b, _ := json.Marshal(body)
		start := time.Now()
		res, err := client.Post(base+path, "application/json", bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v (a hang or a broken connection, not an answer)", path, err)
		}
		io.Copy(io.Discard, res.Body) //nolint:errcheck // only the status matters
		res.Body.Close()
		if res.StatusCode == http.StatusServiceUnavailable && res.Header.Get("Retry-After") == "" {
			t.Errorf("503 without Retry-After on %s", path)
		}
		return res.StatusCode, time.Since(start)
	}
	const users = 6
	for u := range users {
		if code, _ := post("/api/webchat/users", map[string]string{"user": fmt.Sprintf("db user %d", u), "tz": "UTC"}); code != 200 {
			t.Fatalf("sign in: %d", code)
		}
	}
	send := func(round int) (refused []map[string]string, slowest time.Duration) {
		for u := range users {
			body := map[string]string{"user": fmt.Sprintf("db user %d", u), "id": fmt.Sprintf("%d-%d", u, round), "text": fmt.Sprintf("remind me to check meter %d tomorrow at 9am", round)}
			code, took := post("/api/webchat/messages", body)
			slowest = max(slowest, took)
			switch code {
			case http.StatusAccepted:
			case http.StatusServiceUnavailable:
				refused = append(refused, body)
			default:
				t.Errorf("message answered %d; want 202 or 503", code)
			}
		}
		return refused, slowest
	}
	if refused, _ := send(0); len(refused) > 0 {
		t.Fatalf("%d refused with the database up", len(refused))
	}
	down()
	downAt := time.Now()
	refused, slowest := send(1)
	if len(refused) != users {
		t.Errorf("%d of %d messages refused with the database %s; want all (503)", len(refused), users, how)
	}
	res, err := client.Get(base + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("/readyz with the database %s = %d; want 503", how, res.StatusCode)
	}
	up()
	upAt := time.Now()
	// The clients send the refused messages again, as a 503 asks; the
	// first ones may still meet connections the pool has not yet found
	// broken, and are refused (503) and sent again.
	for _, body := range refused {
		for try := 0; ; try++ {
			code, _ := post("/api/webchat/messages", body)
			if code == http.StatusAccepted {
				break
			}
			if code != http.StatusServiceUnavailable || try == 20 {
				t.Fatalf("resent after recovery: %d", code)
			}
		}
	}
	var pending int
	pipelinetest.WaitForJobs(t, app.River, "every message answered after recovery", func() bool {
		if err := app.Store.Pool().QueryRow(context.Background(), `SELECT count(*) FROM inbound_events WHERE processed_at IS NULL`).Scan(&pending); err != nil {
			return false // still reconnecting
		}
		return pending == 0
	})
	var events, replies, multi, tasks, failed int
	if err := app.Store.Pool().QueryRow(context.Background(), `
		SELECT (SELECT count(*) FROM inbound_events), (SELECT count(*) FROM messages WHERE sender = 'bot'),
		       (SELECT count(*) FROM (SELECT inbound_event_id FROM messages WHERE sender = 'bot' GROUP BY 1 HAVING count(*) > 1) x),
		       (SELECT count(*) FROM tasks),
		       (SELECT count(*) FROM messages WHERE sender = 'bot' AND text LIKE '%couldn''t add%')`).Scan(&events, &replies, &multi, &tasks, &failed); err != nil {
		t.Fatal(err)
	}
	// Every message answered once; every request made its reminder, or
	// was told it did not go through, and none made two. (Known, left
	// as found: a turn whose action was writing when the server stopped
	// answers that it did not go through, not retried, and the write may
	// have committed all the same; reported below.)
	if want := users * 2; events != want || replies != want || multi != 0 || tasks > want || tasks+failed < want {
		t.Errorf("%d events, %d replies (%d answered twice), %d reminders + %d told it failed; want %d, %d, 0, %d",
			events, replies, multi, tasks, failed, want, want, want)
	}
	t.Logf("database %s, away for %s: slowest refusal %s; everything answered %s after it came back; "+
		"%d of %d requests told their reminder did not go through, %d of those made all the same",
		how, upAt.Sub(downAt).Round(time.Millisecond), slowest.Round(time.Millisecond), time.Since(upAt).Round(time.Millisecond),
		failed, users*2, tasks+failed-users*2)
}

// privateCluster is a PostgreSQL cluster of a test's own.
type privateCluster struct {
	t           *testing.T
	bin, data   string
	port        int
	url         string
	asPostgres  bool // root runs the server as the OS user postgres
	logFile     string
	lastCommand string
}

// newPrivateCluster makes a cluster with initdb in a temporary directory
// (owned by the OS user postgres when the test runs as root: the server
// refuses root), starts it on a free port, TCP only, and creates the
// database `hearth` in it. It is stopped and removed at the end.
func newPrivateCluster(t *testing.T) *privateCluster {
	t.Helper()
	bin := pgBinDir()
	if bin == "" {
		t.Skip("no PostgreSQL server binaries (initdb, pg_ctl) found via pg_config or /usr/lib/postgresql/*/bin")
	}
	pg := &privateCluster{t: t, bin: bin, port: freePort(t), asPostgres: os.Geteuid() == 0}
	dir, err := os.MkdirTemp("", "hearth-drill-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if pg.asPostgres {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Skipf("running as root and there is no OS user postgres to run the server as: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	pg.data, pg.logFile = filepath.Join(dir, "data"), filepath.Join(dir, "server.log")
	pg.run("initdb", "-D", pg.data, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--no-sync", "--no-instructions")
	t.Cleanup(func() {
		// Immediate: the test is over, nothing to keep.
		pg.command("pg_ctl", "-D", pg.data, "-m", "immediate", "-w", "stop").Run() //nolint:errcheck // may be stopped already
	})
	pg.start()
	pg.url = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", pg.port)
	conn, err := pgx.Connect(context.Background(), pg.url)
	if err != nil {
		t.Fatalf("connect to the private cluster: %v", err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), "CREATE DATABASE hearth"); err != nil {
		t.Fatal(err)
	}
	pg.url = strings.Replace(pg.url, "/postgres?", "/hearth?", 1)
	return pg
}

// start starts the server and waits until it accepts connections.
func (pg *privateCluster) start() {
	pg.run("pg_ctl", "-D", pg.data, "-l", pg.logFile, "-w", "-t", "60", "-o",
		fmt.Sprintf("-p %d -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c fsync=off", pg.port), "start")
}

// stop shuts the server down the fast way: sessions are ended, running
// transactions rolled back, as a restart or failover does.
func (pg *privateCluster) stop() {
	pg.run("pg_ctl", "-D", pg.data, "-m", "fast", "-w", "stop")
}

func (pg *privateCluster) command(name string, args ...string) *exec.Cmd {
	path := filepath.Join(pg.bin, name)
	if pg.asPostgres {
		cmd := exec.Command("runuser", append([]string{"-u", "postgres", "--", path}, args...)...)
		cmd.Dir = "/" // the server user may not enter the test's directory
		return cmd
	}
	return exec.Command(path, args...)
}

func (pg *privateCluster) run(name string, args ...string) {
	pg.t.Helper()
	if out, err := pg.command(name, args...).CombinedOutput(); err != nil {
		log, _ := os.ReadFile(pg.logFile)
		pg.t.Fatalf("%s %s: %v\n%s\nserver log:\n%s", name, strings.Join(args, " "), err, out, tail(string(log), 20))
	}
}

// pgBinDir finds PostgreSQL's server binaries: pg_config's bindir, else
// the newest /usr/lib/postgresql/N/bin (Debian keeps them off PATH).
func pgBinDir() string {
	has := func(dir string) bool {
		for _, f := range []string{"initdb", "pg_ctl", "postgres"} {
			if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.IsDir() {
				return false
			}
		}
		return true
	}
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		if dir := strings.TrimSpace(string(out)); has(dir) {
			return dir
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	best, bestN := "", -1
	for _, d := range dirs {
		n, err := strconv.Atoi(filepath.Base(filepath.Dir(d)))
		if err == nil && n > bestN && has(d) {
			best, bestN = d, n
		}
	}
	return best
}
