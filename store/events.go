package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

const eventColumns = `id, user_id, title, starts_at, ends_at, all_day, location, attendees, description, created_at, updated_at, coalesce(calendar_id, '') AS calendar_id, coalesce(external_id, '') AS external_id, coalesce(series, '') AS series`

func scanEvent(row pgx.Row) (hearth.CalendarEvent, error) {
	var e hearth.CalendarEvent
	err := row.Scan(eventFields(&e)...)
	return tidyEvent(e), err
}

// eventFields are the destinations of eventColumns, for a query that
// selects more than those.
func eventFields(e *hearth.CalendarEvent) []any {
	return []any{&e.ID, &e.UserID, &e.Title, &e.Start, &e.End, &e.AllDay, &e.Location, &e.Attendees, &e.Description,
		&e.CreatedAt, &e.UpdatedAt, &e.CalendarID, &e.ExternalID, &e.Series}
}

// tidyEvent is an event as scanned, in UTC and with no empty attendees.
func tidyEvent(e hearth.CalendarEvent) hearth.CalendarEvent {
	e.Start, e.End = e.Start.UTC(), e.End.UTC()
	e.CreatedAt, e.UpdatedAt = e.CreatedAt.UTC(), e.UpdatedAt.UTC()
	e.Attendees = nilIfEmpty(e.Attendees)
	return e
}

// validEvent checks and normalises an event about to be written.
func validEvent(e hearth.CalendarEvent) (hearth.CalendarEvent, error) {
	e.Title = strings.TrimSpace(e.Title)
	if e.Title == "" {
		return e, hearth.Invalidf("an event needs a title")
	}
	if e.Start.IsZero() || e.End.IsZero() {
		return e, hearth.Invalidf("an event needs a start and an end")
	}
	if e.End.Before(e.Start) {
		return e, hearth.Invalidf("an event cannot end (%s) before it starts (%s)", e.End.Format("2006-01-02 15:04"), e.Start.Format("2006-01-02 15:04"))
	}
	attendees := make([]string, 0, len(e.Attendees))
	for _, a := range e.Attendees {
		if a = strings.TrimSpace(a); a != "" && !slices.Contains(attendees, a) {
			attendees = append(attendees, a)
		}
	}
	e.Attendees = nilIfEmpty(attendees)
	return e, nil
}

// CreateEvent adds an event to e.UserID's calendar. A second call with the
// same key returns the event the first one created and changes nothing.
func (s *Store) CreateEvent(ctx context.Context, key string, e hearth.CalendarEvent) (hearth.CalendarEvent, error) {
	e, err := validEvent(e)
	if err != nil {
		return hearth.CalendarEvent{}, fmt.Errorf("store create event: %w", err)
	}
	if e.UserID <= 0 {
		return hearth.CalendarEvent{}, fmt.Errorf("store create event: %w", hearth.Invalidf("an event needs a user"))
	}
	created, err := createOnce(ctx, s, "events", eventColumns, scanEvent, key, e.UserID, `
		INSERT INTO events (source_key, user_id, title, starts_at, ends_at, all_day, location, attendees, description, calendar_id, external_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, NULLIF($10, ''), NULLIF($11, ''))
		ON CONFLICT (source_key) DO NOTHING
		RETURNING `+eventColumns,
		keyArg(key), e.UserID, e.Title, e.Start, e.End, e.AllDay, e.Location, orEmpty(e.Attendees), e.Description, e.CalendarID, e.ExternalID)
	if err != nil {
		return hearth.CalendarEvent{}, fmt.Errorf("store create event: %w", err)
	}
	return created, nil
}

// UpdateEvent changes the fields of upd that are not nil and returns the
// event before and after, read and written in one transaction. Moving the
// start without the end is refused if the event would end before it
// starts: the caller moves both.
func (s *Store) UpdateEvent(ctx context.Context, userID, id int64, upd hearth.CalendarEventUpdate) (before, after hearth.CalendarEvent, err error) {
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		before, err = scanEvent(tx.QueryRow(ctx, `SELECT `+eventColumns+` FROM events
			WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL FOR UPDATE`, id, userID))
		if err != nil {
			return notFound(err, "event", id)
		}
		after = before
		setIf(&after.Title, upd.Title)
		setIf(&after.Start, upd.Start)
		setIf(&after.End, upd.End)
		setIf(&after.AllDay, upd.AllDay)
		setIf(&after.Location, upd.Location)
		setIf(&after.Attendees, upd.Attendees)
		setIf(&after.Description, upd.Description)
		if after, err = validEvent(after); err != nil {
			return err
		}
		if upd == (hearth.CalendarEventUpdate{}) {
			return nil
		}
		after, err = scanEvent(tx.QueryRow(ctx, `
			UPDATE events SET title = $2, starts_at = $3, ends_at = $4, all_day = $5, location = $6, attendees = $7,
			       description = $8, updated_at = now()
			WHERE id = $1
			RETURNING `+eventColumns,
			id, after.Title, after.Start, after.End, after.AllDay, after.Location, orEmpty(after.Attendees), after.Description))
		return err
	})
	if err != nil {
		return hearth.CalendarEvent{}, hearth.CalendarEvent{}, fmt.Errorf("store update event %d: %w", id, constraintErr(err))
	}
	return before, after, nil
}

// DeleteEvent deletes an event softly and returns it; RestoreEvent undoes
// it.
func (s *Store) DeleteEvent(ctx context.Context, userID, id int64) (hearth.CalendarEvent, error) {
	e, err := softDelete(ctx, s, "events", eventColumns, scanEvent, userID, id)
	if err != nil {
		return hearth.CalendarEvent{}, fmt.Errorf("store delete event %d: %w", id, err)
	}
	return e, nil
}

// RestoreEvent brings back a deleted event. Restoring an event that is not
// deleted does nothing, so a retried undo succeeds.
func (s *Store) RestoreEvent(ctx context.Context, userID, id int64) error {
	if err := restore(ctx, s, "events", userID, id); err != nil {
		return fmt.Errorf("store restore event %d: %w", id, err)
	}
	return nil
}

// EventShared reports whether deleting the user's event id touches
// anyone else: it has attendees, or it is on a Google calendar the user
// marked as the family's. An event that is not the user's, or is gone,
// counts as shared: nothing is deleted without asking on a guess.
func (s *Store) EventShared(ctx context.Context, userID, id int64) (bool, error) {
	var shared bool
	err := s.pool.QueryRow(ctx, `
		SELECT cardinality(e.attendees) > 0 OR EXISTS (
			SELECT 1 FROM google_calendars g
			WHERE g.user_id = e.user_id AND g.calendar_id = e.calendar_id AND g.is_family)
		FROM events e WHERE e.id = $2 AND e.user_id = $1 AND e.deleted_at IS NULL`, userID, id).Scan(&shared)
	if errors.Is(err, pgx.ErrNoRows) {
		return true, nil
	}
	if err != nil {
		return true, fmt.Errorf("store event %d shared: %w", id, translate(err))
	}
	return shared, nil
}

// FindEvents returns a user's events overlapping [f.From, f.To), by start.
// A zero From or To leaves that side open. An event of no duration counts
// as overlapping when it starts inside the window. Query keeps events whose
// title, location or description contain every word of it. Limit defaults
// to DefaultLimit and is capped at MaxLimit.
func (s *Store) FindEvents(ctx context.Context, f hearth.CalendarEventFilter) ([]hearth.CalendarEvent, error) {
	if f.UserID <= 0 {
		return nil, fmt.Errorf("store find events: %w", hearth.Invalidf("an event search needs a user"))
	}
	if !f.From.IsZero() && !f.To.IsZero() && f.To.Before(f.From) {
		return nil, fmt.Errorf("store find events: %w", hearth.Invalidf("the window ends before it starts"))
	}
	var w where
	w.add("user_id = " + w.arg(f.UserID))
	w.add("deleted_at IS NULL")
	if !f.To.IsZero() {
		w.add("starts_at < " + w.arg(f.To))
	}
	if !f.From.IsZero() {
		from := w.arg(f.From)
		w.add("(ends_at > " + from + " OR starts_at >= " + from + ")")
	}
	if q := strings.TrimSpace(f.Query); q != "" {
		w.add(w.words(q, []string{"title", "location", "description"}, nil))
	}
	rows, err := s.pool.Query(ctx, `SELECT `+eventColumns+` FROM events WHERE `+w.String()+`
		ORDER BY starts_at, id
		LIMIT `+w.arg(limitOf(f.Limit)), w.args...)
	if err != nil {
		return nil, fmt.Errorf("store find events: %w", translate(err))
	}
	events, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.CalendarEvent, error) { return scanEvent(r) })
	if err != nil {
		return nil, fmt.Errorf("store find events: %w", translate(err))
	}
	return events, nil
}
