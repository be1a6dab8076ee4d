package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

const noteColumns = `id, user_id, family_id IS NOT NULL, title, body, labels, items, created_at, updated_at`

// noteVisible is the condition that a note is one user ($n) sees and may
// change: their own personal notes, and every note of their family (see
// migrations/00037_family_lists.sql).
func noteVisible(user string) string {
	return `(family_id IS NULL AND user_id = ` + user + ` OR family_id = (SELECT fm.family_id FROM family_members fm WHERE fm.user_id = ` + user + `))`
}

func scanNote(row pgx.Row) (hearth.Note, error) { return scanNoteWith(row) }

// scanNoteWith scans noteColumns, then extra, from row.
func scanNoteWith(row pgx.Row, extra ...any) (hearth.Note, error) {
	var n hearth.Note
	err := row.Scan(append([]any{&n.ID, &n.UserID, &n.Family, &n.Title, &n.Body, &n.Labels, &n.Items, &n.CreatedAt, &n.UpdatedAt}, extra...)...)
	n.Labels, n.Items = nilIfEmpty(n.Labels), nilIfEmpty(n.Items)
	n.CreatedAt, n.UpdatedAt = n.CreatedAt.UTC(), n.UpdatedAt.UTC()
	return n, err
}

// validNote checks and normalises a note about to be written.
func validNote(n hearth.Note) (hearth.Note, error) {
	n.Title, n.Body = strings.TrimSpace(n.Title), strings.TrimSpace(n.Body)
	if n.Title == "" && n.Body == "" && len(n.Items) == 0 {
		return n, hearth.Invalidf("a note needs a title, a body or items")
	}
	labels := make([]string, 0, len(n.Labels))
	for _, l := range n.Labels {
		if l = strings.TrimSpace(l); l != "" {
			labels = append(labels, l)
		}
	}
	n.Labels = nilIfEmpty(labels)
	for i := range n.Items {
		if n.Items[i].Text = strings.TrimSpace(n.Items[i].Text); n.Items[i].Text == "" {
			return n, hearth.Invalidf("checklist item %d is empty", i+1)
		}
	}
	return n, nil
}

// CreateNote adds a note for n.UserID, or, with n.Family, for their
// family (an hearth.ErrInvalid error when they have none). A second call
// with the same key returns the note the first one created and changes
// nothing.
func (s *Store) CreateNote(ctx context.Context, key string, n hearth.Note) (hearth.Note, error) {
	n, err := validNote(n)
	if err != nil {
		return hearth.Note{}, fmt.Errorf("store create note: %w", err)
	}
	if n.UserID <= 0 {
		return hearth.Note{}, fmt.Errorf("store create note: %w", hearth.Invalidf("a note needs a user"))
	}
	var family *int64
	if n.Family {
		err := s.pool.QueryRow(ctx, `SELECT family_id FROM family_members WHERE user_id = $1`, n.UserID).Scan(&family)
		if errors.Is(err, pgx.ErrNoRows) {
			return hearth.Note{}, fmt.Errorf("store create note: %w", hearth.Invalidf("you aren't in a family yet, so there is no family list; say \"start a family\" to make one, or use \"my\" list instead"))
		}
		if err != nil {
			return hearth.Note{}, fmt.Errorf("store create note: %w", translate(err))
		}
	}
	created, err := createOnce(ctx, s, "notes", noteColumns, scanNote, key, n.UserID, `
		INSERT INTO notes (source_key, user_id, family_id, title, body, labels, items)
		VALUES ($1, $2, $7, $3, $4, $5, $6)
		ON CONFLICT (source_key) DO NOTHING
		RETURNING `+noteColumns,
		keyArg(key), n.UserID, n.Title, n.Body, orEmpty(n.Labels), orEmpty(n.Items), family)
	if err != nil {
		return hearth.Note{}, fmt.Errorf("store create note: %w", err)
	}
	return created, nil
}

// AppendNote adds text to the end of a note's body (on a new line) and
// items to its checklist (as hearth.AddItems does: an item already on it
// is not added twice, a ticked one is put back on), in a note userID sees
// (their own or their family's), once per key: a second call with the
// same key changes nothing and returns the before and after of the first,
// so a retried action still records (and can undo) what it did. The key
// is required.
func (s *Store) AppendNote(ctx context.Context, key string, userID, id int64, text string, items []hearth.ChecklistItem) (before, after hearth.Note, err error) {
	text = strings.TrimSpace(text)
	err = func() error {
		if key == "" {
			return hearth.Invalidf("an append needs an idempotency key")
		}
		if text == "" && len(items) == 0 {
			return hearth.Invalidf("nothing to add to the note")
		}
		for i := range items {
			if strings.TrimSpace(items[i].Text) == "" {
				return hearth.Invalidf("checklist item %d is empty", i+1)
			}
		}
		return nil
	}()
	if err != nil {
		return hearth.Note{}, hearth.Note{}, fmt.Errorf("store append note %d: %w", id, err)
	}
	before, after, err = s.appendNote(ctx, key, userID, id, text, items)
	if err != nil {
		return hearth.Note{}, hearth.Note{}, fmt.Errorf("store append note %d: %w", id, err)
	}
	return before, after, nil
}

// appendNote is AppendNote's transaction, in three round trips (a list
// grows by one of these in many turns): BEGIN with the reads, then the
// write with its record, then COMMIT. The note after the append is worked
// out here rather than read back: the update sets exactly what is
// computed, and now() is the transaction's start throughout it.
func (s *Store) appendNote(ctx context.Context, key string, userID, id int64, text string, items []hearth.ChecklistItem) (before, after hearth.Note, err error) {
	var (
		visible, deleted, applied bool
		current                   hearth.Note
		now                       time.Time
	)
	tx, err := s.beginWith(ctx, func(b *pgx.Batch) {
		// The row lock serialises appends to one note, so the check for the
		// key that follows it cannot race with another transaction recording
		// it.
		b.Queue(`SELECT deleted_at IS NOT NULL FROM notes WHERE id = $1 AND `+noteVisible("$2")+` FOR UPDATE`, id, userID).
			QueryRow(func(row pgx.Row) error {
				err := row.Scan(&deleted)
				visible = err == nil
				return noRowsIsNil(err)
			})
		b.Queue(`SELECT before, after FROM note_appends WHERE note_id = $1 AND key = $2`, id, key).
			QueryRow(func(row pgx.Row) error {
				err := row.Scan(&before, &after)
				applied = err == nil
				return noRowsIsNil(err)
			})
		b.Queue(`SELECT `+noteColumns+`, now() FROM notes WHERE id = $1`, id).
			QueryRow(func(row pgx.Row) error {
				var err error
				current, err = scanNoteWith(row, &now)
				return noRowsIsNil(err)
			})
	})
	if err != nil {
		return before, after, err
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // after Commit this is a no-op
	switch {
	case !visible:
		return before, after, fmt.Errorf("note %d: %w", id, hearth.ErrNotFound)
	case applied:
		// Already applied: answer as the first time, even if the note
		// has since been deleted or changed.
		return before, after, nil
	case deleted:
		return before, after, fmt.Errorf("note %d: %w", id, hearth.ErrNotFound)
	}
	before, after = current, current
	if text != "" {
		if after.Body != "" && !strings.HasSuffix(after.Body, "\n") {
			after.Body += "\n"
		}
		after.Body += text
	}
	items, added, reopened, _ := hearth.AddItems(before.Items, items)
	w := &pgx.Batch{}
	if after.Body != before.Body || len(added)+len(reopened) > 0 {
		after.Items = nilIfEmpty(items)
		after.UpdatedAt = now.UTC()
		w.Queue(`UPDATE notes SET body = $2, items = $3, updated_at = now() WHERE id = $1`, id, after.Body, orEmpty(after.Items))
	}
	// An append that changes nothing (everything asked for was on the
	// list) still records its key: a retry answers as this one did.
	w.Queue(`INSERT INTO note_appends (note_id, key, before, after) VALUES ($1, $2, $3, $4)`, id, key, before, after)
	if err := tx.SendBatch(ctx, w).Close(); err != nil {
		return before, after, translate(err)
	}
	return before, after, translate(tx.Commit(ctx))
}

// SetNote overwrites the title, body, labels and checklist of a live note
// n.UserID sees (their own or their family's) with n's: the undo of an append or an edit. The keys of
// appends already applied stay recorded, so an undone append is not
// applied again by a late retry.
func (s *Store) SetNote(ctx context.Context, n hearth.Note) error {
	n, err := validNote(n)
	if err != nil {
		return fmt.Errorf("store set note %d: %w", n.ID, err)
	}
	tag, err := s.pool.Exec(ctx, `
		UPDATE notes SET title = $3, body = $4, labels = $5, items = $6, updated_at = now()
		WHERE id = $1 AND `+noteVisible("$2")+` AND deleted_at IS NULL`,
		n.ID, n.UserID, n.Title, n.Body, orEmpty(n.Labels), orEmpty(n.Items))
	if err != nil {
		return fmt.Errorf("store set note %d: %w", n.ID, constraintErr(translate(err)))
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("store set note %d: %w", n.ID, hearth.ErrNotFound)
	}
	return nil
}

// CheckItems ticks off (done) or back on the checklist items of a note
// userID sees whose texts match texts (ignoring case), once per key: a
// second call with the same key changes nothing and returns the before
// and after of the first, so a retried tick can still be undone. No
// matching item is an hearth.ErrInvalid error.
func (s *Store) CheckItems(ctx context.Context, key string, userID, id int64, texts []string, done bool) (before, after hearth.Note, err error) {
	before, after, err = s.changeItems(ctx, key, userID, id, texts, func(items []hearth.ChecklistItem, hit func(hearth.ChecklistItem) bool) []hearth.ChecklistItem {
		for i := range items {
			if hit(items[i]) {
				items[i].Done = done
			}
		}
		return items
	})
	if err != nil {
		return hearth.Note{}, hearth.Note{}, fmt.Errorf("store check items %d: %w", id, err)
	}
	return before, after, nil
}

// RemoveItems takes the checklist items whose texts match texts (ignoring
// case) off a note userID sees, once per key, as CheckItems ticks them.
func (s *Store) RemoveItems(ctx context.Context, key string, userID, id int64, texts []string) (before, after hearth.Note, err error) {
	before, after, err = s.changeItems(ctx, key, userID, id, texts, func(items []hearth.ChecklistItem, hit func(hearth.ChecklistItem) bool) []hearth.ChecklistItem {
		return slices.DeleteFunc(items, hit)
	})
	if err != nil {
		return hearth.Note{}, hearth.Note{}, fmt.Errorf("store remove items %d: %w", id, err)
	}
	return before, after, nil
}

// changeItems applies change to the checklist of a note userID sees, with
// hit telling the items texts name, once per key (see CheckItems).
func (s *Store) changeItems(ctx context.Context, key string, userID, id int64, texts []string,
	change func(items []hearth.ChecklistItem, hit func(hearth.ChecklistItem) bool) []hearth.ChecklistItem) (before, after hearth.Note, err error) {
	want := map[string]bool{}
	for _, t := range texts {
		if t = strings.ToLower(strings.TrimSpace(t)); t != "" {
			want[t] = true
		}
	}
	if key == "" || len(want) == 0 {
		return before, after, hearth.Invalidf("a change to a list needs an idempotency key and items")
	}
	return s.changeNote(ctx, key, userID, id, func(tx pgx.Tx, before hearth.Note) (hearth.Note, error) {
		hit := func(it hearth.ChecklistItem) bool { return want[strings.ToLower(it.Text)] }
		if !slices.ContainsFunc(before.Items, hit) {
			return hearth.Note{}, hearth.Invalidf("%s isn't on the list", strings.Join(texts, ", "))
		}
		items := change(slices.Clone(before.Items), hit)
		return scanNote(tx.QueryRow(ctx, `UPDATE notes SET items = $2, updated_at = now() WHERE id = $1 RETURNING `+noteColumns, id, orEmpty(items)))
	})
}

// changeNote applies one change to a note userID sees, once per key: the
// note locked, the key's record returned when it was applied before, else
// apply's write recorded with it, in one transaction.
func (s *Store) changeNote(ctx context.Context, key string, userID, id int64, apply func(tx pgx.Tx, before hearth.Note) (hearth.Note, error)) (before, after hearth.Note, err error) {
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		before, err = scanNote(tx.QueryRow(ctx, `SELECT `+noteColumns+` FROM notes
			WHERE id = $1 AND deleted_at IS NULL AND `+noteVisible("$2")+` FOR UPDATE`, id, userID))
		if err != nil {
			return notFound(err, "note", id)
		}
		err = tx.QueryRow(ctx, `SELECT before, after FROM note_appends WHERE note_id = $1 AND key = $2`, id, key).Scan(&before, &after)
		if err == nil || !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		if after, err = apply(tx, before); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO note_appends (note_id, key, before, after) VALUES ($1, $2, $3, $4)`, id, key, before, after)
		return err
	})
	return before, after, err
}

// RenameNote gives a note userID sees (their own or their family's) a new
// title, once per key, as CheckItems changes its items: a second call
// with the same key changes nothing and returns the before and after of
// the first. SetNote with the before undoes it.
func (s *Store) RenameNote(ctx context.Context, key string, userID, id int64, title string) (before, after hearth.Note, err error) {
	if title = strings.TrimSpace(title); key == "" || title == "" {
		return before, after, fmt.Errorf("store rename note %d: %w", id, hearth.Invalidf("a rename needs an idempotency key and a title"))
	}
	before, after, err = s.changeNote(ctx, key, userID, id, func(tx pgx.Tx, _ hearth.Note) (hearth.Note, error) {
		return scanNote(tx.QueryRow(ctx, `UPDATE notes SET title = $2, updated_at = now() WHERE id = $1 RETURNING `+noteColumns, id, title))
	})
	if err != nil {
		return hearth.Note{}, hearth.Note{}, fmt.Errorf("store rename note %d: %w", id, constraintErr(translate(err)))
	}
	return before, after, nil
}

// DeleteNote deletes a note softly and returns it; RestoreNote undoes it.
// Only its creator may: a family list is not deleted by one member.
func (s *Store) DeleteNote(ctx context.Context, userID, id int64) (hearth.Note, error) {
	n, err := softDelete(ctx, s, "notes", noteColumns, scanNote, userID, id)
	if err != nil {
		return hearth.Note{}, fmt.Errorf("store delete note %d: %w", id, err)
	}
	return n, nil
}

// RestoreNote brings back a deleted note. Restoring a note that is not
// deleted does nothing, so a retried undo succeeds.
func (s *Store) RestoreNote(ctx context.Context, userID, id int64) error {
	if err := restore(ctx, s, "notes", userID, id); err != nil {
		return fmt.Errorf("store restore note %d: %w", id, err)
	}
	return nil
}

// FindNotes returns the notes f.UserID sees (their own and their
// family's) matching f. Title matches loosely:
// containing it, ignoring case, or similar to it by trigrams ("shopping"
// finds "Shopping list", "shoping" too); the closest titles come first.
// Query keeps notes where every word of it is in the title, body, labels
// or checklist, or is similar to a word of the title. Otherwise the most recently changed come first. Limit
// defaults to DefaultLimit and is capped at MaxLimit.
func (s *Store) FindNotes(ctx context.Context, f hearth.NoteFilter) ([]hearth.Note, error) {
	if f.UserID <= 0 {
		return nil, fmt.Errorf("store find notes: %w", hearth.Invalidf("a note search needs a user"))
	}
	var w where
	w.add(noteVisible(w.arg(f.UserID)))
	w.add("deleted_at IS NULL")
	order := "updated_at DESC, id DESC"
	if t := strings.TrimSpace(f.Title); t != "" {
		p := w.arg(t)
		w.add("(title ILIKE " + w.arg("%"+likeEscaper.Replace(t)+"%") + " OR " + p + " <% title)")
		order = "word_similarity(" + p + ", title) DESC, " + order
	}
	if q := strings.TrimSpace(f.Query); q != "" {
		// Labels and checklist texts are searched too: the words of a list
		// are what people remember it by ("the list with eggs on it"). Only
		// the items' texts, not the JSON around them, or "done" would match
		// every checklist.
		w.add(w.words(q, []string{"title", "body", "array_to_string(labels, ' ')", "jsonb_path_query_array(items, '$[*].text')::text"}, []string{"title"}))
	}
	rows, err := s.pool.Query(ctx, `SELECT `+noteColumns+` FROM notes WHERE `+w.String()+`
		ORDER BY `+order+`
		LIMIT `+w.arg(limitOf(f.Limit)), w.args...)
	if err != nil {
		return nil, fmt.Errorf("store find notes: %w", translate(err))
	}
	notes, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.Note, error) { return scanNote(r) })
	if err != nil {
		return nil, fmt.Errorf("store find notes: %w", translate(err))
	}
	return notes, nil
}

// noRowsIsNil is a batch callback's answer to a row that may be missing:
// the caller learns it from what the callback did not set.
func noRowsIsNil(err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	return err
}
