package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

// notExported are tables with a user_id whose rows are credentials or
// short-lived sign-in state, not the person's data: an export leaves them
// out.
var notExported = map[string]bool{
	"web_sessions": true, "signin_links": true, "passkey_ceremonies": true, "link_codes": true,
}

// ExportUser returns everything Hearth holds about a user as one JSON
// document: the user, their transcripts, and their rows of every table
// with a user_id (read from the catalogue, so a new table is included
// without being listed here), credentials and sign-in state left out.
// An unknown user is hearth.ErrNotFound.
func (s *Store) ExportUser(ctx context.Context, userID int64) (json.RawMessage, error) {
	doc := map[string]json.RawMessage{}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		// One snapshot: the export is consistent even while the user talks.
		if _, err := tx.Exec(ctx, `SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY`); err != nil {
			return err
		}
		var user json.RawMessage
		err := tx.QueryRow(ctx, `SELECT row_to_json(u) FROM users u WHERE id = $1`, userID).Scan(&user)
		if errors.Is(err, pgx.ErrNoRows) {
			return hearth.ErrNotFound
		}
		if err != nil {
			return err
		}
		doc["user"] = user
		var msgs json.RawMessage
		if err := tx.QueryRow(ctx, `
			SELECT coalesce(json_agg(m ORDER BY m.id), '[]') FROM messages m
			JOIN conversations c ON c.id = m.conversation_id WHERE c.user_id = $1`, userID).Scan(&msgs); err != nil {
			return fmt.Errorf("messages: %w", err)
		}
		doc["messages"] = msgs
		rows, err := tx.Query(ctx, ownedTablesQuery)
		if err != nil {
			return fmt.Errorf("owned tables: %w", err)
		}
		tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return fmt.Errorf("owned tables: %w", err)
		}
		for _, table := range tables {
			if notExported[table] {
				continue
			}
			var data json.RawMessage
			q := `SELECT coalesce(json_agg(t), '[]') FROM ` + pgx.Identifier{table}.Sanitize() + ` t WHERE user_id = $1`
			if err := tx.QueryRow(ctx, q, userID).Scan(&data); err != nil {
				return fmt.Errorf("export %s: %w", table, err)
			}
			doc[table] = data
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store export user %d: %w", userID, translate(err))
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("store export user %d: %w", userID, err)
	}
	return out, nil
}

// DeleteUser removes a user and everything of theirs (their rows of every
// table go with them), except what belongs to their family: facts owned
// by the family stay, now attributed to the family's longest-standing
// other member. An unknown user is hearth.ErrNotFound.
func (s *Store) DeleteUser(ctx context.Context, userID int64) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `
			UPDATE facts f SET user_id = heir.user_id
			FROM (SELECT DISTINCT ON (fm.family_id) fm.family_id, fm.user_id FROM family_members fm
			      WHERE fm.user_id <> $1 ORDER BY fm.family_id, fm.joined_at, fm.user_id) heir
			WHERE f.user_id = $1 AND f.family_id = heir.family_id`, userID); err != nil {
			return fmt.Errorf("keep family facts: %w", err)
		}
		tag, err := tx.Exec(ctx, `DELETE FROM users WHERE id = $1`, userID)
		if err != nil {
			return fmt.Errorf("delete: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return hearth.ErrNotFound
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store delete user %d: %w", userID, translate(err))
	}
	return nil
}
