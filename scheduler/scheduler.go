package scheduler

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/memory"
)

// QueueScheduler is the River queue of the planner and fire jobs, apart
// from turns and deliveries so a burst of briefings cannot delay answers.
const QueueScheduler = "scheduler"

// Store is what the scheduler needs from storage: syncing schedules with
// what changed, planning due occurrences, and firing them. Transactions
// are the scheduler's: it begins one, passes it to the writes that must
// commit together with River's InsertTx, and commits.
type Store interface {
	SyncStore
	Begin(ctx context.Context) (pgx.Tx, error)
	Commit(ctx context.Context, tx pgx.Tx) error
	DueSchedulesTx(ctx context.Context, tx pgx.Tx, until time.Time, batch int) ([]hearth.Schedule, error)
	SetNextAtTx(ctx context.Context, tx pgx.Tx, next []hearth.ScheduleNext) error
	Schedules(ctx context.Context, ids []int64) ([]hearth.Schedule, error)
	StoreScheduledTx(ctx context.Context, tx pgx.Tx, userID int64, key string, out hearth.Outbound) (id, conv int64, ch hearth.Channel, stored bool, err error)
	MarkVisibleTx(ctx context.Context, tx pgx.Tx, conv int64, ids []int64) error
	NotifyConversation(ctx context.Context, conversationID int64) error
	BriefingData(ctx context.Context, userID int64, dayStart, dayEnd, weekEnd time.Time) (hearth.Briefing, error)
}

// SyncStore is how the planner finds what changed since it last looked.
type SyncStore interface {
	// BeginScheduleSync, ChangedFacts and ChangedSchedules read every
	// user's changes for userID 0, else that user's alone.
	BeginScheduleSync(ctx context.Context, userID int64) (since, until time.Time, err error)
	ChangedFacts(ctx context.Context, userID int64, since time.Time, after int64, batch int) ([]hearth.ChangedMemory, error)
	SetBirthdays(ctx context.Context, birthdays []hearth.BirthdaySchedule, gone []int64) error
	ChangedSchedules(ctx context.Context, userID int64, since time.Time, after int64, batch int) ([]hearth.Schedule, error)
	SetNextAt(ctx context.Context, next []hearth.ScheduleNext) error
	EndScheduleSync(ctx context.Context, until time.Time) error
}

// Config configures a Scheduler.
type Config struct {
	Store Store
	// Now is the clock occurrences are compared with. Defaults to time.Now.
	Now func() time.Time
	// Grace is how late a missed occurrence may still fire (with a note);
	// older ones are skipped and logged. Defaults to 6 hours.
	Grace time.Duration
	// Horizon is how far ahead the planner creates jobs, scheduled for
	// their instant. Defaults to 0: an occurrence is enqueued once it is
	// due, as an available job, so it fires at most one Interval late.
	// River promotes scheduled jobs in batches whose cost grows with their
	// unique keys; with 100,000 briefings due at one instant that capped
	// delivery at about 10,000 a minute on a 2-core machine, while
	// available jobs are worked at once. A positive Horizon (more than
	// Interval) fires small loads to the second.
	Horizon time.Duration
	// Interval is how often the planner runs. Defaults to 15 seconds.
	Interval time.Duration
	// Batch is how many schedules are read and planned per transaction.
	// Defaults to 2000.
	Batch int
	// Visible reports whether a channel delivers by transcript (the web
	// chat), so a scheduled message is visible at once and needs no
	// deliver job. Nil: every message gets a deliver job.
	Visible func(hearth.Channel) bool
	Log     *slog.Logger
}

// Scheduler plans and fires reminders and briefings. It is safe for
// concurrent use.
type Scheduler struct {
	cfg   Config
	zones zones
}

// New returns a Scheduler with cfg's defaults filled in.
func New(cfg Config) *Scheduler {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Grace <= 0 {
		cfg.Grace = 6 * time.Hour
	}
	if cfg.Interval <= 0 {
		cfg.Interval = 15 * time.Second
	}
	if cfg.Horizon < 0 {
		cfg.Horizon = 0
	}
	if cfg.Batch <= 0 {
		cfg.Batch = 2000
	}
	if cfg.Visible == nil {
		cfg.Visible = func(hearth.Channel) bool { return false }
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return &Scheduler{cfg: cfg}
}

// PlanArgs is the planner's periodic job.
type PlanArgs struct{}

// Kind is the River job kind; stable across releases.
func (PlanArgs) Kind() string { return "scheduler_plan" }

// InsertOpts puts the planner on the scheduler queue, one run at a time
// (a run still going when the next is due makes the next one a no-op).
// Two runs at once anyway (a leader change) are harmless: rows are planned
// under SKIP LOCKED and jobs are unique.
func (PlanArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueScheduler, MaxAttempts: 1, UniqueOpts: river.UniqueOpts{ByState: []rivertype.JobState{
		rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning, rivertype.JobStateScheduled,
	}}}
}

// FireArgs is the occurrence of schedule ScheduleID at instant At and,
// when several schedules are due at that instant (a morning's briefings),
// theirs too: up to fireGroup in one job, which stores their messages in
// one transaction (a job each cost a River job's insert, fetch and
// completion, and a transaction, per briefing). Jobs are unique on their
// arguments, and each schedule is planned once per occurrence, so however
// often an occurrence is planned (replicas, restarts, a re-sync) it is in
// one job.
type FireArgs struct {
	ScheduleID int64 `json:"schedule_id"`
	// At is the occurrence instant, Unix seconds.
	At int64 `json:"at"`
	// More are other schedules due at At, fired by the same job.
	More []int64 `json:"more,omitempty"`
}

// fireGroup bounds the occurrences of one fire job. Measured with the
// briefing benchmark: a job per briefing spent half the database's time
// on River's jobs and the transactions around them.
const fireGroup = 32

// Kind is the River job kind; stable across releases.
func (FireArgs) Kind() string { return "scheduler_fire" }

// InsertOpts makes occurrences unique.
func (FireArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueScheduler, MaxAttempts: 10, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// PeriodicJob is the planner's River periodic job, run by the leader every
// Interval and at start (catching up after downtime).
func (s *Scheduler) PeriodicJob() *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(s.cfg.Interval), func() (river.JobArgs, *river.InsertOpts) {
		return PlanArgs{}, nil
	}, &river.PeriodicJobOpts{RunOnStart: true, ID: "scheduler_plan"})
}

// Workers adds the scheduler's workers.
func (s *Scheduler) Workers(w *river.Workers) {
	river.AddWorker(w, &planWorker{s: s})
	river.AddWorker(w, &fireWorker{s: s})
}

type planWorker struct {
	river.WorkerDefaults[PlanArgs]
	s *Scheduler
}

// Timeout lets a first run on a large database (everything to sync)
// finish: the client's job timeout is sized for turns.
func (w *planWorker) Timeout(*river.Job[PlanArgs]) time.Duration { return 30 * time.Minute }

func (w *planWorker) Work(ctx context.Context, _ *river.Job[PlanArgs]) error {
	_, err := w.s.Plan(ctx, river.ClientFromContext[pgx.Tx](ctx))
	return err
}

type fireWorker struct {
	river.WorkerDefaults[FireArgs]
	s *Scheduler
}

func (w *fireWorker) Work(ctx context.Context, job *river.Job[FireArgs]) error {
	return w.s.Fire(ctx, job.Args)
}

// PlanStats says what one planner run did: schedules recomputed because
// something changed, schedules due, jobs enqueued, occurrences skipped as
// too late, and how long the two phases took.
type PlanStats struct {
	Synced, Planned, Jobs, Skipped int
	SyncTook, EnqueueTook          time.Duration
}

// Plan syncs the schedules with what changed, then enqueues the
// occurrences due within the horizon through client, each with its
// schedule moved on in the same transaction. Occurrences missed by more
// than the grace window are skipped and logged.
func (s *Scheduler) Plan(ctx context.Context, client *river.Client[pgx.Tx]) (PlanStats, error) {
	var st PlanStats
	now := s.cfg.Now()
	began := time.Now() // durations are measured, not scheduled: the real clock
	n, err := s.sync(ctx, 0)
	st.Synced, st.SyncTook = n, time.Since(began)
	if err != nil {
		return st, fmt.Errorf("scheduler sync: %w", err)
	}
	began = time.Now()
	until := now.Add(s.cfg.Horizon)
	n, err = s.planDue(ctx, client, until, func(due []hearth.Schedule) ([]river.InsertManyParams, []hearth.ScheduleNext) {
		next := make([]hearth.ScheduleNext, 0, len(due))
		// The occurrences due at one instant, in jobs of up to fireGroup.
		groups := map[int64]*FireArgs{}
		var fires []*FireArgs
		for _, sc := range due {
			at, skipped := sc.NextAt, time.Time{}
			for !at.IsZero() && now.Sub(at) > s.cfg.Grace {
				st.Skipped++
				s.cfg.Log.WarnContext(ctx, "missed occurrence skipped: older than the grace window",
					"schedule_id", sc.ID, "kind", sc.Kind, "user_id", sc.UserID, "at", at, "grace", s.cfg.Grace)
				skipped = at
				if sc.Kind == hearth.ScheduleSnooze {
					at = time.Time{}
					break
				}
				at = s.zones.Next(sc, at)
			}
			switch {
			case at.IsZero() || at.After(until):
				next = append(next, hearth.ScheduleNext{ID: sc.ID, At: at, Planned: skipped})
				continue
			case !sc.Gone:
				g := groups[at.Unix()]
				if g == nil || len(g.More)+1 >= fireGroup {
					g = &FireArgs{ScheduleID: sc.ID, At: at.Unix()}
					groups[at.Unix()] = g
					fires = append(fires, g)
				} else {
					g.More = append(g.More, sc.ID)
				}
			}
			following := time.Time{}
			if sc.Kind != hearth.ScheduleSnooze {
				following = s.zones.Next(sc, at)
			}
			next = append(next, hearth.ScheduleNext{ID: sc.ID, At: following, Planned: at})
		}
		params := make([]river.InsertManyParams, len(fires))
		for i, f := range fires {
			params[i] = river.InsertManyParams{Args: *f}
			if at := time.Unix(f.At, 0); at.After(now) {
				params[i].InsertOpts = &river.InsertOpts{ScheduledAt: at}
			}
		}
		st.Jobs += len(params)
		return params, next
	})
	st.Planned, st.EnqueueTook = n, time.Since(began)
	if err != nil {
		return st, fmt.Errorf("scheduler plan: %w", err)
	}
	if st.Synced > 0 || st.Planned > 0 {
		// The sync looks back a minute, so the same rows are re-read for a
		// minute after a change: only runs that enqueued or skipped
		// something are worth an operator's attention.
		level := slog.LevelDebug
		if st.Planned > 0 || st.Skipped > 0 {
			level = slog.LevelInfo
		}
		s.cfg.Log.Log(ctx, level, "planned", "synced", st.Synced, "due", st.Planned, "jobs", st.Jobs, "skipped", st.Skipped,
			"sync_took", st.SyncTook, "enqueue_took", st.EnqueueTook)
	}
	return st, nil
}

// sync brings the schedules up to date with what changed since the last
// sync: birthday facts (re)read, and the next occurrence of every schedule
// whose item, user or settings changed recomputed. It returns how many
// schedules it recomputed. A userID other than 0 syncs that user's alone
// (see SyncUser) and leaves the cursor where it was.
func (s *Scheduler) sync(ctx context.Context, userID int64) (int, error) {
	st := s.cfg.Store
	margin := s.margin()
	since, until, err := st.BeginScheduleSync(ctx, userID)
	if err != nil {
		return 0, err
	}
	for after := int64(0); ; {
		facts, err := st.ChangedFacts(ctx, userID, since, after, s.cfg.Batch)
		if err != nil || len(facts) == 0 {
			if err != nil {
				return 0, err
			}
			break
		}
		var birthdays []hearth.BirthdaySchedule
		var gone []int64
		for _, f := range facts {
			if d, ok := memory.ParseBirthday(f.Content, f.About); ok {
				birthdays = append(birthdays, hearth.BirthdaySchedule{UserID: f.UserID, FactID: f.ID, Detail: d})
			} else {
				gone = append(gone, f.ID)
			}
		}
		if err := st.SetBirthdays(ctx, birthdays, gone); err != nil {
			return 0, err
		}
		after = facts[len(facts)-1].ID
		if len(facts) < s.cfg.Batch {
			break
		}
	}
	n := 0
	for after := int64(0); ; {
		scs, err := st.ChangedSchedules(ctx, userID, since, after, s.cfg.Batch)
		if err != nil || len(scs) == 0 {
			if err != nil {
				return n, err
			}
			break
		}
		next := make([]hearth.ScheduleNext, len(scs))
		for i, sc := range scs {
			// From when the change happened (a margin allows for clock skew
			// with the database), and after the last occurrence planned, so
			// nothing is planned twice. A task written before an outage is
			// thus caught up after it, late or skipped by the grace window.
			from := sc.PlannedUntil
			if c := sc.Changed.Add(-margin); c.After(from) {
				from = c
			}
			next[i] = hearth.ScheduleNext{ID: sc.ID, At: s.zones.Next(sc, from)}
		}
		if err := st.SetNextAt(ctx, next); err != nil {
			return n, err
		}
		n += len(scs)
		after = scs[len(scs)-1].ID
		if len(scs) < s.cfg.Batch {
			break
		}
	}
	if userID != 0 {
		return n, nil
	}
	return n, st.EndScheduleSync(ctx, until)
}

// SyncUser brings one user's schedules up to date with their changes
// since the planner's last sync, ahead of its next run, so what they set
// a moment ago is listed ("remind me to call the plumber at 6pm", then
// "what are my reminders?"). The planner's next run goes over them again,
// to the same occurrences.
func (s *Scheduler) SyncUser(ctx context.Context, userID int64) error {
	if _, err := s.sync(ctx, userID); err != nil {
		return fmt.Errorf("scheduler sync user %d: %w", userID, err)
	}
	return nil
}

// margin is how far before a change a schedule's next occurrence is
// looked for, allowing for clock skew with the database.
func (s *Scheduler) margin() time.Duration { return max(2*s.cfg.Interval, time.Minute) }

// planDue enqueues due occurrences batch by batch. Each batch is one unit
// of work: the due rows locked, their fire jobs inserted, the rows moved
// on, committed together, so an occurrence is planned exactly once across
// replicas. plan decides each batch's jobs and next occurrences.
func (s *Scheduler) planDue(ctx context.Context, client *river.Client[pgx.Tx], until time.Time, plan func([]hearth.Schedule) ([]river.InsertManyParams, []hearth.ScheduleNext)) (int, error) {
	n := 0
	for {
		got, err := s.planBatch(ctx, client, until, plan)
		n += got
		if err != nil || got < s.cfg.Batch {
			return n, err
		}
	}
}

func (s *Scheduler) planBatch(ctx context.Context, client *river.Client[pgx.Tx], until time.Time, plan func([]hearth.Schedule) ([]river.InsertManyParams, []hearth.ScheduleNext)) (int, error) {
	st := s.cfg.Store
	tx, err := st.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // after Commit this is a no-op
	due, err := st.DueSchedulesTx(ctx, tx, until, s.cfg.Batch)
	if err != nil || len(due) == 0 {
		return 0, err
	}
	params, next := plan(due)
	if len(params) > 0 {
		if _, err := client.InsertManyTx(ctx, tx, params); err != nil {
			return 0, fmt.Errorf("enqueue occurrences: %w", err)
		}
	}
	if err := st.SetNextAtTx(ctx, tx, next); err != nil {
		return 0, err
	}
	return len(due), st.Commit(ctx, tx)
}
