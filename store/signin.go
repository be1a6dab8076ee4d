package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

// CreateSession stores a web chat session of userID's: the hash of its
// cookie token and the CSRF token the page sends back, valid for ttl from
// now (the caller's clock, as for every session time).
func (s *Store) CreateSession(ctx context.Context, userID int64, tokenHash []byte, csrf string, now time.Time, ttl time.Duration) error {
	// The user's expired sessions go on the way: nothing else purges them.
	_, err := s.pool.Exec(ctx, `
		WITH gone AS (DELETE FROM web_sessions WHERE user_id = $2 AND expires_at <= $4)
		INSERT INTO web_sessions (token_hash, user_id, csrf_token, expires_at)
		VALUES ($1, $2, $3, $4::timestamptz + $5::interval)`, tokenHash, userID, csrf, now, ttl)
	if err != nil {
		return fmt.Errorf("store create session: %w", constraintErr(err))
	}
	return nil
}

// FindSession returns the user, CSRF token and expiry of a session live
// at now; hearth.ErrNotFound when it does not exist or has expired.
func (s *Store) FindSession(ctx context.Context, tokenHash []byte, now time.Time) (userID int64, csrf string, expiresAt time.Time, err error) {
	err = s.pool.QueryRow(ctx, `SELECT user_id, csrf_token, expires_at FROM web_sessions
		WHERE token_hash = $1 AND expires_at > $2`, tokenHash, now).Scan(&userID, &csrf, &expiresAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, "", time.Time{}, fmt.Errorf("store find session: %w", hearth.ErrNotFound)
	}
	if err != nil {
		return 0, "", time.Time{}, fmt.Errorf("store find session: %w", translate(err))
	}
	return userID, csrf, expiresAt, nil
}

// ExtendSession moves a session's expiry to expiresAt if it is still
// before ifBefore, and reports whether it did: of several replicas
// renewing one session at once, one writes.
func (s *Store) ExtendSession(ctx context.Context, tokenHash []byte, expiresAt, ifBefore time.Time) (bool, error) {
	tag, err := s.pool.Exec(ctx, `UPDATE web_sessions SET expires_at = $2 WHERE token_hash = $1 AND expires_at < $3`,
		tokenHash, expiresAt, ifBefore)
	if err != nil {
		return false, fmt.Errorf("store extend session: %w", translate(err))
	}
	return tag.RowsAffected() == 1, nil
}

// DeleteSession ends one session (sign out on this device).
func (s *Store) DeleteSession(ctx context.Context, tokenHash []byte) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM web_sessions WHERE token_hash = $1`, tokenHash); err != nil {
		return fmt.Errorf("store delete session: %w", translate(err))
	}
	return nil
}

// DeleteSessions ends every session of a user (sign out everywhere) and
// returns how many there were.
func (s *Store) DeleteSessions(ctx context.Context, userID int64) (int64, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM web_sessions WHERE user_id = $1`, userID)
	if err != nil {
		return 0, fmt.Errorf("store delete sessions: %w", translate(err))
	}
	return tag.RowsAffected(), nil
}

// CreateSigninLink stores a one-time sign-in link of userID's by the hash
// of its token, valid for ttl.
func (s *Store) CreateSigninLink(ctx context.Context, userID int64, tokenHash []byte, ttl time.Duration) error {
	// Links expired a day ago go on the way (kept a day to tell "used"
	// from "wrong" in logs while it matters).
	_, err := s.pool.Exec(ctx, `
		WITH gone AS (DELETE FROM signin_links WHERE user_id = $2 AND expires_at < now() - interval '1 day')
		INSERT INTO signin_links (token_hash, user_id, expires_at)
		VALUES ($1, $2, now() + $3::interval)`, tokenHash, userID, ttl)
	if err != nil {
		return fmt.Errorf("store create sign-in link: %w", constraintErr(err))
	}
	return nil
}

// RedeemSigninLink uses a sign-in link once, before it expires, and
// returns its user. A wrong, used or expired link is hearth.ErrNotFound.
func (s *Store) RedeemSigninLink(ctx context.Context, tokenHash []byte) (int64, error) {
	var userID int64
	err := s.pool.QueryRow(ctx, `UPDATE signin_links SET used_at = now()
		WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
		RETURNING user_id`, tokenHash).Scan(&userID)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, fmt.Errorf("store redeem sign-in link: %w", hearth.ErrNotFound)
	}
	if err != nil {
		return 0, fmt.Errorf("store redeem sign-in link: %w", translate(err))
	}
	return userID, nil
}

// AddPasskey stores a user's passkey: its credential id and the
// credential as the WebAuthn library encodes it.
func (s *Store) AddPasskey(ctx context.Context, userID int64, credentialID []byte, credential json.RawMessage) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO passkeys (credential_id, user_id, credential) VALUES ($1, $2, $3)`,
		credentialID, userID, credential)
	if err != nil {
		return fmt.Errorf("store add passkey: %w", constraintErr(err))
	}
	return nil
}

// Passkeys returns a user's passkeys, oldest first.
func (s *Store) Passkeys(ctx context.Context, userID int64) ([]json.RawMessage, error) {
	rows, err := s.pool.Query(ctx, `SELECT credential FROM passkeys WHERE user_id = $1 ORDER BY created_at, credential_id`, userID)
	if err != nil {
		return nil, fmt.Errorf("store passkeys: %w", translate(err))
	}
	keys, err := pgx.CollectRows(rows, pgx.RowTo[json.RawMessage])
	if err != nil {
		return nil, fmt.Errorf("store passkeys: %w", translate(err))
	}
	return keys, nil
}

// PasskeyOwner returns the user a passkey belongs to;
// hearth.ErrNotFound when it is not known.
func (s *Store) PasskeyOwner(ctx context.Context, credentialID []byte) (int64, error) {
	var userID int64
	err := s.pool.QueryRow(ctx, `SELECT user_id FROM passkeys WHERE credential_id = $1`, credentialID).Scan(&userID)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, fmt.Errorf("store passkey owner: %w", hearth.ErrNotFound)
	}
	if err != nil {
		return 0, fmt.Errorf("store passkey owner: %w", translate(err))
	}
	return userID, nil
}

// UsePasskey stores a passkey's credential after a sign-in (its sign
// count moves on) and when it was used.
func (s *Store) UsePasskey(ctx context.Context, credentialID []byte, credential json.RawMessage) error {
	_, err := s.pool.Exec(ctx, `UPDATE passkeys SET credential = $2, last_used_at = now() WHERE credential_id = $1`,
		credentialID, credential)
	if err != nil {
		return fmt.Errorf("store use passkey: %w", translate(err))
	}
	return nil
}

// SaveCeremony keeps the server half of a passkey ceremony (for userID,
// or 0 for a sign-in whose user is not known yet) for ttl.
func (s *Store) SaveCeremony(ctx context.Context, id string, userID int64, data json.RawMessage, ttl time.Duration) error {
	var owner *int64
	if userID != 0 {
		owner = &userID
	}
	_, err := s.pool.Exec(ctx, `
		WITH gone AS (DELETE FROM passkey_ceremonies WHERE expires_at < now() - interval '1 hour')
		INSERT INTO passkey_ceremonies (id, user_id, data, expires_at) VALUES ($1, $2, $3, now() + $4::interval)`,
		id, owner, data, ttl)
	if err != nil {
		return fmt.Errorf("store save ceremony: %w", constraintErr(err))
	}
	return nil
}

// TakeCeremony returns and removes a live ceremony: each is finished at
// most once. A wrong or expired id is hearth.ErrNotFound.
func (s *Store) TakeCeremony(ctx context.Context, id string) (userID int64, data json.RawMessage, err error) {
	var owner *int64
	err = s.pool.QueryRow(ctx, `DELETE FROM passkey_ceremonies WHERE id = $1 AND expires_at > now()
		RETURNING user_id, data`, id).Scan(&owner, &data)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil, fmt.Errorf("store take ceremony: %w", hearth.ErrNotFound)
	}
	if err != nil {
		return 0, nil, fmt.Errorf("store take ceremony: %w", translate(err))
	}
	if owner != nil {
		userID = *owner
	}
	return userID, data, nil
}

// CountAttempt counts one sign-in attempt under key in fixed windows of
// the given length and returns the attempts in the current window,
// this one included, at now (the caller's clock). Every replica counts in
// the same row.
func (s *Store) CountAttempt(ctx context.Context, key string, now time.Time, window time.Duration) (int, error) {
	var n int
	err := s.pool.QueryRow(ctx, `
		INSERT INTO signin_attempts AS a (key, window_start, attempts) VALUES ($1, $3, 1)
		ON CONFLICT (key) DO UPDATE SET
			window_start = CASE WHEN a.window_start <= $3::timestamptz - $2::interval THEN $3 ELSE a.window_start END,
			attempts     = CASE WHEN a.window_start <= $3::timestamptz - $2::interval THEN 1 ELSE a.attempts + 1 END
		RETURNING attempts`, key, window, now).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store count attempt: %w", translate(err))
	}
	return n, nil
}

// CountUsers returns how many users there are: none on a fresh install.
func (s *Store) CountUsers(ctx context.Context) (int, error) {
	var n int
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM users`).Scan(&n); err != nil {
		return 0, fmt.Errorf("store count users: %w", translate(err))
	}
	return n, nil
}

// AddWebUser creates a user who signs in to the web chat as name (their
// web chat identity is the name in lower case, as the development
// sign-in keys it). A name already taken is a hearth.ErrConflict error.
func (s *Store) AddWebUser(ctx context.Context, name string) (hearth.Contact, error) {
	key := strings.ToLower(name)
	var c hearth.Contact
	err := retryRace(func() error {
		return s.inTx(ctx, func(tx pgx.Tx) error {
			var taken bool
			if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM identities WHERE channel = $1 AND external_id = $2)`,
				hearth.ChannelWebchat, key).Scan(&taken); err != nil {
				return err
			}
			if taken {
				return hearth.Errorf(hearth.EConflict, "a user called %q exists already", name)
			}
			var err error
			c, err = upsertContact(ctx, tx, hearth.ChannelWebchat, key, name, key, "")
			return err
		})
	})
	if err != nil {
		return hearth.Contact{}, fmt.Errorf("store add web user: %w", err)
	}
	return c, nil
}

// firstUserLock serialises the making of the first account.
const firstUserLock = 0x48656173 // "Heas"

// AddFirstUser creates the first user of a fresh install, like
// AddWebUser, only while there is no user at all: of two concurrent
// first sign-ins one wins, the other is a hearth.ErrConflict error.
func (s *Store) AddFirstUser(ctx context.Context, name string) (hearth.Contact, error) {
	key := strings.ToLower(name)
	var c hearth.Contact
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, firstUserLock); err != nil {
			return err
		}
		var any bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM users)`).Scan(&any); err != nil {
			return err
		}
		if any {
			return hearth.Errorf(hearth.EConflict, "Hearth has users already")
		}
		var err error
		c, err = upsertContact(ctx, tx, hearth.ChannelWebchat, key, name, key, "")
		return err
	})
	if err != nil {
		return hearth.Contact{}, fmt.Errorf("store add first user: %w", translate(err))
	}
	return c, nil
}

// FindUserByName returns the user called name: the one whose web chat
// name it is, else the only user with that display name (any case).
// hearth.ErrNotFound when there is none; hearth.ErrConflict when several
// users share the name.
func (s *Store) FindUserByName(ctx context.Context, name string) (hearth.User, error) {
	rows, err := s.pool.Query(ctx, `
		(SELECT u.id, u.display_name, coalesce(u.timezone, ''), 0 AS rank FROM identities i JOIN users u ON u.id = i.user_id
		 WHERE i.channel = $1 AND i.external_id = lower($2))
		UNION ALL
		(SELECT id, display_name, coalesce(timezone, ''), 1 FROM users WHERE lower(display_name) = lower($2))
		ORDER BY rank, id`, hearth.ChannelWebchat, name)
	if err != nil {
		return hearth.User{}, fmt.Errorf("store find user by name: %w", translate(err))
	}
	type found struct {
		u    hearth.User
		rank int
	}
	all, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (found, error) {
		var f found
		err := r.Scan(&f.u.ID, &f.u.DisplayName, &f.u.Timezone, &f.rank)
		return f, err
	})
	if err != nil {
		return hearth.User{}, fmt.Errorf("store find user by name: %w", translate(err))
	}
	switch {
	case len(all) == 0:
		return hearth.User{}, fmt.Errorf("store find user by name %q: %w", name, hearth.ErrNotFound)
	case all[0].rank == 0:
		return all[0].u, nil
	case len(all) > 1:
		return hearth.User{}, fmt.Errorf("store find user by name: %w", hearth.Errorf(hearth.EConflict, "%d users are called %q; use their web chat name", len(all), name))
	}
	return all[0].u, nil
}

// WebContact returns a user's web chat identity key and their web chat
// conversation, creating both for a user who came from another channel
// (signed in by a link sent there).
func (s *Store) WebContact(ctx context.Context, userID int64) (string, hearth.Contact, error) {
	key, err := s.IdentityKey(ctx, userID, hearth.ChannelWebchat)
	if err == nil {
		// The usual case, on every request of a session: two reads.
		if c, ferr := s.FindContact(ctx, hearth.ChannelWebchat, key, key); ferr == nil {
			return key, c, nil
		}
	}
	if errors.Is(err, hearth.ErrNotFound) {
		key = "user:" + strconv.FormatInt(userID, 10)
		_, err = s.pool.Exec(ctx, `INSERT INTO identities (channel, external_id, user_id, display_name)
			SELECT $1, $2, id, display_name FROM users WHERE id = $3 ON CONFLICT DO NOTHING`,
			hearth.ChannelWebchat, key, userID)
	}
	if err != nil {
		return "", hearth.Contact{}, fmt.Errorf("store web contact: %w", translate(err))
	}
	var c hearth.Contact
	err = retryRace(func() error {
		return s.inTx(ctx, func(tx pgx.Tx) error {
			var name string
			if err := tx.QueryRow(ctx, `SELECT display_name FROM users WHERE id = $1`, userID).Scan(&name); err != nil {
				return err
			}
			var err error
			c, err = upsertContact(ctx, tx, hearth.ChannelWebchat, key, name, key, "")
			return err
		})
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return "", hearth.Contact{}, fmt.Errorf("store web contact: user %d: %w", userID, hearth.ErrNotFound)
	}
	if err != nil {
		return "", hearth.Contact{}, fmt.Errorf("store web contact: %w", translate(err))
	}
	return key, c, nil
}
