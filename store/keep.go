package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Google Keep: which notes are also Keep notes, and whose account offers
// the Keep API (see migrations/00046_keep.sql).

// SetKeepNote links userID's note to a Keep note, replacing any link.
func (s *Store) SetKeepNote(ctx context.Context, userID, noteID int64, name string) error {
	_, err := s.pool.Exec(ctx, `
		INSERT INTO keep_notes (note_id, user_id, keep_name)
		SELECT id, $2, $3 FROM notes WHERE id = $1 AND user_id = $2
		ON CONFLICT (note_id) DO UPDATE SET keep_name = EXCLUDED.keep_name`, noteID, userID, name)
	if err != nil {
		return fmt.Errorf("store set keep note: %w", constraintErr(translate(err)))
	}
	return nil
}

// KeepNote returns the Keep note linked to userID's note; "" when none.
func (s *Store) KeepNote(ctx context.Context, userID, noteID int64) (string, error) {
	var name string
	err := s.pool.QueryRow(ctx, `SELECT keep_name FROM keep_notes WHERE note_id = $1 AND user_id = $2`, noteID, userID).Scan(&name)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store keep note: %w", translate(err))
	}
	return name, nil
}

// KeepLinks returns userID's links, Keep note name → note id, deleted
// notes included.
func (s *Store) KeepLinks(ctx context.Context, userID int64) (map[string]int64, error) {
	rows, err := s.pool.Query(ctx, `SELECT keep_name, note_id FROM keep_notes WHERE user_id = $1`, userID)
	if err != nil {
		return nil, fmt.Errorf("store keep links: %w", translate(err))
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var name string
		var id int64
		if err := rows.Scan(&name, &id); err != nil {
			return nil, fmt.Errorf("store keep links: %w", translate(err))
		}
		out[name] = id
	}
	return out, translate(rows.Err())
}

// KeepAvailable reports what is known of userID's Keep API: known is
// false before the first answer.
func (s *Store) KeepAvailable(ctx context.Context, userID int64) (available, known bool, checkedAt time.Time, err error) {
	err = s.pool.QueryRow(ctx, `SELECT available, checked_at FROM keep_accounts WHERE user_id = $1`, userID).Scan(&available, &checkedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, false, time.Time{}, nil
	}
	if err != nil {
		return false, false, time.Time{}, fmt.Errorf("store keep available: %w", translate(err))
	}
	return available, true, checkedAt.UTC(), nil
}

// SetKeepAvailable records Google's answer about userID's Keep API.
func (s *Store) SetKeepAvailable(ctx context.Context, userID int64, available bool) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO keep_accounts (user_id, available) VALUES ($1, $2)
		ON CONFLICT (user_id) DO UPDATE SET available = EXCLUDED.available, checked_at = now()`, userID, available)
	if err != nil {
		return fmt.Errorf("store set keep available: %w", constraintErr(translate(err)))
	}
	return nil
}
