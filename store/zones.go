package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

// IdentityKey returns the platform's id for a user on a channel (a Slack
// user id), the oldest when several identities of that channel were
// linked to the user; hearth.ErrNotFound when there is none.
func (s *Store) IdentityKey(ctx context.Context, userID int64, ch hearth.Channel) (string, error) {
	var key string
	err := s.pool.QueryRow(ctx, `
		SELECT external_id FROM identities WHERE user_id = $1 AND channel = $2
		ORDER BY created_at, external_id LIMIT 1`, userID, ch).Scan(&key)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", fmt.Errorf("store identity of user %d on %s: %w", userID, ch, hearth.ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("store identity of user %d on %s: %w", userID, ch, translate(err))
	}
	return key, nil
}
