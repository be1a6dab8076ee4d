package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

// The scheduler's tables (migrations/00009_scheduler.sql): one row per
// schedulable item holding its next occurrence, the recurring reminders
// set by chat, per-user settings, and the planner's cursor.

// scheduleGone and scheduleDone say, over scheduleSelect's joins, that a
// schedule's item is deleted or cancelled, or done: queries filter on
// them in SQL, and Schedule reports them.
const (
	scheduleGone = `CASE s.kind
	           WHEN 'task' THEN t.id IS NULL OR t.deleted_at IS NOT NULL
	           WHEN 'reminder' THEN r.id IS NULL OR r.cancelled_at IS NOT NULL
	           WHEN 'birthday' THEN m.id IS NULL OR m.deleted_at IS NOT NULL OR m.invalidated_at IS NOT NULL
	           WHEN 'snooze' THEN COALESCE(sn.deleted_at IS NOT NULL, false)
	           WHEN 'event' THEN ev.id IS NULL OR ev.deleted_at IS NOT NULL OR ev.all_day
	           ELSE false END`
	scheduleDone = `COALESCE(t.status = 'done', sn.status = 'done', false)`
)

const scheduleSelect = `
	SELECT s.id, s.user_id, s.kind, s.item_id, s.next_at, s.muted, s.detail, COALESCE(u.timezone, ''),
	       COALESCE(st.briefing_enabled, true), to_char(COALESCE(st.briefing_at, '07:30'), 'HH24:MI'),
	       COALESCE(st.briefing_skip, '{}'), COALESCE(st.conversation_id, 0),
	       COALESCE(st.lead_days, '{7,3,1}'), COALESCE(st.birthday_days, 3), COALESCE(st.event_lead_minutes, 0),
	       COALESCE(to_char(st.quiet_from, 'HH24:MI'), ''), COALESCE(to_char(st.quiet_to, 'HH24:MI'), ''),
	       ` + scheduleGone + `,
	       COALESCE(t.title, r.text, ev.title, ''), COALESCE(t.due, ev.starts_at), COALESCE(t.all_day, false), ` + scheduleDone + `,
	       COALESCE(ev.location, ''), COALESCE(ev.attendees, '{}'),
	       r.rule, s.planned_until,
	       GREATEST(CASE s.kind WHEN 'task' THEN t.updated_at WHEN 'reminder' THEN r.created_at
	                            WHEN 'birthday' THEN m.updated_at WHEN 'event' THEN ev.updated_at ELSE u.created_at END,
	                u.updated_at, st.updated_at)
	FROM schedules s
	JOIN users u ON u.id = s.user_id
	LEFT JOIN schedule_settings st ON st.user_id = s.user_id
	LEFT JOIN tasks t ON s.kind = 'task' AND t.id = s.item_id
	LEFT JOIN reminders r ON s.kind = 'reminder' AND r.id = s.item_id
	LEFT JOIN facts m ON s.kind = 'birthday' AND m.id = s.item_id
	LEFT JOIN events ev ON s.kind = 'event' AND ev.id = s.item_id
	-- A snoozed task reminder ends with its task.
	LEFT JOIN tasks sn ON s.kind = 'snooze' AND s.detail->>'of_kind' = 'task' AND sn.id = (s.detail->>'of_item')::bigint`

func scanSchedule(row pgx.Row) (hearth.Schedule, error) {
	var sc hearth.Schedule
	var next, due, planned, changed *time.Time
	var lead []int32
	var bdays, eventLead int32
	var detail []byte
	err := row.Scan(&sc.ID, &sc.UserID, &sc.Kind, &sc.ItemID, &next, &sc.Muted, &detail, &sc.Timezone,
		&sc.Settings.BriefingEnabled, &sc.Settings.BriefingAt, &sc.Settings.BriefingSkip, &sc.Settings.ConversationID,
		&lead, &bdays, &eventLead, &sc.Settings.QuietFrom, &sc.Settings.QuietTo, &sc.Gone, &sc.Title, &due, &sc.AllDay, &sc.Done, &sc.Location, &sc.Attendees,
		&sc.Rule, &planned, &changed)
	if err != nil {
		return sc, err
	}
	sc.NextAt, sc.Due = utcOrZero(next), utcOrZero(due)
	sc.PlannedUntil, sc.Changed = utcOrZero(planned), utcOrZero(changed)
	sc.Settings.BirthdayDays, sc.Settings.EventLeadMinutes = int(bdays), int(eventLead)
	sc.Attendees = nilIfEmpty(sc.Attendees)
	for _, d := range lead {
		sc.Settings.LeadDays = append(sc.Settings.LeadDays, int(d))
	}
	if len(detail) > 0 {
		if err := json.Unmarshal(detail, &sc.Detail); err != nil {
			return sc, fmt.Errorf("schedule %d detail: %w", sc.ID, err)
		}
	}
	switch sc.Kind {
	case hearth.ScheduleBirthday:
		sc.Title = sc.Detail.About
	case hearth.ScheduleSnooze:
		sc.Title = sc.Detail.Text
	}
	return sc, nil
}

// Schedule loads one schedule with its item; hearth.ErrNotFound when
// there is none.
func (s *Store) Schedule(ctx context.Context, id int64) (hearth.Schedule, error) {
	sc, err := scanSchedule(s.pool.QueryRow(ctx, scheduleSelect+` WHERE s.id = $1`, id))
	if err != nil {
		return hearth.Schedule{}, fmt.Errorf("store schedule: %w", notFound(translate(err), "schedule", id))
	}
	return sc, nil
}

// Schedules loads the schedules of ids that exist, with their items, in
// one statement (a fire job's occurrences), in no particular order.
func (s *Store) Schedules(ctx context.Context, ids []int64) ([]hearth.Schedule, error) {
	rows, err := s.pool.Query(ctx, scheduleSelect+` WHERE s.id = ANY($1)`, ids)
	if err != nil {
		return nil, fmt.Errorf("store schedules: %w", translate(err))
	}
	scs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (hearth.Schedule, error) { return scanSchedule(row) })
	if err != nil {
		return nil, fmt.Errorf("store schedules: %w", translate(err))
	}
	return scs, nil
}

func setNextAt(ctx context.Context, tx pgx.Tx, next []hearth.ScheduleNext) error {
	if len(next) == 0 {
		return nil
	}
	ids := make([]int64, len(next))
	ats := make([]*time.Time, len(next))
	planned := make([]*time.Time, len(next))
	for i, n := range next {
		ids[i] = n.ID
		if !n.At.IsZero() {
			at := n.At
			ats[i] = &at
		}
		if !n.Planned.IsZero() {
			p := n.Planned
			planned[i] = &p
		}
	}
	_, err := tx.Exec(ctx, `
		UPDATE schedules s SET next_at = n.at, planned_until = COALESCE(n.planned, s.planned_until)
		FROM unnest($1::bigint[], $2::timestamptz[], $3::timestamptz[]) AS n(id, at, planned)
		WHERE s.id = n.id`, ids, ats, planned)
	if err != nil {
		return fmt.Errorf("set next occurrences: %w", err)
	}
	return nil
}

// BeginScheduleSync starts a sync of the schedules with what changed
// since the last one (a minute's overlap allows for clock skew): it
// creates the rows of newly dated tasks and new users, lets a moved task
// whose reminders were cancelled remind again, and returns the window the
// caller then walks with ChangedFacts and ChangedSchedules and closes with
// EndScheduleSync. A userID other than 0 syncs that user's alone, which
// the caller does not close: the next sync of everyone goes over them
// again.
func (s *Store) BeginScheduleSync(ctx context.Context, userID int64) (since, until time.Time, err error) {
	if err := s.pool.QueryRow(ctx, `SELECT synced_until - interval '1 minute', now() FROM scheduler_state`).Scan(&since, &until); err != nil {
		return since, until, fmt.Errorf("store sync schedules: %w", translate(err))
	}
	if _, err := s.pool.Exec(ctx, `
		WITH t AS (
			INSERT INTO schedules (user_id, kind, item_id)
			SELECT user_id, 'task', id FROM tasks WHERE updated_at > $1 AND due IS NOT NULL AND ($2::bigint = 0 OR user_id = $2)
			ON CONFLICT (kind, item_id) DO UPDATE SET updated_at = now()
		)
		INSERT INTO schedules (user_id, kind, item_id)
		SELECT id, 'briefing', id FROM users WHERE updated_at > $1 AND ($2::bigint = 0 OR id = $2)
		ON CONFLICT (kind, item_id) DO UPDATE SET updated_at = now()`, since, userID); err != nil {
		return since, until, fmt.Errorf("store sync schedules: rows: %w", translate(err))
	}
	// Timed events ahead of users who asked for reminders before events:
	// those written since, and all of a user's who just asked.
	if _, err := s.pool.Exec(ctx, `
		INSERT INTO schedules (user_id, kind, item_id)
		SELECT e.user_id, 'event', e.id
		FROM events e JOIN schedule_settings st ON st.user_id = e.user_id AND st.event_lead_minutes > 0
		WHERE NOT e.all_day AND e.deleted_at IS NULL AND e.starts_at > now()
		  AND (e.updated_at > $1 OR st.updated_at > $1) AND ($2::bigint = 0 OR e.user_id = $2)
		ON CONFLICT (kind, item_id) DO NOTHING`, since, userID); err != nil {
		return since, until, fmt.Errorf("store sync schedules: event rows: %w", translate(err))
	}
	// A task whose reminders were cancelled and which has since moved to
	// another due date reminds again, for the new date.
	if _, err := s.pool.Exec(ctx, `
		UPDATE schedules s SET muted = false, detail = s.detail - 'muted_due', updated_at = now()
		FROM tasks t
		WHERE s.kind = 'task' AND s.item_id = t.id AND s.muted AND t.updated_at > $1
		  AND t.due IS NOT NULL AND s.detail ? 'muted_due' AND ($2::bigint = 0 OR s.user_id = $2)
		  AND t.due IS DISTINCT FROM (s.detail->>'muted_due')::timestamptz`, since, userID); err != nil {
		return since, until, fmt.Errorf("store sync schedules: moved tasks: %w", translate(err))
	}
	return since, until, nil
}

// ChangedFacts returns up to batch current facts changed since, with ids
// above after, in id order: the candidates for birthday schedules. A
// userID other than 0 keeps that user's.
func (s *Store) ChangedFacts(ctx context.Context, userID int64, since time.Time, after int64, batch int) ([]hearth.ChangedMemory, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT id, user_id, content, about FROM facts
		WHERE updated_at > $1 AND id > $2 AND deleted_at IS NULL AND invalidated_at IS NULL AND ($4::bigint = 0 OR user_id = $4)
		ORDER BY id LIMIT $3`, since, after, batch, userID)
	if err != nil {
		return nil, fmt.Errorf("store changed facts: %w", translate(err))
	}
	mems, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.ChangedMemory, error) {
		var m hearth.ChangedMemory
		return m, r.Scan(&m.ID, &m.UserID, &m.Content, &m.About)
	})
	if err != nil {
		return nil, fmt.Errorf("store changed facts: %w", translate(err))
	}
	return mems, nil
}

// SetBirthdays stores the birthday and anniversary schedules of facts
// (keyed by the fact), and stops those of the gone facts, edited so they no
// longer name a date, in one transaction.
func (s *Store) SetBirthdays(ctx context.Context, birthdays []hearth.BirthdaySchedule, gone []int64) error {
	users, items, details := make([]int64, len(birthdays)), make([]int64, len(birthdays)), make([]string, len(birthdays))
	for i, b := range birthdays {
		d, err := json.Marshal(b.Detail)
		if err != nil {
			return fmt.Errorf("store set birthdays: %w", err)
		}
		users[i], items[i], details[i] = b.UserID, b.FactID, string(d)
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `
			INSERT INTO schedules (user_id, kind, item_id, detail)
			SELECT u, 'birthday', i, d::jsonb FROM unnest($1::bigint[], $2::bigint[], $3::text[]) AS x(u, i, d)
			ON CONFLICT (kind, item_id) DO UPDATE SET detail = EXCLUDED.detail, updated_at = now()`,
			users, items, details); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `UPDATE schedules SET next_at = NULL, updated_at = now() WHERE kind = 'birthday' AND item_id = ANY($1)`, gone)
		return err
	})
	if err != nil {
		return fmt.Errorf("store set birthdays: %w", err)
	}
	return nil
}

// ChangedSchedules returns up to batch schedules, with ids above after,
// whose item, user (zone) or settings changed since: their next
// occurrences need recomputing. A userID other than 0 keeps that user's.
func (s *Store) ChangedSchedules(ctx context.Context, userID int64, since time.Time, after int64, batch int) ([]hearth.Schedule, error) {
	rows, err := s.pool.Query(ctx, scheduleSelect+`
		WHERE s.id > $2 AND NOT s.muted AND s.kind <> 'snooze' AND ($4::bigint = 0 OR s.user_id = $4) AND (
		      u.updated_at > $1
		   OR st.updated_at > $1
		   OR t.updated_at > $1
		   OR m.updated_at > $1
		   OR r.created_at > $1
		   OR ev.updated_at > $1)
		ORDER BY s.id LIMIT $3`, since, after, batch, userID)
	if err != nil {
		return nil, fmt.Errorf("store changed schedules: %w", translate(err))
	}
	scs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.Schedule, error) { return scanSchedule(r) })
	if err != nil {
		return nil, fmt.Errorf("store changed schedules: %w", translate(err))
	}
	return scs, nil
}

// SetNextAt moves schedules on to their recomputed next occurrences.
// Recomputing must not clobber a concurrent planner's advance of the same
// row past an occurrence it planned, which would plan it twice: harmless
// (jobs are unique), so no lock is taken.
func (s *Store) SetNextAt(ctx context.Context, next []hearth.ScheduleNext) error {
	if err := s.inTx(ctx, func(tx pgx.Tx) error { return setNextAt(ctx, tx, next) }); err != nil {
		return fmt.Errorf("store set next occurrences: %w", err)
	}
	return nil
}

// EndScheduleSync records that everything changed before until is synced.
func (s *Store) EndScheduleSync(ctx context.Context, until time.Time) error {
	if _, err := s.pool.Exec(ctx, `UPDATE scheduler_state SET synced_until = $1`, until); err != nil {
		return fmt.Errorf("store sync schedules: cursor: %w", translate(err))
	}
	return nil
}

// DueSchedulesTx locks and returns, in tx, up to batch schedules whose
// next occurrence is at or before until, soonest first. Rows another
// planner holds are skipped, so replicas never plan one occurrence twice;
// the caller enqueues their jobs and moves them on (SetNextAtTx) in the
// same transaction.
func (s *Store) DueSchedulesTx(ctx context.Context, tx pgx.Tx, until time.Time, batch int) ([]hearth.Schedule, error) {
	rows, err := tx.Query(ctx, scheduleSelect+`
		WHERE s.next_at <= $1 AND NOT s.muted
		ORDER BY s.next_at LIMIT $2
		FOR UPDATE OF s SKIP LOCKED`, until, batch)
	if err != nil {
		return nil, fmt.Errorf("store due schedules: %w", translate(err))
	}
	due, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.Schedule, error) { return scanSchedule(r) })
	if err != nil {
		return nil, fmt.Errorf("store due schedules: %w", translate(err))
	}
	return due, nil
}

// SetNextAtTx moves schedules on to their next occurrences, in tx.
func (s *Store) SetNextAtTx(ctx context.Context, tx pgx.Tx, next []hearth.ScheduleNext) error {
	if err := setNextAt(ctx, tx, next); err != nil {
		return fmt.Errorf("store: %w", translate(err))
	}
	return nil
}

// UpcomingSchedules returns a user's schedules that will still remind, at
// most limit, in the order they were made: "cancel reminder 2" must name
// what the list showed as 2, even if a reminder set since (its schedule
// appears at the planner's next sync) or an occurrence that fired would
// reorder a soonest-first list.
func (s *Store) UpcomingSchedules(ctx context.Context, userID int64, limit int) ([]hearth.Schedule, error) {
	rows, err := s.pool.Query(ctx, scheduleSelect+`
		WHERE s.user_id = $1 AND s.kind <> 'briefing' AND s.next_at IS NOT NULL AND NOT s.muted
		  AND NOT (`+scheduleGone+`) AND NOT `+scheduleDone+`
		ORDER BY s.id LIMIT $2`, userID, limitOf(limit))
	if err != nil {
		return nil, fmt.Errorf("store upcoming schedules: %w", translate(err))
	}
	scs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.Schedule, error) { return scanSchedule(r) })
	if err != nil {
		return nil, fmt.Errorf("store upcoming schedules: %w", translate(err))
	}
	return scs, nil
}

// MuteSchedule stops a user's schedule from reminding again; a recurring
// reminder is cancelled with it. A schedule that is not the user's is
// hearth.ErrNotFound.
func (s *Store) MuteSchedule(ctx context.Context, userID, id int64) error {
	return s.inTx(ctx, func(tx pgx.Tx) error { return s.MuteScheduleTx(ctx, tx, userID, id) })
}

// MuteScheduleTx is MuteSchedule inside tx: a chat command mutes in the
// transaction that stores its reply, so a retried turn cannot mute a
// second reminder that has moved into the first one's place in the list.
func (s *Store) MuteScheduleTx(ctx context.Context, tx pgx.Tx, userID, id int64) error {
	err := func() error {
		var kind string
		var item int64
		err := tx.QueryRow(ctx, `UPDATE schedules SET muted = true, next_at = NULL, updated_at = now()
			WHERE id = $1 AND user_id = $2 RETURNING kind, item_id`, id, userID).Scan(&kind, &item)
		if err != nil {
			return notFound(err, "schedule", id)
		}
		switch hearth.ScheduleKind(kind) {
		case hearth.ScheduleReminder:
			_, err = tx.Exec(ctx, `UPDATE reminders SET cancelled_at = COALESCE(cancelled_at, now()) WHERE id = $1`, item)
		case hearth.ScheduleTask:
			// Cancelled for this due date: moving the task to another
			// one (see BeginScheduleSync) brings its reminders back.
			_, err = tx.Exec(ctx, `UPDATE schedules s SET detail = s.detail || jsonb_build_object('muted_due', t.due)
				FROM tasks t WHERE s.id = $1 AND t.id = s.item_id`, id)
		}
		return err
	}()
	if err != nil {
		return fmt.Errorf("store mute schedule: %w", err)
	}
	return nil
}

// ReminderRules returns the rules of userID's recurring reminders with
// text (ignoring case) that are not cancelled, but for the one exceptKey
// created: what a new reminder is compared with, so one said twice (not
// a retried turn) is set once.
func (s *Store) ReminderRules(ctx context.Context, userID int64, text, exceptKey string) ([]json.RawMessage, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT rule FROM reminders
		WHERE user_id = $1 AND cancelled_at IS NULL AND lower(text) = lower($2) AND source_key IS DISTINCT FROM $3
		ORDER BY id`, userID, text, exceptKey)
	if err != nil {
		return nil, fmt.Errorf("store reminder rules: %w", translate(err))
	}
	rules, err := pgx.CollectRows(rows, pgx.RowTo[json.RawMessage])
	if err != nil {
		return nil, fmt.Errorf("store reminder rules: %w", translate(err))
	}
	return rules, nil
}

// CreateReminder stores a recurring reminder and its schedule, first
// occurrence next. A second call with the same key returns the first
// one's schedule id and changes nothing.
func (s *Store) CreateReminder(ctx context.Context, key string, userID int64, text string, rule json.RawMessage, next time.Time) (scheduleID int64, err error) {
	if text == "" {
		return 0, fmt.Errorf("store create reminder: %w", hearth.Invalidf("a reminder needs a text"))
	}
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		var id int64
		err := tx.QueryRow(ctx, `
			INSERT INTO reminders (user_id, source_key, text, rule) VALUES ($1, $2, $3, $4)
			ON CONFLICT (source_key) DO NOTHING RETURNING id`, userID, keyArg(key), text, rule).Scan(&id)
		if errors.Is(err, pgx.ErrNoRows) {
			return tx.QueryRow(ctx, `SELECT s.id FROM reminders r JOIN schedules s ON s.kind = 'reminder' AND s.item_id = r.id
				WHERE r.source_key = $1 AND r.user_id = $2`, key, userID).Scan(&scheduleID)
		}
		if err != nil {
			return err
		}
		return tx.QueryRow(ctx, `INSERT INTO schedules (user_id, kind, item_id, next_at) VALUES ($1, 'reminder', $2, $3) RETURNING id`,
			userID, id, timeArg(next)).Scan(&scheduleID)
	})
	if err != nil {
		return 0, fmt.Errorf("store create reminder: %w", err)
	}
	return scheduleID, nil
}

// SetReminderRule gives a user's recurring reminder (named by its
// schedule id) a new rule and moves its next occurrence to next, in one
// transaction, returning the schedule before and after. A schedule that
// is not the user's, not a recurring reminder, or cancelled is
// hearth.ErrNotFound. An occurrence of the old rule already handed to
// River is dropped when it fires: it is no longer an occurrence.
func (s *Store) SetReminderRule(ctx context.Context, userID, id int64, rule json.RawMessage, next time.Time) (before, after hearth.Schedule, err error) {
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		var err error
		before, err = scanSchedule(tx.QueryRow(ctx, scheduleSelect+`
			WHERE s.id = $1 AND s.user_id = $2 AND s.kind = 'reminder' AND NOT s.muted AND NOT (`+scheduleGone+`)
			FOR UPDATE OF s`, id, userID))
		if err != nil {
			return notFound(err, "reminder", id)
		}
		if _, err := tx.Exec(ctx, `UPDATE reminders SET rule = $2 WHERE id = $1`, before.ItemID, rule); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE schedules SET next_at = $2, updated_at = now() WHERE id = $1`, id, timeArg(next)); err != nil {
			return err
		}
		after, err = scanSchedule(tx.QueryRow(ctx, scheduleSelect+` WHERE s.id = $1`, id))
		return err
	})
	if err != nil {
		return before, after, fmt.Errorf("store set reminder rule: %w", translate(err))
	}
	return before, after, nil
}

// CancelReminder stops a user's recurring reminder (named by its
// schedule id), as MuteSchedule does, and returns its schedule as it was,
// for undo. A schedule that is not the user's, not a recurring reminder,
// or already cancelled is hearth.ErrNotFound.
func (s *Store) CancelReminder(ctx context.Context, userID, id int64) (before hearth.Schedule, err error) {
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		var err error
		before, err = scanSchedule(tx.QueryRow(ctx, scheduleSelect+`
			WHERE s.id = $1 AND s.user_id = $2 AND s.kind = 'reminder' AND NOT s.muted AND NOT (`+scheduleGone+`)
			FOR UPDATE OF s`, id, userID))
		if err != nil {
			return notFound(err, "reminder", id)
		}
		return s.MuteScheduleTx(ctx, tx, userID, id)
	})
	if err != nil {
		return before, fmt.Errorf("store cancel reminder: %w", translate(err))
	}
	return before, nil
}

// RestoreReminder takes back CancelReminder: the user's reminder, same
// schedule and rule, reminds again at next (the zero time: never).
// Nothing at or before from is planned for it, not even by a sync that
// recomputes it (planned_until), so what it missed while cancelled stays
// missed. A schedule that is not the user's cancelled recurring reminder
// is hearth.ErrNotFound.
func (s *Store) RestoreReminder(ctx context.Context, userID, id int64, from, next time.Time) (after hearth.Schedule, err error) {
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		var item int64
		err := tx.QueryRow(ctx, `UPDATE schedules SET muted = false, next_at = $3, updated_at = now(),
			       planned_until = GREATEST(planned_until, $4)
			WHERE id = $1 AND user_id = $2 AND kind = 'reminder' AND muted RETURNING item_id`, id, userID, timeArg(next), from).Scan(&item)
		if err != nil {
			return notFound(err, "reminder", id)
		}
		if _, err := tx.Exec(ctx, `UPDATE reminders SET cancelled_at = NULL WHERE id = $1`, item); err != nil {
			return err
		}
		after, err = scanSchedule(tx.QueryRow(ctx, scheduleSelect+` WHERE s.id = $1`, id))
		return err
	})
	if err != nil {
		return after, fmt.Errorf("store restore reminder: %w", translate(err))
	}
	return after, nil
}

// Snooze schedules the reminder message messageID to come again at at,
// once: a second snooze of the same message (a double click, or the other
// snooze button) changes nothing and reports false.
func (s *Store) Snooze(ctx context.Context, userID, messageID int64, at time.Time, d hearth.ScheduleDetail) (bool, error) {
	b, _ := json.Marshal(d)
	tag, err := s.pool.Exec(ctx, `
		INSERT INTO schedules (user_id, kind, item_id, next_at, detail) VALUES ($1, 'snooze', $2, $3, $4)
		ON CONFLICT (kind, item_id) DO NOTHING`, userID, messageID, at, b)
	if err != nil {
		return false, fmt.Errorf("store snooze: %w", translate(err))
	}
	return tag.RowsAffected() == 1, nil
}

// StoreScheduledTx stores, in tx, a message the scheduler produced for a
// user, keyed key so it exists once, in the user's preferred conversation
// (the one set, else the one they last wrote in). It returns the message,
// its conversation and that conversation's channel; stored is false when
// the key was used before or the user has no conversation yet. The caller
// then shows the message (MarkVisibleTx) or enqueues its delivery, in the
// same transaction.
func (s *Store) StoreScheduledTx(ctx context.Context, tx pgx.Tx, userID int64, key string, out hearth.Outbound) (id, conv int64, ch hearth.Channel, stored bool, err error) {
	buttons := out.Buttons
	if buttons == nil {
		buttons = []hearth.Button{}
	}
	// One statement finds the conversation and stores the message. The
	// commit need not wait for the WAL flush: a crash that loses it loses
	// the job's completion too (WAL is written in order), so the job runs
	// again and stores the message then.
	err = tx.QueryRow(ctx, `
		WITH fast AS (SELECT set_config('synchronous_commit', 'off', true)),
		conv AS (
			SELECT c.id, c.channel FROM conversations c, fast
			WHERE c.id = COALESCE(
				(SELECT conversation_id FROM schedule_settings WHERE user_id = $1),
				-- The last chat used, unless others speak there too: a
				-- briefing or reminder is private, and a group chat is
				-- only ever chosen by "send my briefings here".
				(SELECT e.conversation_id FROM inbound_events e
				 WHERE e.user_id = $1 AND NOT EXISTS (
				       SELECT 1 FROM inbound_events o WHERE o.conversation_id = e.conversation_id AND o.user_id <> $1)
				 ORDER BY e.id DESC LIMIT 1),
				(SELECT id FROM conversations WHERE user_id = $1 ORDER BY id DESC LIMIT 1))
		), ins AS (
			INSERT INTO messages (conversation_id, sender, idempotency_key, text, buttons)
			SELECT id, 'bot', $2, $3, $4 FROM conv
			ON CONFLICT (idempotency_key) DO NOTHING
			RETURNING id, conversation_id
		)
		SELECT ins.id, ins.conversation_id, conv.channel FROM ins JOIN conv ON conv.id = ins.conversation_id`,
		userID, key+":0", out.Text, buttons).Scan(&id, &conv, &ch)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, 0, "", false, nil // sent before, or nowhere to send it
	}
	if err != nil {
		return 0, 0, "", false, fmt.Errorf("store scheduled message %s: %w", key, translate(err))
	}
	return id, conv, ch, true, nil
}

// MarkVisibleTx delivers messages of conversation conv by committing them:
// they are visible in the transcript from then on. The caller tells live
// views after its commit (NotifyConversation: a writing transaction that
// notifies commits one at a time with every other such transaction).
func (s *Store) MarkVisibleTx(ctx context.Context, tx pgx.Tx, conv int64, ids []int64) error {
	return markVisible(ctx, tx, conv, ids)
}

func markVisible(ctx context.Context, tx pgx.Tx, conv int64, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := tx.Exec(ctx, `
		UPDATE messages SET delivered_at = now(), platform_message_id = 'transcript:' || id, seq = nextval('message_seq')
		WHERE id = ANY($1) AND conversation_id = $2`, ids, conv)
	if err != nil {
		return fmt.Errorf("deliver to the transcript: %w", translate(err))
	}
	return nil
}

// ButtonsOpen reports whether the bot message messageID of the
// conversation still offers its buttons (no click has been handled).
func (s *Store) ButtonsOpen(ctx context.Context, conversationID, messageID int64) (bool, error) {
	var open bool
	err := s.pool.QueryRow(ctx, `SELECT buttons_closed_at IS NULL FROM messages WHERE id = $1 AND conversation_id = $2 AND sender = 'bot'`,
		messageID, conversationID).Scan(&open)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store buttons open: %w", translate(err))
	}
	return open, nil
}
