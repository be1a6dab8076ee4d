package storyline_test

import (
	"context"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/memory/storyline"
	"github.com/hearthbot/hearth/pipeline/pipelinetest"
	"github.com/hearthbot/hearth/store/storetest"
)

// TestJobsOnTwoReplicas runs the jobs through River on two clients that
// share one database, as two replicas do: the periodic ticks are
// inserted by the leader, a tick inserted while one waits is a no-op, and
// the night's work is done once.
func TestJobsOnTwoReplicas(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	ann := newUser(t, st, "Ann", "Europe/Rome")
	move := entity(t, st, ann, "house move", hearth.EntityProject)
	night := time.Date(2026, 3, 6, 2, 10, 0, 0, time.UTC)
	for i := range 3 {
		mention(t, st, fmt.Sprint("s", i), night.AddDate(0, 0, -1-i), move)
	}
	jobs := storyline.New(st, storyline.Config{Now: func() time.Time { return night }})
	var clients []*river.Client[pgx.Tx]
	for i := range 2 {
		workers := river.NewWorkers()
		jobs.Workers(workers)
		c, err := river.NewClient(riverpgxv5.New(st.Pool()), &river.Config{
			ID: fmt.Sprint("replica-", i), Workers: workers, TestOnly: true, Logger: slog.New(slog.DiscardHandler),
			FetchCooldown: 2 * time.Millisecond, FetchPollInterval: 20 * time.Millisecond,
			Queues:       map[string]river.QueueConfig{storyline.Queue: {MaxWorkers: 1}},
			PeriodicJobs: jobs.PeriodicJobs(),
		})
		if err != nil {
			t.Fatal(err)
		}
		clients = append(clients, c)
	}
	// A tick inserted twice before it runs is one job.
	first, err := clients[0].Insert(ctx, storyline.NightlyArgs{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	second, err := clients[1].Insert(ctx, storyline.NightlyArgs{}, nil)
	if err != nil || !second.UniqueSkippedAsDuplicate || second.Job.ID != first.Job.ID {
		t.Fatalf("second insert: %+v %v", second, err)
	}
	var subs []pipelinetest.Subscriber
	for _, c := range clients {
		if err := c.Start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := c.Stop(ctx); err != nil {
				t.Errorf("stop river: %v", err)
			}
		})
		subs = append(subs, c)
	}
	done := func(kind string) int {
		var n int
		if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM river_job WHERE kind = $1 AND state = 'completed'`, kind).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	pipelinetest.WaitForJobsOf(t, subs, "the nightly and weekly ticks", func() bool {
		return done("memory_graph_nightly") >= 1 && done("memory_graph_weekly") >= 1
	})
	ss, err := st.FindStorylines(ctx, hearth.StorylineFilter{UserID: ann})
	if err != nil || len(ss) != 1 || ss[0].Days != 3 {
		t.Fatalf("storylines after the night: %+v %v", ss, err)
	}
}
