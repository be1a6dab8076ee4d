package store

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

// ownedTablesQuery lists every table with a user_id: its rows follow a
// person when two of their identities are linked. Read from the catalogue,
// not kept by hand, so a new table cannot be forgotten (a hand-kept list
// had missed llm_usage and schedule_settings, whose rows the joined user's
// deletion then cascaded away).
const ownedTablesQuery = `
	SELECT table_name FROM information_schema.columns
	WHERE table_schema = current_schema() AND column_name = 'user_id' AND table_name <> 'users'
	ORDER BY table_name`

// CreateLinkCode makes a single-use code, valid for ttl, that joins
// another identity to userID. It is shown as "ABCD-EFGH".
func (s *Store) CreateLinkCode(ctx context.Context, userID int64, ttl time.Duration) (string, error) {
	var code string
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var err error
		code, err = insertCode(ctx, tx, userID, nil, ttl)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("store create link code: %w", constraintErr(err))
	}
	return code, nil
}

// insertCode stores a new one-time code of userID's, valid for ttl: a
// family invitation when familyID is set, else an identity link code. It
// returns the code as shown ("ABCD-EFGH").
func insertCode(ctx context.Context, tx pgx.Tx, userID int64, familyID *int64, ttl time.Duration) (string, error) {
	for range 5 {
		code := newLinkCode()
		tag, err := tx.Exec(ctx, `INSERT INTO link_codes (code, user_id, family_id, expires_at)
			VALUES ($1, $2, $3, now() + $4::interval) ON CONFLICT (code) DO NOTHING`, code, userID, familyID, ttl)
		if err != nil {
			return "", err
		}
		if tag.RowsAffected() == 1 {
			return code[:4] + "-" + code[4:], nil
		}
		// Taken: draw again.
	}
	return "", errors.New("no free code after 5 draws")
}

// RedeemLinkCode joins the user of the identity that typed code (from)
// to the user who asked for it, once, before it expires: every row of
// from's moves to that user and from is removed, in one transaction. It
// returns the user joined to. A wrong, used or expired code is
// hearth.ErrNotFound; a code typed by the user it belongs to is an
// hearth.ErrInvalid error.
func (s *Store) RedeemLinkCode(ctx context.Context, code string, from int64) (int64, error) {
	var into int64
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `
			UPDATE link_codes SET used_at = now()
			WHERE code = $1 AND family_id IS NULL AND used_at IS NULL AND expires_at > now()
			RETURNING user_id`, code).Scan(&into)
		if errors.Is(err, pgx.ErrNoRows) {
			return hearth.ErrNotFound
		}
		if err != nil {
			return err
		}
		if into == from {
			return hearth.Invalidf("that code is for this account already")
		}
		if err := moveFamily(ctx, tx, into, from); err != nil {
			return fmt.Errorf("move family: %w", err)
		}
		// One person has one briefing and one set of scheduling settings:
		// the account joined to keeps its own.
		if _, err := tx.Exec(ctx, `
			WITH settings AS (
				DELETE FROM schedule_settings WHERE user_id = $2 AND EXISTS (SELECT 1 FROM schedule_settings WHERE user_id = $1))
			DELETE FROM schedules WHERE kind = 'briefing' AND item_id = $2`, into, from); err != nil {
			return fmt.Errorf("settle schedules: %w", err)
		}
		rows, err := tx.Query(ctx, ownedTablesQuery)
		if err != nil {
			return fmt.Errorf("owned tables: %w", err)
		}
		tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return fmt.Errorf("owned tables: %w", err)
		}
		for _, table := range tables {
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
			b[i] = hearth.CodeAlphabet[int(b[i])%len(hearth.CodeAlphabet)]
		}
		if strings.ContainsAny(string(b[:]), "23456789") {
			return string(b[:])
		}
	}
}
