package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/store"
)

// traceMetrics is the store as the turn runner keeps state in it, with
// each saved trace's stage timings recorded as metrics and spans on the
// way.
type traceMetrics struct {
	*store.Store
	m     *pipeline.Metrics
	spans *turnTracer
}

func (t traceMetrics) SaveTrace(ctx context.Context, tr hearth.Trace) error {
	t.m.ObserveTrace(tr)
	t.spans.stages(ctx, tr)
	return t.Store.SaveTrace(ctx, tr)
}

func (t traceMetrics) SaveTraceTx(ctx context.Context, tx pgx.Tx, tr hearth.Trace) error {
	t.m.ObserveTrace(tr)
	t.spans.stages(ctx, tr)
	return t.Store.SaveTraceTx(ctx, tx, tr)
}

// observeTraces records the trace an answer carries (Answer.Trace) as
// metrics and spans, as traceMetrics does for a trace saved by a write.
func observeTraces(m *pipeline.Metrics, spans *turnTracer, next pipeline.Handler) pipeline.Handler {
	return pipeline.HandlerFunc(func(ctx context.Context, t pipeline.Turn) (pipeline.Answer, error) {
		ans, err := next.HandleTurn(ctx, t)
		if err == nil && ans.Trace != nil {
			m.ObserveTrace(*ans.Trace)
			spans.stages(ctx, *ans.Trace)
		}
		return ans, err
	})
}

// jobsCollector exports the job table as it is at each scrape: queue
// depth (available, scheduled, retryable), running jobs and dead letters
// (discarded, cancelled), per queue. Every replica sees the same numbers.
type jobsCollector struct {
	st   *store.Store
	desc *prometheus.Desc
}

func newJobsCollector(st *store.Store) *jobsCollector {
	return &jobsCollector{st: st, desc: prometheus.NewDesc("hearth_jobs",
		"River jobs by queue and state (available, scheduled and retryable are the queue depth; discarded and cancelled are dead letters).",
		[]string{"queue", "state"}, nil)}
}

func (c *jobsCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c *jobsCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	counts, err := c.st.JobCounts(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.desc, err)
		return
	}
	for _, n := range counts {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(n.Count), n.Queue, n.State)
	}
}

// JobsFailed prints the dead letters, newest first: the job, its last
// error, and the turn (who, what they wrote) or reply it was about
// (`bot jobs failed`).
func JobsFailed(ctx context.Context, cfg Config, limit int, stdout io.Writer) error {
	st, err := store.Open(ctx, cfg.DatabaseURL, store.Config{MaxConns: 2})
	if err != nil {
		return err
	}
	defer st.Close()
	jobs, err := st.FailedJobs(ctx, limit)
	if err != nil {
		return err
	}
	if len(jobs) == 0 {
		fmt.Fprintln(stdout, "no failed jobs")
		return nil
	}
	w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tKIND\tSTATE\tATTEMPTS\tFAILED AT\tABOUT\tERROR")
	for _, j := range jobs {
		about := j.Args
		if j.ConversationID != 0 {
			about = fmt.Sprintf("%s, conversation %d: %q", cmp.Or(j.User, "?"), j.ConversationID, clip(j.Text, 48))
		}
		fmt.Fprintf(w, "%d\t%s\t%s\t%d/%d\t%s\t%s\t%s\n", j.ID, j.Kind, j.State, j.Attempt, j.MaxAttempts,
			j.FinalizedAt.UTC().Format(time.RFC3339), about, clip(oneLine(j.Error), 120))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "retry one with: bot jobs retry ID")
	return nil
}

// JobsRetry puts a dead letter back to work (`bot jobs retry ID`).
func JobsRetry(ctx context.Context, cfg Config, id int64, stdout io.Writer) error {
	st, err := store.Open(ctx, cfg.DatabaseURL, store.Config{MaxConns: 2})
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.RetryJob(ctx, id); err != nil {
		if hearth.ErrorCode(err) == hearth.ENotFound {
			return fmt.Errorf("job %d is not a failed job (see bot jobs failed)", id)
		}
		return err
	}
	fmt.Fprintf(stdout, "job %d will run again now\n", id)
	return nil
}

// jobsArgs reads `bot jobs failed [-n N]` and `bot jobs retry ID`.
func jobsArgs(args []string) (cmd string, n int64, err error) {
	const use = "usage: bot jobs failed [-n N] | bot jobs retry ID"
	switch {
	case len(args) >= 1 && args[0] == "failed":
		n, err := tailCount(args[1:])
		return "failed", int64(n), err
	case len(args) == 2 && args[0] == "retry":
		id, err := strconv.ParseInt(args[1], 10, 64)
		if err != nil || id <= 0 {
			return "", 0, fmt.Errorf("%s: %q is not a job id", use, args[1])
		}
		return "retry", id, nil
	}
	return "", 0, fmt.Errorf("%s", use)
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
