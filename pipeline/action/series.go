package action

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/scheduler/recur"
)

// SeriesHorizon is how far ahead the built-in calendar keeps a repeating
// event's occurrences as events; the scheduler extends them as time
// passes.
const SeriesHorizon = 365 * 24 * time.Hour

// NewSeries is the repeating event whose first occurrence is first and
// which repeats by rule, local to zone: its occurrences for the next
// SeriesHorizon and its RRULE line.
func NewSeries(first hearth.CalendarEvent, rule recur.Rule, zone string) (hearth.EventSeries, string, error) {
	loc, err := time.LoadLocation(zone)
	if err != nil || zone == "" {
		return hearth.EventSeries{}, "", fmt.Errorf("repeating event: %w", hearth.Invalidf("no time zone %q for a repeating event", zone))
	}
	if rule.Start.IsZero() {
		rule.Start = recur.DateOf(first.Start, loc)
	}
	rrule, err := rule.RRULE(loc, first.AllDay)
	if err != nil {
		return hearth.EventSeries{}, "", fmt.Errorf("repeating event: %w", hearth.Invalidf("%v", err))
	}
	raw, err := json.Marshal(rule)
	if err != nil {
		return hearth.EventSeries{}, "", fmt.Errorf("repeating event: %w", err)
	}
	through := first.Start.Add(SeriesHorizon)
	occ := append([]hearth.CalendarEvent{first}, Occurrences(rule, first, loc, first.Start.Add(time.Nanosecond), through)...)
	return hearth.EventSeries{Event: first, Rule: raw, Zone: zone, Occurrences: occ, Through: through}, rrule, nil
}

// Occurrences are the occurrences of rule in loc that start in
// [from, to), each as long as first: as many minutes, or for an all-day
// event as many days (a day is not always 24 hours).
func Occurrences(rule recur.Rule, first hearth.CalendarEvent, loc *time.Location, from, to time.Time) []hearth.CalendarEvent {
	var days int
	if first.AllDay {
		s, e := first.Start.In(loc), first.End.In(loc)
		days = recur.DateOf(s, loc).DaysUntil(recur.DateOf(e, loc))
		if days < 1 {
			days = 1
		}
	}
	var out []hearth.CalendarEvent
	for _, t := range rule.Between(from.Add(-time.Nanosecond), to, loc) {
		if !t.Before(to) {
			break
		}
		o := first
		o.ID, o.Start = 0, t.UTC()
		if first.AllDay {
			l := t.In(loc)
			o.End = time.Date(l.Year(), l.Month(), l.Day()+days, 0, 0, 0, 0, loc).UTC()
		} else {
			o.End = o.Start.Add(first.End.Sub(first.Start))
		}
		out = append(out, o)
	}
	return out
}

// SeriesArgs is the job that keeps the built-in calendar's repeating
// events SeriesHorizon ahead: each run adds the occurrences that have come
// within it since the last.
type SeriesArgs struct{}

// Kind is the job's stable name.
func (SeriesArgs) Kind() string { return "extend_event_series" }

// InsertOpts puts the job on the actions queue; a failed run is not
// retried, the next periodic run starts over.
func (SeriesArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueActions, MaxAttempts: 1}
}

// SeriesStore is what the series job needs of the store.
type SeriesStore interface {
	SeriesToExtend(ctx context.Context, before time.Time, limit int) ([]hearth.EventSeries, error)
	ExtendSeries(ctx context.Context, read hearth.EventSeries, occ []hearth.CalendarEvent, through time.Time) error
}

// SeriesWorker runs the series job.
type SeriesWorker struct {
	river.WorkerDefaults[SeriesArgs]
	// Store keeps the series.
	Store SeriesStore
	// Now is the clock. Defaults to time.Now.
	Now func() time.Time
	// Log reports a series that cannot be extended (its rule or zone no
	// longer reads); the others are extended all the same.
	Log *slog.Logger
}

var _ river.Worker[SeriesArgs] = (*SeriesWorker)(nil)

// Work extends every series that needs it.
func (w *SeriesWorker) Work(ctx context.Context, _ *river.Job[SeriesArgs]) error {
	_, err := w.Run(ctx)
	return err
}

// seriesSlack is how far a series may fall behind SeriesHorizon before a
// run extends it: a month's occurrences at a time, not a day's.
const seriesSlack = 30 * 24 * time.Hour

// Run is one pass; it returns how many series it extended. Running it
// again at the same time extends none.
func (w *SeriesWorker) Run(ctx context.Context) (int, error) {
	now := time.Now
	if w.Now != nil {
		now = w.Now
	}
	log := w.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	to := now().Add(SeriesHorizon)
	n := 0
	seen := map[int64]int{}
	for {
		due, err := w.Store.SeriesToExtend(ctx, to.Add(-seriesSlack), 100)
		if err != nil || len(due) == 0 {
			return n, err
		}
		for _, sr := range due {
			// A series moved while it was being extended is read again
			// (ExtendSeries left it); one that keeps coming back is a bug,
			// not a reason to spin.
			if seen[sr.ID]++; seen[sr.ID] > 3 {
				return n, fmt.Errorf("extend repeating events: series %d is never kept until %v", sr.ID, to)
			}
			var rule recur.Rule
			loc, err := time.LoadLocation(sr.Zone)
			if err == nil {
				err = json.Unmarshal(sr.Rule, &rule)
			}
			var occ []hearth.CalendarEvent
			if err != nil {
				// Left as it is, but moved on: a series that cannot be read
				// must not hold up the others on every run.
				log.WarnContext(ctx, "repeating event not extended", "series", sr.ID, "error", err)
			} else {
				occ = Occurrences(rule, sr.Event, loc, sr.Through, to)
			}
			if err := w.Store.ExtendSeries(ctx, sr, occ, to); err != nil {
				return n, err
			}
			n++
		}
	}
}

// SeriesPeriodic is the series job's schedule: every interval, on the
// leader only.
func SeriesPeriodic(interval time.Duration) *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(interval), func() (river.JobArgs, *river.InsertOpts) {
		return SeriesArgs{}, nil
	}, &river.PeriodicJobOpts{RunOnStart: true})
}
