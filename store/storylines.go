package store

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

// Mention counters, storylines and themes (migration 00050): every node
// counts the sources that mention it and the distinct days (in its
// owner's zone) they fall on; the nightly promotion turns nodes mentioned
// across several days into storylines, the weekly grouping gathers
// storylines into themes. Both are written per time zone, so each
// household's night is its own, and both converge: running them again
// changes nothing.

// RecordMentions counts each mention once per (node, source): the node's
// source count, first and last mention, and distinct days. Mentions of
// nodes that do not exist are skipped. It is one batch, one transaction
// (see CountMentions): the nodes' row locks first, in id order, then a
// statement per mention.
func (s *Store) RecordMentions(ctx context.Context, ms []hearth.Mention) error {
	ids := make([]int64, len(ms))
	for i, m := range ms {
		if m.EntityID <= 0 || strings.TrimSpace(m.Source) == "" || m.At.IsZero() {
			return fmt.Errorf("store record mentions: %w", hearth.Invalidf("a mention needs a node, a source and a time"))
		}
		ids[i] = m.EntityID
	}
	b := &pgx.Batch{}
	b.Queue(`SELECT id FROM entities WHERE id = ANY($1) ORDER BY id FOR UPDATE`, ids)
	for _, m := range ms {
		b.Queue(recordMentionSQL("ARRAY[$1::bigint]", "$2", "$3"), m.EntityID, m.Source, m.At)
	}
	if err := s.pool.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("store record mentions: %w", translate(err))
	}
	return nil
}

// recordMentionSQL records a mention from source at at of each node in
// nodes (an array of ids), on the day it is in its owner's zone, and
// counts it on the node: once per (node, source), a day only when no
// mention committed before the statement has it. The caller holds the
// nodes' row locks, taken by an earlier statement.
func recordMentionSQL(nodes, source, at string) string {
	return `
		WITH ins AS (
			INSERT INTO entity_mentions (entity_id, source, day, at)
			SELECT e.id, ` + source + `, (` + at + `::timestamptz AT TIME ZONE COALESCE(u.timezone, 'UTC'))::date, ` + at + `
			FROM entities e JOIN users u ON u.id = e.user_id
			WHERE e.id = ANY(` + nodes + `)
			ON CONFLICT DO NOTHING RETURNING entity_id, day, at)
		UPDATE entities e SET
			mention_sources = e.mention_sources + 1,
			mention_days = e.mention_days + CASE WHEN EXISTS (
				SELECT 1 FROM entity_mentions d WHERE d.entity_id = e.id AND d.day = ins.day) THEN 0 ELSE 1 END,
			first_mentioned_at = LEAST(e.first_mentioned_at, ins.at),
			last_mentioned_at = GREATEST(e.last_mentioned_at, ins.at)
		FROM ins WHERE e.id = ins.entity_id`
}

// TimeZones returns the time zones of the users who own nodes (UTC for a
// user without one), for the per-zone nightly jobs.
func (s *Store) TimeZones(ctx context.Context) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT DISTINCT COALESCE(timezone, 'UTC') FROM users ORDER BY 1`)
	if err != nil {
		return nil, fmt.Errorf("store time zones: %w", translate(err))
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("store time zones: %w", translate(err))
	}
	return out, nil
}

// PromoteStorylines makes a storyline of every node owned by a user of
// zone that was mentioned on at least minDays distinct days, the last
// time no earlier than since, and brings existing storylines' counts up to
// date. People are the cast of storylines, not storylines: only other
// kinds are promoted. It returns how many storylines it created or
// changed; a second run with nothing new mentioned returns 0.
func (s *Store) PromoteStorylines(ctx context.Context, zone string, now, since time.Time, minDays int) (int, error) {
	tag, err := s.pool.Exec(ctx, `
		INSERT INTO storylines (user_id, family_id, tier, entity_id, title, days, sources, first_at, last_at, promoted_at, updated_at)
		SELECT e.user_id, e.family_id, e.tier, e.id, e.name, e.mention_days, e.mention_sources,
			e.first_mentioned_at, e.last_mentioned_at, $2, $2
		FROM entities e JOIN users u ON u.id = e.user_id
		WHERE COALESCE(u.timezone, 'UTC') = $1 AND e.mention_days >= greatest($4, 2) AND e.mention_days > 1
			AND e.last_mentioned_at >= $3 AND e.kind <> 'person'
		ON CONFLICT (entity_id) DO UPDATE SET
			family_id = EXCLUDED.family_id, tier = EXCLUDED.tier, title = EXCLUDED.title,
			days = EXCLUDED.days, sources = EXCLUDED.sources, first_at = EXCLUDED.first_at,
			last_at = EXCLUDED.last_at, updated_at = EXCLUDED.updated_at
		WHERE (storylines.family_id, storylines.tier, storylines.title, storylines.days, storylines.sources, storylines.last_at)
			IS DISTINCT FROM (EXCLUDED.family_id, EXCLUDED.tier, EXCLUDED.title, EXCLUDED.days, EXCLUDED.sources, EXCLUDED.last_at)`,
		zone, now, since, minDays)
	if err != nil {
		return 0, fmt.Errorf("store promote storylines in %s: %w", zone, translate(err))
	}
	return int(tag.RowsAffected()), nil
}

// StorylineGraph reads the storylines of zone's users and their links.
func (s *Store) StorylineGraph(ctx context.Context, zone string) (hearth.StorylineGraph, error) {
	var g hearth.StorylineGraph
	rows, err := s.pool.Query(ctx, `SELECT `+storylineColumns+` FROM storylines s LEFT JOIN themes th ON th.id = s.theme_id
		JOIN users u ON u.id = s.user_id WHERE COALESCE(u.timezone, 'UTC') = $1 ORDER BY s.user_id, s.entity_id`, zone)
	if err != nil {
		return g, fmt.Errorf("store storyline graph: %w", translate(err))
	}
	if g.Storylines, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.Storyline, error) { return scanStoryline(r) }); err != nil {
		return g, fmt.Errorf("store storyline graph: %w", translate(err))
	}
	rows, err = s.pool.Query(ctx, `
		WITH ids AS (SELECT s.entity_id, s.user_id FROM storylines s JOIN users u ON u.id = s.user_id WHERE COALESCE(u.timezone, 'UTC') = $1)
		SELECT r.from_id, r.to_id FROM relationships r
			JOIN ids a ON a.entity_id = r.from_id JOIN ids b ON b.entity_id = r.to_id AND b.user_id = a.user_id
		UNION
		SELECT a.entity_id, b.entity_id FROM entity_mentions a
			JOIN ids ia ON ia.entity_id = a.entity_id
			JOIN entity_mentions b ON b.source = a.source AND b.entity_id > a.entity_id
			JOIN ids ib ON ib.entity_id = b.entity_id AND ib.user_id = ia.user_id
		GROUP BY a.entity_id, b.entity_id HAVING count(*) >= 2`, zone)
	if err != nil {
		return g, fmt.Errorf("store storyline graph: links: %w", translate(err))
	}
	g.Links, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) ([2]int64, error) {
		var l [2]int64
		return l, r.Scan(&l[0], &l[1])
	})
	if err != nil {
		return g, fmt.Errorf("store storyline graph: links: %w", translate(err))
	}
	return g, nil
}

// SaveThemes makes the themes of the users given exactly groups: themes
// are created or renamed by key, storylines pointed at their theme (or at
// none), and the users' other themes deleted. Saving the same groups
// again changes nothing and returns 0; otherwise it returns how many
// storylines changed theme.
func (s *Store) SaveThemes(ctx context.Context, userIDs []int64, groups []hearth.ThemeGroup, now time.Time) (int, error) {
	// Set-based, four statements whatever the number of groups: the
	// groups and their members go in as arrays. Keys are entity ids, so
	// they are unique across owners too.
	users, keys, titles := []int64{}, []int64{}, []string{}
	memberKeys, members := []int64{}, []int64{}
	for _, g := range groups {
		users, keys, titles = append(users, g.UserID), append(keys, g.Key), append(titles, g.Title)
		for _, id := range g.EntityIDs {
			memberKeys, members = append(memberKeys, g.Key), append(members, id)
		}
	}
	if userIDs == nil {
		userIDs = []int64{}
	}
	changed := 0
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `
			INSERT INTO themes (user_id, family_id, tier, key, title, updated_at)
			SELECT g.user_id, min(s.family_id), max(s.tier), g.key, g.title, $6
			FROM unnest($1::bigint[], $2::bigint[], $3::text[]) g(user_id, key, title)
			JOIN unnest($4::bigint[], $5::bigint[]) m(key, entity_id) ON m.key = g.key
			JOIN storylines s ON s.entity_id = m.entity_id AND s.user_id = g.user_id
			GROUP BY g.user_id, g.key, g.title
			ON CONFLICT (user_id, key) DO UPDATE SET title = EXCLUDED.title, family_id = EXCLUDED.family_id,
				tier = EXCLUDED.tier, updated_at = EXCLUDED.updated_at
			WHERE (themes.title, themes.family_id, themes.tier) IS DISTINCT FROM (EXCLUDED.title, EXCLUDED.family_id, EXCLUDED.tier)`,
			users, keys, titles, memberKeys, members, now); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `
			UPDATE storylines s SET theme_id = th.id
			FROM unnest($1::bigint[], $2::bigint[]) m(key, entity_id)
			JOIN storylines o ON o.entity_id = m.entity_id
			JOIN themes th ON th.user_id = o.user_id AND th.key = m.key
			WHERE s.entity_id = m.entity_id AND s.theme_id IS DISTINCT FROM th.id`, memberKeys, members)
		if err != nil {
			return err
		}
		changed += int(tag.RowsAffected())
		tag, err = tx.Exec(ctx, `UPDATE storylines SET theme_id = NULL
			WHERE user_id = ANY($1) AND theme_id IS NOT NULL AND NOT entity_id = ANY($2)`, userIDs, members)
		if err != nil {
			return err
		}
		changed += int(tag.RowsAffected())
		_, err = tx.Exec(ctx, `DELETE FROM themes t WHERE t.user_id = ANY($1) AND NOT t.key = ANY($2)`, userIDs, keys)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store save themes: %w", translate(err))
	}
	return changed, nil
}

const storylineColumns = `s.id, s.user_id, COALESCE(s.family_id, 0), s.tier, s.entity_id, s.title, COALESCE(s.theme_id, 0),
	COALESCE(th.title, ''), s.days, s.sources, s.first_at, s.last_at`

func scanStoryline(row pgx.Row) (hearth.Storyline, error) {
	var s hearth.Storyline
	err := row.Scan(&s.ID, &s.UserID, &s.FamilyID, &s.Tier, &s.EntityID, &s.Title, &s.ThemeID, &s.ThemeTitle, &s.Days, &s.Sources, &s.FirstAt, &s.LastAt)
	s.FirstAt, s.LastAt = s.FirstAt.UTC(), s.LastAt.UTC()
	return s, err
}

// FindStorylines returns the storylines f.UserID may see, most recently
// mentioned first. A storyline is read like its node: its owner, family
// and tier through fact_visible, and the node visible too.
func (s *Store) FindStorylines(ctx context.Context, f hearth.StorylineFilter) ([]hearth.Storyline, error) {
	if f.UserID <= 0 {
		return nil, fmt.Errorf("store find storylines: %w", hearth.Invalidf("a storyline search needs a user"))
	}
	var w where
	p := w.arg(f.UserID)
	w.add(entityVisibleTo(p, "s") + " AND " + entityVisibleTo(p, "e"))
	if !f.Since.IsZero() {
		w.add("s.last_at >= " + w.arg(f.Since))
	}
	if n := strings.TrimSpace(f.Name); n != "" {
		n = strings.TrimPrefix(strings.TrimPrefix(strings.ToLower(n), "the "), "our ")
		q, like := w.arg(n), w.arg("%"+likeEscaper.Replace(n)+"%")
		w.add("(s.title ILIKE " + like + " OR th.title ILIKE " + like + " OR s.title % " + q +
			" OR EXISTS (SELECT 1 FROM entity_aliases a WHERE a.entity_id = s.entity_id AND a.alias ILIKE " + like + "))")
	}
	rows, err := s.pool.Query(ctx, `SELECT `+storylineColumns+` FROM storylines s
		JOIN entities e ON e.id = s.entity_id LEFT JOIN themes th ON th.id = s.theme_id
		WHERE `+w.String()+` ORDER BY s.last_at DESC, s.id LIMIT `+w.arg(limitOf(f.Limit)), w.args...)
	if err != nil {
		return nil, fmt.Errorf("store find storylines: %w", translate(err))
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.Storyline, error) { return scanStoryline(r) })
	if err != nil {
		return nil, fmt.Errorf("store find storylines: %w", translate(err))
	}
	return out, nil
}

// MentionedEntities returns the ids of the entities userID may see whose
// name or an alias appears in text as whole words, ignoring case and
// punctuation.
//
// The aliases checked are those of the entities the user may see, found
// by their ids. Asked per entity, the planner read every alias of every
// user on each message instead (a hashed subquery): 7.4 ms among 10,000
// entities and 26 ms among 50,000, against 0.9 and 1.2 ms now, for a user
// with 500 (BenchmarkEntityNames/mentions).
func (s *Store) MentionedEntities(ctx context.Context, userID int64, text string) ([]int64, error) {
	norm, ok := mentionText(text)
	if !ok {
		return nil, nil
	}
	rows, err := s.pool.Query(ctx, mentionedSQL, userID, norm)
	if err != nil {
		return nil, fmt.Errorf("store mentioned entities: %w", translate(err))
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("store mentioned entities: %w", translate(err))
	}
	return out, nil
}

// mentionedSQL is MentionedEntities' query: $1 the user, $2 the text as
// mentionText makes it.
var mentionedSQL = `WITH seen AS MATERIALIZED (
			SELECT e.id, e.name FROM entities e WHERE ` + entityVisibleTo("$1", "e") + `
		)
		SELECT id FROM seen WHERE strpos($2, ' ' || lower(name) || ' ') > 0
		UNION
		SELECT a.entity_id FROM entity_aliases a
		WHERE a.entity_id = ANY(ARRAY(SELECT id FROM seen)) AND strpos($2, ' ' || lower(a.alias) || ' ') > 0
		ORDER BY 1 LIMIT 50`

// mentionText is text lowered, its words between single spaces and
// with one at each end, for whole-word matching; ok is false when it has
// no word.
func mentionText(text string) (norm string, ok bool) {
	norm = " " + strings.Join(strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	}), " ") + " "
	return norm, strings.TrimSpace(norm) != ""
}

// CountMentions records a mention, from a message (source) that arrived
// at at, of every entity userID may see that text names, and returns
// their ids. Every message is looked at, so a message that names no one
// costs the lookup alone; one that names someone costs one round trip
// more (it was a transaction of two statements per node named).
//
// The recording is one batch, so one transaction: the first statement
// locks the nodes named (in id order, so concurrent counts do not
// deadlock), and the second, with a snapshot taken after those locks,
// counts a new day only when no mention committed before it has that day.
func (s *Store) CountMentions(ctx context.Context, userID int64, text, source string, at time.Time) ([]int64, error) {
	if strings.TrimSpace(source) == "" || at.IsZero() {
		return nil, fmt.Errorf("store count mentions: %w", hearth.Invalidf("a mention needs a source and a time"))
	}
	ids, err := s.MentionedEntities(ctx, userID, text)
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	b := &pgx.Batch{}
	b.Queue(`SELECT id FROM entities WHERE id = ANY($1) ORDER BY id FOR UPDATE`, ids)
	b.Queue(recordMentionSQL("$1::bigint[]", "$2", "$3"), ids, source, at)
	if err := s.pool.SendBatch(ctx, b).Close(); err != nil {
		return nil, fmt.Errorf("store count mentions: %w", translate(err))
	}
	return ids, nil
}
