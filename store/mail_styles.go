package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

// Mail styles: how each user writes email (see
// migrations/00036_mail_styles.sql).

// MailStyle returns userID's style, or the zero style (with UserID set)
// when none is known.
func (s *Store) MailStyle(ctx context.Context, userID int64) (hearth.MailStyle, error) {
	st := hearth.MailStyle{UserID: userID}
	err := s.pool.QueryRow(ctx, `SELECT greeting, sign_off, length, formality, updated_at FROM mail_styles WHERE user_id = $1`, userID).
		Scan(&st.Greeting, &st.SignOff, &st.Length, &st.Formality, &st.UpdatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return st, nil
	}
	if err != nil {
		return st, fmt.Errorf("store mail style %d: %w", userID, translate(err))
	}
	st.UpdatedAt = st.UpdatedAt.UTC()
	return st, nil
}

// SetMailStyle stores st as its user's style, replacing any before.
func (s *Store) SetMailStyle(ctx context.Context, st hearth.MailStyle) (hearth.MailStyle, error) {
	switch {
	case st.UserID <= 0:
		return st, fmt.Errorf("store set mail style: %w", hearth.Invalidf("a mail style needs a user"))
	case st.Formality < 0 || st.Formality > 5:
		return st, fmt.Errorf("store set mail style: %w", hearth.Invalidf("formality must be 0 to 5"))
	case st.Length < 0:
		return st, fmt.Errorf("store set mail style: %w", hearth.Invalidf("length must not be negative"))
	}
	err := s.pool.QueryRow(ctx, `
		INSERT INTO mail_styles (user_id, greeting, sign_off, length, formality) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (user_id) DO UPDATE SET greeting = EXCLUDED.greeting, sign_off = EXCLUDED.sign_off,
			length = EXCLUDED.length, formality = EXCLUDED.formality, updated_at = now()
		RETURNING updated_at`, st.UserID, st.Greeting, st.SignOff, st.Length, st.Formality).Scan(&st.UpdatedAt)
	if err != nil {
		return st, fmt.Errorf("store set mail style: %w", constraintErr(translate(err)))
	}
	st.UpdatedAt = st.UpdatedAt.UTC()
	return st, nil
}
