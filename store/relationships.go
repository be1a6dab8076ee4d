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

// Relationships: typed, directed edges between entities (migration
// 00050), owned like facts and read through fact_visible with the
// relationship's tier, and only when both ends are visible too.

const relationshipColumns = `r.id, r.user_id, COALESCE(r.family_id, 0), r.tier, r.from_id, r.to_id,
	f.name, t.name, f.kind, t.kind, r.label, r.description, r.attitude, r.proximity, r.confidence,
	r.state, r.valid_from, r.valid_to, r.updated_at, COALESCE(r.fact_id, 0), COALESCE(r.closed_by, 0)`

func scanRelationship(row pgx.Row) (hearth.Relationship, error) {
	var r hearth.Relationship
	var fk, tk, state string
	var from, to *time.Time
	var conf float32
	err := row.Scan(&r.ID, &r.UserID, &r.FamilyID, &r.Tier, &r.FromID, &r.ToID, &r.FromName, &r.ToName, &fk, &tk,
		&r.Label, &r.Description, &r.Attitude, &r.Proximity, &conf, &state, &from, &to, &r.UpdatedAt, &r.FactID, &r.ClosedBy)
	r.FromKind, r.ToKind, r.State, r.Confidence = hearth.EntityKind(fk), hearth.EntityKind(tk), hearth.RelationshipState(state), float64(conf)
	if from != nil {
		r.ValidFrom = from.UTC()
	}
	if to != nil {
		r.ValidTo = to.UTC()
	}
	r.UpdatedAt = r.UpdatedAt.UTC()
	return r, err
}

// relationshipVisibleTo is the permission predicate of every read of
// relationships, for the viewer in parameter p, the relationship under
// alias r and its ends under f and t: the relationship's own owner,
// family and tier through fact_visible, and both ends visible.
func relationshipVisibleTo(p, r, f, t string) string {
	return entityVisibleTo(p, r) + " AND " + entityVisibleTo(p, f) + " AND " + entityVisibleTo(p, t)
}

// checkRelationship tidies r and fills its defaults, or says what is
// wrong with it.
func checkRelationship(r hearth.Relationship) (hearth.Relationship, error) {
	r.Label = strings.ToLower(strings.TrimSpace(r.Label))
	r.Description = strings.TrimSpace(r.Description)
	if r.Tier == 0 {
		r.Tier = hearth.TierBasic
	}
	if r.State == "" {
		r.State = hearth.RelationshipCandidate
	}
	switch {
	case r.UserID <= 0 || r.FromID <= 0 || r.ToID <= 0:
		return r, hearth.Invalidf("a relationship needs an owner and two ends")
	case r.FromID == r.ToID:
		return r, hearth.Invalidf("a relationship joins two different nodes")
	case r.Attitude < 0 || r.Attitude > 5 || r.Proximity < 0 || r.Proximity > 5:
		return r, hearth.Invalidf("attitude and proximity are 1 to 5")
	case r.Confidence < 0 || r.Confidence > 1:
		return r, hearth.Invalidf("confidence is 0 to 1")
	case !r.Tier.Valid():
		return r, hearth.Invalidf("a tier is 1 to 4, not %d", r.Tier)
	case r.State != hearth.RelationshipCandidate && r.State != hearth.RelationshipConfirmed:
		return r, hearth.Invalidf("no relationship state %q", r.State)
	case !r.ValidFrom.IsZero() && !r.ValidTo.IsZero() && r.ValidTo.Before(r.ValidFrom):
		return r, hearth.Invalidf("a relationship cannot end before it starts")
	}
	return r, nil
}

// ownerSeesEnds checks that r's owner may see both its ends.
func ownerSeesEnds(ctx context.Context, tx pgx.Tx, r hearth.Relationship) error {
	var seen int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM entities e WHERE e.id IN ($2, $3) AND `+entityVisibleTo("$1", "e"),
		r.UserID, r.FromID, r.ToID).Scan(&seen); err != nil {
		return err
	}
	if seen != 2 {
		return fmt.Errorf("an end of the relationship: %w", hearth.ErrNotFound)
	}
	return nil
}

// SaveRelationship creates r, or updates the owner's relationship with
// the same ends and label: description, attitude, proximity, confidence
// and validity when given (non-zero). A confirmed relationship stays
// confirmed. The owner (r.UserID) must see both ends. Its embedding text
// is rewritten, so a changed relationship is embedded again.
func (s *Store) SaveRelationship(ctx context.Context, r hearth.Relationship) (hearth.Relationship, error) {
	r, err := checkRelationship(r)
	if err != nil {
		return hearth.Relationship{}, fmt.Errorf("store save relationship: %w", err)
	}
	var id int64
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		if err := ownerSeesEnds(ctx, tx, r); err != nil {
			return err
		}
		err := tx.QueryRow(ctx, `
			INSERT INTO relationships (user_id, tier, from_id, to_id, label, description, attitude, proximity, confidence, state, valid_from, valid_to)
			VALUES ($1, $2, $3, $4, $5, $6, COALESCE(NULLIF($7, 0), 3), COALESCE(NULLIF($8, 0), 3), COALESCE(NULLIF($9::real, 0), 0.8), $10, $11, $12)
			ON CONFLICT (from_id, to_id, lower(label)) WHERE valid_to IS NULL DO UPDATE SET
				description = CASE WHEN EXCLUDED.description <> '' THEN EXCLUDED.description ELSE relationships.description END,
				attitude = CASE WHEN $7 <> 0 THEN EXCLUDED.attitude ELSE relationships.attitude END,
				proximity = CASE WHEN $8 <> 0 THEN EXCLUDED.proximity ELSE relationships.proximity END,
				confidence = CASE WHEN $9 <> 0 THEN EXCLUDED.confidence ELSE relationships.confidence END,
				state = CASE WHEN relationships.state = 'confirmed' THEN 'confirmed' ELSE EXCLUDED.state END,
				valid_from = COALESCE(EXCLUDED.valid_from, relationships.valid_from),
				valid_to = COALESCE(EXCLUDED.valid_to, relationships.valid_to),
				updated_at = now()
			WHERE relationships.user_id = EXCLUDED.user_id
			RETURNING id`,
			r.UserID, r.Tier, r.FromID, r.ToID, r.Label, r.Description, r.Attitude, r.Proximity, float32(r.Confidence), string(r.State),
			timeArg(r.ValidFrom), timeArg(r.ValidTo)).Scan(&id)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("another user's relationship: %w", hearth.ErrConflict)
		}
		if err != nil {
			return err
		}
		return refreshRelationshipText(ctx, tx, id, time.Time{})
	})
	if err != nil {
		return hearth.Relationship{}, fmt.Errorf("store save relationship: %w", constraintErr(translate(err)))
	}
	out, err := s.FindRelationships(ctx, hearth.RelationshipFilter{UserID: r.UserID, ID: id})
	if err != nil || len(out) == 0 {
		return hearth.Relationship{}, fmt.Errorf("store save relationship: read back: %w", errors.Join(err, hearth.ErrNotFound))
	}
	return out[0], nil
}

// ConfirmRelationship marks a relationship the viewer may see confirmed
// (the button on an inferred one). It reports whether it changed.
func (s *Store) ConfirmRelationship(ctx context.Context, viewerID, id int64) (bool, error) {
	tag, err := s.pool.Exec(ctx, `
		UPDATE relationships r SET state = 'confirmed', confidence = greatest(confidence, 0.95), updated_at = now()
		FROM entities f, entities t
		WHERE r.id = $2 AND f.id = r.from_id AND t.id = r.to_id AND r.state = 'candidate'
			AND `+relationshipVisibleTo("$1", "r", "f", "t"), viewerID, id)
	if err != nil {
		return false, fmt.Errorf("store confirm relationship %d: %w", id, translate(err))
	}
	return tag.RowsAffected() == 1, nil
}

// FindRelationships returns the relationships f.UserID may see that match
// f and hold at f.Now (or were never bounded; one asked for by ID is
// returned whenever it held), closest first, each with its live notes.
func (s *Store) FindRelationships(ctx context.Context, f hearth.RelationshipFilter) ([]hearth.Relationship, error) {
	if f.UserID <= 0 {
		return nil, fmt.Errorf("store find relationships: %w", hearth.Invalidf("a relationship search needs a user"))
	}
	var w where
	w.add(relationshipVisibleTo(w.arg(f.UserID), "r", "f", "t"))
	now := "now()"
	if !f.Now.IsZero() && f.ID == 0 {
		now = w.arg(f.Now) + "::timestamptz"
	}
	if f.ID > 0 {
		w.add("r.id = " + w.arg(f.ID))
	} else {
		w.add("(r.valid_from IS NULL OR r.valid_from <= " + now + ") AND (r.valid_to IS NULL OR r.valid_to > " + now + ")")
	}
	if f.EntityID > 0 {
		p := w.arg(f.EntityID)
		w.add("(r.from_id = " + p + " OR r.to_id = " + p + ")")
	}
	if f.FromID > 0 {
		w.add("r.from_id = " + w.arg(f.FromID))
	}
	if f.ToID > 0 {
		w.add("r.to_id = " + w.arg(f.ToID))
	}
	if q := strings.TrimSpace(f.Query); q != "" {
		w.add("to_tsvector('english', r.embed_text) @@ plainto_tsquery('english', " + w.arg(q) + ")")
	}
	rows, err := s.pool.Query(ctx, `SELECT `+relationshipColumns+`
		FROM relationships r JOIN entities f ON f.id = r.from_id JOIN entities t ON t.id = r.to_id
		WHERE `+w.String()+`
		ORDER BY r.proximity DESC, r.attitude DESC, r.id LIMIT `+w.arg(limitOf(f.Limit)), w.args...)
	if err != nil {
		return nil, fmt.Errorf("store find relationships: %w", translate(err))
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.Relationship, error) { return scanRelationship(r) })
	if err != nil {
		return nil, fmt.Errorf("store find relationships: %w", translate(err))
	}
	if err := s.fillNotes(ctx, f.UserID, out, f.Now); err != nil {
		return nil, fmt.Errorf("store find relationships: %w", err)
	}
	return out, nil
}

// fillNotes fills in the live notes (at now; zero: the database's clock)
// the viewer may see on each relationship, in one query, newest first.
func (s *Store) fillNotes(ctx context.Context, viewerID int64, rs []hearth.Relationship, now time.Time) error {
	if len(rs) == 0 {
		return nil
	}
	ids := make([]int64, len(rs))
	for i, r := range rs {
		ids[i] = r.ID
	}
	rows, err := s.pool.Query(ctx, `SELECT `+graphNoteColumns+` FROM `+graphNoteFrom+`
		WHERE n.relationship_id = ANY($2) AND (n.expires_at IS NULL OR n.expires_at > COALESCE($3, now())) AND `+graphNoteVisibleTo("$1")+`
		ORDER BY n.created_at DESC, n.id DESC`, viewerID, ids, timeArg(now))
	if err != nil {
		return translate(err)
	}
	notes, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.GraphNote, error) { return scanGraphNote(r) })
	if err != nil {
		return translate(err)
	}
	for i := range rs {
		rs[i].Notes = nil
		for _, n := range notes {
			if n.RelationshipID == rs[i].ID {
				rs[i].Notes = append(rs[i].Notes, n)
			}
		}
	}
	return nil
}

// refreshRelationshipText rewrites a relationship's embedding text from
// its current row and the notes live at now (zero: the database's
// clock); the trigger clears a stale embedding.
func refreshRelationshipText(ctx context.Context, tx pgx.Tx, id int64, now time.Time) error {
	r, err := scanRelationship(tx.QueryRow(ctx, `SELECT `+relationshipColumns+`
		FROM relationships r JOIN entities f ON f.id = r.from_id JOIN entities t ON t.id = r.to_id WHERE r.id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	rows, err := tx.Query(ctx, `SELECT body FROM graph_notes
		WHERE relationship_id = $1 AND (expires_at IS NULL OR expires_at > COALESCE($2, now())) ORDER BY id`, id, timeArg(now))
	if err != nil {
		return err
	}
	notes, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `UPDATE relationships SET embed_text = $2 WHERE id = $1 AND embed_text IS DISTINCT FROM $2`,
		id, hearth.RelationshipEmbedText(r, notes))
	return err
}

// ConsolidateDescriptions gives the relationships of zone's users that
// have no description one from their notes live at now: the first
// sentence of the newest (at most 200 characters), and rewrites their
// embedding text. A relationship with a description keeps it (a model
// may rewrite it; offline, what the user said stands). It returns how
// many it changed; a second run changes nothing.
func (s *Store) ConsolidateDescriptions(ctx context.Context, zone string, now time.Time) (int, error) {
	n := 0
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `
			UPDATE relationships r SET description = left(substring(l.body FROM '^[^.!?]*[.!?]?'), 200), updated_at = $2
			FROM (SELECT DISTINCT ON (n.relationship_id) n.relationship_id, n.body
				FROM graph_notes n JOIN relationships o ON o.id = n.relationship_id JOIN users u ON u.id = o.user_id
				WHERE COALESCE(u.timezone, 'UTC') = $1 AND o.description = '' AND (n.expires_at IS NULL OR n.expires_at > $2)
				ORDER BY n.relationship_id, n.created_at DESC, n.id DESC) l
			WHERE r.id = l.relationship_id AND r.description = ''
			RETURNING r.id`, zone, now)
		if err != nil {
			return err
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil {
			return err
		}
		n = len(ids)
		for _, id := range ids {
			if err := refreshRelationshipText(ctx, tx, id, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("store consolidate descriptions in %s: %w", zone, translate(err))
	}
	return n, nil
}
