package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/scheduler/recur"
)

// CreateSeries adds a repeating event to the built-in calendar: the series
// and its occurrences sr.Occurrences (the first is sr.Event), each an
// event of the series. A second call with the same key returns the first
// occurrence the first call created and changes nothing. The RRULE line is
// for calendars that expand rules themselves; the built-in one keeps the
// occurrences, and sr.Rule to add more.
func (s *Store) CreateSeries(ctx context.Context, key string, sr hearth.EventSeries, _ string) (hearth.CalendarEvent, error) {
	first, err := validEvent(sr.Event)
	if err != nil {
		return hearth.CalendarEvent{}, fmt.Errorf("store create series: %w", err)
	}
	switch {
	case first.UserID <= 0:
		err = hearth.Invalidf("an event needs a user")
	case len(sr.Rule) == 0 || sr.Zone == "":
		err = hearth.Invalidf("a repeating event needs a rule and a time zone")
	case len(sr.Occurrences) == 0 || !sr.Occurrences[0].Start.Equal(first.Start):
		err = hearth.Invalidf("a repeating event's first occurrence is the event itself")
	case !sr.Through.After(sr.Occurrences[len(sr.Occurrences)-1].Start):
		err = hearth.Invalidf("a repeating event's occurrences are kept until after the last one")
	}
	if err != nil {
		return hearth.CalendarEvent{}, fmt.Errorf("store create series: %w", err)
	}
	var out hearth.CalendarEvent
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		var id int64
		err := tx.QueryRow(ctx, `
			INSERT INTO event_series (user_id, source_key, rule, zone, title, all_day, starts_at, ends_at, location, attendees, description, through)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
			ON CONFLICT (source_key) DO NOTHING
			RETURNING id`,
			first.UserID, keyArg(key), []byte(sr.Rule), sr.Zone, first.Title, first.AllDay, first.Start, first.End,
			first.Location, orEmpty(first.Attendees), first.Description, sr.Through).Scan(&id)
		if errors.Is(err, pgx.ErrNoRows) {
			// Created by an earlier try: its first occurrence holds the key.
			out, err = scanEvent(tx.QueryRow(ctx, `SELECT `+eventColumns+` FROM events WHERE source_key = $1 AND user_id = $2`, key, first.UserID))
			if errors.Is(err, pgx.ErrNoRows) {
				return fmt.Errorf("key %q: %w", key, errKeyTaken)
			}
			return err
		}
		if err != nil {
			return err
		}
		out, err = s.insertOccurrences(ctx, tx, id, first, key, sr.Occurrences)
		return err
	})
	if err != nil {
		return hearth.CalendarEvent{}, fmt.Errorf("store create series: %w", constraintErr(translate(err)))
	}
	return out, nil
}

// insertOccurrences writes occurrences of series id, each like tmpl but at
// its own times; the first takes key. It returns the first.
func (s *Store) insertOccurrences(ctx context.Context, tx pgx.Tx, id int64, tmpl hearth.CalendarEvent, key string, occ []hearth.CalendarEvent) (hearth.CalendarEvent, error) {
	starts := make([]time.Time, len(occ))
	ends := make([]time.Time, len(occ))
	for i, o := range occ {
		if o.End.Before(o.Start) {
			return hearth.CalendarEvent{}, hearth.Invalidf("an occurrence cannot end before it starts")
		}
		starts[i], ends[i] = o.Start, o.End
	}
	first, err := scanEvent(tx.QueryRow(ctx, `
		WITH ins AS (
			INSERT INTO events (source_key, user_id, title, starts_at, ends_at, all_day, location, attendees, description, series)
			SELECT CASE WHEN o.n = 1 THEN $2::text END, $3, $4, o.s, o.e, $5, $6, $7, $8, $1
			FROM unnest($9::timestamptz[], $10::timestamptz[]) WITH ORDINALITY AS o(s, e, n)
			RETURNING `+eventColumns+`
		)
		SELECT * FROM ins ORDER BY starts_at, id LIMIT 1`,
		strconv.FormatInt(id, 10), keyArg(key), tmpl.UserID, tmpl.Title, tmpl.AllDay, tmpl.Location, orEmpty(tmpl.Attendees), tmpl.Description,
		starts, ends))
	if errors.Is(err, pgx.ErrNoRows) {
		return first, nil // nothing to add
	}
	return first, err
}

// DeleteSeries deletes the repeating event that event id is an occurrence
// of: the series, so that no more occurrences are added, and every
// occurrence still on the calendar, past and coming, softly. It returns the
// event as it was; RestoreSeries undoes it. An event of no series is
// deleted alone. For a synced Google copy it deletes the local rows of the
// series (the caller deletes it in Google).
func (s *Store) DeleteSeries(ctx context.Context, userID, id int64) (hearth.CalendarEvent, error) {
	var e hearth.CalendarEvent
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var err error
		// The event itself may be gone: a sync replaces the copy Hearth
		// made of a Google series with its instances.
		e, err = scanEvent(tx.QueryRow(ctx, `SELECT `+eventColumns+` FROM events
			WHERE id = $1 AND user_id = $2 FOR UPDATE`, id, userID))
		if err != nil {
			return notFound(translate(err), "event", id)
		}
		series := e.Series
		if series == "" && e.ExternalID == "" {
			_, err = tx.Exec(ctx, `UPDATE events SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL`, id)
			return err
		}
		if e.CalendarID != "" {
			// Google's: the instances name their series; a copy Hearth made
			// of the series itself, before a sync replaced it, is the series.
			if series == "" {
				series = e.ExternalID
			}
			_, err = tx.Exec(ctx, `UPDATE events SET deleted_at = now()
				WHERE user_id = $1 AND calendar_id = $2 AND (series = $3 OR external_id = $3) AND deleted_at IS NULL`,
				userID, e.CalendarID, series)
			return err
		}
		// The series first, on its own: once it is locked and deleted no
		// extension adds to it, and the next statement's snapshot sees
		// every occurrence one added before.
		if _, err := tx.Exec(ctx, `UPDATE event_series SET deleted_at = now() WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL`,
			seriesID(series), userID); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE events SET deleted_at = now() WHERE user_id = $1 AND series = $2 AND deleted_at IS NULL`, userID, series)
		return err
	})
	if err != nil {
		return hearth.CalendarEvent{}, fmt.Errorf("store delete series of event %d: %w", id, err)
	}
	return e, nil
}

// RestoreSeries undoes DeleteSeries of e's series, one of the built-in
// calendar's: it and the occurrences its delete took come back (not ones
// cancelled one by one before it). Restoring a series that is not deleted
// does nothing, so a retried undo succeeds.
func (s *Store) RestoreSeries(ctx context.Context, userID int64, e hearth.CalendarEvent) error {
	series, id := e.Series, seriesID(e.Series)
	if id == 0 {
		return fmt.Errorf("store restore series %q: %w", series, hearth.Invalidf("not a series of the built-in calendar"))
	}
	// The series and its occurrences were deleted in one transaction, so
	// at one now(): the occurrences deleted then are those of that instant.
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var deleted *time.Time
		err := tx.QueryRow(ctx, `SELECT deleted_at FROM event_series WHERE id = $1 AND user_id = $2 FOR UPDATE`, id, userID).Scan(&deleted)
		if errors.Is(err, pgx.ErrNoRows) {
			return hearth.ErrNotFound
		}
		if err != nil || deleted == nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE events SET deleted_at = NULL WHERE user_id = $1 AND series = $2 AND deleted_at = $3`,
			userID, series, *deleted); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE event_series SET deleted_at = NULL WHERE id = $1`, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("store restore series %d: %w", id, translate(err))
	}
	return nil
}

// SeriesToExtend returns up to limit live series of the built-in calendar
// whose occurrences are kept only until before, those ending soonest first.
// Each has its first occurrence as Event and no Occurrences.
func (s *Store) SeriesToExtend(ctx context.Context, before time.Time, limit int) ([]hearth.EventSeries, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT id, user_id, rule, zone, title, all_day, starts_at, ends_at, location, attendees, description, through
		FROM event_series WHERE deleted_at IS NULL AND through < $1
		ORDER BY through, id LIMIT $2`, before, limitOf(limit))
	if err != nil {
		return nil, fmt.Errorf("store series to extend: %w", translate(err))
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.EventSeries, error) {
		var sr hearth.EventSeries
		e := &sr.Event
		err := r.Scan(&sr.ID, &e.UserID, &sr.Rule, &sr.Zone, &e.Title, &e.AllDay, &e.Start, &e.End, &e.Location, &e.Attendees,
			&e.Description, &sr.Through)
		e.Start, e.End, sr.Through = e.Start.UTC(), e.End.UTC(), sr.Through.UTC()
		e.Attendees = nilIfEmpty(e.Attendees)
		e.Series = strconv.FormatInt(sr.ID, 10)
		return sr, err
	})
	if err != nil {
		return nil, fmt.Errorf("store series to extend: %w", translate(err))
	}
	return out, nil
}

// ExtendSeries keeps series sr (as SeriesToExtend read it) until through:
// it adds occ, those of them that start at or after the series' current
// through (so a repeated call adds nothing), and moves through. A series
// deleted, or moved, since it was read is left alone: occ were expanded
// from what it was.
func (s *Store) ExtendSeries(ctx context.Context, read hearth.EventSeries, occ []hearth.CalendarEvent, through time.Time) error {
	id := read.ID
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var sr hearth.EventSeries
		e := &sr.Event
		err := tx.QueryRow(ctx, `
			SELECT user_id, title, all_day, location, attendees, description, through
			FROM event_series WHERE id = $1 AND deleted_at IS NULL AND rule = $2 AND starts_at = $3 AND ends_at = $4 FOR UPDATE`,
			id, []byte(read.Rule), read.Event.Start, read.Event.End).
			Scan(&e.UserID, &e.Title, &e.AllDay, &e.Location, &e.Attendees, &e.Description, &sr.Through)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil || !through.After(sr.Through) {
			return err
		}
		var add []hearth.CalendarEvent
		for _, o := range occ {
			if !o.Start.Before(sr.Through) && o.Start.Before(through) {
				add = append(add, o)
			}
		}
		if len(add) > 0 {
			if _, err := s.insertOccurrences(ctx, tx, id, *e, "", add); err != nil {
				return err
			}
		}
		_, err = tx.Exec(ctx, `UPDATE event_series SET through = $2 WHERE id = $1`, id, through)
		return err
	})
	if err != nil {
		return fmt.Errorf("store extend series %d: %w", id, translate(err))
	}
	return nil
}

// seriesID is the built-in series a series name is, or 0 (none: the
// series is Google's).
func seriesID(series string) int64 {
	id, _ := strconv.ParseInt(series, 10, 64)
	return id
}

// UpdateSeries changes the occurrences of the built-in calendar's series
// that event id is one of, from that one on, and the series, so that the
// occurrences added later have the change too: a new title or place, and
// with upd.Start and upd.End a new time of day (upd.Start's wall-clock time
// in the series' zone), each lasting End-Start. Earlier occurrences stay as
// they were. before and after are event id. An event of no series is
// updated alone (UpdateEvent).
func (s *Store) UpdateSeries(ctx context.Context, userID, id int64, upd hearth.CalendarEventUpdate) (before, after hearth.CalendarEvent, err error) {
	e, err := s.FindEvent(ctx, userID, id)
	if err != nil {
		return before, after, err
	}
	if seriesID(e.Series) == 0 || e.CalendarID != "" {
		return s.UpdateEvent(ctx, userID, id, upd)
	}
	if (upd.Start == nil) != (upd.End == nil) || upd.Start != nil && upd.End.Before(*upd.Start) ||
		upd.Title != nil && strings.TrimSpace(*upd.Title) == "" || upd.AllDay != nil || upd.Attendees != nil {
		return before, after, fmt.Errorf("store update series of event %d: %w", id,
			hearth.Invalidf("a repeating event changes its title, its place or its time of day, with a start and an end"))
	}
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		before, err = scanEvent(tx.QueryRow(ctx, `SELECT `+eventColumns+` FROM events
			WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL FOR UPDATE`, id, userID))
		if err != nil {
			return notFound(translate(err), "event", id)
		}
		sid := seriesID(before.Series)
		var zone string
		var raw []byte
		var first time.Time
		if err := tx.QueryRow(ctx, `SELECT zone, rule, starts_at FROM event_series WHERE id = $1 AND user_id = $2 FOR UPDATE`,
			sid, userID).Scan(&zone, &raw, &first); err != nil {
			return notFound(translate(err), "repeating event", sid)
		}
		var title, location *string
		if upd.Title != nil {
			t := strings.TrimSpace(*upd.Title)
			title = &t
		}
		location = upd.Location
		if _, err := tx.Exec(ctx, `UPDATE event_series SET title = coalesce($2, title), location = coalesce($3, location) WHERE id = $1`,
			sid, title, location); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE events SET title = coalesce($3, title), location = coalesce($4, location), updated_at = now()
			WHERE user_id = $1 AND series = $2 AND deleted_at IS NULL AND starts_at >= $5`,
			userID, before.Series, title, location, before.Start); err != nil {
			return err
		}
		if upd.Start == nil {
			return nil
		}
		if before.AllDay {
			return hearth.Invalidf("an all-day repeating event has no time of day to move")
		}
		return moveSeries(ctx, tx, sid, before, zone, raw, first, *upd.Start, *upd.End)
	})
	if err != nil {
		return before, after, fmt.Errorf("store update series of event %d: %w", id, constraintErr(translate(err)))
	}
	after, err = s.FindEvent(ctx, before.UserID, id)
	return before, after, err
}

// moveSeries moves series sid (its rule raw, first occurrence at first, in
// zone) to the wall-clock time of start, each occurrence from before on
// lasting end-start.
func moveSeries(ctx context.Context, tx pgx.Tx, sid int64, before hearth.CalendarEvent, zone string, raw []byte, first, start, end time.Time) error {
	loc, err := time.LoadLocation(zone)
	if err != nil {
		return fmt.Errorf("series %d: zone %q: %w", sid, zone, err)
	}
	var rule recur.Rule
	if err := json.Unmarshal(raw, &rule); err != nil {
		return fmt.Errorf("series %d: %w", sid, err)
	}
	l := start.In(loc)
	rule.At = recur.TimeOfDay{Hour: l.Hour(), Minute: l.Minute()}
	length := end.Sub(start)
	at := func(t time.Time) time.Time { return recur.At(recur.DateOf(t, loc), rule.At, loc) }
	if raw, err = json.Marshal(rule); err != nil {
		return err
	}
	f := at(first)
	if _, err := tx.Exec(ctx, `UPDATE event_series SET rule = $2, starts_at = $3, ends_at = $4 WHERE id = $1`,
		sid, raw, f, f.Add(length)); err != nil {
		return err
	}
	rows, err := tx.Query(ctx, `SELECT id, starts_at FROM events
		WHERE user_id = $1 AND series = $2 AND deleted_at IS NULL AND starts_at >= $3 FOR UPDATE`, before.UserID, before.Series, before.Start)
	if err != nil {
		return err
	}
	var ids []int64
	var starts, ends []time.Time
	var oid int64
	var ostart time.Time
	if _, err := pgx.ForEachRow(rows, []any{&oid, &ostart}, func() error {
		s := at(ostart)
		ids, starts, ends = append(ids, oid), append(starts, s), append(ends, s.Add(length))
		return nil
	}); err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `
		UPDATE events SET starts_at = u.s, ends_at = u.e, updated_at = now()
		FROM unnest($1::bigint[], $2::timestamptz[], $3::timestamptz[]) AS u(id, s, e) WHERE events.id = u.id`, ids, starts, ends)
	return err
}
