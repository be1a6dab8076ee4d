package google

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	calendar "google.golang.org/api/calendar/v3"

	"github.com/hearthbot/hearth"
)

// QueueGoogle is the River queue of Google's jobs.
const QueueGoogle = "google"

// pendingStates make a job unique while it waits or runs (River requires
// running in the set): a burst of pushes becomes one job. A sync's Round
// keeps a push during a running sync from being folded into it.
var pendingStates = []rivertype.JobState{
	rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning,
	rivertype.JobStateScheduled, rivertype.JobStateRetryable,
}

// SyncArgs syncs one calendar into the local copy. Round is how many
// syncs of it had begun when the cause (a push, the poll) arrived: pushes
// before the next sync begins share one job, and a push while a sync runs
// gets the job that runs after it, even while River still counts a
// finished job as running.
type SyncArgs struct {
	UserID     int64  `json:"user_id"`
	CalendarID string `json:"calendar_id"`
	Round      int64  `json:"round,omitempty"`
}

// Kind is the River job kind; stable across releases.
func (SyncArgs) Kind() string { return "google_sync" }

// InsertOpts makes a calendar's sync unique while pending.
func (SyncArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueGoogle, MaxAttempts: 10, UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: pendingStates}}
}

// WatchArgs opens push channels for the user's calendars that have none
// or whose channel expires soon (UserID 0: every user's).
type WatchArgs struct {
	UserID int64 `json:"user_id,omitempty"`
}

// Kind is the River job kind; stable across releases.
func (WatchArgs) Kind() string { return "google_watch" }

// InsertOpts makes renewal unique while pending.
func (WatchArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueGoogle, MaxAttempts: 5, UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: pendingStates}}
}

// PollArgs is the periodic job: renew channels, then enqueue a sync of
// every calendar (covering setups without a public URL and channels that
// went quiet).
type PollArgs struct{}

// Kind is the River job kind; stable across releases.
func (PollArgs) Kind() string { return "google_poll" }

// InsertOpts makes the poll unique while pending.
func (PollArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueGoogle, MaxAttempts: 1, UniqueOpts: river.UniqueOpts{ByState: pendingStates}}
}

// Workers registers the sync, watch, poll and import workers.
func (g *Google) Workers(w *river.Workers) {
	river.AddWorker(w, river.WorkFunc(func(ctx context.Context, j *river.Job[SyncArgs]) error {
		err := g.Sync(ctx, j.Args.UserID, j.Args.CalendarID)
		if errors.Is(err, hearth.ErrConflict) {
			// The previous round is still running: this one comes after.
			return river.JobSnooze(250 * time.Millisecond)
		}
		return err
	}))
	river.AddWorker(w, river.WorkFunc(func(ctx context.Context, j *river.Job[WatchArgs]) error {
		return g.Renew(ctx, j.Args.UserID)
	}))
	river.AddWorker(w, river.WorkFunc(func(ctx context.Context, j *river.Job[PollArgs]) error {
		return g.Poll(ctx)
	}))
	river.AddWorker(w, river.WorkFunc(func(ctx context.Context, j *river.Job[ImportEventArgs]) error {
		return g.importEvent(ctx, j.Args)
	}))
	river.AddWorker(w, river.WorkFunc(func(ctx context.Context, j *river.Job[UnimportArgs]) error {
		return g.unimport(ctx, j.Args)
	}))
}

// PeriodicJob is the poll, run by the leader every PollInterval.
func (g *Google) PeriodicJob() *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(g.cfg.PollInterval), func() (river.JobArgs, *river.InsertOpts) {
		return PollArgs{}, nil
	}, &river.PeriodicJobOpts{RunOnStart: true, ID: "google_poll"})
}

// staleSync is how long a sync may run before another may begin over it
// (the first crashed).
const staleSync = 5 * time.Minute

// Sync brings the local copy of a calendar up to date: incrementally from
// the stored sync token, or fully (marking what it sees and sweeping the
// rest) when there is none or Google answers 410 Gone. One sync of a
// calendar runs at a time; while another runs it is hearth.ErrConflict.
func (g *Google) Sync(ctx context.Context, userID int64, calendarID string) error {
	a, err := g.active(ctx, userID)
	if errors.Is(err, errNotConnected) {
		// Disconnected or revoked since the job was queued: a revoked
		// grant's user is asked to reconnect, if not yet.
		return g.notifyRevoked(ctx, userID)
	}
	if err != nil {
		return err
	}
	svc, err := g.calendarService(ctx, a)
	if err != nil {
		return err
	}
	loc := zoneOf(a)
	full, begun := false, false
	for attempt := 0; attempt < 2; attempt++ {
		c, err := g.cfg.Store.BeginGoogleSync(ctx, userID, calendarID, full, begun, staleSync)
		if errors.Is(err, hearth.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		begun = true
		next, err := g.pages(ctx, svc, c, loc)
		if statusOf(err) == http.StatusGone && c.SyncToken != "" {
			g.cfg.Log.Info("google sync token expired; full resync", "user", userID, "calendar", calendarID)
			full = true
			continue
		}
		if err != nil {
			if aerr := g.cfg.Store.AbortGoogleSync(context.WithoutCancel(ctx), userID, calendarID); aerr != nil {
				g.cfg.Log.Warn("google sync not released", "error", aerr)
			}
			if errors.Is(err, ErrRevoked) {
				return nil
			}
			return fmt.Errorf("google sync %s: %w", calendarID, err)
		}
		var sweep int64
		if c.SyncToken == "" {
			sweep = c.Generation
		}
		return g.cfg.Store.EndGoogleSync(ctx, userID, calendarID, next, sweep)
	}
	g.cfg.Store.AbortGoogleSync(context.WithoutCancel(ctx), userID, calendarID) //nolint:errcheck // reported below
	return fmt.Errorf("google sync %s: the sync token expired twice", calendarID)
}

// pages reads every page of changes (or the full listing) into the local
// copy and returns the next sync token.
func (g *Google) pages(ctx context.Context, svc *calendar.Service, c hearth.GoogleCalendar, loc *time.Location) (string, error) {
	pageToken := ""
	for {
		call := svc.Events.List(c.CalendarID).SingleEvents(true).MaxResults(250).Context(ctx)
		if c.SyncToken != "" {
			call = call.SyncToken(c.SyncToken)
		}
		if pageToken != "" {
			call = call.PageToken(pageToken)
		}
		res, err := call.Do()
		if err != nil {
			return "", err
		}
		var events []hearth.CalendarEvent
		var cancelled []string
		masters := map[string]bool{}
		for _, it := range res.Items {
			if it.RecurringEventId != "" && !masters[it.RecurringEventId] {
				// The series itself is kept as its instances: a local row
				// for the series (Hearth created it) goes.
				masters[it.RecurringEventId] = true
				cancelled = append(cancelled, it.RecurringEventId)
			}
			if it.Status == "cancelled" {
				cancelled = append(cancelled, it.Id)
				continue
			}
			e, err := fromGoogle(it, c.CalendarID, loc)
			if err != nil {
				g.cfg.Log.Warn("google event skipped", "calendar", c.CalendarID, "error", err)
				continue
			}
			events = append(events, e)
		}
		if err := g.cfg.Store.SyncGoogleEvents(ctx, c.UserID, c.CalendarID, c.Generation, events, cancelled); err != nil {
			return "", err
		}
		if res.NextPageToken == "" {
			return res.NextSyncToken, nil
		}
		pageToken = res.NextPageToken
	}
}

// Renew opens a push channel for every calendar (of one user, or all)
// that has none or whose channel expires within RenewBefore: the new
// channel first, then channels.stop on the old one, so no change goes
// unheard. Without a public URL there is nothing to watch with.
func (g *Google) Renew(ctx context.Context, userID int64) error {
	if g.cfg.PublicURL == "" {
		return nil
	}
	var cals []hearth.GoogleCalendar
	var err error
	if userID != 0 {
		all, err := g.cfg.Store.GoogleCalendars(ctx, userID)
		if err != nil {
			return err
		}
		limit := g.cfg.Now().Add(g.cfg.RenewBefore)
		for _, c := range all {
			if c.ChannelID == "" || c.ChannelExpiresAt.Before(limit) {
				cals = append(cals, c)
			}
		}
	} else if cals, err = g.cfg.Store.GoogleCalendarsToWatch(ctx, g.cfg.Now().Add(g.cfg.RenewBefore), 500); err != nil {
		return err
	}
	var errs []error
	for _, c := range cals {
		if err := g.watch(ctx, c); err != nil && !errors.Is(err, ErrRevoked) && !errors.Is(err, errNotConnected) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (g *Google) watch(ctx context.Context, c hearth.GoogleCalendar) error {
	a, err := g.active(ctx, c.UserID)
	if err != nil {
		return err
	}
	svc, err := g.calendarService(ctx, a)
	if err != nil {
		return err
	}
	b := make([]byte, 16)
	rand.Read(b)
	id := "hearth-" + hex.EncodeToString(b)
	ch, err := svc.Events.Watch(c.CalendarID, &calendar.Channel{
		Id: id, Type: "web_hook", Address: g.cfg.PublicURL + WebhookPath, Token: g.cfg.Keys.ChannelToken(id),
		Expiration: g.cfg.Now().Add(g.cfg.ChannelTTL).UnixMilli(),
	}).Context(ctx).Do()
	if err != nil {
		return fmt.Errorf("google watch %s: %w", c.CalendarID, err)
	}
	old, err := g.cfg.Store.SetGoogleChannel(ctx, c.UserID, c.CalendarID, ch.Id, ch.ResourceId, time.UnixMilli(ch.Expiration))
	if err != nil {
		return err
	}
	if old.ChannelID != "" {
		g.stopChannel(ctx, svc, old.ChannelID, old.ChannelResourceID)
	}
	return nil
}

// stopChannel stops a channel; one Google no longer knows is stopped.
func (g *Google) stopChannel(ctx context.Context, svc *calendar.Service, id, resourceID string) {
	err := svc.Channels.Stop(&calendar.Channel{Id: id, ResourceId: resourceID}).Context(ctx).Do()
	if err != nil && statusOf(err) != http.StatusNotFound {
		g.cfg.Log.Warn("google channels.stop failed; the channel will expire on its own", "channel", id, "error", err)
	}
}

// Poll renews channels and enqueues a sync of every calendar of every
// working account.
func (g *Google) Poll(ctx context.Context) error {
	if err := g.Renew(ctx, 0); err != nil {
		g.cfg.Log.Warn("google channel renewal", "error", err)
	}
	var afterUser int64
	afterCal := ""
	for {
		cals, err := g.cfg.Store.AllGoogleCalendars(ctx, afterUser, afterCal, 500)
		if err != nil {
			return err
		}
		for _, c := range cals {
			if _, err := g.cfg.Queue.Insert(ctx, SyncArgs{UserID: c.UserID, CalendarID: c.CalendarID, Round: c.SyncStarted}, nil); err != nil {
				return fmt.Errorf("enqueue google sync: %w", err)
			}
		}
		if len(cals) < 500 {
			return nil
		}
		afterUser, afterCal = cals[len(cals)-1].UserID, cals[len(cals)-1].CalendarID
	}
}

// Webhook receives Google's push notifications. The channel id must be
// one Hearth stored and the token its HMAC (else 403, nothing enqueued);
// then, in one transaction, the push is noted and one sync of the
// calendar enqueued (unique while pending, so a burst costs one sync),
// and Google gets 200 at once. The handshake ("sync") only confirms.
func (g *Google) Webhook(w http.ResponseWriter, r *http.Request) {
	id, token := r.Header.Get("X-Goog-Channel-ID"), r.Header.Get("X-Goog-Channel-Token")
	if id == "" || !g.cfg.Keys.ValidChannelToken(id, token) {
		http.Error(w, "unknown channel or wrong token", http.StatusForbidden)
		return
	}
	if r.Header.Get("X-Goog-Resource-State") == "sync" {
		// The handshake may come before watch has returned and the channel
		// is stored; the token proves Hearth made it.
		w.WriteHeader(http.StatusOK)
		return
	}
	c, err := g.cfg.Store.GoogleCalendarByChannel(r.Context(), id)
	if errors.Is(err, hearth.ErrNotFound) {
		// A stopped channel's late push: not ours any more.
		http.Error(w, "unknown channel", http.StatusNotFound)
		return
	}
	if err != nil {
		http.Error(w, "try again", http.StatusServiceUnavailable)
		return
	}
	if err := g.enqueueSync(r.Context(), c); err != nil {
		g.cfg.Log.Error("google push not enqueued", "error", err)
		http.Error(w, "try again", http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusOK)
}

func (g *Google) enqueueSync(ctx context.Context, c hearth.GoogleCalendar) error {
	tx, err := g.cfg.Store.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx) //nolint:errcheck // after commit, a no-op
	round, err := g.cfg.Store.MarkGooglePushTx(ctx, tx, c.UserID, c.CalendarID)
	if err != nil {
		return err
	}
	if _, err := g.cfg.Queue.InsertTx(ctx, tx, SyncArgs{UserID: c.UserID, CalendarID: c.CalendarID, Round: round}, nil); err != nil {
		return fmt.Errorf("enqueue google sync: %w", err)
	}
	return tx.Commit(ctx)
}
