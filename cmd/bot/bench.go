package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/store"
)

// benchMessages is a mix of what people say: small talk, questions,
// requests that act. Each is given its round (see benchMessage), which
// picks the words of the requests: a user's requests are new ones, as a
// real user's mostly are (told again word for word, Hearth asks before
// adding a second task and a list keeps one of each, which is less work).
var benchMessages = []func(round int) string{
	func(int) string { return "Hey, how's it going?" },
	func(r int) string {
		return fmt.Sprintf("Remind me to %s tomorrow at %dpm", benchChores[r%len(benchChores)], 6+r/len(benchChores)%4)
	},
	func(int) string { return "What's on my calendar tomorrow?" },
	func(r int) string {
		return fmt.Sprintf("Remember that %s's favourite tea is %s", benchNames[r%len(benchNames)], benchTeas[r/len(benchNames)%len(benchTeas)])
	},
	func(r int) string {
		return fmt.Sprintf("Add %s to my shopping list", benchGroceries[r%len(benchGroceries)])
	},
	func(int) string { return "What do I have to do this week?" },
}

var (
	benchChores    = []string{"water the plants", "call the plumber", "renew the passport", "book the dentist", "pay the rent", "return the library books", "buy a birthday card", "fix the bike", "email the landlord", "take out the recycling"}
	benchNames     = []string{"Priya", "Sam", "Lee", "Ana", "Omar", "Mia", "Ken", "Zoe"}
	benchTeas      = []string{"jasmine", "green tea", "mint", "chai", "earl grey"}
	benchGroceries = []string{"oat milk", "eggs", "bread", "apples", "coffee", "rice", "lemons", "butter", "cheese", "tomatoes", "onions", "pasta", "yogurt", "honey", "spinach", "carrots", "bananas", "flour", "olive oil", "garlic", "oats", "salt", "pepper", "jam"}
)

// benchMessage is message i of a run over users users: user i%users says
// benchMessages[i%n], in round first + the number of times that user said
// that message before in the run. The warm-up is round 0, the measured
// messages start at round 1, so they are new words too.
func benchMessage(i, users, first int) string {
	return benchMessages[i%len(benchMessages)](first + i/benchRound(users))
}

// benchRound is how many messages of a run make a round: how often a
// user says the same message of the mix.
func benchRound(users int) int {
	n := len(benchMessages)
	return users * n / gcd(users, n)
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// Bounds on what one bench run may do, whatever its flags say.
const (
	benchMaxCount    = 1_000_000
	benchMaxDuration = 10 * time.Minute
	benchMaxClients  = 512
	benchMaxUsers    = 100_000
	benchDrainWait   = 2 * time.Minute // turns: how long to wait for the last replies
	benchMaxReplicas = 4               // each takes a pool of connections from the one server
)

// benchResult is what each bench prints: one JSON object. Count is
// OK + Errors; Rate is OK per second of Seconds; the percentiles are of
// the OK operations.
type benchResult struct {
	Bench    string         `json:"bench"`
	Count    int            `json:"count"`
	OK       int            `json:"ok"`
	Errors   int            `json:"errors"`
	Seconds  float64        `json:"seconds"`
	Rate     float64        `json:"rate"`
	P50MS    float64        `json:"p50_ms"`
	P95MS    float64        `json:"p95_ms"`
	P99MS    float64        `json:"p99_ms"`
	Settings map[string]any `json:"settings"`
	// River is the River run made in the same invocation (ingress
	// --with-river), and RatioToRiver this run's rate over River's.
	River        *benchResult `json:"river,omitempty"`
	RatioToRiver float64      `json:"ratio_to_river,omitempty"`
	// Unanswered (turns) counts messages with no reply stored when the
	// bench gave up waiting.
	Unanswered int `json:"unanswered,omitempty"`
	// FirstError is one error met, to say why Errors is not zero.
	FirstError string `json:"first_error,omitempty"`
	// StatementsPerOp is every statement the server's pool made in the
	// measured window over the operations (acknowledged messages, turns,
	// jobs); Statements breaks it down by phase and statement.
	StatementsPerOp float64          `json:"statements_per_op,omitempty"`
	Statements      *benchStatements `json:"statements,omitempty"`
	// CPU is the CPU time the window used per operation.
	CPU *benchCPU `json:"cpu,omitempty"`
	// Warmup (ingress, turns) says what ran before the measured window.
	Warmup *benchWarmupInfo `json:"warmup,omitempty"`
	// BySecond (turns) is the window's latencies second by second, by
	// when the message was stored: whether a high p99 is a few bad
	// seconds or the whole run.
	BySecond []benchSecond `json:"by_second,omitempty"`
}

// benchFlags are the settings every bench takes.
type benchFlags struct {
	clients   int
	count     int
	duration  time.Duration
	users     int
	rate      float64
	pause     bool
	withRiver bool
	// cpuProfile and memProfile name files for profiles of the measured
	// window; sqlOut lists each statement label's SQL to stderr.
	cpuProfile string
	memProfile string
	sqlOut     bool
	// text, when set, is the one message sent (turns: "hi" measures a
	// greeting) instead of the mix.
	text string
	// settle (turns) is how long messages are offered at rate after the
	// warm-up, answered but not measured (see benchSettle).
	settle time.Duration
	// batch is how many statements one round trip carries (roundtrip).
	batch int
	// replicas is how many Hearths serve the bench on the one database,
	// each as `bot serve` runs (its own pool, River client, workers and
	// listener); the clients take them in turn. With processes, each is a
	// `bot serve` process of its own (this binary).
	replicas  int
	processes bool
}

// Bench runs `bot bench river|ingress|turns|roundtrip` on a scratch
// database it creates on DATABASE_URL's server and drops at the end, and
// prints one JSON object.
func Bench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || !slices.Contains([]string{"river", "ingress", "turns", "roundtrip"}, args[0]) {
		return errors.New("usage: bot bench river|ingress|turns|roundtrip [flags] (bot bench KIND -h lists them)")
	}
	kind := args[0]
	f, err := parseBenchFlags(kind, args[1:], stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	cfg, err := LoadConfig()
	if err != nil {
		return err
	}
	serverURL := cfg.DatabaseURL
	dbURL, drop, err := store.CreateScratchDatabase(ctx, serverURL, "hearth_bench")
	if err != nil {
		return fmt.Errorf("bench: %w (the role in DATABASE_URL needs CREATEDB)", err)
	}
	defer func() {
		if err := drop(ctx); err != nil {
			fmt.Fprintln(stderr, "bench:", err)
		}
	}()
	cfg.DatabaseURL = dbURL
	if err := store.Migrate(ctx, dbURL, newLogger(benchAppConfig(cfg), stderr)); err != nil {
		return err
	}

	var res benchResult
	switch kind {
	case "river":
		res, err = benchRiver(ctx, dbURL, f, stderr)
	case "ingress":
		var rv *benchResult
		if f.withRiver {
			r, err := benchRiver(ctx, dbURL, f, stderr)
			if err != nil {
				return err
			}
			rv = &r
		}
		res, err = benchIngress(ctx, cfg, f, stderr)
		if err == nil && rv != nil {
			res.River = rv
			if rv.Rate > 0 {
				res.RatioToRiver = res.Rate / rv.Rate
			}
		}
	case "turns":
		res, err = benchTurns(ctx, cfg, f, stderr)
	case "roundtrip":
		res, err = benchRoundTrip(ctx, dbURL, f, stderr)
	}
	if err != nil {
		return err
	}
	res.Settings["database"] = "scratch database, created and dropped by this run"
	enc := json.NewEncoder(stdout)
	return enc.Encode(res)
}

func parseBenchFlags(kind string, args []string, stderr io.Writer) (benchFlags, error) {
	fs := flag.NewFlagSet("bot bench "+kind, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f benchFlags
	fs.IntVar(&f.clients, "clients", 16, "concurrent clients")
	defCount := map[string]int{"river": 5000, "ingress": 5000, "turns": 1000, "roundtrip": 200_000}[kind]
	fs.IntVar(&f.count, "count", defCount, "operations (jobs, requests, messages) at most")
	fs.DurationVar(&f.duration, "duration", 30*time.Second, "time at most (the run stops at whichever bound comes first)")
	if kind == "roundtrip" {
		fs.IntVar(&f.batch, "batch", 1, "statements per round trip (one batch)")
	}
	if kind != "river" && kind != "roundtrip" {
		fs.IntVar(&f.users, "users", map[string]int{"ingress": 1000, "turns": 100}[kind], "web chat users the messages are spread over")
	}
	if kind == "ingress" {
		fs.BoolVar(&f.pause, "pause-turns", false, "pause the turns queue: measure the acknowledging path alone")
		fs.BoolVar(&f.withRiver, "with-river", false, "first run `bench river` in the same invocation and print the ratio")
	}
	if kind != "river" && kind != "roundtrip" {
		fs.IntVar(&f.replicas, "replicas", 1, "Hearths serving on the one database, each with its own pool, queue client and workers; the clients take them in turn")
		fs.BoolVar(&f.processes, "processes", false, "run each replica as a `bot serve` process of its own instead of inside the bench (statements are then not counted)")
	}
	if kind == "turns" {
		fs.Float64Var(&f.rate, "rate", 100, "messages offered per second")
		fs.StringVar(&f.text, "text", "", "send this message every time instead of the mix (\"hi\": a greeting turn)")
		fs.DurationVar(&f.settle, "settle", 3*time.Second, "after the warm-up, offer messages at -rate this long before measuring (0: measure from cold)")
	}
	fs.StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile of the measured window to `file`")
	fs.StringVar(&f.memProfile, "memprofile", "", "write allocation profiles to `file` (end of the window) and file.base (its start): pprof -diff_base")
	fs.BoolVar(&f.sqlOut, "sql", false, "list each statement label's SQL on stderr")
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	switch {
	case fs.NArg() > 0:
		return f, fmt.Errorf("bench %s: unexpected argument %q", kind, fs.Arg(0))
	case f.clients < 1 || f.clients > benchMaxClients:
		return f, fmt.Errorf("bench: --clients must be from 1 to %d", benchMaxClients)
	case f.count < 1 || f.count > benchMaxCount:
		return f, fmt.Errorf("bench: --count must be from 1 to %d", benchMaxCount)
	case f.duration <= 0 || f.duration > benchMaxDuration:
		return f, fmt.Errorf("bench: --duration must be positive and at most %s", benchMaxDuration)
	case kind != "river" && kind != "roundtrip" && (f.users < 1 || f.users > benchMaxUsers):
		return f, fmt.Errorf("bench: --users must be from 1 to %d", benchMaxUsers)
	case kind != "river" && kind != "roundtrip" && (f.replicas < 1 || f.replicas > benchMaxReplicas):
		return f, fmt.Errorf("bench: --replicas must be from 1 to %d", benchMaxReplicas)
	case kind == "roundtrip" && (f.batch < 1 || f.batch > 100):
		return f, errors.New("bench: --batch must be from 1 to 100")
	case kind == "turns" && (f.rate <= 0 || f.rate > 100_000):
		return f, errors.New("bench: --rate must be positive and at most 100000")
	case f.settle < 0 || f.settle > time.Minute:
		return f, errors.New("bench: --settle must be from 0 to 1m")
	}
	return f, nil
}

// benchJob is the job River alone inserts; nothing works it.
type benchJob struct{ N int }

// Kind names the job for River.
func (benchJob) Kind() string { return "bench_noop" }

// benchRiver inserts one job per transaction from f.clients clients.
func benchRiver(ctx context.Context, dbURL string, f benchFlags, stderr io.Writer) (benchResult, error) {
	counter := &statementCounter{}
	st, err := store.Open(ctx, dbURL, store.Config{MaxConns: int32(f.clients), Tracer: counter})
	if err != nil {
		return benchResult{}, err
	}
	defer st.Close()
	client, err := river.NewClient(riverpgxv5.New(st.Pool()), &river.Config{})
	if err != nil {
		return benchResult{}, fmt.Errorf("bench river: %w", err)
	}
	pool := st.Pool()
	win, err := startWindow(f, counter)
	if err != nil {
		return benchResult{}, err
	}
	res := drive(ctx, f.clients, f.count, f.duration, func(ctx context.Context, i int) error {
		ctx = withPhase(ctx, "client")
		tx, err := pool.Begin(ctx)
		if err != nil {
			return err
		}
		defer tx.Rollback(ctx) //nolint:errcheck // after Commit, a no-op
		if _, err := client.InsertTx(ctx, tx, benchJob{N: i}, &river.InsertOpts{Queue: "bench"}); err != nil {
			return err
		}
		return tx.Commit(ctx)
	})
	if err := win.end(res.OK, &res, stderr); err != nil {
		return benchResult{}, err
	}
	res.Bench = "river"
	res.Settings = map[string]any{
		"clients": f.clients, "count": f.count, "duration": f.duration.String(),
		"pool_max_conns": f.clients, "mode": "begin, InsertTx, commit: one job per transaction; no workers",
	}
	return res, nil
}

// benchUsers signs in n web chat users, bench0..bench(n-1).
func benchUsers(ctx context.Context, client *http.Client, base string, n, clients int) error {
	res := drive(ctx, clients, n, benchMaxDuration, func(ctx context.Context, i int) error {
		return benchPost(ctx, client, base+"/api/webchat/users", fmt.Sprintf(`{"user":"bench%d","tz":"Europe/Berlin"}`, i))
	})
	if res.Errors > 0 {
		return fmt.Errorf("bench: signing in %d users: %s", n, res.FirstError)
	}
	return nil
}

// benchIngress posts web chat messages from f.clients clients over
// f.users users and times each acknowledgement.
func benchIngress(ctx context.Context, cfg Config, f benchFlags, stderr io.Writer) (benchResult, error) {
	counter := &statementCounter{}
	apps, bases, stop, err := benchApps(ctx, cfg, f, counter, stderr)
	if err != nil {
		return benchResult{}, err
	}
	app, base := apps[0], bases[0]
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: f.clients}, Timeout: 30 * time.Second}
	if err := benchUsers(ctx, client, base, f.users, f.clients); err != nil {
		stop() //nolint:errcheck // already failing
		return benchResult{}, err
	}
	warm, err := benchWarmup(ctx, app, client, base, f)
	if err != nil {
		stop() //nolint:errcheck // already failing
		return benchResult{}, err
	}
	if f.pause {
		if err := pauseTurns(ctx, app); err != nil {
			stop() //nolint:errcheck // already failing
			return benchResult{}, err
		}
	}
	win, err := startWindow(f, counter)
	if err != nil {
		stop() //nolint:errcheck // already failing
		return benchResult{}, err
	}
	res := drive(ctx, f.clients, f.count, f.duration, func(ctx context.Context, i int) error {
		return benchPost(ctx, client, bases[i%len(bases)]+"/api/webchat/messages",
			fmt.Sprintf(`{"user":"bench%d","text":%q}`, i%f.users, benchMessage(i, f.users, 1)))
	})
	if err := win.end(res.OK, &res, stderr); err != nil {
		stop() //nolint:errcheck // already failing
		return benchResult{}, err
	}
	if err := stop(); err != nil {
		return benchResult{}, fmt.Errorf("bench: stopping the server: %w", err)
	}
	res.Bench = "ingress"
	res.Warmup = warm
	res.Settings = appSettings(app.Config, f)
	benchReplicaSettings(&res, f, len(bases))
	res.Settings["pause_turns"] = f.pause
	return res, nil
}

// benchReplicaSettings says how the bench was served. Replicas run as
// processes of their own are not counted by the bench's statement counter.
func benchReplicaSettings(res *benchResult, f benchFlags, replicas int) {
	res.Settings["replicas"] = replicas
	if f.processes {
		res.Settings["processes"] = true
		res.StatementsPerOp, res.Statements = 0, nil
	}
}

// pauseTurns pauses the turns queue; River records the queue when its
// producer starts, shortly after the server is ready.
func pauseTurns(ctx context.Context, app *App) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		err := app.River.QueuePause(ctx, pipeline.QueueTurns, nil)
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("bench: pause the turns queue: %w", err)
		}
		time.Sleep(20 * time.Millisecond) // waiting for River's producer to record the queue
	}
}

// benchTurns offers f.rate messages a second over f.users users, waits
// for their replies, and reports the time from each message stored to
// its first reply stored.
func benchTurns(ctx context.Context, cfg Config, f benchFlags, stderr io.Writer) (benchResult, error) {
	counter := &statementCounter{}
	apps, bases, stop, err := benchApps(ctx, cfg, f, counter, stderr)
	if err != nil {
		return benchResult{}, err
	}
	defer stop() //nolint:errcheck // the result is read from the database first
	app, base := apps[0], bases[0]
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: f.clients}, Timeout: 30 * time.Second}
	if err := benchUsers(ctx, client, base, f.users, f.clients); err != nil {
		return benchResult{}, err
	}
	warm, err := benchWarmup(ctx, app, client, base, f)
	if err != nil {
		return benchResult{}, err
	}
	settle, round, err := benchSettle(ctx, app, client, bases, f)
	if err != nil {
		return benchResult{}, err
	}
	warm.Settle = settle
	win, err := startWindow(f, counter)
	if err != nil {
		return benchResult{}, err
	}
	start := time.Now()
	posted := drive(ctx, f.clients, f.count, f.duration, pacedPost(client, bases, f, start, round))
	ctx = withPhase(ctx, phaseBench) // the bench's own reads are not counted
	lat, unanswered, err := waitReplies(ctx, app, start)
	if err != nil {
		return benchResult{}, err
	}
	elapsed := answeredIn(lat, start)
	// The turns' deliveries and River's completions come after the
	// replies: wait for them before counting.
	if err := waitJobsDone(ctx, app); err != nil {
		return benchResult{}, err
	}
	res := summarize(latencies(lat), posted.Errors+unanswered, elapsed)
	res.BySecond = bySecond(lat, start)
	if err := win.end(posted.OK, &res, stderr); err != nil {
		return benchResult{}, err
	}
	res.Bench = "turns"
	res.Warmup = warm
	res.Unanswered = unanswered
	res.FirstError = posted.FirstError
	res.Settings = appSettings(app.Config, f)
	res.Settings["rate"] = f.rate
	res.Settings["settle"] = f.settle.String()
	benchReplicaSettings(&res, f, len(bases))
	if f.text != "" {
		res.Settings["text"] = f.text
	}
	res.Settings["posted_rate"] = posted.Rate
	res.Settings["measure"] = "user message stored to first bot reply stored (messages.created_at)"
	return res, nil
}

// pacedPost is drive's operation for messages offered at f.rate from
// start: message i, of the round given (see benchMessage), is posted at
// start + i/rate, to the replicas in turn.
func pacedPost(client *http.Client, bases []string, f benchFlags, start time.Time, round int) func(ctx context.Context, i int) error {
	return func(ctx context.Context, i int) error {
		time.Sleep(time.Until(start.Add(time.Duration(float64(i) / f.rate * float64(time.Second))))) // pacing the offered load
		text := cmp.Or(f.text, benchMessage(i, f.users, round))
		return benchPost(ctx, client, bases[i%len(bases)]+"/api/webchat/messages", fmt.Sprintf(`{"user":"bench%d","text":%q}`, i%f.users, text))
	}
}

// waitReplies waits, up to benchDrainWait, until every user message
// stored since start has a reply, and returns the latencies of those
// answered and how many are not.
func waitReplies(ctx context.Context, app *App, start time.Time) (lat []store.ReplyLatency, unanswered int, err error) {
	for deadline := time.Now().Add(benchDrainWait); ; {
		lat, unanswered, err = app.Store.ReplyLatencies(ctx, start)
		if err != nil || unanswered == 0 || time.Now().After(deadline) || ctx.Err() != nil {
			return lat, unanswered, err
		}
		time.Sleep(100 * time.Millisecond) // waiting for the turns to drain
	}
}

// waitJobsDone waits, up to benchDrainWait, until no job (of queues, when
// named) is available, running or retryable: the work the bench caused
// is finished and its completions recorded.
func waitJobsDone(ctx context.Context, app *App, queues ...string) error {
	params := river.NewJobListParams().States(rivertype.JobStateAvailable, rivertype.JobStateRunning,
		rivertype.JobStateRetryable, rivertype.JobStatePending).First(1)
	if len(queues) > 0 {
		params = params.Queues(queues...)
	}
	for deadline := time.Now().Add(benchDrainWait); ; {
		res, err := app.River.JobList(ctx, params)
		if err != nil {
			return fmt.Errorf("bench: list jobs: %w", err)
		}
		if len(res.Jobs) == 0 || time.Now().After(deadline) || ctx.Err() != nil {
			return nil
		}
		time.Sleep(50 * time.Millisecond) // waiting for River's workers and completer
	}
}

func benchPost(ctx context.Context, client *http.Client, url, body string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	io.Copy(io.Discard, res.Body) //nolint:errcheck // draining for keep-alive
	if res.StatusCode >= 300 {
		return fmt.Errorf("POST %s: %s", url, res.Status)
	}
	return nil
}

// drive runs op from clients goroutines, each taking the next index,
// until count operations were started, d passed or ctx ended, and
// summarizes their latencies.
func drive(ctx context.Context, clients, count int, d time.Duration, op func(ctx context.Context, i int) error) benchResult {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var (
		next     atomic.Int64
		mu       sync.Mutex
		errs     int
		firstErr string
		wg       sync.WaitGroup
	)
	lat := make([][]time.Duration, clients)
	start := time.Now()
	for c := range clients {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= count {
					return
				}
				t0 := time.Now()
				if err := op(ctx, i); err != nil {
					if ctx.Err() != nil {
						return // stopped by the time bound: not counted
					}
					mu.Lock()
					errs++
					if firstErr == "" {
						firstErr = err.Error()
					}
					mu.Unlock()
					continue
				}
				lat[c] = append(lat[c], time.Since(t0))
			}
		})
	}
	wg.Wait()
	res := summarize(slices.Concat(lat...), errs, time.Since(start))
	res.FirstError = firstErr
	return res
}
