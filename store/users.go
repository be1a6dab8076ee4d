package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

// errIdentityRace means a concurrent transaction created the same identity
// first; retrying the whole transaction finds it.
var errIdentityRace = errors.New("identity created concurrently")

// upsertContact finds or creates the user behind a channel identity and
// the conversation, and stores a supplied time zone.
func upsertContact(ctx context.Context, tx pgx.Tx, ch hearth.Channel, userKey, userName, convKey, tz string) (hearth.Contact, error) {
	var c hearth.Contact
	err := tx.QueryRow(ctx, `
		WITH existing AS (
			SELECT user_id FROM identities WHERE channel = $1 AND external_id = $2
		), new_user AS (
			INSERT INTO users (display_name, timezone)
			SELECT $3, NULLIF($4, '') WHERE NOT EXISTS (SELECT 1 FROM existing)
			RETURNING id
		), new_identity AS (
			INSERT INTO identities (channel, external_id, user_id, display_name)
			SELECT $1, $2, id, $3 FROM new_user
			ON CONFLICT DO NOTHING
			RETURNING user_id
		)
		SELECT user_id FROM existing UNION ALL SELECT user_id FROM new_identity`,
		ch, userKey, userName, tz).Scan(&c.User.ID)
	if errors.Is(err, pgx.ErrNoRows) {
		return hearth.Contact{}, errIdentityRace
	}
	if err != nil {
		return hearth.Contact{}, fmt.Errorf("upsert identity: %w", err)
	}
	var zone *string
	err = tx.QueryRow(ctx, `
		UPDATE users SET timezone = COALESCE(NULLIF($2, ''), timezone),
		       updated_at = CASE WHEN NULLIF($2, '') IS DISTINCT FROM timezone AND $2 <> '' THEN now() ELSE updated_at END
		WHERE id = $1
		RETURNING display_name, timezone`, c.User.ID, tz).Scan(&c.User.DisplayName, &zone)
	if err != nil {
		return hearth.Contact{}, fmt.Errorf("update user: %w", err)
	}
	if zone != nil {
		c.User.Timezone = *zone
	}
	err = tx.QueryRow(ctx, `
		WITH ins AS (
			INSERT INTO conversations (channel, external_id, user_id) VALUES ($1, $2, $3)
			ON CONFLICT (channel, external_id) DO NOTHING
			RETURNING id
		)
		SELECT id FROM ins UNION ALL
		SELECT id FROM conversations WHERE channel = $1 AND external_id = $2
		LIMIT 1`, ch, convKey, c.User.ID).Scan(&c.ConversationID)
	if err != nil {
		return hearth.Contact{}, fmt.Errorf("upsert conversation: %w", err)
	}
	return c, nil
}

// retryRace runs fn again when a concurrent first contact won the race to
// create the same identity.
func retryRace(fn func() error) error {
	var err error
	for range 3 {
		if err = fn(); !errors.Is(err, errIdentityRace) {
			return err
		}
	}
	return err
}

// SignIn finds or creates the user with the given identity on ch and the
// conversation with them there, storing tz when it is not empty.
func (s *Store) SignIn(ctx context.Context, ch hearth.Channel, userKey, userName, convKey, tz string) (hearth.Contact, error) {
	var c hearth.Contact
	err := retryRace(func() error {
		return s.inTx(ctx, func(tx pgx.Tx) error {
			var err error
			c, err = upsertContact(ctx, tx, ch, userKey, userName, convKey, tz)
			return err
		})
	})
	if err != nil {
		return hearth.Contact{}, fmt.Errorf("store sign in: %w", err)
	}
	return c, nil
}

// FindContact returns the user behind an identity on ch and their
// conversation with key convKey. It wraps hearth.ErrNotFound when either
// does not exist.
func (s *Store) FindContact(ctx context.Context, ch hearth.Channel, userKey, convKey string) (hearth.Contact, error) {
	var c hearth.Contact
	var zone *string
	err := s.pool.QueryRow(ctx, `
		SELECT u.id, u.display_name, u.timezone, c.id
		FROM identities i
		JOIN users u ON u.id = i.user_id
		JOIN conversations c ON c.channel = i.channel AND c.external_id = $3 AND c.user_id = u.id
		WHERE i.channel = $1 AND i.external_id = $2`, ch, userKey, convKey).
		Scan(&c.User.ID, &c.User.DisplayName, &zone, &c.ConversationID)
	if errors.Is(err, pgx.ErrNoRows) {
		return hearth.Contact{}, fmt.Errorf("store find contact: %w", hearth.ErrNotFound)
	}
	if err != nil {
		return hearth.Contact{}, fmt.Errorf("store find contact: %w", translate(err))
	}
	if zone != nil {
		c.User.Timezone = *zone
	}
	return c, nil
}

// SetDisplayName stores what a user is called (their name on the
// platform they first came from).
func (s *Store) SetDisplayName(ctx context.Context, userID int64, name string) error {
	tag, err := s.pool.Exec(ctx, `UPDATE users SET display_name = $2, updated_at = now() WHERE id = $1`, userID, name)
	if err != nil {
		return fmt.Errorf("store set display name: %w", translate(err))
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("store set display name: user %d: %w", userID, hearth.ErrNotFound)
	}
	return nil
}

// SetTimezone stores a user's IANA zone.
func (s *Store) SetTimezone(ctx context.Context, userID int64, tz string) error {
	tag, err := s.pool.Exec(ctx, `UPDATE users SET timezone = $2, updated_at = now() WHERE id = $1`, userID, tz)
	if err != nil {
		return fmt.Errorf("store set timezone: %w", translate(err))
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("store set timezone: user %d: %w", userID, hearth.ErrNotFound)
	}
	return nil
}

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
