package google

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/hearthbot/hearth"
)

// Imports is what the integration keeps about imported events: the
// events a committed import created, their link to Google, and those an
// undo deleted.
type Imports interface {
	ImportEventIDsTx(ctx context.Context, tx pgx.Tx, importID int64) ([]int64, error)
	LinkImportedEvent(ctx context.Context, userID, id int64, calendarID, externalID string) (hearth.CalendarEvent, bool, error)
	UndoneImportEvents(ctx context.Context, userID, importID int64) ([]hearth.CalendarEvent, error)
}

// ImportEventArgs creates one imported event in the user's Google
// calendar, after the import's commit.
type ImportEventArgs struct {
	UserID   int64 `json:"user_id"`
	ImportID int64 `json:"import_id"`
	EventID  int64 `json:"event_id"`
}

// Kind is the River job kind; stable across releases.
func (ImportEventArgs) Kind() string { return "google_import_event" }

// InsertOpts puts the job on Google's queue.
func (ImportEventArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueGoogle, MaxAttempts: 10, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// UnimportArgs deletes from Google the events an undone import created.
type UnimportArgs struct {
	UserID   int64 `json:"user_id"`
	ImportID int64 `json:"import_id"`
}

// Kind is the River job kind; stable across releases.
func (UnimportArgs) Kind() string { return "google_unimport" }

// InsertOpts makes the job unique while pending.
func (UnimportArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueGoogle, MaxAttempts: 10, UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: pendingStates}}
}

// importKey is the stable key an imported event's Google id derives
// from: a retried job finds its event (409) instead of making another.
func importKey(importID, eventID int64) string {
	return fmt.Sprintf("import %d event %d", importID, eventID)
}

// ImportedTx enqueues, in the import's own transaction, one job per event
// it created, when the user has a working Google account: the events go
// out to Google after the commit, each once.
func (g *Google) ImportedTx(ctx context.Context, tx pgx.Tx, userID, importID int64) error {
	if _, err := g.active(ctx, userID); errors.Is(err, errNotConnected) {
		return nil
	} else if err != nil {
		return err
	}
	ids, err := g.cfg.Store.ImportEventIDsTx(ctx, tx, importID)
	if err != nil || len(ids) == 0 {
		return err
	}
	params := make([]river.InsertManyParams, 0, len(ids))
	for _, id := range ids {
		params = append(params, river.InsertManyParams{Args: ImportEventArgs{UserID: userID, ImportID: importID, EventID: id}})
	}
	if _, err := g.cfg.Queue.InsertManyTx(ctx, tx, params); err != nil {
		return fmt.Errorf("google enqueue imported events: %w", err)
	}
	return nil
}

// UndoneTx enqueues, in tx, the job that deletes an undone import's
// events from Google. It is enqueued whether or not the user is
// connected now: the job finds out.
func (g *Google) UndoneTx(ctx context.Context, tx pgx.Tx, userID, importID int64) error {
	if _, err := g.cfg.Queue.InsertTx(ctx, tx, UnimportArgs{UserID: userID, ImportID: importID}, nil); err != nil {
		return fmt.Errorf("google enqueue undone import: %w", err)
	}
	return nil
}

// importEvent creates an imported event in Google. The local row is
// linked first, under the id the import and row derive, so a sync that
// sees the event before the job ends updates that row instead of adding
// a second one. An event whose import was undone is left alone, or, when
// the undo came while it was being created, deleted again.
func (g *Google) importEvent(ctx context.Context, j ImportEventArgs) error {
	a, err := g.active(ctx, j.UserID)
	if errors.Is(err, errNotConnected) {
		return nil // the built-in calendar keeps it
	}
	if err != nil {
		return err
	}
	cal, err := g.calendarFor(ctx, hearth.CalendarEvent{UserID: j.UserID})
	if err != nil {
		return err
	}
	e, ok, err := g.cfg.Store.LinkImportedEvent(ctx, j.UserID, j.EventID, cal, eventID(importKey(j.ImportID, j.EventID)))
	if err != nil || !ok {
		return err
	}
	svc, err := g.calendarService(ctx, a)
	if err != nil {
		return err
	}
	ge := toGoogle(e, zoneOf(a))
	ge.Id = e.ExternalID
	_, err = svc.Events.Insert(e.CalendarID, ge).SendUpdates("none").Context(ctx).Do()
	switch {
	case statusOf(err) == http.StatusConflict: // created by an earlier try
	case errors.Is(err, ErrRevoked):
		return g.cfg.Store.RelinkEvent(ctx, e.UserID, e.ID, "", "")
	case statusOf(err) >= 400 && statusOf(err) < 500:
		// Google refused this event: Hearth keeps it as its own.
		g.cfg.Log.Warn("google refused an imported event; kept in the built-in calendar", "event", e.ID, "error", googleMessage(err))
		return g.cfg.Store.RelinkEvent(ctx, e.UserID, e.ID, "", "")
	case err != nil:
		return fmt.Errorf("google create imported event: %w", err)
	}
	if _, live, err := g.cfg.Store.LinkImportedEvent(ctx, j.UserID, j.EventID, "", ""); err != nil || live {
		return err
	}
	// Undone while it was being created.
	return g.deleteEvents(ctx, a, []hearth.CalendarEvent{e})
}

// unimport deletes an undone import's events from Google.
func (g *Google) unimport(ctx context.Context, j UnimportArgs) error {
	a, err := g.active(ctx, j.UserID)
	if errors.Is(err, errNotConnected) {
		return nil
	}
	if err != nil {
		return err
	}
	es, err := g.cfg.Store.UndoneImportEvents(ctx, j.UserID, j.ImportID)
	if err != nil {
		return err
	}
	return g.deleteEvents(ctx, a, es)
}

// deleteEvents deletes events from Google; those Google no longer has
// count as deleted.
func (g *Google) deleteEvents(ctx context.Context, a hearth.GoogleAccount, es []hearth.CalendarEvent) error {
	if len(es) == 0 {
		return nil
	}
	svc, err := g.calendarService(ctx, a)
	if err != nil {
		return err
	}
	for _, e := range es {
		err := svc.Events.Delete(e.CalendarID, e.ExternalID).SendUpdates("none").Context(ctx).Do()
		if errors.Is(err, ErrRevoked) {
			return nil
		}
		if s := statusOf(err); err != nil && s != http.StatusNotFound && s != http.StatusGone {
			return fmt.Errorf("google delete imported event: %w", err)
		}
	}
	return nil
}
