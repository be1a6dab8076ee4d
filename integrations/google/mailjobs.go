package google

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"github.com/hearthbot/hearth"
)

// MailPollArgs polls one user's Gmail for new mail, renews their push
// watch when it is due and, when their style profile is older than
// StyleEvery, learns it again from their sent mail. Round is how many
// polls of the mailbox had begun when a push asked for it (see
// enqueuePush, Sweep).
type MailPollArgs struct {
	UserID int64 `json:"user_id"`
	Round  int64 `json:"round,omitempty"`
}

// Kind names the job.
func (MailPollArgs) Kind() string { return "google_mail_poll" }

// InsertOpts makes a user's poll unique while pending.
func (MailPollArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueGoogle, MaxAttempts: 3, UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: pendingStates}}
}

// MailSweepArgs is the periodic job: a MailPollArgs for every user who
// granted Gmail.
type MailSweepArgs struct{}

// Kind names the job.
func (MailSweepArgs) Kind() string { return "google_mail_sweep" }

// InsertOpts makes the sweep unique while pending.
func (MailSweepArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueGoogle, MaxAttempts: 1, UniqueOpts: river.UniqueOpts{ByState: pendingStates}}
}

// Workers registers the mail poll, sweep and draft discard workers.
func (m *Mail) Workers(w *river.Workers) {
	river.AddWorker(w, river.WorkFunc(func(ctx context.Context, j *river.Job[MailPollArgs]) error {
		_, err := m.Poll(ctx, j.Args.UserID)
		if errors.Is(err, hearth.ErrConflict) {
			// Another poll of the mailbox runs: this one comes after.
			return river.JobSnooze(250 * time.Millisecond)
		}
		if err != nil {
			return err
		}
		if err := m.Watch(ctx, j.Args.UserID); err != nil {
			// Polling goes on without push: logged, not retried.
			m.g.cfg.Log.WarnContext(ctx, "gmail watch not renewed", "user", j.Args.UserID, "error", err)
		}
		_, err = m.RefreshStyle(ctx, j.Args.UserID)
		return err
	}))
	river.AddWorker(w, river.WorkFunc(func(ctx context.Context, j *river.Job[GmailDiscardArgs]) error {
		return m.Discard(ctx, j.Args.UserID, j.Args.EmailID)
	}))
	river.AddWorker(w, river.WorkFunc(func(ctx context.Context, j *river.Job[MailSweepArgs]) error {
		return m.Sweep(ctx)
	}))
}

// Sweep enqueues a poll for every user who granted Gmail, in the round
// a push would ask for: a sweep while a push's poll waits adds none.
func (m *Mail) Sweep(ctx context.Context) error {
	if m.g.cfg.Queue == nil {
		return nil
	}
	var after int64
	for {
		boxes, err := m.st.GmailMailboxes(ctx, ScopeGmail, after, 500)
		if err != nil {
			return err
		}
		for _, b := range boxes {
			if _, err := m.g.cfg.Queue.Insert(ctx, MailPollArgs{UserID: b.UserID, Round: b.PollsBegun}, nil); err != nil {
				return fmt.Errorf("enqueue mail poll: %w", err)
			}
		}
		if len(boxes) < 500 {
			return nil
		}
		after = boxes[len(boxes)-1].UserID
	}
}

// PeriodicJob is the leader's sweep, every PollInterval (push watches
// are renewed and the weekly style refresh rides on it: a poll refreshes a style older than
// StyleEvery).
func (m *Mail) PeriodicJob() *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(m.g.cfg.PollInterval), func() (river.JobArgs, *river.InsertOpts) {
		return MailSweepArgs{}, nil
	}, &river.PeriodicJobOpts{RunOnStart: true, ID: "google_mail_sweep"})
}
