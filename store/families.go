package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

// Families: a user belongs to at most one; inside it, access grants say
// how much of a member's data each other member sees (see
// migrations/00010_families.sql). Every read of another member's data
// joins the membership and the grant, so the permission is decided by
// the query.

// CreateFamilyInvite makes a single-use code, valid for ttl, that admits
// whoever types it to userID's family, starting a family ("Ann's
// family", with userID its only member) first if userID has none. Both
// happen in one transaction.
func (s *Store) CreateFamilyInvite(ctx context.Context, userID int64, ttl time.Duration) (hearth.FamilyInvite, error) {
	var inv hearth.FamilyInvite
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var fid int64
		err := tx.QueryRow(ctx, `SELECT family_id FROM family_members WHERE user_id = $1`, userID).Scan(&fid)
		if errors.Is(err, pgx.ErrNoRows) {
			// Two chats of one person starting a family at once: the
			// second insert of the member conflicts and rolls back.
			err = tx.QueryRow(ctx, `
				WITH f AS (INSERT INTO families (name) SELECT display_name || '''s family' FROM users WHERE id = $1 RETURNING id)
				INSERT INTO family_members (family_id, user_id) SELECT id, $1 FROM f RETURNING family_id`, userID).Scan(&fid)
			if errors.Is(err, pgx.ErrNoRows) {
				return fmt.Errorf("user %d: %w", userID, hearth.ErrNotFound)
			}
			inv.Started = true
		}
		if err != nil {
			return err
		}
		if inv.Code, err = insertCode(ctx, tx, userID, &fid, ttl); err != nil {
			return err
		}
		inv.Family, err = readFamily(ctx, tx, userID)
		return err
	})
	if err != nil {
		return hearth.FamilyInvite{}, fmt.Errorf("store create family invite: %w", constraintErr(err))
	}
	return inv, nil
}

// JoinFamily admits userID to the family of an invitation code (as
// stored: see hearth.NormaliseCode), once, before it expires, while
// its inviter is still a member. Every pair of the newcomer and a member
// gets hearth.DefaultFamilyTier both ways (replacing any left from an
// earlier membership). It returns the family joined.
// A wrong, used or expired code is hearth.ErrNotFound (and so is a
// /link code); the inviter's own code, or a user already in a family, is
// an hearth.ErrInvalid error, and the code stays unused.
func (s *Store) JoinFamily(ctx context.Context, code string, userID int64) (hearth.Family, error) {
	var f hearth.Family
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var inviter, fid int64
		err := tx.QueryRow(ctx, `
			UPDATE link_codes c SET used_at = now()
			WHERE code = $1 AND family_id IS NOT NULL AND used_at IS NULL AND expires_at > now()
			  AND EXISTS (SELECT 1 FROM family_members m WHERE m.family_id = c.family_id AND m.user_id = c.user_id)
			RETURNING user_id, family_id`, code).Scan(&inviter, &fid)
		if errors.Is(err, pgx.ErrNoRows) {
			return hearth.ErrNotFound
		}
		if err != nil {
			return err
		}
		if inviter == userID {
			return hearth.Invalidf("that invitation is yours: it has to be sent from the other person's chat")
		}
		// Joins and leaves of one family take turns, so two people joining
		// at once each see the other when the grants are written.
		if _, err := tx.Exec(ctx, `SELECT 1 FROM families WHERE id = $1 FOR UPDATE`, fid); err != nil {
			return err
		}
		var current int64
		err = tx.QueryRow(ctx, `
			INSERT INTO family_members (family_id, user_id) VALUES ($1, $2)
			ON CONFLICT (user_id) DO NOTHING RETURNING family_id`, fid, userID).Scan(&current)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			if err := tx.QueryRow(ctx, `SELECT family_id FROM family_members WHERE user_id = $1`, userID).Scan(&current); err != nil {
				return err
			}
			if current == fid {
				return hearth.Invalidf("you are in this family already")
			}
			return hearth.Invalidf("you are in another family already")
		case err != nil:
			return constraintErr(err)
		}
		if _, err := tx.Exec(ctx, `
			INSERT INTO access_grants (target_id, viewer_id, tier)
			SELECT $2, m.user_id, $3::smallint FROM family_members m WHERE m.family_id = $1 AND m.user_id <> $2
			UNION ALL
			SELECT m.user_id, $2, $3::smallint FROM family_members m WHERE m.family_id = $1 AND m.user_id <> $2
			ON CONFLICT (target_id, viewer_id) DO UPDATE SET tier = EXCLUDED.tier, updated_at = now()`,
			fid, userID, int16(hearth.DefaultFamilyTier)); err != nil {
			return fmt.Errorf("default grants: %w", err)
		}
		f, err = readFamily(ctx, tx, userID)
		return err
	})
	if err != nil {
		return hearth.Family{}, fmt.Errorf("store join family: %w", err)
	}
	return f, nil
}

// LeaveFamily takes userID out of their family, with every grant they
// gave or received, and returns the family as it was before (a family
// left empty is deleted, with its pending invitations). A user in no
// family is hearth.ErrNotFound.
func (s *Store) LeaveFamily(ctx context.Context, userID int64) (hearth.Family, error) {
	var f hearth.Family
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		// Joins and leaves of one family take turns (see JoinFamily).
		if _, err := tx.Exec(ctx, `SELECT 1 FROM families f JOIN family_members m ON m.family_id = f.id
			WHERE m.user_id = $1 FOR UPDATE OF f`, userID); err != nil {
			return err
		}
		var err error
		if f, err = readFamily(ctx, tx, userID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM family_members WHERE user_id = $1`, userID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM access_grants WHERE target_id = $1 OR viewer_id = $1`, userID); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM families f WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM family_members m WHERE m.family_id = f.id)`, f.ID)
		return err
	})
	if err != nil {
		return hearth.Family{}, fmt.Errorf("store leave family: %w", err)
	}
	return f, nil
}

// FindFamily returns userID's family; hearth.ErrNotFound when they have
// none.
func (s *Store) FindFamily(ctx context.Context, userID int64) (hearth.Family, error) {
	f, err := readFamily(ctx, s.pool, userID)
	if err != nil {
		return hearth.Family{}, fmt.Errorf("store find family: %w", translate(err))
	}
	return f, nil
}

// readFamily reads userID's family and the grants both ways with each
// other member, in one round trip: the two reads are one batch, which
// runs in one transaction (db's, or an implicit one of its own), so the
// members are those of the family read.
func readFamily(ctx context.Context, db interface {
	SendBatch(context.Context, *pgx.Batch) pgx.BatchResults
}, userID int64) (hearth.Family, error) {
	var f hearth.Family
	found := false
	b := &pgx.Batch{}
	// No family is not an error of the batch: pgx forgets the prepared
	// statements of a batch that fails, so a user without a family would
	// have both statements parsed and planned again on every read.
	b.Queue(`SELECT f.id, f.name FROM families f JOIN family_members m ON m.family_id = f.id WHERE m.user_id = $1`, userID).
		QueryRow(func(row pgx.Row) error {
			err := row.Scan(&f.ID, &f.Name)
			found = err == nil
			return noRowsIsNil(err)
		})
	b.Queue(`
		SELECT u.id, u.display_name, COALESCE(mine.tier, 0), COALESCE(theirs.tier, 0)
		FROM family_members m
		JOIN users u ON u.id = m.user_id
		LEFT JOIN access_grants mine ON mine.target_id = $1 AND mine.viewer_id = m.user_id
		LEFT JOIN access_grants theirs ON theirs.target_id = m.user_id AND theirs.viewer_id = $1
		WHERE m.family_id = (SELECT family_id FROM family_members WHERE user_id = $1) AND m.user_id <> $1
		ORDER BY m.joined_at, u.id`, userID).
		Query(func(rows pgx.Rows) error {
			var err error
			f.Members, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.FamilyMember, error) {
				var m hearth.FamilyMember
				var sees, shows int16
				err := r.Scan(&m.UserID, &m.Name, &sees, &shows)
				m.Sees, m.Shows = hearth.Tier(sees), hearth.Tier(shows)
				return m, err
			})
			return err
		})
	if err := db.SendBatch(ctx, b).Close(); err != nil {
		return hearth.Family{}, err
	}
	if !found {
		return hearth.Family{}, fmt.Errorf("family of user %d: %w", userID, hearth.ErrNotFound)
	}
	return f, nil
}

// SetAccessGrant sets how much of targetID's data viewerID sees. Both
// must be in one family; otherwise it is hearth.ErrNotFound.
func (s *Store) SetAccessGrant(ctx context.Context, targetID, viewerID int64, tier hearth.Tier) error {
	switch {
	case !tier.Valid():
		return fmt.Errorf("store set access grant: %w", hearth.Invalidf("an access tier is 1 to 4, not %d", tier))
	case targetID == viewerID:
		return fmt.Errorf("store set access grant: %w", hearth.Invalidf("you always see all of your own things"))
	}
	tag, err := s.pool.Exec(ctx, `
		INSERT INTO access_grants (target_id, viewer_id, tier)
		SELECT $1, $2, $3 FROM family_members t JOIN family_members v ON v.family_id = t.family_id
		WHERE t.user_id = $1 AND v.user_id = $2
		FOR SHARE -- a concurrent leave waits, and then deletes this grant too
		ON CONFLICT (target_id, viewer_id) DO UPDATE SET tier = EXCLUDED.tier, updated_at = now()`,
		targetID, viewerID, int16(tier))
	if err != nil {
		return fmt.Errorf("store set access grant: %w", constraintErr(translate(err)))
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("store set access grant: user %d is not in user %d's family: %w", viewerID, targetID, hearth.ErrNotFound)
	}
	return nil
}

// familyEventsQuery is the permission-aware read of family members'
// events: those of the viewer ($1) family's other members whose grant to
// the viewer shows events (tier <= hearth.TierEvents), overlapping
// [$2, $3), at most $4 per member, by member and start.
var familyEventsQuery = `
	SELECT u.display_name, COALESCE(u.timezone, ''), e.*
	FROM family_members me
	JOIN family_members them ON them.family_id = me.family_id AND them.user_id <> me.user_id
	JOIN access_grants g ON g.target_id = them.user_id AND g.viewer_id = me.user_id AND g.tier <= ` + tierEvents + `
	JOIN users u ON u.id = them.user_id
	CROSS JOIN LATERAL (
		SELECT ` + eventColumns + ` FROM events
		WHERE user_id = them.user_id AND deleted_at IS NULL AND starts_at < $3 AND (ends_at > $2 OR starts_at >= $2)
		ORDER BY starts_at, id LIMIT $4) e
	WHERE me.user_id = $1
	ORDER BY lower(u.display_name), u.id, e.starts_at, e.id`

var tierEvents = strconv.Itoa(int(hearth.TierEvents))

func scanFamilyEvents(rows pgx.Rows) ([]hearth.FamilyEvent, error) {
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.FamilyEvent, error) {
		var fe hearth.FamilyEvent
		e := &fe.CalendarEvent
		err := r.Scan(append([]any{&fe.Member, &fe.MemberZone}, eventFields(e)...)...)
		*e = tidyEvent(*e)
		return fe, err
	})
}

// FamilyEvents returns the events overlapping [from, to) of the members
// of viewerID's family who let viewerID see their events (a grant of
// hearth.TierEvents or more private), at most perMember each (default
// 10), grouped by member (by name) and by start. A user in no family
// sees none.
func (s *Store) FamilyEvents(ctx context.Context, viewerID int64, from, to time.Time, perMember int) ([]hearth.FamilyEvent, error) {
	if to.Before(from) {
		return nil, fmt.Errorf("store family events: %w", hearth.Invalidf("the window ends before it starts"))
	}
	if perMember <= 0 {
		perMember = 10
	}
	rows, err := s.pool.Query(ctx, familyEventsQuery, viewerID, from, to, perMember)
	if err != nil {
		return nil, fmt.Errorf("store family events: %w", translate(err))
	}
	evs, err := scanFamilyEvents(rows)
	if err != nil {
		return nil, fmt.Errorf("store family events: %w", translate(err))
	}
	return evs, nil
}

// moveFamily settles family membership when identity from is linked into
// user into, before family_members moves with the other owned tables:
// into keeps a family of its own, and from then leaves its (its grants
// go, and its family too if it was alone in it); otherwise from's
// membership and grants become into's.
func moveFamily(ctx context.Context, tx pgx.Tx, into, from int64) error {
	if _, err := tx.Exec(ctx, `
		WITH gone AS (
			DELETE FROM family_members WHERE user_id = $2 AND EXISTS (SELECT 1 FROM family_members WHERE user_id = $1)
			RETURNING family_id)
		DELETE FROM families f USING gone
		WHERE f.id = gone.family_id AND NOT EXISTS (SELECT 1 FROM family_members m WHERE m.family_id = f.id AND m.user_id <> $2)`,
		into, from); err != nil {
		return err
	}
	// from's grants go when it has left its family above.
	if _, err := tx.Exec(ctx, `DELETE FROM access_grants WHERE (target_id = $1 OR viewer_id = $1)
		AND NOT EXISTS (SELECT 1 FROM family_members WHERE user_id = $1)`, from); err != nil {
		return err
	}
	for _, q := range []string{
		`UPDATE access_grants SET target_id = $1 WHERE target_id = $2`,
		`UPDATE access_grants SET viewer_id = $1 WHERE viewer_id = $2`,
	} {
		if _, err := tx.Exec(ctx, q, into, from); err != nil {
			return err
		}
	}
	return nil
}
