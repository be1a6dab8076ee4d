package google

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	calendar "google.golang.org/api/calendar/v3"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/scheduler/recur"
)

// Repeating events: in Google one recurring event whose instances the
// local copy holds, each naming its series (hearth.CalendarEvent.Series).

// CreateSeries creates a repeating event: in Google, one event with the
// rule, whose occurrences Google keeps and a sync, run at once, brings as
// instances; in the built-in calendar, the series and its occurrences.
func (c Calendar) CreateSeries(ctx context.Context, key string, s hearth.EventSeries, rrule string) (hearth.CalendarEvent, error) {
	_, err := c.g.active(ctx, s.Event.UserID)
	if errors.Is(err, errNotConnected) {
		return c.g.cfg.Store.CreateSeries(ctx, key, s, rrule)
	}
	if err != nil {
		return hearth.CalendarEvent{}, err
	}
	e := s.Event
	e.Recurrence = []string{rrule}
	row, err := c.CreateEvent(ctx, key, e)
	if err != nil || row.ExternalID == "" {
		return row, err
	}
	// Without it the calendar would show one occurrence until Google's
	// push arrives; a sync that fails now is retried by that push.
	if err := c.g.Sync(ctx, row.UserID, row.CalendarID); err != nil {
		c.g.cfg.Log.Warn("repeating event added but not synced yet", "user", row.UserID, "error", err)
	}
	return row, nil
}

// DeleteSeries deletes, in Google, the repeating event whose occurrence
// (or whose own copy) id is, then its local rows. The event returned
// carries the series' rule and first times, so that RestoreSeries can
// create it again.
func (c Calendar) DeleteSeries(ctx context.Context, userID, id int64) (hearth.CalendarEvent, error) {
	e, a, err := c.linked(ctx, userID, id)
	if err != nil && !errors.Is(err, hearth.ErrNotFound) {
		return e, err
	}
	if a == nil {
		return c.g.cfg.Store.DeleteSeries(ctx, userID, id)
	}
	svc, err := c.g.calendarService(ctx, *a)
	if err != nil {
		return e, err
	}
	master := seriesOf(e)
	var series *calendar.Event
	switch ge, err := svc.Events.Get(e.CalendarID, master).Context(ctx).Do(); {
	case err == nil:
		series = ge
	case statusOf(err) != http.StatusNotFound && statusOf(err) != http.StatusGone && !errors.Is(err, ErrRevoked):
		return e, fmt.Errorf("google delete series: %w", err)
	}
	err = svc.Events.Delete(e.CalendarID, master).SendUpdates(sendUpdates(e.Attendees)).Context(ctx).Do()
	if s := statusOf(err); err != nil && s != http.StatusNotFound && s != http.StatusGone && !errors.Is(err, ErrRevoked) {
		return e, fmt.Errorf("google delete series: %w", err)
	}
	before, err := c.g.cfg.Store.DeleteSeries(ctx, userID, id)
	if err != nil {
		return before, err
	}
	if series != nil {
		if first, ferr := fromGoogle(series, e.CalendarID, zoneOf(*a)); ferr == nil {
			before.Start, before.End, before.AllDay = first.Start, first.End, first.AllDay
		}
		before.Recurrence = series.Recurrence
	}
	return before, nil
}

// RestoreSeries undoes DeleteSeries: in Google, the series is created
// again (under a new id, once however often the undo is tried) and
// synced; in the built-in calendar, the series and its occurrences come
// back.
func (c Calendar) RestoreSeries(ctx context.Context, userID int64, e hearth.CalendarEvent) error {
	if e.CalendarID == "" {
		return c.g.cfg.Store.RestoreSeries(ctx, userID, e)
	}
	a, err := c.g.active(ctx, userID)
	if errors.Is(err, errNotConnected) {
		return fmt.Errorf("google restore series: %w", hearth.Errorf(hearth.EUnavailable, "Google Calendar is no longer connected"))
	}
	if err != nil {
		return err
	}
	svc, err := c.g.calendarService(ctx, a)
	if err != nil {
		return err
	}
	linked := c.g.linkPeople(ctx, e)
	ge := toGoogle(linked, zoneOf(a))
	// Google keeps deleted ids, so the series comes back under a new one:
	// derived from the deleted one, so that a retried undo finds it made
	// (409) instead of making a second series.
	ge.Id = eventID("restore " + seriesOf(e))
	_, err = svc.Events.Insert(e.CalendarID, ge).SendUpdates(sendUpdates(linked.Attendees)).Context(ctx).Do()
	if err != nil && statusOf(err) != http.StatusConflict {
		return fmt.Errorf("google restore series: %w", err)
	}
	if err := c.g.Sync(ctx, userID, e.CalendarID); err != nil {
		c.g.cfg.Log.Warn("repeating event restored but not synced yet", "user", userID, "error", err)
	}
	return nil
}

// UpdateSeries changes a repeating event: its title, its place, and with
// upd.Start and upd.End its time of day, each occurrence lasting
// End-Start. In Google the series is patched (Google changes every
// instance) and the local copy synced; in the built-in calendar, the series
// from event id on.
func (c Calendar) UpdateSeries(ctx context.Context, userID, id int64, upd hearth.CalendarEventUpdate) (before, after hearth.CalendarEvent, err error) {
	e, a, err := c.linked(ctx, userID, id)
	if err != nil || a == nil {
		if err != nil && !errors.Is(err, hearth.ErrNotFound) {
			return before, after, err
		}
		return c.g.cfg.Store.UpdateSeries(ctx, userID, id, upd)
	}
	svc, err := c.g.calendarService(ctx, *a)
	if err != nil {
		return before, after, err
	}
	master := seriesOf(e)
	patch := &calendar.Event{}
	if upd.Title != nil {
		patch.Summary = *upd.Title
	}
	if upd.Location != nil {
		patch.Location = *upd.Location
		patch.ForceSendFields = append(patch.ForceSendFields, "Location")
	}
	after = e
	setIf(&after.Title, upd.Title)
	setIf(&after.Location, upd.Location)
	moved := upd.Start != nil && upd.End != nil
	if moved {
		ge, err := svc.Events.Get(e.CalendarID, master).Context(ctx).Do()
		if err != nil {
			return before, after, fmt.Errorf("google update series: %w", err)
		}
		loc := zoneOf(*a)
		first, err := fromGoogle(ge, e.CalendarID, loc)
		if err != nil {
			return before, after, fmt.Errorf("google update series: %w", err)
		}
		if first.AllDay {
			return before, after, fmt.Errorf("google update series: %w", hearth.Invalidf("an all-day repeating event has no time of day to move"))
		}
		l := upd.Start.In(loc)
		s := recur.At(recur.DateOf(first.Start, loc), recur.TimeOfDay{Hour: l.Hour(), Minute: l.Minute()}, loc)
		times := toGoogle(hearth.CalendarEvent{Start: s, End: s.Add(upd.End.Sub(*upd.Start))}, loc)
		patch.Start, patch.End = times.Start, times.End
		after.Start, after.End = *upd.Start, *upd.End
	}
	if _, err := svc.Events.Patch(e.CalendarID, master, patch).SendUpdates(sendUpdates(e.Attendees)).Context(ctx).Do(); err != nil {
		return before, after, fmt.Errorf("google update series: %w", err)
	}
	if moved {
		// An instance's id follows its original time, so every instance
		// is a new one now: the old rows go, and the sync brings the new.
		if _, err := c.g.cfg.Store.DeleteSeries(ctx, userID, id); err != nil {
			return before, after, err
		}
	}
	if err := c.g.Sync(ctx, userID, e.CalendarID); err != nil {
		c.g.cfg.Log.Warn("repeating event changed but not synced yet", "user", userID, "error", err)
	}
	// after is the old row as changed (a moved one's new row is the
	// sync's).
	return e, after, nil
}

// seriesOf is the Google id of the recurring event e is an instance of, or
// of e itself: the copy Hearth made of a series it created, before a sync
// replaced it by the instances.
func seriesOf(e hearth.CalendarEvent) string {
	if e.Series != "" {
		return e.Series
	}
	return e.ExternalID
}
