// Package storyline runs the memory graph's background work: each night
// in each household's time zone it deletes the graph notes that expired
// and promotes nodes mentioned across several days into storylines, and
// each week it groups storylines into themes; each night, too, a
// relationship with no description gets one from its notes. Both are
// River periodic jobs that tick hourly on the leader and act on the zones
// where it is night; every step converges (a second run changes nothing), so a
// repeated tick, a restart or two replicas at once are harmless.
package storyline

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/hearthbot/hearth"
)

// Queue is the River queue of the memory graph's jobs; one worker is
// plenty.
const Queue = "memory_graph"

// Store is what the jobs read and write.
type Store interface {
	TimeZones(ctx context.Context) ([]string, error)
	DeleteExpiredGraphNotes(ctx context.Context, now time.Time) (int, error)
	PromoteStorylines(ctx context.Context, zone string, now, since time.Time, minDays int) (int, error)
	ConsolidateDescriptions(ctx context.Context, zone string, now time.Time) (int, error)
	RelationshipsToConsolidate(ctx context.Context, zone string, now time.Time, limit int) ([]hearth.Consolidation, error)
	SetConsolidatedDescription(ctx context.Context, id int64, description, source, was string, now time.Time) (bool, error)
	StorylineGraph(ctx context.Context, zone string) (hearth.StorylineGraph, error)
	SaveThemes(ctx context.Context, userIDs []int64, groups []hearth.ThemeGroup, now time.Time) (int, error)
}

// Config tunes the jobs; the zero value is the default configuration.
type Config struct {
	// NightHour is the local hour the nightly work runs in. Defaults to 3.
	NightHour int
	// WeeklyDay is the local weekday themes are regrouped on. Defaults to
	// Sunday.
	WeeklyDay time.Weekday
	// MinDays is how many distinct days of mentions make a storyline.
	// Defaults to 3.
	MinDays int
	// Window is how recent the last mention must be. Defaults to 30 days.
	Window time.Duration
	// Tick is how often the periodic jobs look for zones at night.
	// Defaults to an hour.
	Tick time.Duration
	// Describer, when set (a model is configured), rewrites each night
	// the description of every relationship whose live notes changed,
	// from those notes. Nil: offline, an empty description takes the
	// newest note's first sentence and a description stays as it is.
	Describer Describer
	// DescribeLimit is how many relationships a zone's night rewrites at
	// most (the rest wait for the next night). Defaults to 200.
	DescribeLimit int
	// Now is the clock. Defaults to time.Now.
	Now func() time.Time
	// Log receives skipped zones; nil discards.
	Log *slog.Logger
}

// Describer writes a relationship's one-sentence description from its
// live notes (a model, which reads them as quoted data).
type Describer interface {
	Describe(ctx context.Context, r hearth.Relationship, notes []hearth.GraphNote) (string, error)
}

// Jobs is the memory graph's nightly and weekly work.
type Jobs struct {
	store Store
	cfg   Config
}

// New returns the jobs over st.
func New(st Store, cfg Config) *Jobs {
	if cfg.NightHour == 0 {
		cfg.NightHour = 3
	}
	if cfg.MinDays <= 0 {
		cfg.MinDays = 3
	}
	if cfg.Window <= 0 {
		cfg.Window = 30 * 24 * time.Hour
	}
	if cfg.Tick <= 0 {
		cfg.Tick = time.Hour
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.DescribeLimit <= 0 {
		cfg.DescribeLimit = 200
	}
	return &Jobs{store: st, cfg: cfg}
}

// NightlyArgs is the nightly job's tick.
type NightlyArgs struct{}

// Kind is the River job kind; stable across releases.
func (NightlyArgs) Kind() string { return "memory_graph_nightly" }

// InsertOpts runs one tick at a time: one still queued or running makes
// the next insert a no-op.
func (NightlyArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: Queue, MaxAttempts: 3, UniqueOpts: river.UniqueOpts{ByState: pendingStates}}
}

// WeeklyArgs is the weekly job's tick.
type WeeklyArgs struct{}

// Kind is the River job kind; stable across releases.
func (WeeklyArgs) Kind() string { return "memory_graph_weekly" }

// InsertOpts runs one tick at a time, like NightlyArgs.
func (WeeklyArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: Queue, MaxAttempts: 3, UniqueOpts: river.UniqueOpts{ByState: pendingStates}}
}

var pendingStates = []rivertype.JobState{rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning,
	rivertype.JobStateRetryable, rivertype.JobStateScheduled}

// PeriodicJobs are the two ticks, run by the leader every Tick and at
// start.
func (j *Jobs) PeriodicJobs() []*river.PeriodicJob {
	return []*river.PeriodicJob{
		river.NewPeriodicJob(river.PeriodicInterval(j.cfg.Tick), func() (river.JobArgs, *river.InsertOpts) {
			return NightlyArgs{}, nil
		}, &river.PeriodicJobOpts{RunOnStart: true, ID: "memory_graph_nightly"}),
		river.NewPeriodicJob(river.PeriodicInterval(j.cfg.Tick), func() (river.JobArgs, *river.InsertOpts) {
			return WeeklyArgs{}, nil
		}, &river.PeriodicJobOpts{RunOnStart: true, ID: "memory_graph_weekly"}),
	}
}

// Workers adds the jobs' workers.
func (j *Jobs) Workers(w *river.Workers) {
	river.AddWorker(w, &nightlyWorker{j: j})
	river.AddWorker(w, &weeklyWorker{j: j})
}

type nightlyWorker struct {
	river.WorkerDefaults[NightlyArgs]
	j *Jobs
}

func (w *nightlyWorker) Work(ctx context.Context, _ *river.Job[NightlyArgs]) error {
	_, err := w.j.Nightly(ctx, w.j.cfg.Now())
	return err
}

type weeklyWorker struct {
	river.WorkerDefaults[WeeklyArgs]
	j *Jobs
}

func (w *weeklyWorker) Work(ctx context.Context, _ *river.Job[WeeklyArgs]) error {
	_, err := w.j.Weekly(ctx, w.j.cfg.Now())
	return err
}

// Report says what one run did.
type Report struct {
	Zones    []string
	Expired  int
	Promoted int
	// Described counts relationships given a description from their notes.
	Described int
	Regroup   int
}

// nightZones are the zones where now falls in the night hour (and, for
// weekly, on the weekly day). Unknown zone names are skipped.
func (j *Jobs) nightZones(ctx context.Context, now time.Time, weekly bool) ([]string, error) {
	zones, err := j.store.TimeZones(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, z := range zones {
		loc, err := time.LoadLocation(z)
		if err != nil {
			j.cfg.Log.WarnContext(ctx, "memory graph: unknown time zone skipped", "zone", z)
			continue
		}
		l := now.In(loc)
		if l.Hour() == j.cfg.NightHour && (!weekly || l.Weekday() == j.cfg.WeeklyDay) {
			out = append(out, z)
		}
	}
	return out, nil
}

// Nightly deletes the graph notes expired at now (everyone's: a note's
// expiry is an instant), and in the zones where it is night promotes
// storylines and gives relationships without a description one from
// their notes.
func (j *Jobs) Nightly(ctx context.Context, now time.Time) (Report, error) {
	var r Report
	var err error
	if r.Expired, err = j.store.DeleteExpiredGraphNotes(ctx, now); err != nil {
		return r, fmt.Errorf("memory graph nightly: %w", err)
	}
	if r.Zones, err = j.nightZones(ctx, now, false); err != nil {
		return r, fmt.Errorf("memory graph nightly: %w", err)
	}
	for _, z := range r.Zones {
		n, err := j.Promote(ctx, z, now)
		if err != nil {
			return r, err
		}
		r.Promoted += n
		d, err := j.store.ConsolidateDescriptions(ctx, z, now)
		if err != nil {
			return r, fmt.Errorf("memory graph nightly: %w", err)
		}
		r.Described += d
		if d, err = j.Describe(ctx, z, now); err != nil {
			return r, err
		}
		r.Described += d
	}
	return r, nil
}

// Describe rewrites, with the Describer, the descriptions of one zone's
// relationships whose live notes changed since their description was
// written, and returns how many it rewrote. A relationship the model
// fails on keeps its description and is tried again the next night;
// without a Describer it does nothing.
func (j *Jobs) Describe(ctx context.Context, zone string, now time.Time) (int, error) {
	if j.cfg.Describer == nil {
		return 0, nil
	}
	cs, err := j.store.RelationshipsToConsolidate(ctx, zone, now, j.cfg.DescribeLimit)
	if err != nil {
		return 0, fmt.Errorf("memory graph nightly: %w", err)
	}
	n := 0
	for _, c := range cs {
		text, err := j.cfg.Describer.Describe(ctx, c.Relationship, c.Notes)
		if err != nil || text == "" {
			j.cfg.Log.WarnContext(ctx, "memory graph: description not rewritten", "relationship_id", c.Relationship.ID, "error", err)
			continue
		}
		// The source it was made from is recorded even when the words
		// are the same, so the same notes are not sent again.
		wrote, err := j.store.SetConsolidatedDescription(ctx, c.Relationship.ID, text, c.Source, c.DescribedFrom, now)
		if err != nil {
			return n, fmt.Errorf("memory graph nightly: %w", err)
		}
		if wrote {
			n++
		}
	}
	return n, nil
}

// Promote promotes the storylines of one zone as of now.
func (j *Jobs) Promote(ctx context.Context, zone string, now time.Time) (int, error) {
	n, err := j.store.PromoteStorylines(ctx, zone, now, now.Add(-j.cfg.Window), j.cfg.MinDays)
	if err != nil {
		return 0, fmt.Errorf("memory graph nightly: %w", err)
	}
	return n, nil
}

// Weekly regroups the themes of the zones where it is the weekly night.
func (j *Jobs) Weekly(ctx context.Context, now time.Time) (Report, error) {
	var r Report
	var err error
	if r.Zones, err = j.nightZones(ctx, now, true); err != nil {
		return r, fmt.Errorf("memory graph weekly: %w", err)
	}
	for _, z := range r.Zones {
		n, err := j.Group(ctx, z, now)
		if err != nil {
			return r, err
		}
		r.Regroup += n
	}
	return r, nil
}

// Group regroups the themes of one zone: storylines linked (by a
// relationship, or by two sources mentioning both) fall into one theme,
// named after its most-mentioned storyline. It returns how many
// storylines changed theme.
func (j *Jobs) Group(ctx context.Context, zone string, now time.Time) (int, error) {
	g, err := j.store.StorylineGraph(ctx, zone)
	if err != nil {
		return 0, fmt.Errorf("memory graph weekly: %w", err)
	}
	groups, users := Themes(g)
	n, err := j.store.SaveThemes(ctx, users, groups, now)
	if err != nil {
		return 0, fmt.Errorf("memory graph weekly: %w", err)
	}
	return n, nil
}

// Themes groups linked storylines of one owner: every connected group of
// two or more is a theme, keyed by its smallest entity id and titled
// after its storyline mentioned on the most days. It also returns the
// owners g covers.
func Themes(g hearth.StorylineGraph) ([]hearth.ThemeGroup, []int64) {
	parent := map[int64]int64{}
	byEntity := map[int64]hearth.Storyline{}
	var users []int64
	for _, s := range g.Storylines {
		parent[s.EntityID] = s.EntityID
		byEntity[s.EntityID] = s
		if !slices.Contains(users, s.UserID) {
			users = append(users, s.UserID)
		}
	}
	var find func(int64) int64
	find = func(x int64) int64 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for _, l := range g.Links {
		a, okA := byEntity[l[0]]
		b, okB := byEntity[l[1]]
		if !okA || !okB || a.UserID != b.UserID {
			continue
		}
		ra, rb := find(l[0]), find(l[1])
		if ra != rb {
			parent[max(ra, rb)] = min(ra, rb)
		}
	}
	members := map[int64][]int64{}
	for id := range parent {
		r := find(id)
		members[r] = append(members[r], id)
	}
	var out []hearth.ThemeGroup
	for root, ids := range members {
		if len(ids) < 2 {
			continue
		}
		slices.Sort(ids)
		best := byEntity[ids[0]]
		for _, id := range ids[1:] {
			if s := byEntity[id]; s.Days > best.Days || s.Days == best.Days && s.Sources > best.Sources {
				best = s
			}
		}
		out = append(out, hearth.ThemeGroup{UserID: best.UserID, Key: root, Title: best.Title, EntityIDs: ids})
	}
	slices.SortFunc(out, func(a, b hearth.ThemeGroup) int { return int(a.Key - b.Key) })
	slices.Sort(users)
	return out, users
}
