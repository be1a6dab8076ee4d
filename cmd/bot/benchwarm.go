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
}

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
	ctx = withPhase(ctx, phaseBench)
	for deadline := time.Now().Add(benchDrainWait); ; {
		_, unanswered, err := app.Store.ReplyLatencies(ctx, time.Time{})
		if err != nil {
			return nil, err
		}
		if unanswered == 0 {
			break
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return nil, fmt.Errorf("bench warm-up: %d messages unanswered after %s", unanswered, benchDrainWait)
		}
		time.Sleep(50 * time.Millisecond) // waiting for the warm-up's turns
	}
	// The queues a message's turn feeds; not all of them: `bench ingress
	// -with-river` leaves River's own jobs, which nothing works, queued.
	if err := waitJobsDone(ctx, app, pipeline.QueueTurns, pipeline.QueueDeliveries, action.QueueActions); err != nil {
		return nil, err
	}
	if err := app.Store.Analyze(ctx); err != nil {
		return nil, err
	}
	return &benchWarmupInfo{Messages: n, Analyzed: true}, nil
}
