package scheduler

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline"
)

// Fire sends the occurrences of a job, each unless it no longer exists
// (the task was completed or deleted, the zone or settings changed, the
// reminder was cancelled) or it is older than the grace window. The
// messages of a job's occurrences are stored in one transaction; when
// that fails, one by one, so one occurrence's failure is its own. An
// occurrence that failed makes the job fail and be retried: those already
// stored are not stored again (their messages are keyed).
func (s *Scheduler) Fire(ctx context.Context, a FireArgs) error {
	ids := append([]int64{a.ScheduleID}, a.More...)
	// All the job's schedules in one read: a morning's briefings fire in
	// jobs of up to fireGroup.
	scs, err := s.cfg.Store.Schedules(ctx, ids)
	if err != nil {
		return err
	}
	byID := make(map[int64]hearth.Schedule, len(scs))
	for _, sc := range scs {
		byID[sc.ID] = sc
	}
	var ready []fired
	var errs []error
	for _, id := range ids {
		sc, found := byID[id]
		if !found {
			err := fmt.Errorf("scheduler fire: schedule %d: %w", id, hearth.ErrNotFound)
			if len(ids) == 1 {
				return river.JobCancel(err)
			}
			s.cfg.Log.InfoContext(ctx, "occurrence's schedule is gone; not sent", "schedule_id", id)
			continue
		}
		f, ok, err := s.prepare(ctx, sc, a.At)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if ok {
			ready = append(ready, f)
		}
	}
	if len(ready) > 1 {
		err := s.deliver(ctx, ready)
		if err == nil {
			return errors.Join(errs...)
		}
		s.cfg.Log.WarnContext(ctx, "storing occurrences together failed; one by one", "occurrences", len(ready), "error", err)
	}
	for _, f := range ready {
		if err := s.deliver(ctx, []fired{f}); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// fired is an occurrence's message, ready to store.
type fired struct {
	userID int64
	key    string
	out    hearth.Outbound
	late   time.Duration
	log    *slog.Logger
}

// prepare writes the message of schedule sc's occurrence at (Unix
// seconds); ok is false when it is not to be sent.
func (s *Scheduler) prepare(ctx context.Context, sc hearth.Schedule, atUnix int64) (f fired, ok bool, err error) {
	at := time.Unix(atUnix, 0).UTC()
	log := s.cfg.Log.With("schedule_id", sc.ID, "kind", sc.Kind, "user_id", sc.UserID, "at", at)
	if !s.zones.IsOccurrence(sc, at) {
		log.InfoContext(ctx, "occurrence no longer due; not sent")
		return f, false, nil
	}
	now := s.cfg.Now()
	late := now.Sub(at)
	if late > s.cfg.Grace {
		log.WarnContext(ctx, "missed occurrence skipped: older than the grace window", "late", late)
		return f, false, nil
	}
	loc, _ := s.zones.load(sc.Timezone)
	var out hearth.Outbound
	key := "sched:" + strconv.FormatInt(sc.ID, 10) + ":" + strconv.FormatInt(atUnix, 10)
	if sc.Kind == hearth.ScheduleBriefing {
		// One briefing per user and local day, whatever its time became.
		key = "briefing:" + strconv.FormatInt(sc.UserID, 10) + ":" + at.In(loc).Format(time.DateOnly)
		text, err := s.Briefing(ctx, sc.UserID, loc, at, sc.Settings.BriefingSkip)
		if err != nil {
			return f, false, err
		}
		out = hearth.Outbound{Text: text}
	} else {
		out = reminderMessage(sc, at, loc, FireArgs{ScheduleID: sc.ID, At: atUnix})
		if sc.Kind == hearth.ScheduleEvent && len(sc.Attendees) > 0 {
			prep, err := s.meetingPrep(ctx, sc)
			if err != nil {
				return f, false, err
			}
			out.Text += prep
		}
	}
	if late > lateNote {
		out.Text = fmt.Sprintf("(A little late: this was for %s, while I was offline.)\n\n", at.In(loc).Format("3:04 PM")) + out.Text
	}
	return fired{userID: sc.UserID, key: key, out: out, late: late, log: log}, true, nil
}

// meetingPrep is what Hearth knows about an event's attendees (the
// briefing's meeting prep, for this event alone), or "".
func (s *Scheduler) meetingPrep(ctx context.Context, sc hearth.Schedule) (string, error) {
	d, err := s.cfg.Store.BriefingData(ctx, sc.UserID, sc.Due, sc.Due.Add(time.Minute), sc.Due)
	if err != nil {
		return "", err
	}
	var notes []string
	for _, a := range sc.Attendees {
		notes = append(notes, d.Memories[a]...)
		for _, t := range d.Tasks[a] {
			notes = append(notes, "open task: "+t)
		}
	}
	if len(notes) == 0 {
		return "", nil
	}
	return "\nMeeting prep: " + strings.Join(dedupe(notes), "; "), nil
}

// lateNote is how late an occurrence must be to say so.
const lateNote = 5 * time.Minute

// deliver stores fired occurrences' messages, each once (keyed), in one
// transaction with their deliveries (pipeline.PushTx: shown in the web
// chat's transcript, or sent by one deliver job for them all), and tells
// live views after the commit.
func (s *Scheduler) deliver(ctx context.Context, fs []fired) error {
	st := s.cfg.Store
	tx, err := st.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // after Commit this is a no-op
	var sends deliveries
	var tell []int64
	stored := make([]bool, len(fs))
	for i, f := range fs {
		ok, conv, err := pipeline.PushTx(ctx, tx, st, &sends, s.cfg.Visible, f.userID, f.key, f.out)
		if err != nil {
			return err
		}
		stored[i] = ok
		if conv != 0 {
			tell = append(tell, conv)
		}
	}
	if len(sends) > 0 {
		// The job's own River client (none is needed for the web chat,
		// which shows the messages at commit).
		client, err := river.ClientFromContextSafely[pgx.Tx](ctx)
		if err != nil {
			return fmt.Errorf("enqueue deliveries: %w", err)
		}
		if _, err := client.InsertTx(ctx, tx, pipeline.DeliverArgs{MessageID: sends[0], More: sends[1:]}, nil); err != nil {
			return fmt.Errorf("enqueue deliveries: %w", err)
		}
	}
	if err := st.Commit(ctx, tx); err != nil {
		return err
	}
	for _, conv := range tell {
		if err := st.NotifyConversation(ctx, conv); err != nil {
			s.cfg.Log.WarnContext(ctx, "live views not told of a message", "conversation_id", conv, "error", err)
		}
	}
	for i, f := range fs {
		f.log.InfoContext(ctx, "occurrence fired", "stored", stored[i], "late", f.late.Round(time.Second))
	}
	return nil
}

// deliveries collects the messages PushTx enqueues, for one deliver job
// that sends them all.
type deliveries []int64

func (l *deliveries) InsertTx(_ context.Context, _ pgx.Tx, args river.JobArgs, _ *river.InsertOpts) (*rivertype.JobInsertResult, error) {
	a, ok := args.(pipeline.DeliverArgs)
	if !ok || a.Edit || len(a.More) > 0 {
		return nil, fmt.Errorf("scheduler: a push enqueued a %s job, not one message's delivery", args.Kind())
	}
	*l = append(*l, a.MessageID)
	return &rivertype.JobInsertResult{}, nil
}
