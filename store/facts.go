package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

// Facts over time: what people told Hearth, owned by the teller or by
// their family, each with a tier. Every read goes through one permission
// predicate (visibleTo, the rule of fact_visible in migration 00014), so
// who sees what is decided by the query itself (ARCHITECTURE.md,
// invariant 5). Writes are the owner's alone.

const memoryColumns = `id, user_id, COALESCE(family_id, 0), content, about, category, tier, valid_from, valid_to,
	COALESCE(told_in, 0), COALESCE(entity_id, 0), attribute, value, latitude, longitude, COALESCE(superseded_by, 0), created_at, updated_at`

func scanMemory(row pgx.Row) (hearth.Memory, error) {
	return scanMemoryAnd(row)
}

// scanMemoryAnd scans a fact and then the extra columns a read added
// (a distance).
func scanMemoryAnd(row pgx.Row, extra ...any) (hearth.Memory, error) {
	var m hearth.Memory
	var category string
	var from, to *time.Time
	var lat, lon *float64
	err := row.Scan(append([]any{&m.ID, &m.UserID, &m.FamilyID, &m.Content, &m.About, &category, &m.Tier, &from, &to,
		&m.ToldIn, &m.EntityID, &m.Attribute, &m.Value, &lat, &lon, &m.SupersededBy, &m.CreatedAt, &m.UpdatedAt}, extra...)...)
	if lat != nil && lon != nil {
		m.Place = &hearth.Coordinates{Lat: *lat, Lon: *lon}
	}
	m.Category = hearth.MemoryCategory(category)
	m.ValidFrom, m.ValidTo = utcOrZero(from), utcOrZero(to)
	m.CreatedAt, m.UpdatedAt = m.CreatedAt.UTC(), m.UpdatedAt.UTC()
	return m, err
}

// visibleTo is the permission predicate of every read of facts, for the
// viewer in parameter p and the facts table under alias a ("" for the
// table by its name): see permitted.
func visibleTo(p, a string) string {
	if a == "" {
		a = "facts"
	}
	return permitted(p, a, true)
}

// permitted is the permission predicate of facts and of the memory
// graph's nodes, for the viewer in parameter p and the table under alias
// a: the owner sees their own; every current member sees what the family
// owns; a viewer sees a member's row through a grant whose tier is at
// most the row's; and a fact shared with the viewer (shares: nodes other
// than facts are never shared one by one).
//
// It is the rule of fact_visible, fact_owners, fact_families and
// fact_shared (migration 00014), written into each statement: Postgres
// cannot inline a SQL function holding subqueries, and plans such a
// function's body again on every statement that calls it, which cost
// four times what the read itself does (`bot bench turns`, the briefing
// benchmark). TestFactPermissionMatrix holds every read path, and
// fact_visible itself, to the rule.
//
// Each arm is one an index serves (the viewer's rows, the family's, the
// grantors', the shared facts': the planner ORs their bitmaps), and the
// lists it compares with are computed once per statement; only a
// grantor's row asks, by itself, for its grant's tier. A subquery per row
// rescans its table (an lseek each, even when the table is empty): on a
// seq scan of a thousand facts that cost 3.3 ms a read against 0.13 ms.
func permitted(p, a string, shares bool) string {
	var b strings.Builder
	b.WriteString("(" + a + ".user_id = " + p +
		" OR " + a + ".family_id = ANY(ARRAY(SELECT pv_fm.family_id FROM family_members pv_fm WHERE pv_fm.user_id = " + p + "))" +
		" OR (" + a + ".user_id = ANY(ARRAY(SELECT pv_g.target_id FROM access_grants pv_g WHERE pv_g.viewer_id = " + p + "))" +
		" AND EXISTS (SELECT 1 FROM access_grants pv_g WHERE pv_g.target_id = " + a + ".user_id AND pv_g.viewer_id = " + p + " AND pv_g.tier <= " + a + ".tier))")
	if shares {
		b.WriteString(" OR " + a + ".id = ANY(ARRAY(SELECT pv_s.fact_id FROM fact_shares pv_s WHERE pv_s.viewer_id = " + p + "))")
	}
	b.WriteString(")")
	return b.String()
}

// currentFact is the condition of a fact that is true now, as far as
// Hearth knows: not forgotten, not corrected, not ended.
const currentFact = `deleted_at IS NULL AND invalidated_at IS NULL AND (valid_to IS NULL OR valid_to > now())`

// StoreMemory remembers m for m.UserID. An empty category is personal. A
// second call with the same key returns the memory the first one stored
// and changes nothing, and so does a fact the user already has as it is
// told (the same current value of an attribute, or the same words).
func (s *Store) StoreMemory(ctx context.Context, key string, m hearth.Memory) (hearth.Memory, error) {
	m.Content, m.About = strings.TrimSpace(m.Content), strings.TrimSpace(m.About)
	if m.Category == "" {
		m.Category = hearth.MemoryPersonal
	}
	if m.Tier == 0 {
		m.Tier = hearth.TierPersonal
	}
	var err error
	switch {
	case !m.Tier.Valid():
		err = hearth.Invalidf("a memory's tier is 1 to 4, not %d", m.Tier)
	case !m.ValidFrom.IsZero() && !m.ValidTo.IsZero() && m.ValidTo.Before(m.ValidFrom):
		err = hearth.Invalidf("a memory cannot stop being true before it starts")
	case m.UserID <= 0:
		err = hearth.Invalidf("a memory needs a user")
	case m.Content == "":
		err = hearth.Invalidf("there is nothing to remember")
	case m.Category != hearth.MemoryPersonal && m.Category != hearth.MemoryWork && m.Category != hearth.MemoryKnowledge:
		err = hearth.Invalidf("memory category must be %q, %q or %q, not %q",
			hearth.MemoryPersonal, hearth.MemoryWork, hearth.MemoryKnowledge, m.Category)
	}
	if err != nil {
		return hearth.Memory{}, fmt.Errorf("store store memory: %w", err)
	}
	m.Attribute, m.Value = strings.ToLower(strings.TrimSpace(m.Attribute)), strings.TrimSpace(m.Value)
	if m.Attribute != "" {
		if m.EntityID <= 0 || m.Value == "" {
			return hearth.Memory{}, fmt.Errorf("store store memory: %w", hearth.Invalidf("an attribute needs an entity and a value"))
		}
		// Telling the current value again is not a new fact.
		same, err := scanMemory(s.pool.QueryRow(ctx, `SELECT `+memoryColumns+` FROM facts
			WHERE user_id = $1 AND entity_id = $2 AND attribute = $3 AND lower(value) = lower($4) AND `+currentFact+`
			ORDER BY id DESC LIMIT 1`, m.UserID, m.EntityID, m.Attribute, m.Value))
		if err == nil && m.ValidTo.IsZero() {
			return same, nil
		}
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return hearth.Memory{}, fmt.Errorf("store store memory: %w", translate(err))
		}
	}
	if m.Attribute == "" && m.ValidFrom.IsZero() && m.ValidTo.IsZero() {
		// Nor is telling a fact again word for word (ignoring case): the
		// teller's current fact, owned and shared the same way, is what
		// they meant. Told with another tier it is a new fact, so a wish
		// about who may see it is never dropped.
		same, err := scanMemory(s.pool.QueryRow(ctx, `SELECT `+memoryColumns+` FROM facts
			WHERE user_id = $1 AND family_id IS NOT DISTINCT FROM $2 AND tier = $5
			  AND lower(content) = lower($3) AND lower(about) = lower($4)
			  AND attribute = '' AND valid_from IS NULL AND `+currentFact+`
			ORDER BY id DESC LIMIT 1`, m.UserID, nullID(m.FamilyID), m.Content, m.About, m.Tier))
		if err == nil {
			return same, nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return hearth.Memory{}, fmt.Errorf("store store memory: %w", translate(err))
		}
	}
	var lat, lon *float64
	if m.Place != nil {
		if !m.Place.Valid() {
			return hearth.Memory{}, fmt.Errorf("store store memory: %w", hearth.Invalidf("no place at %v, %v", m.Place.Lat, m.Place.Lon))
		}
		lat, lon = &m.Place.Lat, &m.Place.Lon
	}
	// A family-owned fact must be the teller's own family's, and an entity
	// the teller's own or their family's: the INSERT finds nothing to
	// insert otherwise. A new current value of an attribute closes the
	// value it replaces (from when the new one holds, or now), like a
	// correction: a historical value ("from 2001 to 2009") closes nothing.
	created, err := createOnce(ctx, s, "facts", memoryColumns, scanMemory, key, m.UserID, `
		WITH new AS (
			INSERT INTO facts (source_key, user_id, content, about, category, tier, family_id, valid_from, valid_to, told_in,
				entity_id, attribute, value, latitude, longitude)
			SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15
			WHERE ($7::bigint IS NULL OR EXISTS (SELECT 1 FROM family_members WHERE family_id = $7 AND user_id = $2))
			  AND ($11::bigint IS NULL OR EXISTS (SELECT 1 FROM entities e WHERE e.id = $11 AND (e.user_id = $2
			       OR e.family_id IN (SELECT family_id FROM family_members WHERE user_id = $2))))
			ON CONFLICT (source_key) DO NOTHING
			RETURNING *
		), closed AS (
			UPDATE facts f SET valid_to = COALESCE(new.valid_from, now()), invalidated_at = now(), superseded_by = new.id, updated_at = now()
			FROM new
			WHERE new.attribute <> '' AND new.valid_to IS NULL AND f.user_id = new.user_id
			  AND f.entity_id = new.entity_id AND f.attribute = new.attribute AND f.id <> new.id
			  AND f.deleted_at IS NULL AND f.invalidated_at IS NULL AND f.valid_to IS NULL
			  AND (f.valid_from IS NULL OR f.valid_from <= COALESCE(new.valid_from, now()))
		)
		SELECT `+memoryColumns+` FROM new`,
		keyArg(key), m.UserID, m.Content, m.About, string(m.Category), m.Tier, nullID(m.FamilyID), timeArg(m.ValidFrom), timeArg(m.ValidTo), nullID(m.ToldIn),
		nullID(m.EntityID), m.Attribute, m.Value, lat, lon)
	if err != nil {
		return hearth.Memory{}, fmt.Errorf("store store memory: %w", err)
	}
	return created, nil
}

// UpdateMemory corrects what a memory says without overwriting it: the
// old fact stops being true now (valid_to), is marked as learned wrong or
// outdated now (invalidated_at) and points at a new fact that carries the
// rest of its fields, so point-in-time questions still see the old value.
// It returns the old fact (as it was) and the new one, written in one
// transaction. Only the owner may correct a fact.
func (s *Store) UpdateMemory(ctx context.Context, userID, id int64, content string) (before, after hearth.Memory, err error) {
	content = strings.TrimSpace(content)
	if content == "" {
		return hearth.Memory{}, hearth.Memory{}, fmt.Errorf("store update memory %d: %w", id, hearth.Invalidf("there is nothing to remember"))
	}
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		before, err = scanMemory(tx.QueryRow(ctx, `SELECT `+memoryColumns+` FROM facts
			WHERE id = $1 AND user_id = $2 AND `+currentFact+` FOR UPDATE`, id, userID))
		if err != nil {
			return notFound(err, "memory", id)
		}
		if content == before.Content {
			after = before
			return nil
		}
		after, err = scanMemory(tx.QueryRow(ctx, `
			INSERT INTO facts (user_id, family_id, content, about, category, tier, importance, tags, source, valid_from, entity_id)
			SELECT user_id, family_id, $2, about, category, tier, importance, tags, source, now(), entity_id
			FROM facts WHERE id = $1
			RETURNING `+memoryColumns, id, content))
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `
			UPDATE facts SET valid_to = now(), invalidated_at = now(), superseded_by = $2, updated_at = now()
			WHERE id = $1`, id, after.ID)
		return err
	})
	if err != nil {
		return hearth.Memory{}, hearth.Memory{}, fmt.Errorf("store update memory %d: %w", id, err)
	}
	return before, after, nil
}

// RevertMemory undoes a correction: the fact id is true again, as it was,
// and the fact that superseded it is deleted. Reverting a fact that is
// current does nothing, so a retried undo succeeds.
func (s *Store) RevertMemory(ctx context.Context, userID, id int64) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var next *int64
		err := tx.QueryRow(ctx, `SELECT superseded_by FROM facts WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL FOR UPDATE`,
			id, userID).Scan(&next)
		if err != nil {
			return notFound(err, "memory", id)
		}
		if next == nil {
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE facts SET deleted_at = now(), updated_at = now() WHERE id = $1 AND user_id = $2`, *next, userID); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `
			UPDATE facts SET valid_to = NULL, invalidated_at = NULL, superseded_by = NULL, updated_at = now()
			WHERE id = $1`, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("store revert memory %d: %w", id, err)
	}
	return nil
}

// UnstoreMemory takes back a fact that was just stored (undo of
// remembering it): the fact is deleted and the values it closed, if it was
// an attribute's new value, are current again. Unstoring a fact that is
// gone already does nothing, so a retried undo succeeds.
func (s *Store) UnstoreMemory(ctx context.Context, userID, id int64) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE facts SET deleted_at = now(), updated_at = now() WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL`, id, userID); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `
			UPDATE facts SET valid_to = NULL, invalidated_at = NULL, superseded_by = NULL, updated_at = now()
			WHERE superseded_by = $1 AND user_id = $2`, id, userID)
		return err
	})
	if err != nil {
		return fmt.Errorf("store unstore memory %d: %w", id, translate(err))
	}
	return nil
}

// EndValues ends userID's current values of an entity's attribute that
// equal value (ignoring case), now: they held until now, and were not
// wrong, so they are closed (valid_to) without being invalidated. by is
// the fact that says so ("Ben no longer works at Acme"): UnstoreMemory of
// it makes them current again. Ending nothing is no error.
func (s *Store) EndValues(ctx context.Context, userID, entityID int64, attribute, value string, by int64) error {
	if _, err := s.pool.Exec(ctx, `UPDATE facts SET valid_to = greatest(now(), valid_from), superseded_by = $5, updated_at = now()
		WHERE user_id = $1 AND entity_id = $2 AND attribute = lower($3) AND lower(value) = lower($4) AND id <> $5 AND `+currentFact,
		userID, entityID, strings.TrimSpace(attribute), strings.TrimSpace(value), by); err != nil {
		return fmt.Errorf("store end values: %w", translate(err))
	}
	return nil
}

// ForgetMemory deletes a memory for real, at once: the row goes, with
// its embedding and its shares, and a correction it was of points at
// nothing. It returns the fact as it was, with everything RestoreMemory
// needs to put it back (undo). Only the owner may forget a fact.
func (s *Store) ForgetMemory(ctx context.Context, userID, id int64) (hearth.Memory, error) {
	var m hearth.Memory
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var err error
		m, err = scanMemory(tx.QueryRow(ctx, `SELECT `+memoryColumns+` FROM facts WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL FOR UPDATE`, id, userID))
		if err != nil {
			return notFound(err, "memory", id)
		}
		var f hearth.ForgottenFact
		var key *string
		var invalidated *time.Time
		if err := tx.QueryRow(ctx, `SELECT source_key, importance, tags, source, learned_at, invalidated_at,
				ARRAY(SELECT viewer_id FROM fact_shares WHERE fact_id = $1 ORDER BY viewer_id),
				ARRAY(SELECT id FROM facts WHERE superseded_by = $1 ORDER BY id)
			FROM facts WHERE id = $1`, id).Scan(&key, &f.Importance, &f.Tags, &f.Source, &f.LearnedAt, &invalidated, &f.SharedWith, &f.Supersedes); err != nil {
			return err
		}
		if key != nil {
			f.SourceKey = *key
		}
		f.LearnedAt, f.InvalidatedAt = f.LearnedAt.UTC(), utcOrZero(invalidated)
		if f.Relationships, err = forgetRelationships(ctx, tx, id); err != nil {
			return err
		}
		if f.Notes, err = forgetRelationshipNotes(ctx, tx, id); err != nil {
			return err
		}
		closed, err := closedByFact(ctx, tx, id)
		if err != nil {
			return err
		}
		if ended := m.Attribute == ""; ended || m.ValidTo.IsZero() && invalidated == nil {
			// A current value closed the one before it, or a fact ended
			// values ("Sam no longer works at Acme", EndValues, which
			// leaves invalidated_at empty, read here as the zero time):
			// forgotten, it was never said, and what it closed is current
			// again, as the relationship its statement closed opens again.
			rows, err := tx.Query(ctx, `SELECT id, valid_to, COALESCE(invalidated_at, '0001-01-01Z') FROM facts
				WHERE superseded_by = $1 AND user_id = $2 AND deleted_at IS NULL AND valid_to IS NOT NULL
					AND ($5 AND attribute <> '' AND invalidated_at IS NULL
						OR NOT $5 AND entity_id = $3 AND attribute = $4 AND invalidated_at IS NOT NULL)
				ORDER BY id FOR UPDATE`, id, userID, m.EntityID, m.Attribute, ended)
			if err != nil {
				return err
			}
			if f.ReopenedValues, err = pgx.CollectRows(rows, pgx.RowToStructByPos[hearth.FactEnd]); err != nil {
				return err
			}
		}
		m.Forgotten = &f
		if _, err = tx.Exec(ctx, `DELETE FROM facts WHERE id = $1`, id); err != nil {
			return err
		}
		for i, e := range f.ReopenedValues {
			f.ReopenedValues[i].ValidTo, f.ReopenedValues[i].InvalidatedAt = e.ValidTo.UTC(), e.InvalidatedAt.UTC()
			if _, err := tx.Exec(ctx, `UPDATE facts SET valid_to = NULL, invalidated_at = NULL, updated_at = now() WHERE id = $1`, e.ID); err != nil {
				return err
			}
		}
		if f.EntityRelation, f.EntityAlias, err = forgetRelation(ctx, tx, m); err != nil {
			return err
		}
		// After the delete: the relationships the fact created no longer
		// stand in the way of those it closed.
		f.Reopened, err = reopenRelationships(ctx, tx, closed)
		return err
	})
	if err != nil {
		return hearth.Memory{}, fmt.Errorf("store forget memory %d: %w", id, translate(err))
	}
	return m, nil
}

// RestoreMemory puts a forgotten fact back as ForgetMemory returned it:
// same id, validity, shares and links (its embedding is computed again).
// Restoring a fact that is there already does nothing, so a retried undo
// succeeds. Only the owner may restore it.
func (s *Store) RestoreMemory(ctx context.Context, userID int64, m hearth.Memory) error {
	if m.UserID != userID || m.ID <= 0 || m.Forgotten == nil {
		return fmt.Errorf("store restore memory %d: %w", m.ID, hearth.ErrNotFound)
	}
	f := m.Forgotten
	var lat, lon *float64
	if m.Place != nil {
		lat, lon = &m.Place.Lat, &m.Place.Lon
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `
			INSERT INTO facts (id, source_key, user_id, family_id, content, about, category, tier, importance, tags, source,
				valid_from, valid_to, learned_at, invalidated_at, superseded_by, told_in, entity_id, attribute, value, created_at, updated_at,
				latitude, longitude)
			OVERRIDING SYSTEM VALUE
			SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,
				(SELECT id FROM facts WHERE id = $16), (SELECT id FROM inbound_events WHERE id = $17), (SELECT id FROM entities WHERE id = $18),
				$19, $20, $21, now(), $22, $23
			WHERE $4::bigint IS NULL OR EXISTS (SELECT 1 FROM families WHERE id = $4)
			ON CONFLICT (id) DO NOTHING`,
			m.ID, keyArg(f.SourceKey), m.UserID, nullID(m.FamilyID), m.Content, m.About, string(m.Category), m.Tier, f.Importance, append([]string{}, f.Tags...), f.Source,
			timeArg(m.ValidFrom), timeArg(m.ValidTo), f.LearnedAt, timeArg(f.InvalidatedAt), nullID(m.SupersededBy), nullID(m.ToldIn), nullID(m.EntityID),
			m.Attribute, m.Value, m.CreatedAt, lat, lon)
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO fact_shares (fact_id, viewer_id) SELECT $1, v FROM unnest($2::bigint[]) v
			WHERE EXISTS (SELECT 1 FROM users WHERE id = v) ON CONFLICT DO NOTHING`, m.ID, f.SharedWith); err != nil {
			return err
		}
		if _, err = tx.Exec(ctx, `UPDATE facts SET superseded_by = $1 WHERE id = ANY($2) AND user_id = $3 AND superseded_by IS NULL`, m.ID, f.Supersedes, m.UserID); err != nil {
			return err
		}
		// The values the forget made current are closed again, unless
		// something else closed them since.
		for _, e := range f.ReopenedValues {
			if _, err := tx.Exec(ctx, `UPDATE facts SET valid_to = $2, invalidated_at = NULLIF($3::timestamptz, '0001-01-01Z'), updated_at = now()
				WHERE id = $1 AND user_id = $4 AND superseded_by = $5 AND valid_to IS NULL AND invalidated_at IS NULL`,
				e.ID, e.ValidTo, e.InvalidatedAt, m.UserID, m.ID); err != nil {
				return err
			}
		}
		if f.EntityRelation != "" {
			if _, err := tx.Exec(ctx, `UPDATE entities SET relation = $2, updated_at = now() WHERE id = $1 AND user_id = $3`,
				m.EntityID, f.EntityRelation, m.UserID); err != nil {
				return err
			}
		}
		if f.EntityAlias != "" {
			if _, err := tx.Exec(ctx, `INSERT INTO entity_aliases (entity_id, alias)
				SELECT id, $2 FROM entities WHERE id = $1 AND user_id = $3 ON CONFLICT DO NOTHING`, m.EntityID, f.EntityAlias, m.UserID); err != nil {
				return err
			}
		}
		// What the forget opened is closed first: the relationships the
		// fact created take its place.
		if err := recloseRelationships(ctx, tx, m.ID, m.UserID, f.Reopened); err != nil {
			return err
		}
		return restoreRelationships(ctx, tx, m.ID, f.Relationships, f.Notes)
	})
	if err != nil {
		return fmt.Errorf("store restore memory %d: %w", m.ID, constraintErr(translate(err)))
	}
	return nil
}

// FindMemories returns the memories f.UserID may see that match f, best
// first: their own, their family's, and other members' as their grants
// and shares allow (visibleTo, inside the query). Without AsOf only
// current facts count; with it, those held true at that instant.
//
// Query is full-text search over content and about (websearch syntax:
// "John birthday", "\"March 15\"", "-work"), without stemming, so names
// match as written. A memory whose about is found, by trigram similarity,
// inside the query also matches: "When is John's birthday?" finds what
// Hearth knows about John even though no memory contains "when" (and a
// memory about a subject the query names matches even when the query
// excludes one of its words: "john -birthday" still finds memories about
// John). About
// matches the subject loosely ("john" finds "John"). Without either, the
// newest come first. Limit defaults to DefaultLimit and is capped at
// MaxLimit.
func (s *Store) FindMemories(ctx context.Context, f hearth.MemoryFilter) ([]hearth.Memory, error) {
	if f.UserID <= 0 {
		return nil, fmt.Errorf("store find memories: %w", hearth.Invalidf("a memory search needs a user"))
	}
	var w where
	w.add(visibleTo(w.arg(f.UserID), ""))
	if f.ToldBy > 0 {
		w.add("user_id = " + w.arg(f.ToldBy))
	}
	if f.EntityID > 0 {
		w.add("entity_id = " + w.arg(f.EntityID))
	}
	if a := strings.ToLower(strings.TrimSpace(f.Attribute)); a != "" {
		w.add("attribute = " + w.arg(a))
	}
	if v := strings.TrimSpace(f.Value); v != "" {
		w.add("attribute <> '' AND (value ILIKE " + w.arg("%"+likeEscaper.Replace(v)+"%") + " OR value % " + w.arg(v) + ")")
	}
	switch {
	case f.Ever:
		w.add("deleted_at IS NULL")
	case f.AsOf.IsZero():
		w.add(currentFact)
	case f.Until.After(f.AsOf):
		from, until := w.arg(f.AsOf), w.arg(f.Until)
		w.add("deleted_at IS NULL AND (valid_from IS NULL OR valid_from < " + until + ") AND (valid_to IS NULL OR valid_to > " + from + ")")
	default:
		at := w.arg(f.AsOf)
		w.add("deleted_at IS NULL AND (valid_from IS NULL OR valid_from <= " + at + ") AND (valid_to IS NULL OR valid_to > " + at + ")")
	}
	var rank []string
	if q := strings.TrimSpace(f.Query); q != "" {
		p := w.arg(q)
		tsq := textQuery(q, w.arg)
		// about <% query: about is similar to some run of words in the
		// query. An empty about has no trigrams and never matches.
		w.add("(search @@ " + tsq + " OR about <% " + p + ")")
		rank = append(rank, "ts_rank(search, "+tsq+")", "word_similarity(about, "+p+")")
	}
	if a := strings.TrimSpace(f.About); a != "" {
		p := w.arg(a)
		w.add("(about ILIKE " + w.arg("%"+likeEscaper.Replace(a)+"%") + " OR about % " + p + ")")
		rank = append(rank, "similarity(about, "+p+")")
	}
	order := "created_at DESC, id DESC"
	if len(rank) > 0 {
		order = "(" + strings.Join(rank, " + ") + ") DESC, " + order
	}
	// Distance in metres along the Earth's surface (earthdistance), 0
	// when no point was asked about.
	distance := "0::float8"
	if f.Near != nil {
		if !f.Near.Valid() {
			return nil, fmt.Errorf("store find memories: %w", hearth.Invalidf("no place at %v, %v", f.Near.Lat, f.Near.Lon))
		}
		distance = "earth_distance(ll_to_earth(" + w.arg(f.Near.Lat) + ", " + w.arg(f.Near.Lon) + "), ll_to_earth(latitude, longitude))"
		w.add("latitude IS NOT NULL")
		order = distance + ", " + order
	}
	rows, err := s.pool.Query(ctx, `SELECT `+memoryColumns+`, `+distance+` FROM facts WHERE `+w.String()+`
		ORDER BY `+order+`
		LIMIT `+w.arg(limitOf(f.Limit)), w.args...)
	if err != nil {
		return nil, fmt.Errorf("store find memories: %w", translate(err))
	}
	memories, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.Memory, error) {
		var d float64
		m, err := scanMemoryAnd(r, &d)
		m.Distance = d
		return m, err
	})
	if err != nil {
		return nil, fmt.Errorf("store find memories: %w", translate(err))
	}
	return memories, nil
}

// ShareMemory shows one of the owner's facts to one more viewer ("tell
// Grandma too"), who must be in the owner's family. Sharing twice is
// sharing once.
func (s *Store) ShareMemory(ctx context.Context, ownerID, id, viewerID int64) error {
	tag, err := s.pool.Exec(ctx, `
		INSERT INTO fact_shares (fact_id, viewer_id)
		SELECT f.id, $3 FROM facts f
		JOIN family_members o ON o.user_id = f.user_id
		JOIN family_members v ON v.family_id = o.family_id AND v.user_id = $3
		WHERE f.id = $1 AND f.user_id = $2 AND f.deleted_at IS NULL AND $3 <> $2
		ON CONFLICT DO NOTHING`, id, ownerID, viewerID)
	if err != nil {
		return fmt.Errorf("store share memory %d: %w", id, translate(err))
	}
	if tag.RowsAffected() == 0 {
		var shared bool
		if err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM fact_shares s JOIN facts f ON f.id = s.fact_id
			WHERE s.fact_id = $1 AND s.viewer_id = $3 AND f.user_id = $2)`, id, ownerID, viewerID).Scan(&shared); err != nil {
			return fmt.Errorf("store share memory %d: %w", id, translate(err))
		}
		if !shared {
			return fmt.Errorf("store share memory %d: %w", id, hearth.ErrNotFound)
		}
	}
	return nil
}

// GiveMemoryToFamily makes one of the owner's facts the family's ("share
// this with the family"): every current member sees it, and it stays with
// the family when the teller leaves.
func (s *Store) GiveMemoryToFamily(ctx context.Context, ownerID, id int64) (hearth.Memory, error) {
	m, err := scanMemory(s.pool.QueryRow(ctx, `
		UPDATE facts SET family_id = (SELECT family_id FROM family_members WHERE user_id = $2), updated_at = now()
		WHERE id = $1 AND user_id = $2 AND `+currentFact+`
		  AND EXISTS (SELECT 1 FROM family_members WHERE user_id = $2)
		RETURNING `+memoryColumns, id, ownerID))
	if err != nil {
		return hearth.Memory{}, fmt.Errorf("store give memory %d to the family: %w", id, notFound(translate(err), "memory", id))
	}
	return m, nil
}
