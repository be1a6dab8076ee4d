package store

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

// The built-in providers (tasks, events, notes, emails, memories) share
// one shape, described in migrations/00002_builtin.sql: creates are keyed
// by the action's idempotency key, deletes are soft, every statement is
// scoped to the user and a row that is missing, deleted or someone else's
// is hearth.ErrNotFound.

const taskColumns = `id, user_id, title, notes, priority, due, all_day, status, completed_at, created_at, updated_at`

func scanTask(row pgx.Row) (hearth.Task, error) {
	var t hearth.Task
	var due, completed *time.Time
	var status string
	err := row.Scan(&t.ID, &t.UserID, &t.Title, &t.Notes, &t.Priority, &due, &t.AllDay, &status, &completed, &t.CreatedAt, &t.UpdatedAt)
	t.Status = hearth.TaskStatus(status)
	t.Due, t.CompletedAt = utcOrZero(due), utcOrZero(completed)
	t.CreatedAt, t.UpdatedAt = t.CreatedAt.UTC(), t.UpdatedAt.UTC()
	return t, err
}

// validTask checks and normalises a task about to be written.
func validTask(t hearth.Task) (hearth.Task, error) {
	t.Title = strings.TrimSpace(t.Title)
	if t.Title == "" {
		return t, hearth.Invalidf("a task needs a title")
	}
	if t.Priority < 0 || t.Priority > 3 {
		return t, hearth.Invalidf("task priority must be 0 (none) to 3 (high), not %d", t.Priority)
	}
	switch t.Status {
	case "":
		t.Status = hearth.TaskOpen
	case hearth.TaskOpen, hearth.TaskDone:
	default:
		return t, hearth.Invalidf("task status must be %q or %q, not %q", hearth.TaskOpen, hearth.TaskDone, t.Status)
	}
	return t, nil
}

// CreateTask adds a task for t.UserID. A second call with the same key
// returns the task the first one created and changes nothing; an empty key
// creates unconditionally. A task created done is completed now.
func (s *Store) CreateTask(ctx context.Context, key string, t hearth.Task) (hearth.Task, error) {
	t, err := validTask(t)
	if err != nil {
		return hearth.Task{}, fmt.Errorf("store create task: %w", err)
	}
	if t.UserID <= 0 {
		return hearth.Task{}, fmt.Errorf("store create task: %w", hearth.Invalidf("a task needs a user"))
	}
	created, err := createOnce(ctx, s, "tasks", taskColumns, scanTask, key, t.UserID, `
		INSERT INTO tasks (source_key, user_id, title, notes, priority, due, all_day, status, completed_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, CASE WHEN $8 = 'done' THEN now() END)
		ON CONFLICT (source_key) DO NOTHING
		RETURNING `+taskColumns,
		keyArg(key), t.UserID, t.Title, t.Notes, t.Priority, timeArg(t.Due), t.AllDay, string(t.Status))
	if err != nil {
		return hearth.Task{}, fmt.Errorf("store create task: %w", err)
	}
	return created, nil
}

// UpdateTask changes the fields of upd that are not nil and returns the
// task before and after, read and written in one transaction. A Due
// pointing at the zero time clears the due time. Marking a task done
// records when; reopening it forgets that. An empty update writes nothing.
func (s *Store) UpdateTask(ctx context.Context, userID, id int64, upd hearth.TaskUpdate) (before, after hearth.Task, err error) {
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		before, err = scanTask(tx.QueryRow(ctx, `SELECT `+taskColumns+` FROM tasks
			WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL FOR UPDATE`, id, userID))
		if err != nil {
			return notFound(err, "task", id)
		}
		after = before
		setIf(&after.Title, upd.Title)
		setIf(&after.Notes, upd.Notes)
		setIf(&after.Priority, upd.Priority)
		setIf(&after.Due, upd.Due)
		setIf(&after.AllDay, upd.AllDay)
		setIf(&after.Status, upd.Status)
		if after, err = validTask(after); err != nil {
			return err
		}
		if upd == (hearth.TaskUpdate{}) {
			return nil
		}
		after, err = scanTask(tx.QueryRow(ctx, `
			UPDATE tasks SET title = $2, notes = $3, priority = $4, due = $5, all_day = $6, status = $7,
			       completed_at = CASE WHEN $7 = 'open' THEN NULL ELSE COALESCE(completed_at, now()) END,
			       updated_at = now()
			WHERE id = $1
			RETURNING `+taskColumns,
			id, after.Title, after.Notes, after.Priority, timeArg(after.Due), after.AllDay, string(after.Status)))
		return err
	})
	if err != nil {
		return hearth.Task{}, hearth.Task{}, fmt.Errorf("store update task %d: %w", id, constraintErr(err))
	}
	return before, after, nil
}

// DeleteTask deletes a task softly and returns it; RestoreTask undoes it.
func (s *Store) DeleteTask(ctx context.Context, userID, id int64) (hearth.Task, error) {
	t, err := softDelete(ctx, s, "tasks", taskColumns, scanTask, userID, id)
	if err != nil {
		return hearth.Task{}, fmt.Errorf("store delete task %d: %w", id, err)
	}
	return t, nil
}

// RestoreTask brings back a deleted task. Restoring a task that is not
// deleted does nothing, so a retried undo succeeds.
func (s *Store) RestoreTask(ctx context.Context, userID, id int64) error {
	if err := restore(ctx, s, "tasks", userID, id); err != nil {
		return fmt.Errorf("store restore task %d: %w", id, err)
	}
	return nil
}

// FindTasks returns a user's tasks matching f, due first (undated last),
// then by priority, highest first. Query keeps tasks where every word of
// it is in the title or notes, or is similar to a word of the title
// (trigrams, so a small typo still matches). Limit defaults to DefaultLimit and is
// capped at MaxLimit.
func (s *Store) FindTasks(ctx context.Context, f hearth.TaskFilter) ([]hearth.Task, error) {
	if f.UserID <= 0 {
		return nil, fmt.Errorf("store find tasks: %w", hearth.Invalidf("a task search needs a user"))
	}
	var w where
	w.add("user_id = " + w.arg(f.UserID))
	w.add("deleted_at IS NULL")
	switch f.Status {
	case "":
	case hearth.TaskOpen, hearth.TaskDone:
		w.add("status = " + w.arg(string(f.Status)))
	default:
		return nil, fmt.Errorf("store find tasks: %w", hearth.Invalidf("task status must be %q or %q, not %q", hearth.TaskOpen, hearth.TaskDone, f.Status))
	}
	switch {
	case !f.DueBefore.IsZero() && f.IncludeUndated:
		w.add("(due < " + w.arg(f.DueBefore) + " OR due IS NULL)")
	case !f.DueBefore.IsZero():
		w.add("due < " + w.arg(f.DueBefore))
	}
	if !f.CompletedSince.IsZero() {
		w.add("completed_at >= " + w.arg(f.CompletedSince))
	}
	if q := strings.TrimSpace(f.Query); q != "" {
		w.add(w.words(q, []string{"title", "notes"}, []string{"title"}))
	}
	rows, err := s.pool.Query(ctx, `SELECT `+taskColumns+` FROM tasks WHERE `+w.String()+`
		ORDER BY due ASC NULLS LAST, priority DESC, id
		LIMIT `+w.arg(limitOf(f.Limit)), w.args...)
	if err != nil {
		return nil, fmt.Errorf("store find tasks: %w", translate(err))
	}
	tasks, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.Task, error) { return scanTask(r) })
	if err != nil {
		return nil, fmt.Errorf("store find tasks: %w", translate(err))
	}
	return tasks, nil
}

// Helpers shared by the provider aggregates (tasks, events, notes, emails,
// memories).

// DefaultLimit is how many rows a Find returns when the filter's Limit is
// zero; MaxLimit caps any larger Limit.
const (
	DefaultLimit = 50
	MaxLimit     = 500
)
