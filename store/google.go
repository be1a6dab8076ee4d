package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

const googleAccountColumns = `a.user_id, COALESCE(u.timezone, ''), a.email, a.token, a.scopes, a.revoked_at, a.notified_at, a.created_at, a.updated_at`

func scanGoogleAccount(row pgx.Row) (hearth.GoogleAccount, error) {
	var a hearth.GoogleAccount
	var revoked, notified *time.Time
	err := row.Scan(&a.UserID, &a.Timezone, &a.Email, &a.Token, &a.Scopes, &revoked, &notified, &a.CreatedAt, &a.UpdatedAt)
	a.RevokedAt, a.NotifiedAt = utcOrZero(revoked), utcOrZero(notified)
	a.CreatedAt, a.UpdatedAt = a.CreatedAt.UTC(), a.UpdatedAt.UTC()
	return a, err
}

// SaveGoogleAccount stores the account a user connected (a new one, or a
// reconnection with a new token and scopes), working again if it had been
// revoked.
func (s *Store) SaveGoogleAccount(ctx context.Context, a hearth.GoogleAccount) error {
	if a.UserID <= 0 || len(a.Token) == 0 {
		return fmt.Errorf("store save google account: %w", hearth.Invalidf("an account needs a user and a token"))
	}
	_, err := s.pool.Exec(ctx, `
		INSERT INTO google_accounts (user_id, email, token, scopes) VALUES ($1, $2, $3, $4)
		ON CONFLICT (user_id) DO UPDATE SET email = EXCLUDED.email, token = EXCLUDED.token, scopes = EXCLUDED.scopes,
			revoked_at = NULL, notified_at = NULL, updated_at = now()`,
		a.UserID, a.Email, a.Token, orEmpty(a.Scopes))
	if err != nil {
		return fmt.Errorf("store save google account: %w", constraintErr(translate(err)))
	}
	return nil
}

// GoogleAccount returns the user's connected account; hearth.ErrNotFound
// when there is none.
func (s *Store) GoogleAccount(ctx context.Context, userID int64) (hearth.GoogleAccount, error) {
	a, err := scanGoogleAccount(s.pool.QueryRow(ctx, `SELECT `+googleAccountColumns+`
		FROM google_accounts a JOIN users u ON u.id = a.user_id WHERE a.user_id = $1`, userID))
	if err != nil {
		return hearth.GoogleAccount{}, fmt.Errorf("store google account: %w", notFound(translate(err), "google account of user", userID))
	}
	return a, nil
}

// SetGoogleToken replaces the sealed token (a refresh gave a new one).
func (s *Store) SetGoogleToken(ctx context.Context, userID int64, token []byte) error {
	if _, err := s.pool.Exec(ctx, `UPDATE google_accounts SET token = $2, updated_at = now() WHERE user_id = $1`, userID, token); err != nil {
		return fmt.Errorf("store set google token: %w", translate(err))
	}
	return nil
}

// RevokeGoogleAccount records that Google refused the user's grant. It
// reports whether the account was working until now.
func (s *Store) RevokeGoogleAccount(ctx context.Context, userID int64) (bool, error) {
	tag, err := s.pool.Exec(ctx, `UPDATE google_accounts SET revoked_at = now(), updated_at = now()
		WHERE user_id = $1 AND revoked_at IS NULL`, userID)
	if err != nil {
		return false, fmt.Errorf("store revoke google account: %w", translate(err))
	}
	return tag.RowsAffected() == 1, nil
}

// ClaimGoogleNoticeTx marks, in the caller's transaction, that the user
// was told their revoked grant needs reconnecting. It reports whether
// this call claimed it: the message goes out once.
func (s *Store) ClaimGoogleNoticeTx(ctx context.Context, tx pgx.Tx, userID int64) (bool, error) {
	tag, err := tx.Exec(ctx, `UPDATE google_accounts SET notified_at = now()
		WHERE user_id = $1 AND revoked_at IS NOT NULL AND notified_at IS NULL`, userID)
	if err != nil {
		return false, fmt.Errorf("store claim google notice: %w", translate(err))
	}
	return tag.RowsAffected() == 1, nil
}

// DeleteGoogleAccount forgets the user's account: its token, calendars,
// channels, the synced copies of its events, the copy of its inbox and
// where Gmail history polling continues, in one transaction.
func (s *Store) DeleteGoogleAccount(ctx context.Context, userID int64) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM events WHERE user_id = $1 AND external_id IS NOT NULL`, userID); err != nil {
			return err
		}
		// The copy of the inbox and where its history continues belong to
		// the account: another account connected later starts afresh.
		if _, err := tx.Exec(ctx, `DELETE FROM inbox_messages WHERE user_id = $1`, userID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM gmail_sync WHERE user_id = $1`, userID); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM google_accounts WHERE user_id = $1`, userID)
		return err
	})
	if err != nil {
		return fmt.Errorf("store delete google account: %w", translate(err))
	}
	return nil
}

const googleCalendarColumns = `user_id, calendar_id, summary, is_default, is_family, COALESCE(sync_token, ''), generation, synced_at, pushed_at,
	COALESCE(channel_id, ''), COALESCE(channel_resource_id, ''), channel_expires_at, sync_started`

func scanGoogleCalendar(row pgx.Row) (hearth.GoogleCalendar, error) {
	var c hearth.GoogleCalendar
	var synced, pushed, expires *time.Time
	err := row.Scan(&c.UserID, &c.CalendarID, &c.Summary, &c.Default, &c.Family, &c.SyncToken, &c.Generation, &synced, &pushed,
		&c.ChannelID, &c.ChannelResourceID, &expires, &c.SyncStarted)
	c.SyncedAt, c.PushedAt, c.ChannelExpiresAt = utcOrZero(synced), utcOrZero(pushed), utcOrZero(expires)
	return c, err
}

func collectGoogleCalendars(rows pgx.Rows, err error) ([]hearth.GoogleCalendar, error) {
	if err != nil {
		return nil, translate(err)
	}
	cals, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.GoogleCalendar, error) { return scanGoogleCalendar(r) })
	return cals, translate(err)
}

// AddGoogleCalendar adds a calendar to those synced (or renames it). A
// default (or family) calendar takes that role from the user's others.
func (s *Store) AddGoogleCalendar(ctx context.Context, c hearth.GoogleCalendar) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if c.Default {
			if _, err := tx.Exec(ctx, `UPDATE google_calendars SET is_default = false
				WHERE user_id = $1 AND calendar_id <> $2 AND is_default`, c.UserID, c.CalendarID); err != nil {
				return err
			}
		}
		if c.Family {
			if _, err := tx.Exec(ctx, `UPDATE google_calendars SET is_family = false
				WHERE user_id = $1 AND calendar_id <> $2 AND is_family`, c.UserID, c.CalendarID); err != nil {
				return err
			}
		}
		_, err := tx.Exec(ctx, `
			INSERT INTO google_calendars (user_id, calendar_id, summary, is_default, is_family) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (user_id, calendar_id) DO UPDATE SET summary = EXCLUDED.summary,
				is_default = google_calendars.is_default OR EXCLUDED.is_default,
				is_family = google_calendars.is_family OR EXCLUDED.is_family`,
			c.UserID, c.CalendarID, c.Summary, c.Default, c.Family)
		return err
	})
	if err != nil {
		return fmt.Errorf("store add google calendar: %w", constraintErr(translate(err)))
	}
	return nil
}

// GoogleCalendars returns the user's synced calendars, the default first.
func (s *Store) GoogleCalendars(ctx context.Context, userID int64) ([]hearth.GoogleCalendar, error) {
	cals, err := collectGoogleCalendars(s.pool.Query(ctx, `SELECT `+googleCalendarColumns+` FROM google_calendars
		WHERE user_id = $1 ORDER BY is_default DESC, calendar_id`, userID))
	if err != nil {
		return nil, fmt.Errorf("store google calendars: %w", err)
	}
	return cals, nil
}

// GoogleCalendarByChannel returns the calendar whose push channel has the
// id; hearth.ErrNotFound for an unknown channel.
func (s *Store) GoogleCalendarByChannel(ctx context.Context, channelID string) (hearth.GoogleCalendar, error) {
	c, err := scanGoogleCalendar(s.pool.QueryRow(ctx, `SELECT `+googleCalendarColumns+` FROM google_calendars
		WHERE channel_id = $1`, channelID))
	if errors.Is(err, pgx.ErrNoRows) {
		return c, fmt.Errorf("store google channel %q: %w", channelID, hearth.ErrNotFound)
	}
	if err != nil {
		return c, fmt.Errorf("store google channel: %w", translate(err))
	}
	return c, nil
}

// SetGoogleChannel records a calendar's push channel; an empty id clears
// it. It reports the channel it replaced (to be stopped).
func (s *Store) SetGoogleChannel(ctx context.Context, userID int64, calendarID, channelID, resourceID string, expires time.Time) (old hearth.GoogleCalendar, err error) {
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		old, err = scanGoogleCalendar(tx.QueryRow(ctx, `SELECT `+googleCalendarColumns+` FROM google_calendars
			WHERE user_id = $1 AND calendar_id = $2 FOR UPDATE`, userID, calendarID))
		if err != nil {
			return notFound(err, "google calendar of user", userID)
		}
		_, err = tx.Exec(ctx, `UPDATE google_calendars SET channel_id = NULLIF($3, ''), channel_resource_id = NULLIF($4, ''),
			channel_expires_at = $5 WHERE user_id = $1 AND calendar_id = $2`,
			userID, calendarID, channelID, resourceID, timeArg(expires))
		return err
	})
	if err != nil {
		return old, fmt.Errorf("store set google channel: %w", translate(err))
	}
	return old, nil
}

// GoogleCalendarsToWatch returns up to limit calendars of working
// accounts whose channel expires before the instant, or that have none.
func (s *Store) GoogleCalendarsToWatch(ctx context.Context, before time.Time, limit int) ([]hearth.GoogleCalendar, error) {
	cals, err := collectGoogleCalendars(s.pool.Query(ctx, `SELECT `+googleCalendarColumns+` FROM google_calendars c
		WHERE (channel_id IS NULL OR channel_expires_at < $1)
		  AND EXISTS (SELECT 1 FROM google_accounts a WHERE a.user_id = c.user_id AND a.revoked_at IS NULL)
		ORDER BY channel_expires_at NULLS FIRST LIMIT $2`, before, limitOf(limit)))
	if err != nil {
		return nil, fmt.Errorf("store google calendars to watch: %w", err)
	}
	return cals, nil
}

// AllGoogleCalendars returns the calendars of every working account (the
// periodic poll), after the given (user, calendar), up to limit.
func (s *Store) AllGoogleCalendars(ctx context.Context, afterUser int64, afterCalendar string, limit int) ([]hearth.GoogleCalendar, error) {
	cals, err := collectGoogleCalendars(s.pool.Query(ctx, `SELECT `+googleCalendarColumns+` FROM google_calendars c
		WHERE (user_id, calendar_id) > ($1, $2)
		  AND EXISTS (SELECT 1 FROM google_accounts a WHERE a.user_id = c.user_id AND a.revoked_at IS NULL)
		ORDER BY user_id, calendar_id LIMIT $3`, afterUser, afterCalendar, limitOf(limit)))
	if err != nil {
		return nil, fmt.Errorf("store all google calendars: %w", err)
	}
	return cals, nil
}

// MarkGooglePushTx records, in the caller's transaction (which enqueues
// the sync), that a push arrived for the calendar, and returns how many
// syncs of it have begun: the key of the sync that will see the push.
func (s *Store) MarkGooglePushTx(ctx context.Context, tx pgx.Tx, userID int64, calendarID string) (round int64, err error) {
	if err := tx.QueryRow(ctx, `UPDATE google_calendars SET pushed_at = clock_timestamp()
		WHERE user_id = $1 AND calendar_id = $2 RETURNING sync_started`, userID, calendarID).Scan(&round); err != nil {
		return 0, fmt.Errorf("store mark google push: %w", notFound(translate(err), "google calendar of user", userID))
	}
	return round, nil
}

// BeginGoogleSync starts a sync of a calendar: it returns the calendar
// as it is now (its sync token; empty for a full sync). full forces a
// full sync (a 410 from Google): the token is dropped and a new
// generation begins, so EndGoogleSync can sweep what the full listing did
// not see. One sync runs at a time: while another (begun less than
// staleAfter ago) runs, it is hearth.ErrConflict. again continues the
// sync this process began (after a 410).
func (s *Store) BeginGoogleSync(ctx context.Context, userID int64, calendarID string, full, again bool, staleAfter time.Duration) (hearth.GoogleCalendar, error) {
	c, err := scanGoogleCalendar(s.pool.QueryRow(ctx, `
		UPDATE google_calendars SET
			sync_token = CASE WHEN $3 THEN NULL ELSE sync_token END,
			generation = CASE WHEN $3 OR sync_token IS NULL THEN generation + 1 ELSE generation END,
			sync_started = CASE WHEN $4 THEN sync_started ELSE sync_started + 1 END,
			sync_running_since = now()
		WHERE user_id = $1 AND calendar_id = $2
		  AND ($4 OR sync_running_since IS NULL OR sync_running_since < now() - $5::interval)
		RETURNING `+googleCalendarColumns, userID, calendarID, full, again, staleAfter))
	if errors.Is(err, pgx.ErrNoRows) {
		var exists bool
		if qerr := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM google_calendars WHERE user_id = $1 AND calendar_id = $2)`,
			userID, calendarID).Scan(&exists); qerr != nil {
			return c, fmt.Errorf("store begin google sync: %w", translate(qerr))
		}
		if exists {
			return c, fmt.Errorf("store begin google sync: %w", hearth.Errorf(hearth.EConflict, "a sync of %s is running", calendarID))
		}
	}
	if err != nil {
		return c, fmt.Errorf("store begin google sync: %w", notFound(translate(err), "google calendar of user", userID))
	}
	return c, nil
}

// AbortGoogleSync ends a sync that failed, so the next may begin.
func (s *Store) AbortGoogleSync(ctx context.Context, userID int64, calendarID string) error {
	if _, err := s.pool.Exec(ctx, `UPDATE google_calendars SET sync_running_since = NULL WHERE user_id = $1 AND calendar_id = $2`,
		userID, calendarID); err != nil {
		return fmt.Errorf("store abort google sync: %w", translate(err))
	}
	return nil
}

// SyncGoogleEvents writes one page of a calendar's changes into the local
// copy: events are inserted or updated by Google's id (and brought back
// if they were deleted), cancelled ids are deleted. gen marks the rows
// seen by the sync.
func (s *Store) SyncGoogleEvents(ctx context.Context, userID int64, calendarID string, gen int64, events []hearth.CalendarEvent, cancelled []string) error {
	b := &pgx.Batch{}
	for _, e := range events {
		e, err := validEvent(e)
		if err != nil {
			continue // Google holds what Hearth cannot show (no title): skip it
		}
		b.Queue(`
			INSERT INTO events (user_id, calendar_id, external_id, title, starts_at, ends_at, all_day, location, attendees, description, sync_generation, series)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, NULLIF($12, ''))
			ON CONFLICT (user_id, calendar_id, external_id) WHERE external_id IS NOT NULL DO UPDATE SET
				title = EXCLUDED.title, starts_at = EXCLUDED.starts_at, ends_at = EXCLUDED.ends_at, all_day = EXCLUDED.all_day, series = EXCLUDED.series,
				location = EXCLUDED.location, attendees = EXCLUDED.attendees, description = EXCLUDED.description,
				sync_generation = EXCLUDED.sync_generation, deleted_at = NULL,
				updated_at = CASE WHEN (events.title, events.starts_at, events.ends_at, events.all_day, events.location, events.attendees, events.description)
					IS DISTINCT FROM (EXCLUDED.title, EXCLUDED.starts_at, EXCLUDED.ends_at, EXCLUDED.all_day, EXCLUDED.location, EXCLUDED.attendees, EXCLUDED.description)
					THEN now() ELSE events.updated_at END`,
			userID, calendarID, e.ExternalID, e.Title, e.Start, e.End, e.AllDay, e.Location, orEmpty(e.Attendees), e.Description, gen, e.Series)
	}
	if len(cancelled) > 0 {
		b.Queue(`UPDATE events SET deleted_at = now() WHERE user_id = $1 AND calendar_id = $2 AND external_id = ANY($3) AND deleted_at IS NULL`,
			userID, calendarID, cancelled)
	}
	if b.Len() == 0 {
		return nil
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error { return tx.SendBatch(ctx, b).Close() })
	if err != nil {
		return fmt.Errorf("store sync google events: %w", constraintErr(translate(err)))
	}
	return nil
}

// EndGoogleSync finishes a sync: it stores the next sync token and, after
// a full sync (sweepGen > 0), deletes the local copies the listing did
// not see; the next sync may begin.
func (s *Store) EndGoogleSync(ctx context.Context, userID int64, calendarID, syncToken string, sweepGen int64) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if sweepGen > 0 {
			if _, err := tx.Exec(ctx, `UPDATE events SET deleted_at = now()
				WHERE user_id = $1 AND calendar_id = $2 AND deleted_at IS NULL
				  AND (sync_generation IS NULL OR sync_generation < $3)`, userID, calendarID, sweepGen); err != nil {
				return err
			}
		}
		tag, err := tx.Exec(ctx, `UPDATE google_calendars SET sync_token = NULLIF($3, ''), synced_at = now(), sync_running_since = NULL
			WHERE user_id = $1 AND calendar_id = $2`, userID, calendarID, syncToken)
		if err == nil && tag.RowsAffected() == 0 {
			err = fmt.Errorf("google calendar %s of user %d: %w", calendarID, userID, hearth.ErrNotFound)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("store end google sync: %w", translate(err))
	}
	return nil
}

// FindEvent returns one of the user's events, deleted or not.
func (s *Store) FindEvent(ctx context.Context, userID, id int64) (hearth.CalendarEvent, error) {
	e, err := scanEvent(s.pool.QueryRow(ctx, `SELECT `+eventColumns+` FROM events WHERE id = $1 AND user_id = $2`, id, userID))
	if err != nil {
		return e, fmt.Errorf("store find event: %w", notFound(translate(err), "event", id))
	}
	return e, nil
}

// RelinkEvent points a local event at a new Google event (an undone
// delete recreated it) and brings it back.
func (s *Store) RelinkEvent(ctx context.Context, userID, id int64, calendarID, externalID string) error {
	tag, err := s.pool.Exec(ctx, `UPDATE events SET calendar_id = NULLIF($3, ''), external_id = NULLIF($4, ''), deleted_at = NULL
		WHERE id = $1 AND user_id = $2`, id, userID, calendarID, externalID)
	if err != nil {
		return fmt.Errorf("store relink event: %w", constraintErr(translate(err)))
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("store relink event: event %d: %w", id, hearth.ErrNotFound)
	}
	return nil
}

// ResealGoogleTokens rewrites every stored Google token through reseal
// (`bot keys rotate`: open under any key, seal under the current one), in
// one transaction holding the rows: if reseal fails for any token, nothing
// is written. reseal reports whether it changed a token; only changed
// tokens are written. It returns how many were re-sealed, of how many.
func (s *Store) ResealGoogleTokens(ctx context.Context, reseal func(userID int64, token []byte) ([]byte, bool, error)) (resealed, total int, err error) {
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		resealed, total = 0, 0
		rows, err := tx.Query(ctx, `SELECT user_id, token FROM google_accounts ORDER BY user_id FOR UPDATE`)
		if err != nil {
			return err
		}
		type row struct {
			userID int64
			token  []byte
		}
		all, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (row, error) {
			var x row
			return x, r.Scan(&x.userID, &x.token)
		})
		if err != nil {
			return err
		}
		total = len(all)
		for _, x := range all {
			token, changed, err := reseal(x.userID, x.token)
			if err != nil {
				return fmt.Errorf("token of user %d: %w", x.userID, err)
			}
			if !changed {
				continue
			}
			if _, err := tx.Exec(ctx, `UPDATE google_accounts SET token = $2, updated_at = now() WHERE user_id = $1`, x.userID, token); err != nil {
				return err
			}
			resealed++
		}
		return nil
	})
	if err != nil {
		return 0, 0, fmt.Errorf("store reseal google tokens: %w", err)
	}
	return resealed, total, nil
}
