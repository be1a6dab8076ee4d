package main

import (
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// statementCounter counts the statements and round trips the server's
// pool makes, by phase (what the connection was doing it for: the web
// handler, a River job of some kind, River's own work) and by statement.
// It is a pgx tracer: `bot bench` sets it (Config.statements); `bot
// serve` leaves it nil, and pgx then calls nothing.
type statementCounter struct {
	counts   sync.Map // stmtKey -> *atomic.Int64
	nanos    sync.Map // stmtKey -> *atomic.Int64: time from sending a statement to its end, summed
	labels   sync.Map // SQL -> label
	nLabels  atomic.Int64
	sqlOf    sync.Map // label -> SQL, for -sql
	prepares sync.Map // phase -> *atomic.Int64: statements prepared on a connection (a round trip each)
	trips    sync.Map // phase -> *atomic.Int64: round trips (a statement alone, a batch, a COPY, a prepare)
	batches  atomic.Int64
	copies   atomic.Int64
	acquires atomic.Int64
	// opening holds the connections made but not yet handed out by the
	// pool (*pgx.Conn -> struct{}): what they send meanwhile is their
	// set-up (pgvector's type lookup), counted under phaseConnect rather
	// than against the operation that happened to open them.
	opening sync.Map
}

// stmtKey is one line of the breakdown.
type stmtKey struct{ phase, label string }

// phaseKey carries the phase in a context.
type phaseKey struct{}

// Phases. Statements on a context with no phase are River's own (fetching,
// completing, electing a leader, maintenance) or the heartbeat's.
const (
	phaseHTTP       = "http"
	phaseBackground = "background"
	phaseBench      = "bench" // the bench's own reads; not counted in the totals
	phaseConnect    = "connect"
)

// withPhase tags ctx: the statements made under it count toward phase.
func withPhase(ctx context.Context, phase string) context.Context {
	return context.WithValue(ctx, phaseKey{}, phase)
}

func phaseOf(ctx context.Context) string {
	if p, ok := ctx.Value(phaseKey{}).(string); ok {
		return p
	}
	return phaseBackground
}

// tracer is the counter as the pool's tracer; nil when c is nil.
func (c *statementCounter) tracer() pgx.QueryTracer {
	if c == nil {
		return nil
	}
	return c
}

// middleware tags each River job's context with its kind ("job:turn");
// none when c is nil.
func (c *statementCounter) middleware() []rivertype.Middleware {
	if c == nil {
		return nil
	}
	return []rivertype.Middleware{&jobPhase{}}
}

// handler tags each HTTP request's context with phaseHTTP.
func (c *statementCounter) handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(withPhase(r.Context(), phaseHTTP)))
	})
}

// jobPhase is the River worker middleware that tags each job's context.
type jobPhase struct{ river.MiddlewareDefaults }

// Work runs the job with its kind as the phase.
func (*jobPhase) Work(ctx context.Context, job *rivertype.JobRow, doInner func(context.Context) error) error {
	return doInner(withPhase(ctx, "job:"+job.Kind))
}

// inc adds one to phase's count in m.
func inc(m *sync.Map, phase string) {
	n, ok := m.Load(phase)
	if !ok {
		n, _ = m.LoadOrStore(phase, new(atomic.Int64))
	}
	n.(*atomic.Int64).Add(1)
}

// phase is the phase of a statement sent on conn under ctx.
func (c *statementCounter) phase(ctx context.Context, conn *pgx.Conn) string {
	if _, ok := c.opening.Load(conn); ok {
		return phaseConnect
	}
	return phaseOf(ctx)
}

func (c *statementCounter) add(ctx context.Context, conn *pgx.Conn, sql string) stmtKey {
	k := stmtKey{c.phase(ctx, conn), c.label(sql)}
	n, ok := c.counts.Load(k)
	if !ok {
		n, _ = c.counts.LoadOrStore(k, new(atomic.Int64))
	}
	n.(*atomic.Int64).Add(1)
	return k
}

// timedKey carries a statement's key and start from TraceQueryStart to
// TraceQueryEnd.
type timedKey struct{}

type timed struct {
	k     stmtKey
	start time.Time
}

// maxLabels bounds the label cache, should some SQL carry its values.
const maxLabels = 4096

func (c *statementCounter) label(sql string) string {
	if l, ok := c.labels.Load(sql); ok {
		return l.(string)
	}
	l := statementLabel(sql)
	if c.nLabels.Load() < maxLabels {
		if _, loaded := c.labels.LoadOrStore(sql, l); !loaded {
			c.nLabels.Add(1)
			c.sqlOf.LoadOrStore(l, sql)
		}
	}
	return l
}

// TraceQueryStart counts one statement (Exec, Query, QueryRow; begin and
// commit are statements too).
func (c *statementCounter) TraceQueryStart(ctx context.Context, conn *pgx.Conn, data pgx.TraceQueryStartData) context.Context {
	k := c.add(ctx, conn, data.SQL)
	inc(&c.trips, k.phase)
	return context.WithValue(ctx, timedKey{}, timed{k, time.Now()})
}

// TraceQueryEnd adds the statement's time (its round trip, the server's
// work and any wait for locks) to its label.
func (c *statementCounter) TraceQueryEnd(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryEndData) {
	t, ok := ctx.Value(timedKey{}).(timed)
	if !ok {
		return
	}
	n, ok := c.nanos.Load(t.k)
	if !ok {
		n, _ = c.nanos.LoadOrStore(t.k, new(atomic.Int64))
	}
	n.(*atomic.Int64).Add(int64(time.Since(t.start)))
}

// TraceBatchStart counts a batch: one round trip for its statements.
func (c *statementCounter) TraceBatchStart(ctx context.Context, conn *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	c.batches.Add(1)
	inc(&c.trips, c.phase(ctx, conn))
	return ctx
}

// TraceBatchQuery counts a statement sent in a batch.
func (c *statementCounter) TraceBatchQuery(ctx context.Context, conn *pgx.Conn, data pgx.TraceBatchQueryData) {
	c.add(ctx, conn, data.SQL)
}

// TraceBatchEnd does nothing.
func (c *statementCounter) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

// TraceCopyFromStart counts a COPY.
func (c *statementCounter) TraceCopyFromStart(ctx context.Context, conn *pgx.Conn, data pgx.TraceCopyFromStartData) context.Context {
	c.copies.Add(1)
	k := c.add(ctx, conn, "copy "+data.TableName.Sanitize())
	inc(&c.trips, k.phase)
	return ctx
}

// TraceCopyFromEnd does nothing.
func (c *statementCounter) TraceCopyFromEnd(context.Context, *pgx.Conn, pgx.TraceCopyFromEndData) {}

// TracePrepareStart passes through; the end says whether it was new.
func (c *statementCounter) TracePrepareStart(ctx context.Context, _ *pgx.Conn, _ pgx.TracePrepareStartData) context.Context {
	return ctx
}

// TracePrepareEnd counts a statement prepared on a connection (pgx's
// statement cache does it at a statement's first use on each
// connection): one more round trip.
func (c *statementCounter) TracePrepareEnd(ctx context.Context, conn *pgx.Conn, data pgx.TracePrepareEndData) {
	if data.AlreadyPrepared {
		return
	}
	inc(&c.prepares, c.phase(ctx, conn))
	inc(&c.trips, c.phase(ctx, conn))
}

// TraceAcquireStart counts a connection taken from the pool.
func (c *statementCounter) TraceAcquireStart(ctx context.Context, _ *pgxpool.Pool, _ pgxpool.TraceAcquireStartData) context.Context {
	c.acquires.Add(1)
	return ctx
}

// TraceAcquireEnd notes that the connection handed out is set up.
func (c *statementCounter) TraceAcquireEnd(_ context.Context, _ *pgxpool.Pool, data pgxpool.TraceAcquireEndData) {
	if data.Conn != nil {
		c.opening.Delete(data.Conn)
	}
}

// TraceConnectStart passes through; the end notes the new connection.
func (c *statementCounter) TraceConnectStart(ctx context.Context, _ pgx.TraceConnectStartData) context.Context {
	return ctx
}

// TraceConnectEnd notes a connection made: until the pool hands it out,
// what it sends is its set-up (phaseConnect).
func (c *statementCounter) TraceConnectEnd(_ context.Context, data pgx.TraceConnectEndData) {
	if data.Err == nil && data.Conn != nil {
		c.opening.Store(data.Conn, struct{}{})
	}
}

// benchStatements is the count a bench prints, per operation (an
// acknowledged message, a turn, a River job).
type benchStatements struct {
	Ops int `json:"ops"`
	// RoundTripsPerOp is statements outside batches, batches (one round
	// trip for all their statements), COPYs and prepares, per operation.
	RoundTripsPerOp float64 `json:"round_trips_per_op"`
	PreparesPerOp   float64 `json:"prepares_per_op"`
	BatchesPerOp    float64 `json:"batches_per_op"`
	CopiesPerOp     float64 `json:"copies_per_op"`
	AcquiresPerOp   float64 `json:"acquires_per_op"`
	// ByPhase is statements per operation by phase: http (the web
	// handler, which acknowledges), job:KIND (River's workers), background
	// (River's fetching, completing and maintenance, heartbeats), connect
	// (a new connection's set-up).
	ByPhase map[string]float64 `json:"by_phase"`
	// RoundTripsByPhase is round trips per operation by phase: a batch
	// counts once however many statements it sends.
	RoundTripsByPhase map[string]float64 `json:"round_trips_by_phase"`
	// ByLabel is statements per operation by "phase: statement", the
	// statement named by its verb, first table and a hash of its text
	// (River's by their sqlc names).
	ByLabel map[string]float64 `json:"by_label"`
	// MSByLabel is milliseconds per operation spent in each statement
	// sent alone, from sending it to reading its end (batched statements
	// are not timed): where a turn waits on the database.
	MSByLabel map[string]float64 `json:"ms_by_label"`
}

// statementSnapshot is the counts so far, as totals.
type statementSnapshot struct {
	counts, nanos             map[stmtKey]int64
	prepares, trips           map[string]int64
	batches, copies, acquires int64
}

// snapshot reads the counts so far.
func (c *statementCounter) snapshot() statementSnapshot {
	s := statementSnapshot{counts: map[stmtKey]int64{}, nanos: map[stmtKey]int64{}, prepares: map[string]int64{}, trips: map[string]int64{},
		batches: c.batches.Load(), copies: c.copies.Load(), acquires: c.acquires.Load()}
	c.counts.Range(func(k, v any) bool {
		s.counts[k.(stmtKey)] = v.(*atomic.Int64).Load()
		return true
	})
	c.nanos.Range(func(k, v any) bool {
		s.nanos[k.(stmtKey)] = v.(*atomic.Int64).Load()
		return true
	})
	c.prepares.Range(func(k, v any) bool {
		s.prepares[k.(string)] = v.(*atomic.Int64).Load()
		return true
	})
	c.trips.Range(func(k, v any) bool {
		s.trips[k.(string)] = v.(*atomic.Int64).Load()
		return true
	})
	return s
}

// since is what was counted between from and s, per operation; the
// bench's own phase is left out. Statements per op is the total.
func (s statementSnapshot) since(from statementSnapshot, ops int) (float64, *benchStatements) {
	if ops < 1 {
		ops = 1
	}
	per := func(n int64) float64 { return float64(n) / float64(ops) }
	out := &benchStatements{Ops: ops, ByPhase: map[string]float64{}, ByLabel: map[string]float64{},
		MSByLabel: map[string]float64{}, RoundTripsByPhase: map[string]float64{}}
	var total, prepares, trips int64
	for k, n := range s.counts {
		n -= from.counts[k]
		if n == 0 || k.phase == phaseBench {
			continue
		}
		total += n
		out.ByPhase[k.phase] += per(n)
		out.ByLabel[k.phase+": "+k.label] = per(n)
	}
	for k, n := range s.nanos {
		if n -= from.nanos[k]; n != 0 && k.phase != phaseBench {
			out.MSByLabel[k.phase+": "+k.label] = float64(n) / 1e6 / float64(ops)
		}
	}
	for p, n := range s.prepares {
		if p != phaseBench {
			prepares += n - from.prepares[p]
		}
	}
	for p, n := range s.trips {
		if n -= from.trips[p]; n != 0 && p != phaseBench {
			trips += n
			out.RoundTripsByPhase[p] = per(n)
		}
	}
	batches := s.batches - from.batches
	out.PreparesPerOp, out.BatchesPerOp = per(prepares), per(batches)
	out.CopiesPerOp, out.AcquiresPerOp = per(s.copies-from.copies), per(s.acquires-from.acquires)
	out.RoundTripsPerOp = per(trips)
	return per(total), out
}

// writeSQL lists each label's SQL, for reading the breakdown.
func (c *statementCounter) writeSQL(w io.Writer) {
	m := map[string]string{}
	c.sqlOf.Range(func(k, v any) bool {
		m[k.(string)] = strings.Join(strings.Fields(v.(string)), " ")
		return true
	})
	for _, l := range slices.Sorted(maps.Keys(m)) {
		fmt.Fprintf(w, "%s\t%s\n", l, m[l])
	}
}

// statementLabel names a statement stably: River's (sqlc) by their query
// name, transaction control by its verb, the rest by verb, first table
// and a short hash of the text, so two statements on one table differ.
func statementLabel(sql string) string {
	s := strings.TrimSpace(sql)
	if rest, ok := strings.CutPrefix(s, "-- name: "); ok {
		if f := strings.Fields(rest); len(f) > 0 {
			return "river " + f[0]
		}
	}
	for {
		switch {
		case strings.HasPrefix(s, "--"):
			if i := strings.IndexByte(s, '\n'); i >= 0 {
				s = strings.TrimSpace(s[i+1:])
				continue
			}
			s = ""
		case strings.HasPrefix(s, "/*"):
			if i := strings.Index(s, "*/"); i >= 0 {
				s = strings.TrimSpace(s[i+2:])
				continue
			}
			s = ""
		}
		break
	}
	words := strings.Fields(strings.ToLower(s))
	if len(words) == 0 {
		return "(empty)"
	}
	verb := words[0]
	switch verb {
	case "begin", "commit", "rollback", "savepoint", "release", "listen", "unlisten", "set", "show", "copy":
		return verb
	}
	after := func(w string) string {
		for i, x := range words[:len(words)-1] {
			if x == w {
				return strings.Trim(words[i+1], `"(),;`)
			}
		}
		return ""
	}
	table := ""
	switch verb {
	case "insert":
		table = after("into")
	case "update":
		if len(words) > 1 {
			table = strings.Trim(words[1], `"(),;`)
		}
	default:
		table = after("from")
	}
	h := fnv.New32a()
	h.Write([]byte(strings.Join(strings.Fields(s), " "))) //nolint:errcheck // hashes never fail
	label := verb
	if table != "" {
		label += " " + table
	}
	return fmt.Sprintf("%s #%04x", label, h.Sum32()&0xffff)
}
