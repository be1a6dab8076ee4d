package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/hearthbot/hearth"
)

// Relationships told in chat (issue 19): a statement creates, confirms,
// changes or ends a relationship, each in one transaction that records
// what it changed so undo takes back exactly that. A changed relationship
// is not overwritten: the old one is closed (valid_to) and a new one
// opened, so what held before stays answerable.

// ApplyRelationship records what a statement says about the relationship
// r (its owner, ends, label, and the attitude, proximity, confidence and
// state it states; zero attitude or proximity: not said; FactID, the
// owner's fact that states it, which a created relationship is forgotten
// with), at the instant at.
//
// Without end: a new relationship is created; an open one with the same
// ends and label is confirmed when r is, and, when r states another
// attitude or proximity, closed at at and replaced by a new one holding
// from at. With end ("Bob and I aren't friends anymore"): the open
// relationships between the two ends, either way, with r's label (any
// label when r has none) are closed at at; when r states an attitude or
// proximity ("aren't close anymore"), a relationship with those values
// (and the closed one's label) holds from at.
//
// It returns the relationship that holds now (zero when none does) and
// the change. The owner must see both ends.
func (s *Store) ApplyRelationship(ctx context.Context, r hearth.Relationship, end bool, at time.Time) (hearth.Relationship, hearth.RelationshipChange, error) {
	var change hearth.RelationshipChange
	att, prox := r.Attitude, r.Proximity
	r, err := checkRelationship(r)
	if err != nil {
		return hearth.Relationship{}, change, fmt.Errorf("store apply relationship: %w", err)
	}
	if at.IsZero() {
		at = time.Now()
	}
	var current int64
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		if err := ownerSeesEnds(ctx, tx, r); err != nil {
			return err
		}
		type open struct {
			id, from, to        int64
			label, state        string
			attitude, proximity int
		}
		either := end
		rows, err := tx.Query(ctx, `SELECT id, from_id, to_id, label, state, attitude, proximity FROM relationships
			WHERE user_id = $1 AND valid_to IS NULL
				AND (from_id = $2 AND to_id = $3 OR $5 AND from_id = $3 AND to_id = $2)
				AND ($4 = '' AND $5 OR lower(label) = $4)
			ORDER BY id FOR UPDATE`, r.UserID, r.FromID, r.ToID, r.Label, either)
		if err != nil {
			return err
		}
		var found []open
		for rows.Next() {
			var o open
			if err := rows.Scan(&o.id, &o.from, &o.to, &o.label, &o.state, &o.attitude, &o.proximity); err != nil {
				rows.Close()
				return err
			}
			found = append(found, o)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		// What the statement closes remembers the fact that closed it:
		// forgetting that fact opens it again (ForgetMemory).
		closeOne := func(id int64) error {
			change.Closed = append(change.Closed, id)
			_, err := tx.Exec(ctx, `UPDATE relationships SET valid_to = greatest($2::timestamptz, valid_from), updated_at = now(),
				closed_by = (SELECT id FROM facts WHERE id = $3 AND user_id = $4) WHERE id = $1`, id, at, nullID(r.FactID), r.UserID)
			return err
		}
		create := func(n hearth.Relationship) error {
			id, err := insertRelationship(ctx, tx, n)
			if err != nil {
				return err
			}
			change.Created = append(change.Created, id)
			current = id
			return refreshRelationshipText(ctx, tx, id, at)
		}
		if end {
			for _, o := range found {
				if err := closeOne(o.id); err != nil {
					return err
				}
			}
			if att == 0 && prox == 0 {
				return nil
			}
			n := r
			if len(found) > 0 {
				n.FromID, n.ToID, n.Label = found[0].from, found[0].to, found[0].label
			}
			n.ValidFrom = at
			return create(n)
		}
		if !r.ValidTo.IsZero() {
			// A relationship told with its end ("from 2015 to 2019") is
			// history beside what holds now; told twice, it is one row.
			var id int64
			err := tx.QueryRow(ctx, `SELECT id FROM relationships WHERE user_id = $1 AND from_id = $2 AND to_id = $3
				AND lower(label) = $4 AND valid_to = $5 AND valid_from IS NOT DISTINCT FROM $6`,
				r.UserID, r.FromID, r.ToID, r.Label, r.ValidTo, timeArg(r.ValidFrom)).Scan(&id)
			if errors.Is(err, pgx.ErrNoRows) {
				return create(r)
			}
			current = id
			return err
		}
		if hearth.SoleLabel(r.Label) {
			// One employer, one school at a time, as the attributes keep
			// them: a new one ends the one it replaces, from when it holds.
			rows, err := tx.Query(ctx, `SELECT id FROM relationships WHERE user_id = $1 AND from_id = $2 AND to_id <> $3
				AND lower(label) = $4 AND valid_to IS NULL AND (valid_from IS NULL OR valid_from <= $5) ORDER BY id FOR UPDATE`,
				r.UserID, r.FromID, r.ToID, r.Label, at)
			if err != nil {
				return err
			}
			replaced, err := pgx.CollectRows(rows, pgx.RowTo[int64])
			if err != nil {
				return err
			}
			for _, id := range replaced {
				if err := closeOne(id); err != nil {
					return err
				}
			}
		}
		if len(found) == 0 {
			return create(r)
		}
		o := found[0]
		current = o.id
		if att != 0 && att != o.attitude || prox != 0 && prox != o.proximity {
			if err := closeOne(o.id); err != nil {
				return err
			}
			n := r
			n.Attitude, n.Proximity = cmpOr(att, o.attitude), cmpOr(prox, o.proximity)
			n.ValidFrom = at
			return create(n)
		}
		if r.State == hearth.RelationshipConfirmed && o.state == string(hearth.RelationshipCandidate) {
			change.Confirmed = append(change.Confirmed, o.id)
			_, err := tx.Exec(ctx, `UPDATE relationships SET state = 'confirmed', confidence = greatest(confidence, $2::real), updated_at = now() WHERE id = $1`,
				o.id, float32(r.Confidence))
			return err
		}
		return nil
	})
	if err != nil {
		return hearth.Relationship{}, hearth.RelationshipChange{}, fmt.Errorf("store apply relationship: %w", constraintErr(translate(err)))
	}
	if current == 0 {
		return hearth.Relationship{}, change, nil
	}
	out, err := s.FindRelationships(ctx, hearth.RelationshipFilter{UserID: r.UserID, ID: current, Now: at})
	if err != nil || len(out) == 0 {
		return hearth.Relationship{}, change, fmt.Errorf("store apply relationship: read back: %w", errors.Join(err, hearth.ErrNotFound))
	}
	return out[0], change, nil
}

func cmpOr(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}

// insertRelationship inserts a checked relationship, its defaults filled
// in by the database.
func insertRelationship(ctx context.Context, tx pgx.Tx, r hearth.Relationship) (int64, error) {
	var id int64
	err := tx.QueryRow(ctx, `
		INSERT INTO relationships (user_id, tier, from_id, to_id, label, description, attitude, proximity, confidence, state, valid_from, valid_to, fact_id)
		VALUES ($1, $2, $3, $4, $5, $6, COALESCE(NULLIF($7, 0), 3), COALESCE(NULLIF($8, 0), 3), COALESCE(NULLIF($9::real, 0), 0.8), $10, $11, $12,
			(SELECT id FROM facts WHERE id = $13 AND user_id = $1))
		RETURNING id`,
		r.UserID, r.Tier, r.FromID, r.ToID, r.Label, r.Description, r.Attitude, r.Proximity, float32(r.Confidence), string(r.State),
		timeArg(r.ValidFrom), timeArg(r.ValidTo), nullID(r.FactID)).Scan(&id)
	return id, err
}

// UndoRelationshipChange takes back what ApplyRelationship changed for
// the owner, in one transaction: the relationships it created are
// deleted, those it closed are open again, those it confirmed are
// candidates again. Rows of other owners are never touched.
func (s *Store) UndoRelationshipChange(ctx context.Context, ownerID int64, c hearth.RelationshipChange) error {
	if c.Empty() {
		return nil
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM relationships WHERE user_id = $1 AND id = ANY($2)`, ownerID, c.Created); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE relationships SET valid_to = NULL, closed_by = NULL, updated_at = now() WHERE user_id = $1 AND id = ANY($2)`, ownerID, c.Closed); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `UPDATE relationships SET state = 'candidate', updated_at = now() WHERE user_id = $1 AND id = ANY($2)`, ownerID, c.Confirmed)
		return err
	})
	if err != nil {
		return fmt.Errorf("store undo relationship change: %w", constraintErr(translate(err)))
	}
	return nil
}

// SimilarRelationships returns the relationships userID may see that
// hold at now (zero: the database's clock), nearest to vec by cosine
// distance over their embedding (names, relation, words, description and
// notes), nearest first, among those embedded by model and no farther
// than maxDistance. Like FindRelationships, who may see what is decided
// here: the viewer's permitted rows are found first and measured exactly,
// as SimilarMemories does.
func (s *Store) SimilarRelationships(ctx context.Context, userID int64, model string, vec []float32, maxDistance float64, limit int, now time.Time) ([]hearth.Relationship, error) {
	d := len(vec)
	if !slices.Contains(EmbeddingDimensions, d) {
		return nil, fmt.Errorf("store similar relationships: %w", hearth.Invalidf("%d dimensions; the database indexes %v", d, EmbeddingDimensions))
	}
	if userID <= 0 {
		return nil, fmt.Errorf("store similar relationships: %w", hearth.Invalidf("a relationship search needs a user"))
	}
	rows, err := s.pool.Query(ctx, fmt.Sprintf(`SELECT `+relationshipColumns+` FROM (
			SELECT r.*, r.embedding::vector(%[1]d) <=> $3::vector(%[1]d) AS dist
			FROM relationships r JOIN entities f ON f.id = r.from_id JOIN entities t ON t.id = r.to_id
			WHERE vector_dims(r.embedding) = %[1]d AND r.embedding_model = $2
				AND `+relationshipVisibleTo("$1", "r", "f", "t")+`
				AND (r.valid_from IS NULL OR r.valid_from <= COALESCE($6, now())) AND (r.valid_to IS NULL OR r.valid_to > COALESCE($6, now()))
			OFFSET 0) r JOIN entities f ON f.id = r.from_id JOIN entities t ON t.id = r.to_id
		WHERE r.dist <= $5
		ORDER BY r.dist, r.id LIMIT $4`, d),
		userID, model, pgvector.NewVector(vec), limitOf(limit), maxDistance, timeArg(now))
	if err != nil {
		return nil, fmt.Errorf("store similar relationships: %w", translate(err))
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.Relationship, error) { return scanRelationship(r) })
	if err != nil {
		return nil, fmt.Errorf("store similar relationships: %w", translate(err))
	}
	if err := s.fillNotes(ctx, userID, out, now); err != nil {
		return nil, fmt.Errorf("store similar relationships: %w", err)
	}
	return out, nil
}

// ShareNodeWithFamily gives the owner's node (an entity of theirs), the
// owner's relationships touching it and their other ends, and the owner's
// live and expired notes on the node and on those relationships, to the
// owner's family (family true), or takes the node, those relationships
// and those notes back (family false; the other ends stay as they are, as
// they may be shared for their own sake). Everything in one transaction;
// what is another user's is never changed. hearth.ErrNotFound: the owner
// is in no family (when giving) or has no such node.
func (s *Store) ShareNodeWithFamily(ctx context.Context, ownerID, entityID int64, family bool) (hearth.GraphShare, error) {
	var out hearth.GraphShare
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var fam *int64
		if family {
			if err := tx.QueryRow(ctx, `SELECT family_id FROM family_members WHERE user_id = $1`, ownerID).Scan(&fam); err != nil {
				return notFound(err, "the family of user", ownerID)
			}
		}
		tag, err := tx.Exec(ctx, `UPDATE entities SET family_id = $3, updated_at = now() WHERE id = $2 AND user_id = $1`, ownerID, entityID, fam)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("entity %d: %w", entityID, hearth.ErrNotFound)
		}
		out.Entities = 1
		rows, err := tx.Query(ctx, `UPDATE relationships SET family_id = $3, updated_at = now()
			WHERE user_id = $1 AND (from_id = $2 OR to_id = $2) RETURNING id, CASE WHEN from_id = $2 THEN to_id ELSE from_id END`, ownerID, entityID, fam)
		if err != nil {
			return err
		}
		var rels, others []int64
		for rows.Next() {
			var id, other int64
			if err := rows.Scan(&id, &other); err != nil {
				rows.Close()
				return err
			}
			rels, others = append(rels, id), append(others, other)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		out.Relationships = len(rels)
		if family && len(others) > 0 {
			// A relationship is seen only with both its ends.
			tag, err := tx.Exec(ctx, `UPDATE entities SET family_id = $3, updated_at = now()
				WHERE user_id = $1 AND id = ANY($2) AND family_id IS DISTINCT FROM $3`, ownerID, others, fam)
			if err != nil {
				return err
			}
			out.Entities += int(tag.RowsAffected())
		}
		tag, err = tx.Exec(ctx, `UPDATE graph_notes SET family_id = $4
			WHERE user_id = $1 AND (entity_id = $2 OR relationship_id = ANY($3))`, ownerID, entityID, rels, fam)
		if err != nil {
			return err
		}
		out.Notes = int(tag.RowsAffected())
		return nil
	})
	if err != nil {
		return hearth.GraphShare{}, fmt.Errorf("store share node %d with the family: %w", entityID, translate(err))
	}
	return out, nil
}

// forgetRelationships reads, for ForgetMemory, the relationships fact id
// created (the foreign key deletes them with the fact), as they were.
func forgetRelationships(ctx context.Context, tx pgx.Tx, id int64) ([]hearth.Relationship, error) {
	rows, err := tx.Query(ctx, `SELECT `+relationshipColumns+`
		FROM relationships r JOIN entities f ON f.id = r.from_id JOIN entities t ON t.id = r.to_id WHERE r.fact_id = $1 ORDER BY r.id`, id)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.Relationship, error) { return scanRelationship(r) })
}

// closedRelationship is a relationship a statement closed: when, and
// whether its label is a sole one (hearth.SoleLabel).
type closedRelationship struct {
	end  hearth.RelationshipEnd
	sole bool
}

// closedByFact reads, for ForgetMemory, the relationships fact id's
// statement closed, with the end it gave them (the foreign key forgets
// which fact closed them when the fact goes).
func closedByFact(ctx context.Context, tx pgx.Tx, id int64) ([]closedRelationship, error) {
	rows, err := tx.Query(ctx, `SELECT id, valid_to, label FROM relationships WHERE closed_by = $1 AND valid_to IS NOT NULL ORDER BY id FOR UPDATE`, id)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (closedRelationship, error) {
		var c closedRelationship
		var label string
		err := r.Scan(&c.end.ID, &c.end.ValidTo, &label)
		c.end.ValidTo, c.sole = c.end.ValidTo.UTC(), hearth.SoleLabel(label)
		return c, err
	})
}

// reopenRelationships opens again, for ForgetMemory, the relationships a
// forgotten statement closed, as if it had never been told; one that a
// relationship told since holds in the place of (same ends and label, or
// for a sole label the same From: a later employer) stays closed. It
// returns those it opened, with the end they had.
func reopenRelationships(ctx context.Context, tx pgx.Tx, closed []closedRelationship) ([]hearth.RelationshipEnd, error) {
	var out []hearth.RelationshipEnd
	for _, c := range closed {
		tag, err := tx.Exec(ctx, `UPDATE relationships r SET valid_to = NULL, closed_by = NULL, updated_at = now()
			WHERE r.id = $1 AND NOT EXISTS (SELECT 1 FROM relationships o WHERE o.valid_to IS NULL AND o.id <> r.id
				AND o.from_id = r.from_id AND (o.to_id = r.to_id OR $2) AND lower(o.label) = lower(r.label))`, c.end.ID, c.sole)
		if err != nil {
			return nil, err
		}
		if tag.RowsAffected() == 1 {
			out = append(out, c.end)
		}
	}
	return out, nil
}

// recloseRelationships closes again, for RestoreMemory, the relationships
// the forget opened, with the end they had and the fact as what closed
// them; one closed since by something else keeps that end.
func recloseRelationships(ctx context.Context, tx pgx.Tx, factID, ownerID int64, ends []hearth.RelationshipEnd) error {
	for _, e := range ends {
		if _, err := tx.Exec(ctx, `UPDATE relationships SET valid_to = greatest($2::timestamptz, valid_from), closed_by = $3, updated_at = now()
			WHERE id = $1 AND user_id = $4 AND valid_to IS NULL`, e.ID, e.ValidTo, factID, ownerID); err != nil {
			return err
		}
	}
	return nil
}

// restoreRelationships puts back, for RestoreMemory, the relationships a
// forgotten fact created and the notes that were on them: same ids, the
// fact their source again, the fact that closed one (if it is still
// there) again what closed it, as long as both ends are still there and no
// relationship now holds in their place (then the newer one stands, and
// the notes go with the relationship they were on).
func restoreRelationships(ctx context.Context, tx pgx.Tx, factID int64, rs []hearth.Relationship, notes []hearth.GraphNote) error {
	var restored []int64
	for _, r := range rs {
		tag, err := tx.Exec(ctx, `
			INSERT INTO relationships (id, user_id, family_id, tier, from_id, to_id, label, description, attitude, proximity, confidence, state,
				valid_from, valid_to, fact_id, closed_by)
			OVERRIDING SYSTEM VALUE
			SELECT $1, $2, (SELECT id FROM families WHERE id = $3), $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,
				(SELECT id FROM facts WHERE id = $16 AND user_id = $2)
			WHERE EXISTS (SELECT 1 FROM entities WHERE id = $5) AND EXISTS (SELECT 1 FROM entities WHERE id = $6)
			ON CONFLICT DO NOTHING`,
			r.ID, r.UserID, nullID(r.FamilyID), r.Tier, r.FromID, r.ToID, r.Label, r.Description, r.Attitude, r.Proximity, float32(r.Confidence),
			string(r.State), timeArg(r.ValidFrom), timeArg(r.ValidTo), factID, nullID(r.ClosedBy))
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 1 {
			restored = append(restored, r.ID)
		}
	}
	if err := restoreGraphNotes(ctx, tx, restored, notes); err != nil {
		return err
	}
	for _, id := range restored {
		// With its notes back, its text (and so its embedding) is again
		// what it was.
		if err := refreshRelationshipText(ctx, tx, id, time.Time{}); err != nil {
			return err
		}
	}
	return nil
}
