package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// The column mappings a user confirmed for an import, kept per file
// signature and proposed the next time a file of that shape arrives.

// LearnedMapping returns the mapping userID confirmed for files with
// this signature, if any.
func (s *Store) LearnedMapping(ctx context.Context, userID int64, signature string) (json.RawMessage, bool, error) {
	var m json.RawMessage
	err := s.pool.QueryRow(ctx, `SELECT mapping FROM import_mappings WHERE owner_id = $1 AND signature = $2`, userID, signature).Scan(&m)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("store learned mapping: %w", translate(err))
	}
	return m, true, nil
}

// SaveMappingTx remembers a confirmed mapping for userID's files with
// this signature, replacing an older one.
func (s *Store) SaveMappingTx(ctx context.Context, tx pgx.Tx, userID int64, signature string, mapping json.RawMessage) error {
	_, err := tx.Exec(ctx, `
		INSERT INTO import_mappings (owner_id, signature, mapping) VALUES ($1, $2, $3)
		ON CONFLICT (owner_id, signature) DO UPDATE SET mapping = EXCLUDED.mapping, updated_at = now()`,
		userID, signature, mapping)
	if err != nil {
		return fmt.Errorf("store save mapping: %w", translate(constraintErr(err)))
	}
	return nil
}

// ForgetMappings forgets every mapping userID confirmed, returning how
// many there were.
func (s *Store) ForgetMappings(ctx context.Context, userID int64) (int, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM import_mappings WHERE owner_id = $1`, userID)
	if err != nil {
		return 0, fmt.Errorf("store forget mappings: %w", translate(err))
	}
	return int(tag.RowsAffected()), nil
}
