package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

// UpdateScheduleSettings applies upd to a user's settings (creating them
// with the defaults first) and returns the result. The planner picks the
// change up on its next sync.
func (s *Store) UpdateScheduleSettings(ctx context.Context, userID int64, upd hearth.ScheduleSettingsUpdate) (hearth.ScheduleSettings, error) {
	var lead []int32
	for _, d := range upd.LeadDays {
		if d < 0 || d > 366 {
			return hearth.ScheduleSettings{}, fmt.Errorf("store update schedule settings: %w", hearth.Invalidf("reminder lead times must be 0 to 366 days, not %d", d))
		}
		lead = append(lead, int32(d))
	}
	if upd.BirthdayDays != nil && (*upd.BirthdayDays < 0 || *upd.BirthdayDays > 60) {
		return hearth.ScheduleSettings{}, fmt.Errorf("store update schedule settings: %w", hearth.Invalidf("birthday reminders can be 0 to 60 days ahead, not %d", *upd.BirthdayDays))
	}
	if upd.EventLeadMinutes != nil && (*upd.EventLeadMinutes < 0 || *upd.EventLeadMinutes > 1440) {
		return hearth.ScheduleSettings{}, fmt.Errorf("store update schedule settings: %w", hearth.Invalidf("reminders before events can be 0 to 1440 minutes ahead, not %d", *upd.EventLeadMinutes))
	}
	for _, q := range []*string{upd.QuietFrom, upd.QuietTo} {
		if q == nil || *q == "" {
			continue
		}
		if _, err := time.Parse("15:04", *q); err != nil {
			return hearth.ScheduleSettings{}, fmt.Errorf("store update schedule settings: %w", hearth.Invalidf("quiet hours %q is not HH:MM", *q))
		}
	}
	if (upd.QuietFrom == nil) != (upd.QuietTo == nil) {
		return hearth.ScheduleSettings{}, fmt.Errorf("store update schedule settings: %w", hearth.Invalidf("quiet hours need a start and an end"))
	}
	if upd.BriefingAt != nil {
		if _, err := time.Parse("15:04", *upd.BriefingAt); err != nil {
			return hearth.ScheduleSettings{}, fmt.Errorf("store update schedule settings: %w", hearth.Invalidf("briefing time %q is not HH:MM", *upd.BriefingAt))
		}
	}
	if upd.Skip == nil {
		upd.Skip = []string{}
	}
	if upd.Unskip == nil {
		upd.Unskip = []string{}
	}
	var st hearth.ScheduleSettings
	var bdays, eventLead int32
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO schedule_settings (user_id) VALUES ($1) ON CONFLICT DO NOTHING`, userID); err != nil {
			return notFound(err, "user", userID)
		}
		return tx.QueryRow(ctx, `
			UPDATE schedule_settings SET
				briefing_enabled = COALESCE($2, briefing_enabled),
				briefing_at = COALESCE($3::time, briefing_at),
				briefing_skip = ARRAY(SELECT DISTINCT x FROM unnest(briefing_skip || $4::text[]) x WHERE x <> ALL ($5::text[]) ORDER BY x),
				conversation_id = COALESCE($6, conversation_id),
				lead_days = COALESCE($7, lead_days),
				birthday_days = COALESCE($8, birthday_days),
				event_lead_minutes = COALESCE($9, event_lead_minutes),
				quiet_from = CASE WHEN $10::text IS NULL THEN quiet_from ELSE NULLIF($10, '')::time END,
				quiet_to = CASE WHEN $11::text IS NULL THEN quiet_to ELSE NULLIF($11, '')::time END,
				updated_at = now()
			WHERE user_id = $1
			RETURNING briefing_enabled, to_char(briefing_at, 'HH24:MI'), briefing_skip, COALESCE(conversation_id, 0), lead_days, birthday_days, event_lead_minutes,
				COALESCE(to_char(quiet_from, 'HH24:MI'), ''), COALESCE(to_char(quiet_to, 'HH24:MI'), '')`,
			userID, upd.BriefingEnabled, upd.BriefingAt, upd.Skip, upd.Unskip, upd.ConversationID, lead, upd.BirthdayDays, upd.EventLeadMinutes,
			upd.QuietFrom, upd.QuietTo).
			Scan(&st.BriefingEnabled, &st.BriefingAt, &st.BriefingSkip, &st.ConversationID, &lead, &bdays, &eventLead, &st.QuietFrom, &st.QuietTo)
	})
	if err != nil {
		return hearth.ScheduleSettings{}, fmt.Errorf("store update schedule settings: %w", constraintErr(err))
	}
	st.BirthdayDays, st.EventLeadMinutes = int(bdays), int(eventLead)
	for _, d := range lead {
		st.LeadDays = append(st.LeadDays, int(d))
	}
	return st, nil
}

// familyBriefingEvents caps each member's events in a briefing.
const familyBriefingEvents = 10

// BriefingData reads, in one round trip, a user's briefing for the local
// day [dayStart, dayEnd) with deadlines and family events up to weekEnd.
func (s *Store) BriefingData(ctx context.Context, userID int64, dayStart, dayEnd, weekEnd time.Time) (hearth.Briefing, error) {
	var d hearth.Briefing
	b := &pgx.Batch{}
	// Planning these statements costs several times running them (a
	// custom plan per user, for a morning of thousands): in this batch's
	// transaction, each connection plans them once, for any user.
	b.Queue(`SELECT set_config('plan_cache_mode', 'force_generic_plan', true)`)
	b.Queue(`SELECT `+eventColumns+` FROM events
		WHERE user_id = $1 AND deleted_at IS NULL AND starts_at < $3 AND ends_at > $2
		ORDER BY starts_at, id LIMIT 50`, userID, dayStart, dayEnd).Query(func(rows pgx.Rows) error {
		var err error
		d.Events, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.CalendarEvent, error) { return scanEvent(r) })
		return err
	})
	b.Queue(`SELECT `+taskColumns+` FROM tasks
		WHERE user_id = $1 AND deleted_at IS NULL AND status = 'open' AND due < $2
		ORDER BY due, priority DESC, id LIMIT 30`, userID, weekEnd).Query(func(rows pgx.Rows) error {
		var err error
		d.Deadlines, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.Task, error) { return scanTask(r) })
		return err
	})
	b.Queue(`SELECT s.detail FROM schedules s JOIN facts m ON m.id = s.item_id AND m.deleted_at IS NULL AND m.invalidated_at IS NULL
		WHERE s.user_id = $1 AND s.kind = 'birthday' AND NOT s.muted AND s.detail ? 'month'`, userID).Query(func(rows pgx.Rows) error {
		var err error
		d.Birthdays, err = pgx.CollectRows(rows, pgx.RowTo[hearth.ScheduleDetail])
		return err
	})
	// Meeting prep: per distinct attendee of the day, a few memories
	// about them and open tasks naming them. The viewer's visible facts
	// are read once for all attendees (those about any of them), not once
	// per attendee: the permission outline and predicate cost more than
	// the match.
	b.Queue(`
		WITH who AS (
			SELECT DISTINCT a FROM events e, unnest(e.attendees) a
			WHERE e.user_id = $1 AND e.deleted_at IS NULL AND e.starts_at < $3 AND e.ends_at > $2 AND a <> ''
			LIMIT 20
		),
		names AS (SELECT array_agg(a) || array_agg(split_part(a, ' ', 1)) AS p FROM who),
		about AS MATERIALIZED (
			SELECT m.about, m.content, m.created_at FROM names, facts m
			WHERE names.p IS NOT NULL AND m.about ILIKE ANY(names.p)
			  AND `+visibleTo("$1", "m")+` AND m.deleted_at IS NULL AND m.invalidated_at IS NULL
		)
		SELECT who.a, 'memory', x.content FROM who, LATERAL (
			SELECT content FROM about
			WHERE about.about ILIKE who.a OR about.about ILIKE split_part(who.a, ' ', 1)
			ORDER BY about.created_at DESC LIMIT 3) x
		UNION ALL
		SELECT who.a, 'task', x.title FROM who, LATERAL (
			SELECT title FROM tasks t
			WHERE t.user_id = $1 AND t.deleted_at IS NULL AND t.status = 'open'
			  AND t.title ILIKE '%' || split_part(who.a, ' ', 1) || '%'
			ORDER BY t.due NULLS LAST LIMIT 3) x`, userID, dayStart, dayEnd).Query(func(rows pgx.Rows) error {
		d.Memories, d.Tasks = map[string][]string{}, map[string][]string{}
		var who, kind, text string
		_, err := pgx.ForEachRow(rows, []any{&who, &kind, &text}, func() error {
			if kind == "memory" {
				d.Memories[who] = append(d.Memories[who], text)
			} else {
				d.Tasks[who] = append(d.Tasks[who], text)
			}
			return nil
		})
		return err
	})
	b.Queue(familyEventsQuery, userID, dayStart, weekEnd, familyBriefingEvents).Query(func(rows pgx.Rows) error {
		var err error
		d.Family, err = scanFamilyEvents(rows)
		return err
	})
	// The family's lists with something left on them.
	b.Queue(`SELECT `+noteColumns+` FROM notes n
		WHERE n.family_id = (SELECT fm.family_id FROM family_members fm WHERE fm.user_id = $1) AND n.deleted_at IS NULL
		  AND EXISTS (SELECT 1 FROM jsonb_array_elements(n.items) it WHERE NOT coalesce((it->>'done')::boolean, false))
		ORDER BY n.updated_at DESC, n.id DESC LIMIT 5`, userID).Query(func(rows pgx.Rows) error {
		var err error
		d.Lists, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.Note, error) { return scanNote(r) })
		return err
	})
	// What's going on: the storylines mentioned lately, as FindStorylines
	// reads them (the permission predicate decides).
	b.Queue(`SELECT `+storylineColumns+` FROM storylines s
		JOIN entities e ON e.id = s.entity_id LEFT JOIN themes th ON th.id = s.theme_id
		WHERE `+entityVisibleTo("$1", "s")+` AND `+entityVisibleTo("$1", "e")+` AND s.last_at >= $2::timestamptz - interval '14 days'
		ORDER BY s.last_at DESC, s.id LIMIT 8`, userID, dayStart).Query(func(rows pgx.Rows) error {
		var err error
		d.Storylines, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.Storyline, error) { return scanStoryline(r) })
		return err
	})
	// Unread mail of the day before from people the user knows (an
	// address in a visible fact), or marked important.
	b.Queue(`SELECT `+prefixed("i.", inboxColumns)+` FROM inbox_messages i
		WHERE i.user_id = $1 AND i.unread AND i.received_at >= $2::timestamptz - interval '1 day'
		  AND (i.important OR EXISTS (SELECT 1 FROM facts m
			WHERE `+visibleTo("$1", "m")+` AND m.deleted_at IS NULL AND m.invalidated_at IS NULL AND m.attribute = 'email'
			  AND (lower(m.value) = i.from_addr OR lower(m.value) LIKE '%<' || i.from_addr || '>')))
		ORDER BY i.received_at DESC, i.id DESC LIMIT 8`, userID, dayStart).Query(func(rows pgx.Rows) error {
		var err error
		d.Mail, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.InboxMessage, error) { return scanInbox(r) })
		return err
	})
	if err := s.pool.SendBatch(ctx, b).Close(); err != nil {
		return hearth.Briefing{}, fmt.Errorf("store briefing data: %w", translate(err))
	}
	return d, nil
}

// SeedBriefingUsers creates n synthetic users in zone tz, each with a web
// chat conversation and inbound event (so briefings have somewhere to
// go), two events on day (the local midnight of the briefing's day), three
// tasks and a birthday memory, in families of four who see each other's
// events (so every briefing has a Family section), set-based: for
// benchmarks and load tests only. The users and everything of theirs
// exist from 06:00 that day (so a planner clock set after that finds
// nothing changed since, whatever the time of day the bench runs at).
// Names are prefix plus a number.
func (s *Store) SeedBriefingUsers(ctx context.Context, prefix string, n int, tz string, day time.Time) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		stmts := []string{
			`CREATE TEMP TABLE seed_users ON COMMIT DROP AS
			 WITH u AS (INSERT INTO users (display_name, timezone, created_at, updated_at)
			            SELECT $1 || g, $2, $4::timestamptz + interval '6 hours', $4::timestamptz + interval '6 hours' FROM generate_series(1, $3::int) g RETURNING id, display_name)
			 SELECT id, display_name FROM u`,
			`INSERT INTO identities (channel, external_id, user_id, display_name)
			 SELECT 'bench', lower(display_name), id, display_name FROM seed_users`,
			`INSERT INTO conversations (channel, external_id, user_id) SELECT 'bench', lower(display_name), id FROM seed_users`,
			`INSERT INTO inbound_events (channel, external_id, conversation_id, user_id, kind, text, processed_at)
			 SELECT 'bench', 'seed:' || c.id, c.id, c.user_id, 'message', 'hello', now()
			 FROM conversations c JOIN seed_users u ON u.id = c.user_id`,
			`INSERT INTO events (user_id, title, starts_at, ends_at, location, attendees, created_at, updated_at)
			 SELECT id, t.title, $1::timestamptz + t.off, $1::timestamptz + t.off + interval '1 hour', t.loc, t.att,
			        $1::timestamptz + interval '6 hours', $1::timestamptz + interval '6 hours'
			 FROM seed_users, (VALUES ('Standup', interval '9 hours', 'Room 1', ARRAY['Sam Lee']),
			                          ('Lunch with Ana', interval '12 hours', 'Cafe', ARRAY['Ana'])) t(title, off, loc, att)`,
			`INSERT INTO tasks (user_id, title, due, all_day, created_at, updated_at)
			 SELECT id, t.title, $1::timestamptz + t.off, t.allday, $1::timestamptz + interval '6 hours', $1::timestamptz + interval '6 hours'
			 FROM seed_users, (VALUES ('Send the report to Sam', interval '2 days', true),
			                          ('Pay rent', interval '-1 day', true),
			                          ('Call the plumber', interval '30 hours', false)) t(title, off, allday)`,
			`INSERT INTO facts (user_id, content, about, created_at, updated_at)
			 SELECT id, 'Sam Lee prefers short meetings', 'Sam Lee', $1::timestamptz + interval '6 hours', $1::timestamptz + interval '6 hours' FROM seed_users
			 UNION ALL
			 SELECT id, 'Ana''s birthday is ' || to_char($1::timestamptz + interval '2 days', 'FMMonth FMDD'), 'Ana',
			        $1::timestamptz + interval '6 hours', $1::timestamptz + interval '6 hours' FROM seed_users`,
			`WITH g AS (SELECT id, (row_number() OVER (ORDER BY id) - 1) / 4 AS grp FROM seed_users),
			      f AS (INSERT INTO families (name) SELECT DISTINCT $1 || ' family ' || grp FROM g RETURNING id, name)
			 INSERT INTO family_members (family_id, user_id) SELECT f.id, g.id FROM g JOIN f ON f.name = $1 || ' family ' || g.grp`,
			`INSERT INTO access_grants (target_id, viewer_id, tier)
			 SELECT a.user_id, b.user_id, 3 FROM seed_users u
			 JOIN family_members a ON a.user_id = u.id
			 JOIN family_members b ON b.family_id = a.family_id AND b.user_id <> a.user_id`,
		}
		for _, q := range stmts {
			var args []any
			switch {
			case q == stmts[0]:
				args = []any{prefix, tz, n, day}
			case q == stmts[4] || q == stmts[5] || q == stmts[6]:
				args = []any{day}
			case q == stmts[7]:
				args = []any{prefix}
			}
			if _, err := tx.Exec(ctx, q, args...); err != nil {
				return fmt.Errorf("%.60s: %w", q, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store seed briefing users: %w", err)
	}
	return nil
}
