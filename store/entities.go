package store

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

// Entities: the people, places and things facts are about, each owned
// like a fact and read through the same predicate (entityVisibleTo), with the
// entity's tier (migration 00015). Their attributes over time are facts
// (facts.entity_id, attribute, value; see StoreMemory).

const entityColumns = `e.id, e.user_id, COALESCE(e.family_id, 0), e.kind, e.name,
	ARRAY(SELECT a.alias FROM entity_aliases a WHERE a.entity_id = e.id ORDER BY a.alias),
	e.relation, COALESCE(e.member_id, 0), e.tier, e.created_at`

func scanEntity(row pgx.Row) (hearth.Entity, error) {
	var e hearth.Entity
	var kind string
	err := row.Scan(&e.ID, &e.UserID, &e.FamilyID, &kind, &e.Name, &e.Aliases, &e.Relation, &e.MemberID, &e.Tier, &e.CreatedAt)
	e.Kind = hearth.EntityKind(kind)
	e.CreatedAt = e.CreatedAt.UTC()
	if len(e.Aliases) == 0 {
		e.Aliases = nil
	}
	return e, err
}

// entityVisibleTo is the permission predicate of every read of entities,
// for the viewer in parameter p and the entities table under alias a: the
// rule of facts (permitted) with the entity's tier. An entity is never
// shared alone, so the one-fact share never applies.
func entityVisibleTo(p, a string) string {
	return permitted(p, a, false)
}

// SaveEntity finds the owner's entity that e names (by canonical name or
// an alias, ignoring case) or creates it, then adds e's aliases, and sets
// its relation and family member when e gives them. A kind given for an
// existing entity is kept only when the entity had the default (person).
// The owner is e.UserID; only the owner's own entities are changed.
func (s *Store) SaveEntity(ctx context.Context, e hearth.Entity) (hearth.Entity, error) {
	e.Name, e.Relation = strings.TrimSpace(e.Name), strings.ToLower(strings.TrimSpace(e.Relation))
	if e.Kind == "" {
		e.Kind = hearth.EntityPerson
	}
	if e.Tier == 0 {
		e.Tier = hearth.TierBasic
	}
	switch {
	case e.UserID <= 0:
		return hearth.Entity{}, fmt.Errorf("store save entity: %w", hearth.Invalidf("an entity needs an owner"))
	case e.Name == "":
		return hearth.Entity{}, fmt.Errorf("store save entity: %w", hearth.Invalidf("an entity needs a name"))
	case !e.Kind.Valid():
		return hearth.Entity{}, fmt.Errorf("store save entity: %w", hearth.Invalidf("no entity kind %q", e.Kind))
	case !e.Tier.Valid():
		return hearth.Entity{}, fmt.Errorf("store save entity: %w", hearth.Invalidf("an entity's tier is 1 to 4, not %d", e.Tier))
	}
	var id int64
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		// A member link must be the owner, or someone in the owner's
		// family now; any other is dropped, never trusted.
		if e.MemberID > 0 && e.MemberID != e.UserID {
			var ok bool
			if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM family_members a JOIN family_members b USING (family_id)
				WHERE a.user_id = $1 AND b.user_id = $2)`, e.UserID, e.MemberID).Scan(&ok); err != nil {
				return err
			}
			if !ok {
				e.MemberID = 0
			}
		}
		// The entity a name or an alias already stands for, else a new one.
		// Concurrent saves of one new name meet at the unique index. The
		// aliases looked at are the owner's entities', by id (the planner
		// would otherwise read every user's aliases: BenchmarkEntityNames).
		err := tx.QueryRow(ctx, `
			SELECT e.id FROM entities e
			WHERE e.user_id = $1 AND (lower(e.name) = lower($2)
			   OR e.id = ANY(ARRAY(SELECT a.entity_id FROM entity_aliases a
			                       WHERE a.entity_id = ANY(ARRAY(SELECT o.id FROM entities o WHERE o.user_id = $1)) AND lower(a.alias) = lower($2))))
			ORDER BY lower(e.name) = lower($2) DESC, e.id LIMIT 1 FOR UPDATE`, e.UserID, e.Name).Scan(&id)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			err = tx.QueryRow(ctx, `
				INSERT INTO entities (user_id, kind, name, relation, member_id, tier) VALUES ($1, $2, $3, $4, $5, $6)
				ON CONFLICT (user_id, lower(name)) DO UPDATE SET updated_at = now()
				RETURNING id`, e.UserID, string(e.Kind), e.Name, e.Relation, nullID(e.MemberID), e.Tier).Scan(&id)
			if err != nil {
				return err
			}
		case err != nil:
			return err
		default:
			if _, err := tx.Exec(ctx, `
				UPDATE entities SET
					relation = CASE WHEN $2 <> '' THEN $2 ELSE relation END,
					member_id = COALESCE($3, member_id),
					kind = CASE WHEN kind = 'person' AND $4 <> 'person' THEN $4 ELSE kind END,
					updated_at = now()
				WHERE id = $1`, id, e.Relation, nullID(e.MemberID), string(e.Kind)); err != nil {
				return err
			}
		}
		for _, a := range e.Aliases {
			if a = strings.TrimSpace(a); a == "" {
				continue
			}
			if _, err := tx.Exec(ctx, `
				INSERT INTO entity_aliases (entity_id, alias)
				SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM entities WHERE id = $1 AND lower(name) = lower($2))
				ON CONFLICT DO NOTHING`, id, a); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return hearth.Entity{}, fmt.Errorf("store save entity %q: %w", e.Name, constraintErr(translate(err)))
	}
	saved, err := scanEntity(s.pool.QueryRow(ctx, `SELECT `+entityColumns+` FROM entities e WHERE e.id = $1`, id))
	if err != nil {
		return hearth.Entity{}, fmt.Errorf("store save entity %q: %w", e.Name, translate(err))
	}
	return saved, nil
}

// FindEntities returns the entities f.UserID may see that match f, best
// first: a name equal to the canonical name or an alias, then the
// canonical name starting with it ("Sarah" → "Sarah Kim"), then names
// alike by trigrams ("Jonh" → "John"). The permission predicate decides, inside the
// query, with the entity's tier.
func (s *Store) FindEntities(ctx context.Context, f hearth.EntityFilter) ([]hearth.Entity, error) {
	if f.UserID <= 0 {
		return nil, fmt.Errorf("store find entities: %w", hearth.Invalidf("an entity search needs a user"))
	}
	var w where
	w.add(entityVisibleTo(w.arg(f.UserID), "e"))
	if f.ID > 0 {
		w.add("e.id = " + w.arg(f.ID))
	}
	if r := strings.ToLower(strings.TrimSpace(f.Relation)); r != "" {
		w.add("e.relation = " + w.arg(r))
	}
	// class: 0 the name or an alias exactly, 1 the name starting with it,
	// 2 alike by trigrams; only the best class found is returned, so
	// "Sarah Kim" does not also bring "Sarah Lopez". The aliases compared
	// are those of the entities the user may see, found by id (x): left
	// to subqueries per entity, the planner read every user's aliases
	// (BenchmarkEntityNames/find-by-alias).
	class, rank, named, aliases := "0", "0", "true", ""
	if n := strings.TrimSpace(f.Name); n != "" {
		p, prefix := w.arg(n), w.arg(likeEscaper.Replace(n)+" %")
		exact := `(lower(e.name) = lower(` + p + `) OR x.exact)`
		named = `(` + exact + ` OR e.name ILIKE ` + prefix + ` OR e.name % ` + p + ` OR x.alike)`
		class = `CASE WHEN ` + exact + ` THEN 0 WHEN e.name ILIKE ` + prefix + ` THEN 1 ELSE 2 END`
		rank = `greatest(similarity(e.name, ` + p + `), x.rank)`
		aliases = ` LEFT JOIN (
				SELECT a.entity_id, bool_or(lower(a.alias) = lower(` + p + `)) AS exact, bool_or(a.alias % ` + p + `) AS alike,
				       max(similarity(a.alias, ` + p + `)) AS rank
				FROM entity_aliases a WHERE a.entity_id = ANY(ARRAY(SELECT id FROM seen)) GROUP BY a.entity_id
			) x ON x.entity_id = e.id`
	}
	rows, err := s.pool.Query(ctx, `WITH seen AS MATERIALIZED (SELECT e.* FROM entities e WHERE `+w.String()+`)
		SELECT `+strings.ReplaceAll(entityColumns, "e.", "m.")+` FROM (
			SELECT e.*, `+class+` AS class, min(`+class+`) OVER () AS best, `+rank+` AS rank
			FROM seen e`+aliases+` WHERE `+named+`) m
		WHERE m.class = m.best
		ORDER BY m.rank DESC, m.created_at, m.id LIMIT `+w.arg(limitOf(f.Limit)), w.args...)
	if err != nil {
		return nil, fmt.Errorf("store find entities: %w", translate(err))
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.Entity, error) { return scanEntity(r) })
	if err != nil {
		return nil, fmt.Errorf("store find entities: %w", translate(err))
	}
	return out, nil
}

// GiveEntityToFamily makes one of the owner's entities the family's, as
// GiveMemoryToFamily does for a fact.
func (s *Store) GiveEntityToFamily(ctx context.Context, ownerID, id int64) error {
	tag, err := s.pool.Exec(ctx, `
		UPDATE entities SET family_id = (SELECT family_id FROM family_members WHERE user_id = $2), updated_at = now()
		WHERE id = $1 AND user_id = $2 AND EXISTS (SELECT 1 FROM family_members WHERE user_id = $2)`, id, ownerID)
	if err != nil {
		return fmt.Errorf("store give entity %d to the family: %w", id, translate(err))
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("store give entity %d to the family: %w", id, hearth.ErrNotFound)
	}
	return nil
}

// forgetRelation takes back what a forgotten relation fact ("Lea is my
// sister", m, already deleted) made its entity: its relation becomes the
// one still told about it (a value the forget made current again), or
// none, and the alias that named it by the relation ("my sister") goes.
// It returns the relation and alias it took away, for undo; "" when the
// fact was no relation or the entity's relation was not the fact's.
func forgetRelation(ctx context.Context, tx pgx.Tx, m hearth.Memory) (relation, alias string, err error) {
	if m.Attribute != hearth.AttrRelation || m.EntityID == 0 || !m.ValidTo.IsZero() {
		return "", "", nil
	}
	var current string
	err = tx.QueryRow(ctx, `SELECT relation FROM entities WHERE id = $1 AND user_id = $2 FOR UPDATE`, m.EntityID, m.UserID).Scan(&current)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return "", "", nil
	case err != nil:
		return "", "", err
	case !strings.EqualFold(current, strings.TrimSpace(m.Value)):
		return "", "", nil
	}
	var still string
	if err := tx.QueryRow(ctx, `SELECT COALESCE((SELECT lower(value) FROM facts
		WHERE entity_id = $1 AND user_id = $2 AND attribute = $3 AND deleted_at IS NULL AND valid_to IS NULL AND invalidated_at IS NULL
		ORDER BY id DESC LIMIT 1), '')`, m.EntityID, m.UserID, hearth.AttrRelation).Scan(&still); err != nil {
		return "", "", err
	}
	if strings.EqualFold(still, current) {
		return "", "", nil // told twice: still so
	}
	if _, err := tx.Exec(ctx, `UPDATE entities SET relation = $2, updated_at = now() WHERE id = $1`, m.EntityID, still); err != nil {
		return "", "", err
	}
	tag, err := tx.Exec(ctx, `DELETE FROM entity_aliases WHERE entity_id = $1 AND lower(alias) = lower($2)`, m.EntityID, "my "+current)
	if err != nil {
		return "", "", err
	}
	if tag.RowsAffected() > 0 {
		alias = "my " + current
	}
	return current, alias, nil
}
