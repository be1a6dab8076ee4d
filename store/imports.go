package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

// Imports: a file brought in, the conversation about it, and the rows it
// wrote, each tagged with its id (migration 00040). One transaction
// writes a whole import, so it lands entirely or not at all; undo takes
// back exactly the rows tagged with it and restores what it merged.

// fileLine is a file's line in the transcript.
func fileLine(in hearth.Inbound) string {
	name := "a file"
	if in.File != nil && in.File.Name != "" {
		name = in.File.Name
	}
	return "(file: " + name + ")"
}

// insertImportFile stores a file event's reference, or the upload
// itself, inside the ingress transaction.
func insertImportFile(ctx context.Context, tx pgx.Tx, eventID int64, ref *hearth.FileRef) error {
	if ref == nil {
		return hearth.Invalidf("a file event needs its file")
	}
	var content []byte
	if ref.Data != nil {
		content = ref.Data
	}
	_, err := tx.Exec(ctx, `
		INSERT INTO import_files (event_id, file_id, url, size_bytes, mime_type, file_name, content)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		eventID, ref.FileID, ref.URL, ref.Size, ref.MIME, ref.Name, content)
	if err != nil {
		return fmt.Errorf("insert import file: %w", err)
	}
	return nil
}

// ImportFile returns a file event's reference, with Data set when the
// file is stored (uploaded with the event, or downloaded since). An
// event without a file is hearth.ErrNotFound.
func (s *Store) ImportFile(ctx context.Context, eventID int64) (hearth.FileRef, error) {
	var f hearth.FileRef
	err := s.pool.QueryRow(ctx, `
		SELECT file_id, url, size_bytes, mime_type, file_name, content FROM import_files WHERE event_id = $1`, eventID).
		Scan(&f.FileID, &f.URL, &f.Size, &f.MIME, &f.Name, &f.Data)
	if err != nil {
		return f, fmt.Errorf("store import file %d: %w", eventID, translate(notFound(err, "file of event", eventID)))
	}
	return f, nil
}

// SetImportFileContent keeps a downloaded file with its event, so a
// retried turn and the commit read the same bytes without downloading
// them again.
func (s *Store) SetImportFileContent(ctx context.Context, eventID int64, data []byte) error {
	if data == nil {
		data = []byte{}
	}
	tag, err := s.pool.Exec(ctx, `UPDATE import_files SET content = $2, size_bytes = $3 WHERE event_id = $1`, eventID, data, len(data))
	if err != nil {
		return fmt.Errorf("store set import file %d: %w", eventID, translate(err))
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("store set import file %d: %w", eventID, hearth.ErrNotFound)
	}
	return nil
}

const importColumns = `id, user_id, conversation_id, event_id, file_name, signature, plan, state, steps, counts, expires_at, created_at`

func scanImport(row pgx.Row) (hearth.Import, error) {
	var im hearth.Import
	var state string
	err := row.Scan(&im.ID, &im.UserID, &im.ConversationID, &im.EventID, &im.FileName, &im.Signature, &im.Plan, &state, &im.Steps, &im.Counts, &im.ExpiresAt, &im.CreatedAt)
	im.State = hearth.ImportState(state)
	im.ExpiresAt, im.CreatedAt = im.ExpiresAt.UTC(), im.CreatedAt.UTC()
	return im, err
}

// CreateImport starts the import of a file event, or returns the one a
// previous attempt at the same event started. A new import sets aside
// (expires) the user's earlier open ones in the conversation, whose
// buttons then say so: one file at a time per chat.
func (s *Store) CreateImport(ctx context.Context, im hearth.Import) (hearth.Import, error) {
	if len(im.Plan) == 0 {
		im.Plan = json.RawMessage("{}")
	}
	if im.State == "" {
		im.State = hearth.ImportAsking
	}
	var got hearth.Import
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var err error
		got, err = scanImport(tx.QueryRow(ctx, `
			WITH ins AS (
				INSERT INTO imports (user_id, conversation_id, event_id, file_name, signature, plan, state, expires_at)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
				ON CONFLICT (event_id) DO NOTHING
				RETURNING `+importColumns+`
			)
			SELECT `+importColumns+` FROM ins
			UNION ALL
			SELECT `+importColumns+` FROM imports WHERE event_id = $3 AND NOT EXISTS (SELECT 1 FROM ins)`,
			im.UserID, im.ConversationID, im.EventID, im.FileName, im.Signature, im.Plan, string(im.State), im.ExpiresAt))
		if err != nil {
			return constraintErr(err)
		}
		rows, err := tx.Query(ctx, `
			UPDATE imports SET state = 'expired', updated_at = now()
			WHERE conversation_id = $1 AND user_id = $2 AND state IN ('asking', 'ready') AND id < $3
			RETURNING event_id`, got.ConversationID, got.UserID, got.ID)
		if err != nil {
			return err
		}
		events, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil {
			return err
		}
		for _, e := range events {
			if err := clearFile(ctx, tx, e); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return hearth.Import{}, fmt.Errorf("store create import: %w", err)
	}
	return got, nil
}

// Import returns userID's import id; another's is hearth.ErrNotFound.
func (s *Store) Import(ctx context.Context, userID, id int64) (hearth.Import, error) {
	im, err := scanImport(s.pool.QueryRow(ctx, `SELECT `+importColumns+` FROM imports WHERE id = $1 AND user_id = $2`, id, userID))
	if err != nil {
		return im, fmt.Errorf("store import: %w", translate(notFound(err, "import", id)))
	}
	return im, nil
}

// OpenImport returns userID's latest import in the conversation that is
// still asking or awaiting approval.
func (s *Store) OpenImport(ctx context.Context, conversationID, userID int64) (hearth.Import, bool, error) {
	im, err := scanImport(s.pool.QueryRow(ctx, `
		SELECT `+importColumns+` FROM imports
		WHERE conversation_id = $1 AND user_id = $2 AND state IN ('asking', 'ready')
		ORDER BY id DESC LIMIT 1`, conversationID, userID))
	if errors.Is(err, pgx.ErrNoRows) {
		return im, false, nil
	}
	if err != nil {
		return im, false, fmt.Errorf("store open import: %w", translate(err))
	}
	return im, true, nil
}

// LastImport returns userID's most recently committed import that has not
// been undone.
func (s *Store) LastImport(ctx context.Context, userID int64) (hearth.Import, bool, error) {
	im, err := scanImport(s.pool.QueryRow(ctx, `
		SELECT `+importColumns+` FROM imports
		WHERE user_id = $1 AND state = 'committed'
		ORDER BY committed_at DESC, id DESC LIMIT 1`, userID))
	if errors.Is(err, pgx.ErrNoRows) {
		return im, false, nil
	}
	if err != nil {
		return im, false, fmt.Errorf("store last import: %w", translate(err))
	}
	return im, true, nil
}

// SaveImportTx stores an open import's plan, state and steps, if it is
// still open and at the step the caller read (steps), so two answers to
// the same question cannot both apply. ok is false when it was not.
func (s *Store) SaveImportTx(ctx context.Context, tx pgx.Tx, im hearth.Import, steps int) (bool, error) {
	tag, err := tx.Exec(ctx, `
		UPDATE imports SET plan = $3, state = $4, steps = $5, updated_at = now()
		WHERE id = $1 AND user_id = $2 AND state IN ('asking', 'ready') AND steps = $6`,
		im.ID, im.UserID, im.Plan, string(im.State), im.Steps, steps)
	if err != nil {
		return false, fmt.Errorf("store save import %d: %w", im.ID, translate(constraintErr(err)))
	}
	return tag.RowsAffected() == 1, nil
}

// EndImportTx moves an open import to an end state (cancelled,
// expired); ok is false when it was no longer open.
func (s *Store) EndImportTx(ctx context.Context, tx pgx.Tx, userID, id int64, state hearth.ImportState) (bool, error) {
	var eventID int64
	err := tx.QueryRow(ctx, `
		UPDATE imports SET state = $3, updated_at = now()
		WHERE id = $1 AND user_id = $2 AND state IN ('asking', 'ready')
		RETURNING event_id`, id, userID, string(state)).Scan(&eventID)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err == nil {
		err = clearFile(ctx, tx, eventID)
	}
	if err != nil {
		return false, fmt.Errorf("store end import %d: %w", id, translate(constraintErr(err)))
	}
	return true, nil
}

// clearFile drops the bytes of a file whose import is over: Hearth keeps
// what was imported, not the file it came in.
func clearFile(ctx context.Context, tx pgx.Tx, eventID int64) error {
	_, err := tx.Exec(ctx, `UPDATE import_files SET content = NULL, cleared_at = now() WHERE event_id = $1`, eventID)
	return err
}

// ImportExisting returns what userID already has that a file may match:
// live open tasks whose titles are among titles, live events whose
// titles are among titles, and current facts about the names in abouts
// (all compared case-insensitively).
func (s *Store) ImportExisting(ctx context.Context, userID int64, titles, abouts []string) (hearth.ImportExisting, error) {
	var ex hearth.ImportExisting
	lower := func(ss []string) []string {
		out := make([]string, 0, len(ss))
		for _, s := range ss {
			out = append(out, strings.ToLower(s))
		}
		return out
	}
	lt, la := lower(titles), lower(abouts)
	var err error
	if len(lt) > 0 {
		rows, qerr := s.pool.Query(ctx, `SELECT `+taskColumns+` FROM tasks
			WHERE user_id = $1 AND deleted_at IS NULL AND status = 'open' AND lower(title) = ANY($2)`, userID, lt)
		if qerr != nil {
			return ex, fmt.Errorf("store import existing tasks: %w", translate(qerr))
		}
		if ex.Tasks, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.Task, error) { return scanTask(r) }); err != nil {
			return ex, fmt.Errorf("store import existing tasks: %w", translate(err))
		}
		rows, qerr = s.pool.Query(ctx, `SELECT `+eventColumns+` FROM events
			WHERE user_id = $1 AND deleted_at IS NULL AND lower(title) = ANY($2)`, userID, lt)
		if qerr != nil {
			return ex, fmt.Errorf("store import existing events: %w", translate(qerr))
		}
		if ex.Events, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.CalendarEvent, error) { return scanEvent(r) }); err != nil {
			return ex, fmt.Errorf("store import existing events: %w", translate(err))
		}
	}
	if len(la) > 0 {
		rows, qerr := s.pool.Query(ctx, `SELECT `+memoryColumns+` FROM facts
			WHERE user_id = $1 AND family_id IS NULL AND `+currentFact+` AND lower(about) = ANY($2)`, userID, la)
		if qerr != nil {
			return ex, fmt.Errorf("store import existing facts: %w", translate(qerr))
		}
		if ex.Facts, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.Memory, error) { return scanMemory(r) }); err != nil {
			return ex, fmt.Errorf("store import existing facts: %w", translate(err))
		}
	}
	return ex, nil
}

// CommitImportTx writes an import awaiting approval, in tx: its state
// moves from ready to committed (a conditional UPDATE: an import is
// committed once, and hearth.ErrConflict says it was not ready), every
// new row is copied in tagged with the import, merged rows keep their
// state before, and every row written leaves an audit entry. It returns
// what was written. now is the caller's clock: an import that has
// expired by it is not committed (the expiry was set by the same clock).
func (s *Store) CommitImportTx(ctx context.Context, tx pgx.Tx, userID, importID int64, now time.Time, b hearth.ImportBatch) (hearth.ImportCounts, error) {
	var c hearth.ImportCounts
	var eventID int64
	err := tx.QueryRow(ctx, `
		UPDATE imports SET state = 'committed', committed_at = now(), updated_at = now()
		WHERE id = $1 AND user_id = $2 AND state = 'ready' AND expires_at > $3
		RETURNING event_id`, importID, userID, now).Scan(&eventID)
	if errors.Is(err, pgx.ErrNoRows) {
		return c, fmt.Errorf("store commit import %d: %w", importID, hearth.Errorf(hearth.EConflict, "the import is no longer awaiting approval"))
	}
	if err != nil {
		return c, fmt.Errorf("store commit import %d: %w", importID, translate(err))
	}
	fail := func(what string, err error) (hearth.ImportCounts, error) {
		return hearth.ImportCounts{}, fmt.Errorf("store commit import %d: %s: %w", importID, what, translate(constraintErr(err)))
	}
	n, err := tx.CopyFrom(ctx, pgx.Identifier{"tasks"},
		[]string{"user_id", "title", "notes", "priority", "due", "all_day", "status", "completed_at", "import_id"},
		pgx.CopyFromSlice(len(b.Tasks), func(i int) ([]any, error) {
			t, err := validTask(b.Tasks[i])
			if err != nil {
				return nil, err
			}
			completed := any(nil)
			if t.Status == hearth.TaskDone {
				completed = time.Now()
				if !t.CompletedAt.IsZero() {
					completed = t.CompletedAt
				}
			}
			return []any{userID, t.Title, t.Notes, t.Priority, timeArg(t.Due), t.AllDay, string(t.Status), completed, importID}, nil
		}))
	if err != nil {
		return fail("tasks", err)
	}
	c.Tasks = int(n)
	n, err = tx.CopyFrom(ctx, pgx.Identifier{"events"},
		[]string{"user_id", "title", "starts_at", "ends_at", "all_day", "location", "description", "import_id"},
		pgx.CopyFromSlice(len(b.Events), func(i int) ([]any, error) {
			e := b.Events[i]
			if strings.TrimSpace(e.Title) == "" || e.End.Before(e.Start) {
				return nil, hearth.Invalidf("an event needs a title and must not end before it starts")
			}
			return []any{userID, strings.TrimSpace(e.Title), e.Start, e.End, e.AllDay, e.Location, e.Description, importID}, nil
		}))
	if err != nil {
		return fail("events", err)
	}
	c.Events = int(n)
	facts := make([]hearth.Memory, 0, len(b.Facts)+len(b.FactCorrections))
	facts = append(facts, b.Facts...)
	for _, fc := range b.FactCorrections {
		facts = append(facts, fc.New)
	}
	n, err = tx.CopyFrom(ctx, pgx.Identifier{"facts"},
		[]string{"user_id", "content", "about", "category", "tier", "source", "told_in", "import_id"},
		pgx.CopyFromSlice(len(facts), func(i int) ([]any, error) {
			f := facts[i]
			if f.Category == "" {
				f.Category = hearth.MemoryPersonal
			}
			if f.Tier == 0 {
				f.Tier = hearth.TierPersonal
			}
			if strings.TrimSpace(f.Content) == "" || !f.Tier.Valid() {
				return nil, hearth.Invalidf("a fact needs content and a tier of 1 to 4")
			}
			return []any{userID, strings.TrimSpace(f.Content), strings.TrimSpace(f.About), string(f.Category), int16(f.Tier), "import", eventID, importID}, nil
		}))
	if err != nil {
		return fail("facts", err)
	}
	c.Facts = int(n)
	for _, t := range b.TaskMerges {
		if _, err := tx.Exec(ctx, `
			INSERT INTO import_merges (import_id, kind, item_id, before)
			SELECT $1, 'task', id, jsonb_build_object('due', due, 'all_day', all_day, 'priority', priority, 'notes', notes)
			FROM tasks WHERE id = $2 AND user_id = $3 AND deleted_at IS NULL
			ON CONFLICT DO NOTHING`, importID, t.ID, userID); err != nil {
			return fail("merge task", err)
		}
		tag, err := tx.Exec(ctx, `
			UPDATE tasks SET due = COALESCE($3, due), all_day = CASE WHEN $3::timestamptz IS NULL THEN all_day ELSE $4 END,
				priority = CASE WHEN $5 > 0 THEN $5 ELSE priority END,
				notes = CASE WHEN $6 = '' OR position($6 IN notes) > 0 THEN notes WHEN notes = '' THEN $6 ELSE notes || E'\n' || $6 END,
				updated_at = now()
			WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL`,
			t.ID, userID, timeArg(t.Due), t.AllDay, t.Priority, t.Notes)
		if err != nil {
			return fail("merge task", err)
		}
		c.Merged += int(tag.RowsAffected())
	}
	for _, e := range b.EventMerges {
		if _, err := tx.Exec(ctx, `
			INSERT INTO import_merges (import_id, kind, item_id, before)
			SELECT $1, 'event', id, jsonb_build_object('ends_at', ends_at, 'location', location, 'description', description)
			FROM events WHERE id = $2 AND user_id = $3 AND deleted_at IS NULL
			ON CONFLICT DO NOTHING`, importID, e.ID, userID); err != nil {
			return fail("merge event", err)
		}
		tag, err := tx.Exec(ctx, `
			UPDATE events SET ends_at = GREATEST($3, starts_at),
				location = CASE WHEN $4 = '' THEN location ELSE $4 END,
				description = CASE WHEN $5 = '' THEN description ELSE $5 END,
				updated_at = now()
			WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL`,
			e.ID, userID, e.End, e.Location, e.Description)
		if err != nil {
			return fail("merge event", err)
		}
		c.Merged += int(tag.RowsAffected())
	}
	if len(b.FactCorrections) > 0 {
		olds := make([]int64, 0, len(b.FactCorrections))
		news := make([]string, 0, len(b.FactCorrections))
		for _, fc := range b.FactCorrections {
			olds = append(olds, fc.OldID)
			news = append(news, strings.TrimSpace(fc.New.Content))
		}
		// The new facts were copied above; each old one now ends, as a
		// correction does (store.UpdateMemory), pointing at its successor.
		tag, err := tx.Exec(ctx, `
			WITH pairs AS (
				SELECT p.old_id, p.content FROM unnest($3::bigint[], $4::text[]) AS p(old_id, content)
			), old AS (
				SELECT f.id, f.valid_to, f.invalidated_at, f.superseded_by, n.id AS new_id
				FROM pairs p
				JOIN facts f ON f.id = p.old_id AND f.user_id = $2 AND f.deleted_at IS NULL AND f.invalidated_at IS NULL
				JOIN LATERAL (SELECT id FROM facts WHERE import_id = $1 AND content = p.content ORDER BY id LIMIT 1) n ON true
				FOR UPDATE OF f
			), kept AS (
				INSERT INTO import_merges (import_id, kind, item_id, before)
				SELECT $1, 'fact', id, jsonb_build_object('valid_to', valid_to, 'invalidated_at', invalidated_at, 'superseded_by', superseded_by) FROM old
				ON CONFLICT DO NOTHING
			)
			UPDATE facts f SET valid_to = now(), invalidated_at = now(), superseded_by = old.new_id, updated_at = now()
			FROM old WHERE f.id = old.id`, importID, userID, olds, news)
		if err != nil {
			return fail("correct facts", err)
		}
		c.Merged += int(tag.RowsAffected())
	}
	// The people in the file become people memory knows: an entity per
	// name (one already known keeps its own), every fact about them linked
	// to it, and the contact details the import writes as sentences
	// ("X's email is …", "X's phone number is …", "X works at …") become
	// its attributes, so "email Sarah" finds the address.
	if _, err := tx.Exec(ctx, `
		INSERT INTO entities (user_id, kind, name, import_id)
		SELECT DISTINCT ON (lower(about)) $2::bigint, 'person', about, $1::bigint FROM facts
		WHERE import_id = $1 AND about <> '' AND deleted_at IS NULL
		ON CONFLICT (user_id, lower(name)) DO NOTHING`, importID, userID); err != nil {
		return fail("people", err)
	}
	if _, err := tx.Exec(ctx, `
		UPDATE facts f SET entity_id = e.id,
			attribute = CASE
				WHEN left(f.content, length(f.about) + 12) = f.about || '''s email is ' THEN 'email'
				WHEN left(f.content, length(f.about) + 19) = f.about || '''s phone number is ' THEN 'phone'
				WHEN left(f.content, length(f.about) + 10) = f.about || ' works at ' THEN 'employer'
				ELSE '' END,
			value = CASE
				WHEN left(f.content, length(f.about) + 12) = f.about || '''s email is ' THEN substr(f.content, length(f.about) + 13)
				WHEN left(f.content, length(f.about) + 19) = f.about || '''s phone number is ' THEN substr(f.content, length(f.about) + 20)
				WHEN left(f.content, length(f.about) + 10) = f.about || ' works at ' THEN substr(f.content, length(f.about) + 11)
				ELSE '' END
		FROM entities e
		WHERE f.import_id = $1 AND f.about <> '' AND e.user_id = $2 AND lower(e.name) = lower(f.about)`, importID, userID); err != nil {
		return fail("people's facts", err)
	}
	// The audit trail: one entry per row created or changed.
	_, err = tx.Exec(ctx, `
		INSERT INTO audit_log (user_id, kind, after)
		SELECT $2::bigint, 'import.create', jsonb_build_object('import_id', $1::bigint, 'kind', 'task', 'id', id, 'title', title) FROM tasks WHERE import_id = $1
		UNION ALL
		SELECT $2::bigint, 'import.create', jsonb_build_object('import_id', $1::bigint, 'kind', 'event', 'id', id, 'title', title) FROM events WHERE import_id = $1
		UNION ALL
		SELECT $2::bigint, 'import.create', jsonb_build_object('import_id', $1::bigint, 'kind', 'fact', 'id', id, 'content', content) FROM facts WHERE import_id = $1`,
		importID, userID)
	if err != nil {
		return fail("audit", err)
	}
	_, err = tx.Exec(ctx, `
		INSERT INTO audit_log (user_id, kind, before, after)
		SELECT $2::bigint, 'import.merge', before, jsonb_build_object('import_id', $1::bigint, 'kind', kind, 'id', item_id) FROM import_merges WHERE import_id = $1`,
		importID, userID)
	if err != nil {
		return fail("audit merges", err)
	}
	if _, err := tx.Exec(ctx, `UPDATE imports SET counts = $2 WHERE id = $1`, importID, c); err != nil {
		return fail("counts", err)
	}
	if err := clearFile(ctx, tx, eventID); err != nil {
		return fail("clear file", err)
	}
	return c, nil
}

// UndoImport takes back userID's committed import id: the rows it
// created are deleted (softly, like every delete), the rows it merged
// into or corrected are as they were, and an audit entry says so, in one
// transaction. It returns what was taken back; an import that is not
// committed (never was, or was undone) is hearth.ErrConflict.
func (s *Store) UndoImport(ctx context.Context, userID, importID int64) (hearth.ImportCounts, error) {
	var c hearth.ImportCounts
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `
			UPDATE imports SET state = 'undone', undone_at = now(), updated_at = now()
			WHERE id = $1 AND user_id = $2 AND state = 'committed'`, importID, userID)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return hearth.Errorf(hearth.EConflict, "that import is not there to undo")
		}
		for _, t := range []struct {
			table string
			n     *int
		}{{"tasks", &c.Tasks}, {"events", &c.Events}, {"facts", &c.Facts}} {
			tag, err := tx.Exec(ctx, `UPDATE `+t.table+` SET deleted_at = now(), updated_at = now()
				WHERE import_id = $1 AND user_id = $2 AND deleted_at IS NULL`, importID, userID)
			if err != nil {
				return fmt.Errorf("delete %s: %w", t.table, err)
			}
			*t.n = int(tag.RowsAffected())
		}
		// The people it brought in go too, unless something else is now
		// known about them.
		if _, err := tx.Exec(ctx, `
			DELETE FROM entities e WHERE e.import_id = $1 AND e.user_id = $2
			AND NOT EXISTS (SELECT 1 FROM facts f WHERE f.entity_id = e.id AND f.deleted_at IS NULL)`, importID, userID); err != nil {
			return fmt.Errorf("delete people: %w", err)
		}
		tag, err = tx.Exec(ctx, `
			UPDATE tasks t SET due = (m.before->>'due')::timestamptz, all_day = (m.before->>'all_day')::boolean,
				priority = (m.before->>'priority')::smallint, notes = m.before->>'notes', updated_at = now()
			FROM import_merges m WHERE m.import_id = $1 AND m.kind = 'task' AND t.id = m.item_id AND t.user_id = $2`, importID, userID)
		if err != nil {
			return fmt.Errorf("restore tasks: %w", err)
		}
		c.Merged += int(tag.RowsAffected())
		tag, err = tx.Exec(ctx, `
			UPDATE events e SET ends_at = (m.before->>'ends_at')::timestamptz, location = m.before->>'location',
				description = m.before->>'description', updated_at = now()
			FROM import_merges m WHERE m.import_id = $1 AND m.kind = 'event' AND e.id = m.item_id AND e.user_id = $2`, importID, userID)
		if err != nil {
			return fmt.Errorf("restore events: %w", err)
		}
		c.Merged += int(tag.RowsAffected())
		tag, err = tx.Exec(ctx, `
			UPDATE facts f SET valid_to = (m.before->>'valid_to')::timestamptz, invalidated_at = (m.before->>'invalidated_at')::timestamptz,
				superseded_by = (m.before->>'superseded_by')::bigint, updated_at = now()
			FROM import_merges m WHERE m.import_id = $1 AND m.kind = 'fact' AND f.id = m.item_id AND f.user_id = $2`, importID, userID)
		if err != nil {
			return fmt.Errorf("restore facts: %w", err)
		}
		c.Merged += int(tag.RowsAffected())
		_, err = tx.Exec(ctx, `INSERT INTO audit_log (user_id, kind, after) VALUES ($1, 'import.undo', $2)`,
			userID, map[string]any{"import_id": importID, "counts": c})
		return err
	})
	if err != nil {
		return hearth.ImportCounts{}, fmt.Errorf("store undo import %d: %w", importID, err)
	}
	return c, nil
}

// ImportEventIDsTx returns the live events import importID created, in
// tx (the commit's own, so jobs for them go out with it).
func (s *Store) ImportEventIDsTx(ctx context.Context, tx pgx.Tx, importID int64) ([]int64, error) {
	rows, err := tx.Query(ctx, `SELECT id FROM events WHERE import_id = $1 AND deleted_at IS NULL ORDER BY id`, importID)
	if err != nil {
		return nil, fmt.Errorf("store import events %d: %w", importID, translate(err))
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("store import events %d: %w", importID, translate(err))
	}
	return ids, nil
}

// LinkImportedEvent links userID's imported event id to an outside
// calendar's event, unless it is linked already, and returns it as
// linked; ok is false when the event is deleted (its import was undone),
// and then nothing changes.
func (s *Store) LinkImportedEvent(ctx context.Context, userID, id int64, calendarID, externalID string) (hearth.CalendarEvent, bool, error) {
	e, err := scanEvent(s.pool.QueryRow(ctx, `
		UPDATE events SET calendar_id = COALESCE(calendar_id, NULLIF($3, '')), external_id = COALESCE(external_id, NULLIF($4, '')), updated_at = now()
		WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL
		RETURNING `+eventColumns, id, userID, calendarID, externalID))
	if errors.Is(err, pgx.ErrNoRows) {
		return e, false, nil
	}
	if err != nil {
		return e, false, fmt.Errorf("store link imported event %d: %w", id, translate(constraintErr(err)))
	}
	return e, true, nil
}

// UndoneImportEvents returns the events userID's import importID created
// that are deleted (the import was undone) and still linked to an
// outside calendar's event.
func (s *Store) UndoneImportEvents(ctx context.Context, userID, importID int64) ([]hearth.CalendarEvent, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+eventColumns+` FROM events
		WHERE import_id = $1 AND user_id = $2 AND deleted_at IS NOT NULL AND external_id IS NOT NULL ORDER BY id`, importID, userID)
	if err != nil {
		return nil, fmt.Errorf("store undone import events %d: %w", importID, translate(err))
	}
	es, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.CalendarEvent, error) { return scanEvent(r) })
	if err != nil {
		return nil, fmt.Errorf("store undone import events %d: %w", importID, translate(err))
	}
	return es, nil
}
