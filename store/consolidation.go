package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

// Consolidation of relationships' descriptions from their notes with a
// model (issue 19): the nightly job reads the relationships whose live
// notes changed since their description was last written from them, and
// writes each new description conditionally, so a repeated run or a
// second replica writes nothing twice. (Offline, ConsolidateDescriptions
// only fills empty descriptions.)

// noteSource is the SQL of which live notes (at $2) a relationship r has:
// their ids in order, "" for none.
const noteSource = `COALESCE((SELECT string_agg(n.id::text, ',' ORDER BY n.id) FROM graph_notes n
	WHERE n.relationship_id = r.id AND (n.expires_at IS NULL OR n.expires_at > $2)), '')`

// RelationshipsToConsolidate returns up to limit relationships of zone's
// users that have live notes at now other than those their description
// was last written from, each with those notes, oldest first.
func (s *Store) RelationshipsToConsolidate(ctx context.Context, zone string, now time.Time, limit int) ([]hearth.Consolidation, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+relationshipColumns+`, src, r.described_from FROM (
			SELECT r.*, `+noteSource+` AS src FROM relationships r JOIN users u ON u.id = r.user_id
			WHERE COALESCE(u.timezone, 'UTC') = $1
				AND EXISTS (SELECT 1 FROM graph_notes n WHERE n.relationship_id = r.id AND (n.expires_at IS NULL OR n.expires_at > $2))
		) r JOIN entities f ON f.id = r.from_id JOIN entities t ON t.id = r.to_id
		WHERE r.src <> r.described_from
		ORDER BY r.id LIMIT $3`, zone, now, limitOf(limit))
	if err != nil {
		return nil, fmt.Errorf("store relationships to consolidate: %w", translate(err))
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (hearth.Consolidation, error) {
		var c hearth.Consolidation
		r, err := scanRelationship(scanWith{row, []any{&c.Source, &c.DescribedFrom}})
		c.Relationship = r
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("store relationships to consolidate: %w", translate(err))
	}
	for i := range out {
		r := out[i].Relationship
		rows, err := s.pool.Query(ctx, `SELECT `+graphNoteColumns+` FROM `+graphNoteFrom+`
			WHERE n.relationship_id = $1 AND (n.expires_at IS NULL OR n.expires_at > $2) ORDER BY n.id`, r.ID, now)
		if err != nil {
			return nil, fmt.Errorf("store relationships to consolidate: %w", translate(err))
		}
		if out[i].Notes, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.GraphNote, error) { return scanGraphNote(r) }); err != nil {
			return nil, fmt.Errorf("store relationships to consolidate: %w", translate(err))
		}
	}
	return out, nil
}

// scanWith scans a relationship row followed by extra columns.
type scanWith struct {
	row   pgx.Row
	extra []any
}

func (s scanWith) Scan(dest ...any) error { return s.row.Scan(append(dest, s.extra...)...) }

// SetConsolidatedDescription writes a relationship's description made
// from the notes source names, only if its description was still made
// from was (so of two replicas, or a repeated run, one writes), and
// rewrites its embedding text. It reports whether it wrote.
func (s *Store) SetConsolidatedDescription(ctx context.Context, id int64, description, source, was string, now time.Time) (bool, error) {
	var wrote bool
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE relationships SET description = $2, described_from = $3, updated_at = $5
			WHERE id = $1 AND described_from = $4`, id, description, source, was, now)
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		wrote = true
		return refreshRelationshipText(ctx, tx, id, now)
	})
	if err != nil {
		return false, fmt.Errorf("store set consolidated description %d: %w", id, translate(err))
	}
	return wrote, nil
}
