package store

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/hearthbot/hearth/pipeline"
)

// ownedTables are every table with a user_id whose rows follow a person
// when two of their identities are linked.
var ownedTables = []string{
	"identities", "conversations", "inbound_events", "tasks", "events", "notes", "emails",
	"memories", "actions", "approvals", "audit_log", "turn_traces", "link_codes",
	"reminders", "schedules",
}

// CreateLinkCode makes a single-use code, valid for ttl, that joins
// another identity to userID. It is shown as "ABCD-EFGH".
func (s *Store) CreateLinkCode(ctx context.Context, userID int64, ttl time.Duration) (string, error) {
	for range 5 {
		code := newLinkCode()
		_, err := s.pool.Exec(ctx, `INSERT INTO link_codes (code, user_id, expires_at) VALUES ($1, $2, now() + $3::interval)`, code, userID, ttl)
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "23505" {
			continue // taken: draw again
		}
		if err != nil {
			return "", fmt.Errorf("store create link code: %w", translate(err))
		}
		return code[:4] + "-" + code[4:], nil
	}
	return "", fmt.Errorf("store create link code: no free code after 5 draws")
}

// RedeemLinkCode joins the user of the identity that typed code (from)
// to the user who asked for it, once, before it expires: every row of
// from's moves to that user and from is removed, in one transaction. It
// returns the user joined to. A wrong, used or expired code is
// pipeline.ErrNotFound; a code typed by the user it belongs to is an
// *pipeline.InvalidError.
func (s *Store) RedeemLinkCode(ctx context.Context, code string, from int64) (int64, error) {
	var into int64
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `
			UPDATE link_codes SET used_at = now()
			WHERE code = $1 AND used_at IS NULL AND expires_at > now()
			RETURNING user_id`, code).Scan(&into)
		if errors.Is(err, pgx.ErrNoRows) {
			return pipeline.ErrNotFound
		}
		if err != nil {
			return err
		}
		if into == from {
			return pipeline.Invalidf("that code is for this account already")
		}
		for _, table := range ownedTables {
			if _, err := tx.Exec(ctx, `UPDATE `+pgx.Identifier{table}.Sanitize()+` SET user_id = $1 WHERE user_id = $2`, into, from); err != nil {
				return fmt.Errorf("move %s: %w", table, err)
			}
		}
		// The joined user keeps their zone unless they had none.
		if _, err := tx.Exec(ctx, `
			UPDATE users SET timezone = COALESCE(users.timezone, old.timezone), updated_at = now()
			FROM users old WHERE users.id = $1 AND old.id = $2`, into, from); err != nil {
			return fmt.Errorf("keep time zone: %w", err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM users WHERE id = $1`, from); err != nil {
			return fmt.Errorf("remove joined user: %w", err)
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("store redeem link code: %w", err)
	}
	return into, nil
}

// newLinkCode draws a code with at least one digit, so that typed alone it
// cannot be mistaken for a word.
func newLinkCode() string {
	for {
		var b [8]byte
		rand.Read(b[:]) //nolint:errcheck // crypto/rand.Read never fails
		for i := range b {
			b[i] = pipeline.LinkAlphabet[int(b[i])%len(pipeline.LinkAlphabet)]
		}
		if strings.ContainsAny(string(b[:]), "23456789") {
			return string(b[:])
		}
	}
}
