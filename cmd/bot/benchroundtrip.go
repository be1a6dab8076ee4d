package main

import (
	"context"
	"io"

	"github.com/hearthbot/hearth/store"
	"github.com/jackc/pgx/v5"
)

// benchRoundTrip measures what a round trip to the database costs on this
// machine, apart from any work: f.clients clients each send f.batch
// trivial statements per round trip. An operation is one statement; with
// --batch 1 and --batch 4 side by side, the difference in machine CPU a
// statement is the cost of the round trip itself (the client's and the
// server's system calls and wake-ups), which bounds what saving round
// trips can buy a turn.
func benchRoundTrip(ctx context.Context, dbURL string, f benchFlags, stderr io.Writer) (benchResult, error) {
	counter := &statementCounter{}
	st, err := store.Open(ctx, dbURL, store.Config{MaxConns: int32(f.clients), Tracer: counter})
	if err != nil {
		return benchResult{}, err
	}
	defer st.Close()
	pool := st.Pool()
	win, err := startWindow(f, counter)
	if err != nil {
		return benchResult{}, err
	}
	trips := max(1, f.count/f.batch)
	res := drive(ctx, f.clients, trips, f.duration, func(ctx context.Context, i int) error {
		ctx = withPhase(ctx, "client")
		b := &pgx.Batch{}
		for j := range f.batch {
			b.Queue("SELECT $1::int", j)
		}
		return pool.SendBatch(ctx, b).Close()
	})
	res.Count, res.OK, res.Errors = res.Count*f.batch, res.OK*f.batch, res.Errors*f.batch
	ops := res.OK
	if err := win.end(ops, &res, stderr); err != nil {
		return benchResult{}, err
	}
	if res.Seconds > 0 {
		res.Rate = float64(ops) / res.Seconds
	}
	res.Bench = "roundtrip"
	res.Settings = map[string]any{
		"clients": f.clients, "count": f.count, "duration": f.duration.String(), "batch": f.batch,
		"pool_max_conns": f.clients, "mode": "SELECT $1 × batch per round trip; an operation is one statement, latencies are per round trip",
	}
	return res, nil
}
