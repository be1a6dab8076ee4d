package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/hearthbot/hearth"
)

// Graph notes: remarks with a lifetime on an entity or a relationship
// (migration 00050). A note is owned by who added it, has its own tier,
// and is visible only with what it is about. Reads keep the notes that
// have not expired at the caller's clock; DeleteExpiredGraphNotes removes
// the others.

const graphNoteColumns = `n.id, n.user_id, COALESCE(n.family_id, 0), n.tier, COALESCE(n.entity_id, 0), COALESCE(n.relationship_id, 0),
	COALESCE(e.name, rf.name || ' → ' || rt.name), n.body, n.lifetime, n.expires_at, COALESCE(n.source_event_id, 0), n.created_at`

// graphNoteFrom joins a note to what it is about.
const graphNoteFrom = `graph_notes n
	LEFT JOIN entities e ON e.id = n.entity_id
	LEFT JOIN relationships r ON r.id = n.relationship_id
	LEFT JOIN entities rf ON rf.id = r.from_id
	LEFT JOIN entities rt ON rt.id = r.to_id`

func scanGraphNote(row pgx.Row) (hearth.GraphNote, error) {
	var n hearth.GraphNote
	var lifetime string
	var exp *time.Time
	err := row.Scan(&n.ID, &n.AddedBy, &n.FamilyID, &n.Tier, &n.EntityID, &n.RelationshipID, &n.About, &n.Body, &lifetime, &exp, &n.SourceEventID, &n.CreatedAt)
	n.Lifetime, n.CreatedAt = hearth.Lifetime(lifetime), n.CreatedAt.UTC()
	if exp != nil {
		n.ExpiresAt = exp.UTC()
	}
	return n, err
}

// graphNoteVisibleTo is the permission predicate of every read of graph
// notes: the note's own owner, family and tier through fact_visible, and
// what it is about visible too (the entity, or the relationship and both
// its ends).
func graphNoteVisibleTo(p string) string {
	return entityVisibleTo(p, "n") + " AND (n.entity_id IS NOT NULL AND " + entityVisibleTo(p, "e") +
		" OR n.relationship_id IS NOT NULL AND " + relationshipVisibleTo(p, "r", "rf", "rt") + ")"
}

// AddGraphNote stores a note with its lifetime counted from now. n.AddedBy
// and n.SourceEventID are the caller's (the code's, never a model's); the
// added_by user must see what the note is about. A note on a relationship
// enters its embedding text.
func (s *Store) AddGraphNote(ctx context.Context, n hearth.GraphNote, now time.Time) (hearth.GraphNote, error) {
	n.Body = strings.TrimSpace(n.Body)
	if n.Lifetime == "" {
		n.Lifetime = hearth.LifetimeMonth
	}
	if n.Tier == 0 {
		n.Tier = hearth.TierPersonal
	}
	switch {
	case n.AddedBy <= 0:
		return hearth.GraphNote{}, fmt.Errorf("store add graph note: %w", hearth.Invalidf("a note needs who added it"))
	case (n.EntityID > 0) == (n.RelationshipID > 0):
		return hearth.GraphNote{}, fmt.Errorf("store add graph note: %w", hearth.Invalidf("a note is about one node or one relationship"))
	case n.Body == "":
		return hearth.GraphNote{}, fmt.Errorf("store add graph note: %w", hearth.Invalidf("an empty note"))
	case len([]rune(n.Body)) > 2000:
		return hearth.GraphNote{}, fmt.Errorf("store add graph note: %w", hearth.Invalidf("a note is at most 2,000 characters"))
	case !n.Lifetime.Valid():
		return hearth.GraphNote{}, fmt.Errorf("store add graph note: %w", hearth.Invalidf("no lifetime %q (week, month, year, forever)", n.Lifetime))
	case !n.Tier.Valid():
		return hearth.GraphNote{}, fmt.Errorf("store add graph note: %w", hearth.Invalidf("a tier is 1 to 4, not %d", n.Tier))
	}
	var id int64
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		// The note is inserted only when its author sees what it is about.
		err := tx.QueryRow(ctx, `
			INSERT INTO graph_notes (user_id, tier, entity_id, relationship_id, body, lifetime, expires_at, source_event_id, created_at)
			SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9
			WHERE EXISTS (SELECT 1 FROM entities e WHERE e.id = $3 AND `+entityVisibleTo("$1", "e")+`)
			   OR EXISTS (SELECT 1 FROM relationships r JOIN entities rf ON rf.id = r.from_id JOIN entities rt ON rt.id = r.to_id
			              WHERE r.id = $4 AND `+relationshipVisibleTo("$1", "r", "rf", "rt")+`)
			RETURNING id`,
			n.AddedBy, n.Tier, nullID(n.EntityID), nullID(n.RelationshipID), n.Body, string(n.Lifetime),
			timeArg(n.Lifetime.ExpiresAt(now)), nullID(n.SourceEventID), now).Scan(&id)
		if err != nil {
			return err
		}
		if n.RelationshipID > 0 {
			return refreshRelationshipText(ctx, tx, n.RelationshipID, now)
		}
		return nil
	})
	if err != nil {
		return hearth.GraphNote{}, fmt.Errorf("store add graph note: %w", notFound(constraintErr(translate(err)), "what the note is about", n.EntityID+n.RelationshipID))
	}
	out, err := scanGraphNote(s.pool.QueryRow(ctx, `SELECT `+graphNoteColumns+` FROM `+graphNoteFrom+` WHERE n.id = $1`, id))
	if err != nil {
		return hearth.GraphNote{}, fmt.Errorf("store add graph note: %w", translate(err))
	}
	return out, nil
}

// FindGraphNotes returns the live notes f.UserID may see, soonest to
// expire last (forever notes last of all), newest first within that.
func (s *Store) FindGraphNotes(ctx context.Context, f hearth.GraphNoteFilter) ([]hearth.GraphNote, error) {
	if f.UserID <= 0 {
		return nil, fmt.Errorf("store find graph notes: %w", hearth.Invalidf("a note search needs a user"))
	}
	var w where
	w.add(graphNoteVisibleTo(w.arg(f.UserID)))
	now := "now()"
	if !f.Now.IsZero() {
		now = w.arg(f.Now) + "::timestamptz"
	}
	w.add("(n.expires_at IS NULL OR n.expires_at > " + now + ")")
	if f.EntityID > 0 {
		w.add("n.entity_id = " + w.arg(f.EntityID))
	}
	if f.RelationshipID > 0 {
		w.add("n.relationship_id = " + w.arg(f.RelationshipID))
	}
	if f.OnNodes {
		w.add("n.entity_id IS NOT NULL")
	}
	if q := strings.TrimSpace(f.Query); q != "" {
		w.add("to_tsvector('english', n.body) @@ plainto_tsquery('english', " + w.arg(q) + ")")
	}
	rows, err := s.pool.Query(ctx, `SELECT `+graphNoteColumns+` FROM `+graphNoteFrom+`
		WHERE `+w.String()+` ORDER BY n.created_at DESC, n.id DESC LIMIT `+w.arg(limitOf(f.Limit)), w.args...)
	if err != nil {
		return nil, fmt.Errorf("store find graph notes: %w", translate(err))
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.GraphNote, error) { return scanGraphNote(r) })
	if err != nil {
		return nil, fmt.Errorf("store find graph notes: %w", translate(err))
	}
	return out, nil
}

// DeleteExpiredGraphNotes deletes the notes expired at now, in batches,
// and rewrites the embedding text of the relationships they were on. It
// returns how many it deleted; running it again deletes nothing more.
func (s *Store) DeleteExpiredGraphNotes(ctx context.Context, now time.Time) (int, error) {
	total := 0
	for {
		var n int
		err := s.inTx(ctx, func(tx pgx.Tx) error {
			rows, err := tx.Query(ctx, `
				DELETE FROM graph_notes WHERE id IN (
					SELECT id FROM graph_notes WHERE expires_at <= $1 ORDER BY expires_at LIMIT 5000 FOR UPDATE SKIP LOCKED)
				RETURNING COALESCE(relationship_id, 0)`, now)
			if err != nil {
				return err
			}
			rels, err := pgx.CollectRows(rows, pgx.RowTo[int64])
			if err != nil {
				return err
			}
			n = len(rels)
			done := map[int64]bool{0: true}
			for _, id := range rels {
				if !done[id] {
					done[id] = true
					if err := refreshRelationshipText(ctx, tx, id, now); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			return total, fmt.Errorf("store delete expired graph notes: %w", translate(err))
		}
		total += n
		if n < 5000 {
			return total, nil
		}
	}
}

// forgetRelationshipNotes reads, for ForgetMemory, every note on the
// relationships fact id created, expired ones included, as they are: the
// foreign key deletes them with their relationship, and undo of the
// forget puts them back.
func forgetRelationshipNotes(ctx context.Context, tx pgx.Tx, factID int64) ([]hearth.GraphNote, error) {
	rows, err := tx.Query(ctx, `SELECT `+graphNoteColumns+` FROM `+graphNoteFrom+`
		WHERE r.fact_id = $1 ORDER BY n.id`, factID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.GraphNote, error) { return scanGraphNote(r) })
}

// restoreGraphNotes puts back, for RestoreMemory, the notes that were on
// the relationships restored (ids): same ids, authors, lifetimes and
// expiry, the message they came from and the family if they are still
// there (without its family a note is its author's alone). A note on a
// relationship not restored, or whose author is gone, stays gone; one
// that is there already is left as it is.
func restoreGraphNotes(ctx context.Context, tx pgx.Tx, restored []int64, notes []hearth.GraphNote) error {
	for _, n := range notes {
		if !slices.Contains(restored, n.RelationshipID) {
			continue
		}
		if _, err := tx.Exec(ctx, `
			INSERT INTO graph_notes (id, user_id, family_id, tier, relationship_id, body, lifetime, expires_at, source_event_id, created_at)
			OVERRIDING SYSTEM VALUE
			SELECT $1, $2, (SELECT id FROM families WHERE id = $3), $4, $5, $6, $7, $8, (SELECT id FROM inbound_events WHERE id = $9), $10
			WHERE EXISTS (SELECT 1 FROM users WHERE id = $2)
			ON CONFLICT (id) DO NOTHING`,
			n.ID, n.AddedBy, nullID(n.FamilyID), n.Tier, n.RelationshipID, n.Body, string(n.Lifetime), timeArg(n.ExpiresAt),
			nullID(n.SourceEventID), n.CreatedAt); err != nil {
			return err
		}
	}
	return nil
}

// SimilarGraphNotes returns the live notes on nodes (people, things)
// that userID may see, nearest to vec by cosine distance over their
// embedding, nearest first, among those embedded by model and no farther
// than maxDistance. A relationship's notes are searched through the
// relationship (SimilarRelationships). Who may see what is decided here,
// by the permission predicate of every graph note read; the permitted
// rows are found first and measured exactly, as SimilarRelationships
// does. now is the clock expiry is read against (zero: the database's).
func (s *Store) SimilarGraphNotes(ctx context.Context, userID int64, model string, vec []float32, maxDistance float64, limit int, now time.Time) ([]hearth.GraphNote, error) {
	d := len(vec)
	if !slices.Contains(EmbeddingDimensions, d) {
		return nil, fmt.Errorf("store similar graph notes: %w", hearth.Invalidf("%d dimensions; the database indexes %v", d, EmbeddingDimensions))
	}
	if userID <= 0 {
		return nil, fmt.Errorf("store similar graph notes: %w", hearth.Invalidf("a note search needs a user"))
	}
	// The distance is measured in the select list, after the filter
	// (vector_dims first: another size cannot be cast), and OFFSET 0
	// keeps the outer distance test from being pushed below it.
	rows, err := s.pool.Query(ctx, fmt.Sprintf(`SELECT `+graphNoteColumns+` FROM (
			SELECT n.id AS nid, n.embedding::vector(%[1]d) <=> $3::vector(%[1]d) AS dist FROM `+graphNoteFrom+`
			WHERE vector_dims(n.embedding) = %[1]d AND n.embedding_model = $2 AND n.entity_id IS NOT NULL
				AND (n.expires_at IS NULL OR n.expires_at > COALESCE($6, now()))
				AND `+graphNoteVisibleTo("$1")+`
			OFFSET 0) m, `+graphNoteFrom+`
		WHERE n.id = m.nid AND m.dist <= $5
		ORDER BY m.dist, n.id LIMIT $4`, d),
		userID, model, pgvector.NewVector(vec), limitOf(limit), maxDistance, timeArg(now))
	if err != nil {
		return nil, fmt.Errorf("store similar graph notes: %w", translate(err))
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.GraphNote, error) { return scanGraphNote(r) })
	if err != nil {
		return nil, fmt.Errorf("store similar graph notes: %w", translate(err))
	}
	return out, nil
}
