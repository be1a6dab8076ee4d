package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

// TestMain lets the test binary stand in for bot itself when a test runs
// it as a child process (bench -processes starts `bot serve` children from
// os.Executable): with HEARTH_TEST_RUN_MAIN=1 it is main.
func TestMain(m *testing.M) {
	if os.Getenv("HEARTH_TEST_RUN_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// TestBenchCommands runs each bench at a tiny size and checks the JSON
// it prints: the shape, and that the counts add up. Timings are not
// asserted. Each run drops the scratch database it made.
func TestBenchCommands(t *testing.T) {
	t.Setenv("DATABASE_URL", storetest.ServerURL())
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, storetest.ServerURL())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	scratch := func() (n int) {
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_database WHERE datname LIKE 'hearth\_bench\_%'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := scratch()
	tests := []struct {
		name  string
		args  []string
		count int
		river bool
		// phase has statements; once are statements made exactly once
		// per operation.
		phase string
		once  []string
		// perOp, when set, is the exact statements per operation in phase
		// (a greeting turn: one message per conversation, so no turn
		// finds its conversation busy): fewer would be a test to update,
		// more a regression.
		perOp float64
	}{
		{"river", []string{"bench", "river", "-clients", "2", "-count", "20"}, 20, false,
			"client", []string{"client: begin", "client: river JobInsertFastMany", "client: commit"}, 0},
		// Trivial statements, four to a round trip: an operation is one.
		{"roundtrip", []string{"bench", "roundtrip", "-clients", "2", "-count", "20", "-batch", "4"}, 20, false,
			"client", nil, 0},
		// Ingress commits in groups, each one batch that commits by
		// itself: at most one round trip per message.
		{"ingress", []string{"bench", "ingress", "-clients", "2", "-users", "3", "-count", "12", "-pause-turns", "-with-river"}, 12, true,
			phaseHTTP, nil, 0},
		// Two Hearths on the one database, the clients taking them in turn.
		{"replicas", []string{"bench", "turns", "-rate", "200", "-clients", "2", "-users", "3", "-count", "6", "-replicas", "2", "-settle", "0"}, 6, false,
			"job:turn", nil, 0},
		// Two `bot serve` processes (this test binary, as main): their
		// statements are not the bench's to count.
		{"processes", []string{"bench", "turns", "-rate", "200", "-clients", "2", "-users", "3", "-count", "6", "-replicas", "2", "-processes", "-settle", "0"}, 6, false,
			"", nil, 0},
		// Settling first: 200/s for 20ms is four messages, not measured.
		{"turns", []string{"bench", "turns", "-rate", "200", "-clients", "2", "-users", "3", "-count", "6", "-settle", "20ms"}, 6, false,
			"job:turn", []string{"http: with identities #62b4"}, 0},
		// A greeting turn: the lease and its event read (one batch), the
		// opening (the pending approval, the open question and recent
		// messages in one statement), mentioned entities, and the
		// completing statement with the trace, which commits by itself
		// (no begin, no commit).
		// Live views are told in the background, in groups.
		{"greeting", []string{"bench", "turns", "-rate", "200", "-clients", "2", "-users", "6", "-count", "6", "-text", "hi", "-settle", "0"}, 6, false,
			"job:turn", []string{"job:turn: select inbound_events #4487", "job:turn: select #17f7"}, 5},
	}
	t.Setenv("HEARTH_TEST_RUN_MAIN", "1") // for the children only: this process has started
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if err := run(context.Background(), tt.args, nil, &out, &errOut); err != nil {
				t.Fatalf("run: %v\n%s", err, errOut.String())
			}
			var res benchResult
			dec := json.NewDecoder(&out)
			dec.DisallowUnknownFields()
			if err := dec.Decode(&res); err != nil {
				t.Fatalf("output is not one bench JSON object: %v\n%s", err, out.String())
			}
			if res.Bench != tt.args[1] || res.Count != tt.count || res.OK+res.Errors != res.Count || res.Errors != 0 {
				t.Errorf("bench=%q count=%d ok=%d errors=%d (%s), want %q, %d all ok", res.Bench, res.Count, res.OK, res.Errors, res.FirstError, tt.args[1], tt.count)
			}
			if res.Rate <= 0 || res.P50MS > res.P95MS || res.P95MS > res.P99MS {
				t.Errorf("rate=%v p50=%v p95=%v p99=%v: want a rate and ordered percentiles", res.Rate, res.P50MS, res.P95MS, res.P99MS)
			}
			noApp := tt.args[1] == "river" || tt.args[1] == "roundtrip" // the bench alone, no Hearth serving
			if want := map[bool]float64{true: 2, false: 1}[tt.name == "replicas" || tt.name == "processes"]; !noApp && res.Settings["replicas"] != want {
				t.Errorf("replicas = %v, want %v", res.Settings["replicas"], want)
			}
			if res.Settings["clients"] != float64(2) || res.Settings["database"] == nil {
				t.Errorf("settings = %v, want clients 2 and the database named", res.Settings)
			}
			if tt.river != (res.River != nil) || (tt.river && (res.River.Count != 12 || res.RatioToRiver <= 0)) {
				t.Errorf("river = %+v ratio %v, want a River run of 12 and a ratio: %v", res.River, res.RatioToRiver, tt.river)
			}
			if warm := res.Warmup != nil && res.Warmup.Analyzed && res.Warmup.Messages > 0; warm != !noApp {
				t.Errorf("warmup = %+v, want a warm-up and ANALYZE before the window of ingress and turns", res.Warmup)
			}
			if settled := res.Warmup != nil && res.Warmup.Settle != nil; settled != (tt.name == "turns") {
				t.Errorf("warmup.settle = %+v, want a settling run only where -settle is not 0", res.Warmup)
			} else if settled && (res.Warmup.Settle.Messages != 4 || res.Warmup.Settle.P99MS <= 0 || res.Settings["settle"] != "20ms") {
				t.Errorf("settle = %+v (settings %v), want 4 messages answered, their p99, and the setting", res.Warmup.Settle, res.Settings["settle"])
			}
			if turns := tt.args[1] == "turns"; turns != (len(res.BySecond) > 0) {
				t.Errorf("by_second = %+v, want the window second by second for turns only", res.BySecond)
			} else if turns {
				n := 0
				for _, s := range res.BySecond {
					n += s.Messages
					if s.Messages == 0 || s.P50MS > s.P99MS || s.P99MS > s.MaxMS {
						t.Errorf("second %+v: want messages and ordered latencies", s)
					}
				}
				if n != res.OK {
					t.Errorf("by_second counts %d messages, want the %d answered", n, res.OK)
				}
			}
			if tt.name == "processes" {
				if res.Settings["processes"] != true || res.Statements != nil || res.Unanswered != 0 {
					t.Errorf("settings %v, statements %+v, %d unanswered: want processes, no counts, every message answered", res.Settings, res.Statements, res.Unanswered)
				}
				return
			}
			checkStatements(t, res, tt.count, tt.phase, tt.once)
			if tt.name == "roundtrip" && (res.Statements.RoundTripsByPhase["client"] != 0.25 || res.Statements.ByPhase["client"] != 1) {
				t.Errorf("roundtrip: %v round trips and %v statements per operation, want 0.25 and 1", res.Statements.RoundTripsByPhase, res.Statements.ByPhase)
			}
			if tt.phase == phaseHTTP {
				st := res.Statements
				trips := st.RoundTripsByPhase[phaseHTTP]
				if trips <= 0 || trips > 1+st.PreparesPerOp || st.ByLabel["http: with identities #62b4"] != 1 || st.ByLabel["http: begin"] != 0 || st.ByLabel["http: river JobInsertFastMany"] != 0 {
					t.Errorf("ingress: %v round trips per message, want one per group, at most one per message, with no BEGIN and no job insert of its own (by label: %v)",
						trips, st.ByLabel)
				}
			}
			if st := res.Statements; tt.perOp > 0 && st != nil {
				if st.ByPhase[tt.phase] != tt.perOp {
					t.Errorf("%s: %v statements per operation, want exactly %v (by label: %v)", tt.phase, st.ByPhase[tt.phase], tt.perOp, st.ByLabel)
				}
				// Two batches per greeting: the message's (with its turn
				// job, committing by itself) and the turn's lease; four
				// round trips in the turn, and the prepares of statements
				// new to a connection.
				if trips := st.RoundTripsByPhase[tt.phase]; st.BatchesPerOp != 2 || trips < 4 || trips > 4+st.PreparesPerOp {
					t.Errorf("batches per operation %v, round trips %v: want 2 (the message's, the lease's) and 4",
						st.BatchesPerOp, st.RoundTripsByPhase[tt.phase])
				}
			}
			if n := scratch(); n != before {
				t.Errorf("%d scratch databases after the run, %d before: want it dropped", n, before)
			}
		})
	}
}

// checkStatements checks the statement counts a bench printed: some, in
// the phase expected, and the statements every operation makes once
// counted exactly once per operation.
func checkStatements(t *testing.T, res benchResult, ops int, phase string, once []string) {
	t.Helper()
	st := res.Statements
	if st == nil || res.StatementsPerOp <= 0 || st.Ops != ops || st.AcquiresPerOp <= 0 {
		t.Fatalf("statements_per_op=%v statements=%+v: want counts over %d operations", res.StatementsPerOp, st, ops)
	}
	if st.ByPhase[phase] <= 0 || st.RoundTripsByPhase[phase] <= 0 || st.RoundTripsPerOp <= 0 {
		t.Errorf("by phase %v, round trips %v (%v): want statements and round trips in %q", st.ByPhase, st.RoundTripsPerOp, st.RoundTripsByPhase, phase)
	}
	for _, l := range once {
		if st.ByLabel[l] != 1 {
			t.Errorf("%q: %v per operation, want 1 (by label: %v)", l, st.ByLabel[l], st.ByLabel)
		}
	}
}

// TestStatementLabel checks the names statements are counted under.
func TestStatementLabel(t *testing.T) {
	for sql, want := range map[string]string{
		"-- name: JobGetAvailable :many\nWITH locked AS (SELECT 1)": "river JobGetAvailable",
		"begin":    "begin",
		"  COMMIT": "commit",
		"/* x */ INSERT INTO messages (a) VALUES ($1)": "insert messages",
		"SELECT a, b FROM facts WHERE id = $1":         "select facts",
		"UPDATE users SET x = 1":                       "update users",
		"WITH c AS (SELECT 1 FROM identities) SELECT":  "with identities",
	} {
		got := statementLabel(sql)
		if got != want && !strings.HasPrefix(got, want+" #") {
			t.Errorf("statementLabel(%q) = %q, want %q", sql, got, want)
		}
	}
	if statementLabel("SELECT a FROM facts") == statementLabel("SELECT b FROM facts") {
		t.Error("two statements on one table share a label")
	}
}

// TestStatementCounterConnect: what a connection sends while the pool sets
// it up (pgvector's type lookup) is counted under "connect", not against
// the operation whose acquire happened to open it.
func TestStatementCounterConnect(t *testing.T) {
	ctx := withPhase(context.Background(), "job:turn")
	c := &statementCounter{}
	st, err := store.Open(ctx, storetest.NewDatabase(t), store.Config{Tracer: c.tracer(), MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Pool().Exec(ctx, "SELECT 1"); err != nil {
		t.Fatal(err)
	}
	byPhase := map[string]int64{}
	c.counts.Range(func(k, n any) bool {
		byPhase[k.(stmtKey).phase] += n.(*atomic.Int64).Load()
		return true
	})
	if byPhase[phaseConnect] == 0 || byPhase["job:turn"] != 1 {
		t.Fatalf("statements by phase %v: want the set-up under %q and the one statement under job:turn", byPhase, phaseConnect)
	}
}

// TestBenchFlags checks that a bench refuses settings it cannot run, with
// the flag named, before it makes a database.
func TestBenchFlags(t *testing.T) {
	tests := []struct {
		kind string
		args []string
		want string // in the error; "" for none
	}{
		{"turns", []string{"-rate", "300", "-settle", "5s"}, ""},
		{"turns", []string{"-settle", "0"}, ""},
		{"turns", []string{"-settle", "-1s"}, "--settle"},
		{"turns", []string{"-settle", "2m"}, "--settle"},
		{"turns", []string{"-rate", "0"}, "--rate"},
		{"ingress", []string{"-settle", "1s"}, "not defined"},
		{"turns", []string{"-users", "0"}, "--users"},
	}
	for _, tt := range tests {
		f, err := parseBenchFlags(tt.kind, tt.args, io.Discard)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s %v: %v", tt.kind, tt.args, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s %v: error %v, want one naming %s", tt.kind, tt.args, err, tt.want)
		case tt.want == "" && tt.args[len(tt.args)-1] == "0" && f.settle != 0:
			t.Errorf("%s %v: settle %v, want 0", tt.kind, tt.args, f.settle)
		}
	}
	if f, _ := parseBenchFlags("turns", nil, io.Discard); f.settle != 3*time.Second {
		t.Errorf("default settle = %v, want 3s", f.settle)
	}
}
