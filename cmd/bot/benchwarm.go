package main

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/pipeline/action"
)

// benchWarmupInfo is what the JSON says of the warm-up: how many messages
// went through before the measured window, and that the planner's
// statistics were gathered after them.
type benchWarmupInfo struct {
	Messages int  `json:"messages"`
	Analyzed bool `json:"analyzed"`
	// Settle (turns) is the paced run between the warm-up and the window.
	Settle *benchSettleInfo `json:"settle,omitempty"`
}

// benchSettleInfo is what the JSON says of the settling run: how many
// messages, and their latencies, which are those of a server's first
// seconds after a start or a database-wide ANALYZE.
type benchSettleInfo struct {
	Messages int     `json:"messages"`
	Seconds  float64 `json:"seconds"`
	P50MS    float64 `json:"p50_ms"`
	P99MS    float64 `json:"p99_ms"`
}

// turnQueues are the queues a message's turn feeds; not all of them:
// `bench ingress -with-river` leaves River's own jobs, which nothing
// works, queued.
var turnQueues = []string{pipeline.QueueTurns, pipeline.QueueDeliveries, action.QueueActions}

// benchMaxWarmup bounds the warm-up's messages, whatever --users says.
const benchMaxWarmup = 1000

// benchWarmup sends one message per user (at most benchMaxWarmup), waits
// until the turns they cause are answered and their jobs finished, and
// then ANALYZEs the database. Without it the measured window would run on
// a young scratch database whose plans (pgx caches them per connection)
// were made for empty tables: counts and timings of a database no one
// runs. The messages are those of the run (text, or the mix), so the
// tables the path reads hold rows of the kind it reads.
func benchWarmup(ctx context.Context, app *App, client *http.Client, base string, f benchFlags) (*benchWarmupInfo, error) {
	n := min(f.users, benchMaxWarmup)
	res := drive(ctx, f.clients, n, benchMaxDuration, func(ctx context.Context, i int) error {
		text := cmp.Or(f.text, benchMessage(i, f.users, 0))
		return benchPost(ctx, client, base+"/api/webchat/messages", fmt.Sprintf(`{"user":"bench%d","text":%q}`, i%f.users, text))
	})
	if res.Errors > 0 {
		return nil, fmt.Errorf("bench warm-up: %s", res.FirstError)
	}
	ctx = withPhase(ctx, phaseBench) // the bench's own reads are not counted
	if _, err := benchDrain(ctx, app, time.Time{}, "warm-up"); err != nil {
		return nil, err
	}
	if err := app.Store.Analyze(ctx); err != nil {
		return nil, err
	}
	return &benchWarmupInfo{Messages: n, Analyzed: true}, nil
}

// benchSettle offers messages at f.rate for f.settle and waits for their
// replies, before the turns bench measures. The warm-up's ANALYZE
// invalidates every pooled connection's cached plans and relation caches
// at once, and pgx's statement cache makes each connection plan a
// statement five times before Postgres settles on a generic plan. A
// server that runs for hours pays that once, and then as autovacuum
// analyzes one table at a time. Measured at 300 messages a second, the
// first one to three seconds after the warm-up answered with a p99 of
// 100–250 ms and the seconds after them with 15–30 ms, so a window
// starting cold reported mostly its first seconds. The settling run's
// latencies are reported (warmup.settle in the JSON), not hidden;
// -settle 0 measures from cold. round is the round (see benchMessage)
// the measured messages start at, so that they are new words too.
func benchSettle(ctx context.Context, app *App, client *http.Client, bases []string, f benchFlags) (info *benchSettleInfo, round int, err error) {
	const first = 1 // the warm-up's messages are round 0
	if f.settle <= 0 {
		return nil, first, nil
	}
	n := max(1, int(f.rate*f.settle.Seconds()))
	start := time.Now()
	res := drive(ctx, f.clients, n, benchMaxDuration, pacedPost(client, bases, f, start, first))
	if res.Errors > 0 {
		return nil, 0, fmt.Errorf("bench settle: %s", res.FirstError)
	}
	lat, err := benchDrain(withPhase(ctx, phaseBench), app, start, "settle")
	if err != nil {
		return nil, 0, err
	}
	sum := summarize(lat, 0, time.Since(start))
	return &benchSettleInfo{Messages: n, Seconds: sum.Seconds, P50MS: sum.P50MS, P99MS: sum.P99MS}, first + (n-1)/benchRound(f.users) + 1, nil
}

// benchDrain waits until every message stored since start has a reply
// and the jobs their turns fed are done, before what follows a run that
// is not measured (an ANALYZE, the window); what names the run in the
// error when some stay unanswered.
func benchDrain(ctx context.Context, app *App, start time.Time, what string) ([]time.Duration, error) {
	lat, unanswered, err := waitReplies(ctx, app, start)
	if err != nil {
		return nil, err
	}
	if unanswered > 0 {
		return nil, fmt.Errorf("bench %s: %d messages unanswered after %s", what, unanswered, benchDrainWait)
	}
	return latencies(lat), waitJobsDone(ctx, app, turnQueues...)
}
