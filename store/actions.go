package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
)

const actionColumns = `a.id, a.event_id, a.idx, a.conversation_id, a.user_id, a.kind, a.payload, a.risk, a.state,
	a.result, a.before, a.error, a.executed_at, COALESCE(ap.id, 0)`

func scanAction(row pgx.Row) (action.Record, error) {
	var r action.Record
	var risk string
	var executed *time.Time
	err := row.Scan(&r.ID, &r.EventID, &r.Index, &r.ConversationID, &r.UserID, &r.Action.Kind, &r.Action.Payload, &risk, &r.State,
		&r.Result, &r.Before, &r.Error, &executed, &r.ApprovalID)
	return actionRecord(r, risk, executed), err
}

// actionRecord completes a scanned record with its risk and execution time.
func actionRecord(r action.Record, risk string, executed *time.Time) action.Record {
	if risk == "high" {
		r.Risk = action.High
	}
	if executed != nil {
		r.ExecutedAt = *executed
	}
	return r
}

// PlanActions stores a turn's plan: one row per action keyed (event,
// index), and an approval for each high-risk one, expiring after ttl.
// Newly stored low-risk actions are stored already claimed (running) by
// the caller, who runs them next: claimed lists their ids. Planning the
// same turn again returns the stored rows, stores and claims nothing; a
// retried turn takes over what its crashed attempt left running once that
// is stale (see ClaimAction).
func (s *Store) PlanActions(ctx context.Context, eventID, conversationID, userID int64, plan []action.Action, risks []action.Risk, ttl time.Duration) (claimed []int64, recs []action.Record, err error) {
	kinds, payloads, riskOf, hashes := make([]string, len(plan)), make([]string, len(plan)), make([]string, len(plan)), make([]string, len(plan))
	for i, a := range plan {
		kinds[i], payloads[i], riskOf[i] = string(a.Kind), string(a.Payload), "low"
		if risks[i] == action.High {
			riskOf[i], hashes[i] = "high", a.Hash()
		}
	}
	// One statement, which commits by itself: the plan's rows (a row
	// already stored by an earlier attempt at this turn is kept as it is),
	// an approval for each new high-risk row, and every row of the turn
	// read back. The outer read sees the table as the statement began, so
	// the new rows come from the insert's RETURNING and the earlier ones
	// from the table, never both.
	//
	// The plan need not wait for its own WAL flush: the next synchronous
	// commit of this turn (a provider's write, or the turn's completion
	// that shows the user anything) flushes it too, as WAL is written in
	// order; a crash before that loses the plan with everything after it,
	// and the retried turn plans again. Every row returned joins fast, so
	// the setting is made whenever the statement returns anything.
	rows, err := s.pool.Query(ctx, `
		WITH fast AS (SELECT set_config('synchronous_commit', 'off', true)),
		plan AS (
			SELECT p.n - 1 AS idx, p.kind, p.payload::jsonb AS payload, p.risk, p.hash
			FROM unnest($4::text[], $5::text[], $6::text[], $7::text[]) WITH ORDINALITY AS p(kind, payload, risk, hash, n)
		),
		ins AS (
			INSERT INTO actions (event_id, idx, conversation_id, user_id, kind, payload, risk, state, claimed_at, attempts)
			SELECT $1, idx, $2, $3, kind, payload, risk,
			       CASE WHEN risk = 'high' THEN 'awaiting_approval' ELSE 'running' END,
			       CASE WHEN risk = 'low' THEN now() END, CASE WHEN risk = 'low' THEN 1 ELSE 0 END
			FROM plan ORDER BY idx
			ON CONFLICT (event_id, idx) DO NOTHING
			RETURNING id, event_id, idx, conversation_id, user_id, kind, payload, risk, state, result, before, error, executed_at
		),
		asked AS (
			INSERT INTO approvals (action_id, user_id, conversation_id, payload, payload_hash, expires_at)
			SELECT ins.id, $3, $2, ins.payload, plan.hash, now() + $8::interval
			FROM ins JOIN plan ON plan.idx = ins.idx
			WHERE ins.risk = 'high'
			RETURNING id, action_id
		)
		SELECT `+actionColumns+`, a.fresh
		FROM fast CROSS JOIN (
			SELECT *, true AS fresh FROM ins
			UNION ALL
			SELECT id, event_id, idx, conversation_id, user_id, kind, payload, risk, state, result, before, error, executed_at, false
			FROM actions WHERE event_id = $1
		) a
		LEFT JOIN (SELECT id, action_id FROM asked UNION ALL SELECT id, action_id FROM approvals) ap ON ap.action_id = a.id
		ORDER BY a.idx`,
		eventID, conversationID, userID, kinds, payloads, riskOf, hashes, ttl)
	if err != nil {
		return nil, nil, fmt.Errorf("store plan actions: %w", translate(err))
	}
	recs, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (action.Record, error) {
		var r action.Record
		var fresh bool
		var risk string
		var executed *time.Time
		err := row.Scan(&r.ID, &r.EventID, &r.Index, &r.ConversationID, &r.UserID, &r.Action.Kind, &r.Action.Payload, &risk, &r.State,
			&r.Result, &r.Before, &r.Error, &executed, &r.ApprovalID, &fresh)
		r = actionRecord(r, risk, executed)
		if fresh && r.Risk == action.Low {
			claimed = append(claimed, r.ID)
		}
		return r, err
	})
	if err != nil {
		return nil, nil, fmt.Errorf("store plan actions: %w", translate(err))
	}
	return claimed, recs, nil
}

// Action returns one action row.
func (s *Store) Action(ctx context.Context, id int64) (action.Record, error) {
	r, err := scanAction(s.pool.QueryRow(ctx, `SELECT `+actionColumns+`
		FROM actions a LEFT JOIN approvals ap ON ap.action_id = a.id WHERE a.id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return r, fmt.Errorf("store action %d: %w", id, hearth.ErrNotFound)
	}
	if err != nil {
		return r, fmt.Errorf("store action %d: %w", id, translate(err))
	}
	return r, nil
}

// ClaimAction moves a planned action to running for the caller, or takes
// over one whose runner has been silent for staleAfter (it crashed). ok is
// false when someone else is running it or it is finished.
func (s *Store) ClaimAction(ctx context.Context, id int64, staleAfter time.Duration) (action.Record, bool, error) {
	r, err := scanAction(s.pool.QueryRow(ctx, `
		WITH a AS (
			UPDATE actions SET state = 'running', claimed_at = now(), attempts = attempts + 1
			WHERE id = $1 AND (state = 'planned' OR (state = 'running' AND claimed_at < now() - $2::interval))
			RETURNING *
		)
		SELECT `+actionColumns+` FROM a LEFT JOIN approvals ap ON ap.action_id = a.id`, id, staleAfter))
	if errors.Is(err, pgx.ErrNoRows) {
		return r, false, nil
	}
	if err != nil {
		return r, false, fmt.Errorf("store claim action %d: %w", id, translate(err))
	}
	return r, true, nil
}

// FinishAction records the outcome of a running action and, when it was
// done, its audit entry, in one transaction.
func (s *Store) FinishAction(ctx context.Context, r action.Record, state action.State, result, before any, reason string) error {
	resultJSON, err := nullableJSON(result)
	if err != nil {
		return fmt.Errorf("store finish action %d: %w", r.ID, err)
	}
	beforeJSON, err := nullableJSON(before)
	if err != nil {
		return fmt.Errorf("store finish action %d: %w", r.ID, err)
	}
	// One statement: the outcome and, when the action was done and still
	// running (not finished meanwhile by someone else), its audit entry.
	_, err = s.pool.Exec(ctx, `
		WITH finished AS (
			UPDATE actions SET state = $2, result = $3, before = $4, error = $5, executed_at = now()
			WHERE id = $1 AND state = 'running'
			RETURNING id
		)
		INSERT INTO audit_log (user_id, action_id, kind, before, after)
		SELECT $6, id, $7, $4, $3 FROM finished WHERE $2::text = 'done'`,
		r.ID, state, resultJSON, beforeJSON, reason, r.UserID, r.Action.Kind)
	if err != nil {
		return fmt.Errorf("store finish action %d: %w", r.ID, translate(err))
	}
	return nil
}

func nullableJSON(v any) ([]byte, error) {
	if v == nil {
		return nil, nil
	}
	if raw, ok := v.(json.RawMessage); ok {
		return raw, nil
	}
	return json.Marshal(v)
}

// approvalColumns are an approval's, with its action's kind, which the
// approvals table does not repeat (a subquery: they are also RETURNING
// columns of its updates).
const approvalColumns = `id, action_id, user_id, conversation_id, payload, payload_hash, state, expires_at, retryable, retries,
	(SELECT kind FROM actions WHERE actions.id = approvals.action_id)`

func scanApproval(row pgx.Row) (action.Approval, error) {
	var a action.Approval
	err := row.Scan(&a.ID, &a.ActionID, &a.UserID, &a.ConversationID, &a.Action.Payload, &a.Hash, &a.State, &a.ExpiresAt,
		&a.Retryable, &a.Retries, &a.Action.Kind)
	return a, err
}

// DecideApprovalTx approves or rejects, in tx, a pending approval for
// userID with one conditional UPDATE, so of several clicks exactly one
// wins, and makes an approved action runnable. The caller enqueues the
// action's backstop job in the same transaction and commits. Refusals are
// action.ErrNotYours, action.ErrAlreadyDecided (with the approval as it
// stands) or action.ErrExpired; a missing approval is hearth.ErrNotFound;
// after a refusal the caller rolls back.
func (s *Store) DecideApprovalTx(ctx context.Context, tx pgx.Tx, approvalID, userID int64, approve bool) (action.Approval, error) {
	state, actionState := action.ApprovalRejected, action.StateRejected
	if approve {
		state, actionState = action.ApprovalApproved, action.StatePlanned
	}
	ap, err := scanApproval(tx.QueryRow(ctx, `
		UPDATE approvals SET state = $3, decided_at = now()
		WHERE id = $1 AND user_id = $2 AND state = 'pending' AND expires_at > now()
		RETURNING `+approvalColumns, approvalID, userID, state))
	if errors.Is(err, pgx.ErrNoRows) {
		return s.whyNotDecided(ctx, approvalID, userID)
	}
	if err != nil {
		return ap, fmt.Errorf("store decide approval %d: %w", approvalID, translate(err))
	}
	if err := tx.QueryRow(ctx, `
		UPDATE actions SET state = $2 WHERE id = $1 AND state = 'awaiting_approval' RETURNING kind`,
		ap.ActionID, actionState).Scan(&ap.Action.Kind); err != nil {
		return ap, fmt.Errorf("store decide approval %d: release action: %w", approvalID, translate(err))
	}
	return ap, nil
}

func (s *Store) whyNotDecided(ctx context.Context, approvalID, userID int64) (action.Approval, error) {
	ap, err := scanApproval(s.pool.QueryRow(ctx, `
		SELECT `+approvalColumns+` FROM approvals WHERE id = $1`, approvalID))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return ap, fmt.Errorf("store decide approval %d: %w", approvalID, hearth.ErrNotFound)
	case err != nil:
		return ap, fmt.Errorf("store decide approval %d: %w", approvalID, translate(err))
	case ap.UserID != userID:
		return ap, action.ErrNotYours
	case ap.State != action.ApprovalPending:
		return ap, action.ErrAlreadyDecided
	}
	// Pending but past its expiry: record that, so it is never decided.
	s.pool.Exec(ctx, `UPDATE approvals SET state = 'expired' WHERE id = $1 AND state = 'pending'`, approvalID)          //nolint:errcheck // best effort; the answer is the same
	s.pool.Exec(ctx, `UPDATE actions SET state = 'expired' WHERE id = $1 AND state = 'awaiting_approval'`, ap.ActionID) //nolint:errcheck // best effort
	ap.State = action.ApprovalExpired
	return ap, action.ErrExpired
}

// SetApprovalOutcome records whether an approved action was executed.
func (s *Store) SetApprovalOutcome(ctx context.Context, approvalID int64, state action.ApprovalState) error {
	if _, err := s.pool.Exec(ctx, `UPDATE approvals SET state = $2 WHERE id = $1 AND state = 'approved'`, approvalID, state); err != nil {
		return fmt.Errorf("store approval outcome %d: %w", approvalID, translate(err))
	}
	return nil
}

// AllowApprovalRetry marks a failed approval as one that may be tried
// again (its action failed without any effect: a refused send).
func (s *Store) AllowApprovalRetry(ctx context.Context, approvalID int64) error {
	if _, err := s.pool.Exec(ctx, `UPDATE approvals SET retryable = true WHERE id = $1 AND state = 'failed'`, approvalID); err != nil {
		return fmt.Errorf("store allow approval retry %d: %w", approvalID, translate(err))
	}
	return nil
}

// RetryApprovalTx approves, in tx, try number try of a failed, retryable,
// unexpired approval for userID with one conditional UPDATE (so of
// several clicks of that try's button exactly one wins, and an older
// try's button none), and makes its action runnable again. The caller
// enqueues the action's backstop job in the same transaction and commits.
// Refusals are action.ErrNotYours, action.ErrExpired or
// action.ErrNotRetryable (with the approval as it stands); a missing
// approval is hearth.ErrNotFound.
func (s *Store) RetryApprovalTx(ctx context.Context, tx pgx.Tx, approvalID, userID int64, try int) (action.Approval, error) {
	ap, err := scanApproval(tx.QueryRow(ctx, `
		UPDATE approvals SET state = 'approved', retryable = false, retries = retries + 1, decided_at = now()
		WHERE id = $1 AND user_id = $2 AND state = 'failed' AND retryable AND retries = $3 - 1 AND expires_at > now()
		RETURNING `+approvalColumns, approvalID, userID, try))
	if errors.Is(err, pgx.ErrNoRows) {
		cur, err := scanApproval(s.pool.QueryRow(ctx, `SELECT `+approvalColumns+` FROM approvals WHERE id = $1`, approvalID))
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return cur, fmt.Errorf("store retry approval %d: %w", approvalID, hearth.ErrNotFound)
		case err != nil:
			return cur, fmt.Errorf("store retry approval %d: %w", approvalID, translate(err))
		case cur.UserID != userID:
			return cur, action.ErrNotYours
		case cur.State == action.ApprovalFailed && cur.Retryable && cur.Retries == try-1:
			return cur, action.ErrExpired
		}
		return cur, action.ErrNotRetryable
	}
	if err != nil {
		return ap, fmt.Errorf("store retry approval %d: %w", approvalID, translate(err))
	}
	if err := tx.QueryRow(ctx, `
		UPDATE actions SET state = 'planned', error = '' WHERE id = $1 AND state = 'failed' RETURNING kind`,
		ap.ActionID).Scan(&ap.Action.Kind); err != nil {
		return ap, fmt.Errorf("store retry approval %d: release action: %w", approvalID, notFound(translate(err), "action", ap.ActionID))
	}
	return ap, nil
}

// TurnApprovals returns the approvals asked in the turn that asked
// approvalID, that one included, in the order the turn planned them: what
// one "Approve all" decides.
func (s *Store) TurnApprovals(ctx context.Context, approvalID int64) ([]int64, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT ap.id FROM approvals ap JOIN actions a ON a.id = ap.action_id
		WHERE a.event_id = (SELECT a2.event_id FROM approvals ap2 JOIN actions a2 ON a2.id = ap2.action_id WHERE ap2.id = $1)
		ORDER BY a.idx`, approvalID)
	if err != nil {
		return nil, fmt.Errorf("store turn approvals of %d: %w", approvalID, translate(err))
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("store turn approvals of %d: %w", approvalID, translate(err))
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("store turn approvals of %d: %w", approvalID, hearth.ErrNotFound)
	}
	return ids, nil
}

// pendingApprovalOf is the approvals a user ($2) may still answer in a
// conversation ($1): in a shared chat, only the requester's "yes" counts.
const pendingApprovalOf = `conversation_id = $1 AND user_id = $2 AND state = 'pending' AND expires_at > now()`

// PendingApproval returns userID's newest pending, unexpired approval in
// the conversation (in a shared chat, only the requester's "yes" is
// theirs to give).
func (s *Store) PendingApproval(ctx context.Context, conversationID, userID int64) (action.Approval, bool, error) {
	ap, err := scanApproval(s.pool.QueryRow(ctx, `SELECT `+approvalColumns+` FROM approvals
		WHERE `+pendingApprovalOf+` ORDER BY id DESC LIMIT 1`, conversationID, userID))
	if errors.Is(err, pgx.ErrNoRows) {
		return ap, false, nil
	}
	if err != nil {
		return ap, false, fmt.Errorf("store pending approval: %w", translate(err))
	}
	return ap, true, nil
}

// LastUndoable returns userID's most recently executed action in the
// conversation that has not been undone (in a shared chat, one member's
// "undo" never reverts another's action).
func (s *Store) LastUndoable(ctx context.Context, conversationID, userID int64) (action.Record, bool, error) {
	r, err := scanAction(s.pool.QueryRow(ctx, `SELECT `+actionColumns+`
		FROM actions a LEFT JOIN approvals ap ON ap.action_id = a.id
		WHERE a.conversation_id = $1 AND a.user_id = $2 AND a.state = 'done' AND a.kind <> 'calendar.list'
		ORDER BY a.executed_at DESC, a.id DESC LIMIT 1`, conversationID, userID))
	if errors.Is(err, pgx.ErrNoRows) {
		return r, false, nil
	}
	if err != nil {
		return r, false, fmt.Errorf("store last undoable: %w", translate(err))
	}
	return r, true, nil
}

// MarkUndone records that an action was reverted, once, with its audit
// entry. It reports false when it was undone already.
func (s *Store) MarkUndone(ctx context.Context, r action.Record) (bool, error) {
	var undone bool
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE actions SET state = 'undone' WHERE id = $1 AND state = 'done'`, r.ID)
		if err != nil {
			return err
		}
		if undone = tag.RowsAffected() == 1; !undone {
			return nil
		}
		_, err = tx.Exec(ctx, `INSERT INTO audit_log (user_id, action_id, kind, before, after) VALUES ($1, $2, $3, $4, $5)`,
			r.UserID, r.ID, "undo:"+string(r.Action.Kind), r.Result, r.Before)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("store mark undone %d: %w", r.ID, err)
	}
	return undone, nil
}

// jsonInner is the SQL for text parameter p as it is written inside a JSON
// string (escaped, without the quotes), to find and replace it in jsonb
// as text without breaking the JSON.
func jsonInner(p string) string {
	return "substr(to_json(" + p + "::text)::text, 2, length(to_json(" + p + "::text)::text) - 2)"
}

// eraseQuotes replaces text, where userID's messages, Hearth's replies in
// their conversations and its questions there quote it word for word,
// with "[forgotten]".
func eraseQuotes(ctx context.Context, tx pgx.Tx, userID int64, text string) error {
	if text == "" {
		return nil
	}
	if _, err := tx.Exec(ctx, `
		UPDATE inbound_events SET text = replace(text, $2, $3), payload = replace(payload::text, `+jsonInner("$2")+`, $3)::jsonb
		WHERE user_id = $1 AND (strpos(text, $2) > 0 OR strpos(payload::text, `+jsonInner("$2")+`) > 0)`,
		userID, text, forgottenText); err != nil {
		return fmt.Errorf("requests: %w", err)
	}
	if _, err := tx.Exec(ctx, `
		UPDATE messages SET text = replace(text, $2, $3), buttons = replace(buttons::text, `+jsonInner("$2")+`, $3)::jsonb
		WHERE conversation_id IN (SELECT DISTINCT conversation_id FROM inbound_events WHERE user_id = $1)
		  AND (strpos(text, $2) > 0 OR strpos(buttons::text, `+jsonInner("$2")+`) > 0)`,
		userID, text, forgottenText); err != nil {
		return fmt.Errorf("messages: %w", err)
	}
	if _, err := tx.Exec(ctx, `
		UPDATE open_questions SET question = replace(question::text, `+jsonInner("$2")+`, $3)::jsonb
		WHERE conversation_id IN (SELECT DISTINCT conversation_id FROM inbound_events WHERE user_id = $1)
		  AND strpos(question::text, `+jsonInner("$2")+`) > 0`,
		userID, text, forgottenText); err != nil {
		return fmt.Errorf("questions: %w", err)
	}
	return nil
}

// forgottenText stands where a forgotten fact was quoted in a conversation.
const forgottenText = "[forgotten]"

// EraseForgotten really forgets: for up to limit forgets executed before
// cutoff (the end of their undo window) and not undone, it erases every
// copy of the forgotten fact Hearth kept for undo and audit: the payload,
// result and before of the forget and of every earlier memory action on
// the same fact or carrying its text, their approvals' payloads, and
// their audit entries (and an import's entry for the fact); and where the
// user's messages, Hearth's replies and its questions quote it word for
// word, the quote becomes "[forgotten]"; so do the quotes of the notes
// that were on the relationships the fact created (kept in the forget's
// record for undo, hearth.ForgottenFact.Notes), in their authors'
// conversations. The forget's row stays as a content-free record that something was forgotten, with the fact's id
// and erased_at. The fact's row, its embedding and its
// shares went when it was forgotten. It returns how many forgets it
// erased; a forget is erased once, so running it again changes nothing,
// and replicas running it at once skip each other's rows.
func (s *Store) EraseForgotten(ctx context.Context, cutoff time.Time, limit int) (int, error) {
	type forget struct {
		ID, UserID, FactID int64
		Content            string
		// Notes are those that were on the relationships the fact created
		// (hearth.ForgottenFact.Notes).
		Notes []hearth.GraphNote
	}
	var n int
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		rows, _ := tx.Query(ctx, `
			SELECT id, user_id, COALESCE((payload->>'id')::bigint, 0), COALESCE(before->>'content', payload->>'content', ''),
				COALESCE(before->'forgotten'->'notes', '[]'::jsonb)
			FROM actions
			WHERE kind = 'memory.forget' AND state = 'done' AND erased_at IS NULL AND executed_at < $1
			ORDER BY executed_at, id LIMIT $2
			FOR UPDATE SKIP LOCKED`, cutoff, limit)
		forgets, err := pgx.CollectRows(rows, pgx.RowToStructByPos[forget])
		if err != nil {
			return fmt.Errorf("list forgets: %w", err)
		}
		for _, f := range forgets {
			// related: the forget, and the user's actions that carry the fact,
			// by its id in a memory action's record or by its text anywhere.
			_, err := tx.Exec(ctx, `
				WITH related AS (
					SELECT id FROM actions a
					WHERE a.user_id = $2 AND (a.id = $1
						OR (a.kind LIKE 'memory.%' AND $3::bigint::text IN (a.payload->>'id', a.result->>'id', a.before->>'id'))
						OR ($4 <> '' AND (
							jsonb_path_exists(a.payload, '$.** ? (@ == $c)', jsonb_build_object('c', $4::text))
							OR jsonb_path_exists(COALESCE(a.result, 'null'), '$.** ? (@ == $c)', jsonb_build_object('c', $4::text))
							OR jsonb_path_exists(COALESCE(a.before, 'null'), '$.** ? (@ == $c)', jsonb_build_object('c', $4::text)))))
				), erased AS (
					UPDATE actions SET payload = jsonb_build_object('fact_id', $3::bigint, 'erased', true),
						result = NULL, before = NULL, erased_at = now()
					WHERE id IN (SELECT id FROM related)
				), approved AS (
					UPDATE approvals SET payload = jsonb_build_object('fact_id', $3::bigint, 'erased', true)
					WHERE action_id IN (SELECT id FROM related)
				)
				UPDATE audit_log SET before = NULL, after = jsonb_build_object('fact_id', $3::bigint, 'erased', true)
				WHERE user_id = $2 AND (action_id IN (SELECT id FROM related)
					OR (kind = 'import.create' AND after->>'kind' = 'fact' AND after->>'id' = $3::bigint::text)
					OR ($4 <> '' AND (
						jsonb_path_exists(COALESCE(before, 'null'), '$.** ? (@ == $c)', jsonb_build_object('c', $4::text))
						OR jsonb_path_exists(COALESCE(after, 'null'), '$.** ? (@ == $c)', jsonb_build_object('c', $4::text)))))`,
				f.ID, f.UserID, f.FactID, f.Content)
			if err != nil {
				return fmt.Errorf("erase forget %d: %w", f.ID, err)
			}
			// The conversation: the user's messages and Hearth's replies that
			// quote the fact, and those of the notes that were on its
			// relationships ("note on Lily and Emma: …"), keep everything
			// else they said.
			if err := eraseQuotes(ctx, tx, f.UserID, f.Content); err != nil {
				return fmt.Errorf("erase forget %d: %w", f.ID, err)
			}
			for _, gn := range f.Notes {
				if err := eraseQuotes(ctx, tx, gn.AddedBy, gn.Body); err != nil {
					return fmt.Errorf("erase forget %d: note %d: %w", f.ID, gn.ID, err)
				}
			}
		}
		n = len(forgets)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("store erase forgotten: %w", translate(err))
	}
	return n, nil
}
