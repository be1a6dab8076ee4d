package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline"
)

// pushed stores one message, keyed key, for each of users (written first,
// as a briefing is) and returns their ids in order.
func pushed(t *testing.T, b *testBundle, key string, users ...string) []int64 {
	t.Helper()
	ctx := context.Background()
	var ids []int64
	for i, u := range users {
		c, err := b.store.SignIn(ctx, hearth.ChannelWebchat, u, u, u, "UTC")
		if err != nil {
			t.Fatal(err)
		}
		tx, err := b.store.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		id, _, _, stored, err := b.store.StoreScheduledTx(ctx, tx, c.User.ID, fmt.Sprintf("%s-%d", key, i), hearth.Outbound{Text: "good morning " + u})
		if err != nil || !stored {
			t.Fatalf("store %s's message: stored %v, %v", u, stored, err)
		}
		if err := tx.Commit(ctx); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

// deliverJobs are the deliver jobs in River, oldest first.
func deliverJobs(t *testing.T, c *river.Client[pgx.Tx]) []*rivertype.JobRow {
	t.Helper()
	res, err := c.JobList(context.Background(), river.NewJobListParams().Kinds(pipeline.DeliverArgs{}.Kind()).First(100).
		States(rivertype.JobStates()...))
	if err != nil {
		t.Fatal(err)
	}
	return res.Jobs
}

// TestOneJobDeliversSeveralMessages: a job of several messages sends
// each once and records it, by itself when all goes well; a message that
// cannot go straight away is handed to a job of its own (a failed send
// retries there with backoff, a rate limit is waited out there, a
// message behind an earlier one of its conversation waits there), and a
// permanent refusal is given up, while the others go out.
func TestOneJobDeliversSeveralMessages(t *testing.T) {
	t.Parallel()
	limited := &hearth.RetryAfterError{After: time.Hour, Err: errors.New("429 Too Many Requests")}
	refused := fmt.Errorf("chat not found: %w", hearth.ErrPermanent)
	for _, tc := range []struct {
		name string
		// failFirst sends fail with failWith; sameChat puts the first two
		// messages in one conversation.
		failFirst int
		failWith  error
		sameChat  bool
		// wantSent are the indexes of the messages delivered in the end,
		// in the order they went; wantJobs how many deliver jobs there
		// were (the first, and those handed over); wantLater whether the
		// handed-over jobs wait an hour.
		wantSent  []int
		wantJobs  int
		wantCalls int
		wantLater bool
	}{
		{name: "all go", wantSent: []int{0, 1, 2}, wantJobs: 1, wantCalls: 3},
		{name: "a failed send retries alone", failFirst: 1, wantSent: []int{1, 2, 0}, wantJobs: 2, wantCalls: 4},
		{name: "a permanent refusal is given up", failFirst: 1, failWith: refused, wantSent: []int{1, 2}, wantJobs: 1, wantCalls: 3},
		{name: "a rate limit puts the rest off", failFirst: 1, failWith: limited, wantJobs: 4, wantCalls: 1, wantLater: true},
		{name: "a message behind an earlier one waits for it", sameChat: true, wantSent: []int{0, 2, 1}, wantJobs: 2, wantCalls: 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := setup(t, newCountingHandler())
			b.sent.FailFirst, b.sent.FailWith = tc.failFirst, tc.failWith
			b.deliver.OrderWait = time.Minute
			// A failed send's own job is ready at once (not put off by the
			// backoff, which River's scheduler would hold for seconds).
			b.deliver.Backoff = func(int) time.Duration { return 0 }
			users := []string{"amy", "bob", "cy"}
			if tc.sameChat {
				users[1] = "amy"
			}
			ids := pushed(t, b, tc.name, users...)
			client := newClient(t, b, true)
			ctx := context.Background()
			if _, err := client.Insert(ctx, pipeline.DeliverArgs{MessageID: ids[0], More: ids[1:]}, nil); err != nil {
				t.Fatal(err)
			}
			b.waitFor(t, "the deliveries to settle", func() bool {
				jobs := deliverJobs(t, client)
				for _, j := range jobs {
					settled := j.State == rivertype.JobStateCompleted || j.State == rivertype.JobStateCancelled ||
						tc.wantLater && j.State == rivertype.JobStateScheduled
					if !settled {
						return false
					}
				}
				return len(jobs) == tc.wantJobs
			})
			calls, sent := b.sent.snapshot()
			var got []int
			for _, d := range sent {
				got = append(got, slices.Index(ids, d.MessageID))
			}
			if calls != tc.wantCalls || !slices.Equal(got, tc.wantSent) {
				t.Fatalf("%d sends, delivered messages %v; want %d sends, %v", calls, got, tc.wantCalls, tc.wantSent)
			}
			for i, id := range ids {
				d, err := b.store.Delivery(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				if want := slices.Contains(tc.wantSent, i); d.DeliveredAt.IsZero() == want {
					t.Errorf("message %d delivered %v; want %v", i, !d.DeliveredAt.IsZero(), want)
				}
			}
			jobs := deliverJobs(t, client)
			if jobs[0].State != rivertype.JobStateCompleted {
				t.Fatalf("the job of several ended %s; want completed", jobs[0].State)
			}
			for _, j := range jobs[1:] {
				wait := time.Until(j.ScheduledAt)
				if later := wait > 50*time.Minute; later != tc.wantLater {
					t.Errorf("handed-over job %s scheduled in %s; want an hour later: %v", j.EncodedArgs, wait.Round(time.Second), tc.wantLater)
				}
			}
		})
	}
}
