package action

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/hearthbot/hearth"
)

// Store is what the engine keeps in the database.
type Store interface {
	PlanActions(ctx context.Context, eventID, conversationID, userID int64, plan []Action, risks []Risk, ttl time.Duration) (claimed []int64, recs []Record, err error)
	Action(ctx context.Context, id int64) (Record, error)
	ClaimAction(ctx context.Context, id int64, staleAfter time.Duration) (Record, bool, error)
	FinishAction(ctx context.Context, r Record, state State, result, before any, reason string) error
	Begin(ctx context.Context) (pgx.Tx, error)
	DecideApprovalTx(ctx context.Context, tx pgx.Tx, approvalID, userID int64, approve bool) (Approval, error)
	Commit(ctx context.Context, tx pgx.Tx) error
	SetApprovalOutcome(ctx context.Context, approvalID int64, state ApprovalState) error
	AllowApprovalRetry(ctx context.Context, approvalID int64) error
	RetryApprovalTx(ctx context.Context, tx pgx.Tx, approvalID, userID int64, try int) (Approval, error)
	PendingApproval(ctx context.Context, conversationID, userID int64) (Approval, bool, error)
	TurnApprovals(ctx context.Context, approvalID int64) ([]int64, error)
	LastUndoable(ctx context.Context, conversationID, userID int64) (Record, bool, error)
	MarkUndone(ctx context.Context, r Record) (bool, error)
	// EventShared reports whether deleting the user's event touches
	// anyone else (attendees, a family calendar); true when unsure.
	EventShared(ctx context.Context, userID, id int64) (bool, error)
}

// Engine plans, runs, approves and undoes actions.
//
// Low-risk actions of a turn run at once, in parallel, inside the turn's
// River job, so the reply can say what happened. Each is a row keyed
// (turn, index), stored already claimed: if the turn dies midway, River
// retries the turn, which finds its stored plan, skips what is done and
// takes over what was left running once it is stale. An approved action
// runs in the turn of the click, and also gets an "action" job scheduled
// Backstop later in the transaction that records the decision, because a
// decision is made only once. Whoever claims a row first runs it; the
// other finds it taken or done (invariant 2).
type Engine struct {
	store Store
	exec  *Executor
	log   *slog.Logger
	// ApprovalTTL is how long an approval stays valid. Defaults to 24h.
	ApprovalTTL time.Duration
	// Backstop is how long after planning an action's job runs if the
	// turn has not run it. Defaults to 30s.
	Backstop time.Duration
	// StaleAfter is how long a running action may be silent before
	// another runner takes it over. Defaults to 2 minutes.
	StaleAfter time.Duration
	// UndoWindow is how long after it ran an action can be undone; after
	// it, "undo" says it is too late, and what a forget kept for undo is
	// erased (EraseArgs). Defaults to DefaultUndoWindow.
	UndoWindow time.Duration
	// Now is the clock undo is judged by. Defaults to time.Now.
	Now func() time.Time
	// Client inserts the backstop jobs. Defaults to the River client of
	// the job the engine is called from.
	Client *river.Client[pgx.Tx]
}

// NewEngine returns an engine on store that executes with exec.
func NewEngine(store Store, exec *Executor, log *slog.Logger) *Engine {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Engine{store: store, exec: exec, log: log, ApprovalTTL: 24 * time.Hour, UndoWindow: DefaultUndoWindow, Now: time.Now, Backstop: 30 * time.Second, StaleAfter: 2 * time.Minute}
}

// DefaultUndoWindow is how long an action can be undone unless configured
// otherwise (HEARTH_UNDO_WINDOW).
const DefaultUndoWindow = 24 * time.Hour

// ErrTooLate is returned by Undo for an action older than the undo window.
var ErrTooLate = errors.New("too late to undo")

// Turn identifies the turn a plan belongs to.
type Turn struct {
	EventID        int64
	ConversationID int64
	UserID         int64
	// OwnWords is true when the plan was read by code from the user's
	// own message ("cancel my haircut"), not by a model and not from a
	// question's stored options: only then is deleting one of their own
	// events that no one else is on done at once (invariants 3 and 4).
	OwnWords bool
}

// Run stores a turn's plan and executes its low-risk actions. High-risk
// ones wait for approval; an email to send has its draft created now, so
// the user approves what they can see. It returns every action's record
// as it stands after the run. Running a plan twice for the same turn
// executes nothing twice.
func (e *Engine) Run(ctx context.Context, t Turn, plan []Action) ([]Record, error) {
	for _, a := range plan {
		if err := a.Validate(); err != nil {
			return nil, err
		}
	}
	risks, err := e.risks(ctx, t, plan)
	if err != nil {
		return nil, fmt.Errorf("plan: %w", err)
	}
	claimed, recs, err := e.store.PlanActions(ctx, t.EventID, t.ConversationID, t.UserID, plan, risks, e.ApprovalTTL)
	if err != nil {
		return nil, fmt.Errorf("plan: %w", err)
	}
	var wg sync.WaitGroup
	// unrecorded[i] says the database took no claim or outcome of action
	// i: the reply would rest on a state the row does not have, so the
	// turn fails and its retry runs the action again (keyed: no twice).
	unrecorded := make([]error, len(recs))
	for i := range recs {
		switch {
		case slices.Contains(claimed, recs[i].ID):
			wg.Go(func() { recs[i], unrecorded[i] = e.perform(ctx, recs[i]) })
		case recs[i].State == StatePlanned:
			// Left by an earlier attempt at this turn.
			wg.Go(func() { recs[i], unrecorded[i] = e.execute(ctx, recs[i], e.StaleAfter) })
		case recs[i].State == StateRunning && recs[i].ApprovalID == 0:
			// Claimed by an earlier attempt at this turn that ended without
			// recording the outcome (the database went away mid-way, the
			// process died). That attempt is over — a turn is retried only
			// after its attempt ends — and nothing else will run the action,
			// so it is taken over now rather than after StaleAfter: creates
			// are keyed by the action, so running it again makes nothing twice.
			// An approved action (an email) is left to its backstop job
			// and StaleAfter: Decide may be sending it right now.
			wg.Go(func() { recs[i], unrecorded[i] = e.execute(ctx, recs[i], 0) })
		case recs[i].State == StateAwaitingApproval:
			if recs[i].Action.Kind.SendsMail() {
				wg.Go(func() {
					d, err := e.exec.Draft(ctx, recs[i])
					if err != nil {
						e.log.WarnContext(ctx, "draft for approval failed", "action_id", recs[i].ID, "error", err)
						return
					}
					recs[i].Result = mustJSON(d)
				})
			}
		}
	}
	wg.Wait()
	if err := errors.Join(unrecorded...); err != nil {
		return recs, fmt.Errorf("run actions: %w", err)
	}
	return recs, ctx.Err()
}

// decide records the decision and, for an approval, the action's backstop
// job: one unit of work.
func (e *Engine) decide(ctx context.Context, approvalID, userID int64, approve bool) (Approval, error) {
	tx, err := e.store.Begin(ctx)
	if err != nil {
		return Approval{}, err
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // after Commit this is a no-op
	ap, err := e.store.DecideApprovalTx(ctx, tx, approvalID, userID, approve)
	if err != nil {
		return ap, err
	}
	if approve {
		if err := e.enqueueLater(ctx, tx, []int64{ap.ActionID}, 0); err != nil {
			return ap, err
		}
	}
	return ap, e.store.Commit(ctx, tx)
}

// enqueueLater inserts the backstop job of approved actions in the
// transaction that records the decision (try: the try again it is for,
// 0 for the approval itself).
func (e *Engine) enqueueLater(ctx context.Context, tx pgx.Tx, ids []int64, try int) error {
	client := e.Client
	if client == nil {
		c, err := river.ClientFromContextSafely[pgx.Tx](ctx)
		if err != nil {
			return fmt.Errorf("enqueue actions: %w", err)
		}
		client = c
	}
	at := time.Now().Add(e.Backstop)
	for _, id := range ids {
		if _, err := client.InsertTx(ctx, tx, ActionArgs{ActionID: id, Try: try}, &river.InsertOpts{ScheduledAt: at}); err != nil {
			return fmt.Errorf("enqueue action %d: %w", id, err)
		}
	}
	return nil
}

// execute claims and runs one action, returning its record afterwards.
// Failures of the action are recorded on the row (with a user-safe
// reason), not returned: the reply reports them honestly. The error says
// the database took no claim or outcome, so the row may say otherwise.
func (e *Engine) execute(ctx context.Context, r Record, staleAfter time.Duration) (Record, error) {
	claimed, ok, err := e.store.ClaimAction(ctx, r.ID, staleAfter)
	if err != nil {
		r.State, r.Error = StateFailed, "I couldn't reach my database"
		return r, err
	}
	if !ok {
		if cur, err := e.store.Action(ctx, r.ID); err == nil {
			return cur, nil
		}
		return r, nil
	}
	return e.perform(ctx, claimed)
}

// perform runs an action the caller has claimed and records the outcome;
// the error says the outcome could not be recorded (the row still says
// running).
func (e *Engine) perform(ctx context.Context, claimed Record) (Record, error) {
	result, before, err := e.exec.Execute(ctx, claimed)
	state, reason := StateDone, ""
	if err != nil {
		state, reason = StateFailed, userReason(err)
		claimed.Retryable = retryable(claimed.Action.Kind, err)
		e.log.WarnContext(ctx, "action failed", "action_id", claimed.ID, "kind", claimed.Action.Kind, "error", err)
	}
	ferr := e.store.FinishAction(ctx, claimed, state, result, before, reason)
	if ferr != nil {
		e.log.ErrorContext(ctx, "recording action outcome failed", "action_id", claimed.ID, "error", ferr)
	}
	claimed.State, claimed.Error = state, reason
	claimed.Result, claimed.Before = mustJSON(result), mustJSON(before)
	return claimed, ferr
}

// retryable reports whether an action that failed with err may be tried
// again without repeating an effect: an email send that the provider
// refused or could not start (hearth.ErrUnavailable; a send whose fate is
// unknown is hearth.ErrInvalid, and a retry of it is refused by the
// provider in any case).
func retryable(k Kind, err error) bool {
	return k.SendsMail() && errors.Is(err, hearth.ErrUnavailable)
}

// userReason turns an error into words fit for the user: bad input says
// why; anything else stays vague, as the details are for the log.
func userReason(err error) string {
	switch {
	case errors.Is(err, hearth.ErrInvalid):
		return hearth.ErrorMessage(err)
	case errors.Is(err, hearth.ErrNotFound):
		return "I couldn't find it any more"
	case errors.Is(err, hearth.ErrUnavailable):
		if e := (*hearth.Error)(nil); errors.As(err, &e) && e.Code == hearth.EUnavailable && error(e) != hearth.ErrUnavailable {
			return e.Message // a provider that says which service and what to do
		}
		return "a service I need is unavailable right now"
	}
	return "something went wrong on my side"
}

// Decide applies the user's Approve or Cancel to an approval. The first
// valid decision wins; later ones get ErrAlreadyDecided, another user
// ErrNotYours, a late one ErrExpired. An approved action runs at once,
// after checking that what runs is exactly what was approved.
func (e *Engine) Decide(ctx context.Context, approvalID, userID int64, approve bool) (Approval, Record, error) {
	ap, err := e.decide(ctx, approvalID, userID, approve)
	if err != nil {
		return ap, Record{}, err
	}
	rec, err := e.store.Action(ctx, ap.ActionID)
	if err != nil {
		return ap, rec, err
	}
	if !approve {
		// A cancelled email's draft was made only to be approved: it goes
		// (the approval is decided whatever becomes of it).
		if rec.Action.Kind.SendsMail() {
			if err := e.exec.DiscardDraft(ctx, rec); err != nil {
				e.log.WarnContext(ctx, "discarding a cancelled draft failed", "action_id", rec.ID, "error", err)
			}
		}
		return ap, rec, nil
	}
	return e.runApproved(ctx, ap, rec)
}

// runApproved runs an approved action, after checking that what runs is
// exactly what was approved, and records the approval's outcome: a
// failure that may be tried again is marked so (Retry).
func (e *Engine) runApproved(ctx context.Context, ap Approval, rec Record) (Approval, Record, error) {
	approved := Action{Kind: rec.Action.Kind, Payload: ap.Action.Payload}
	if approved.Hash() != ap.Hash || rec.Action.Hash() != ap.Hash {
		if claimed, ok, cerr := e.store.ClaimAction(ctx, rec.ID, e.StaleAfter); cerr == nil && ok {
			e.store.FinishAction(ctx, claimed, StateFailed, nil, nil, "the approved request changed") //nolint:errcheck // reported below
		}
		e.store.SetApprovalOutcome(ctx, ap.ID, ApprovalFailed) //nolint:errcheck // reported below
		return ap, rec, ErrTampered
	}
	rec, unrecorded := e.execute(ctx, rec, e.StaleAfter)
	if unrecorded != nil || rec.State == StateRunning {
		// Another runner (the backstop job) has it, or the database took
		// no claim or outcome and the backstop job will run or finish it:
		// either way it records the outcome, and the approval stays
		// approved meanwhile — the user is told it is under way, never
		// that it failed.
		rec.State = StateRunning
		return ap, rec, nil
	}
	outcome := ApprovalExecuted
	if rec.State != StateDone {
		outcome = ApprovalFailed
	}
	if err := e.store.SetApprovalOutcome(ctx, ap.ID, outcome); err != nil {
		return ap, rec, err
	}
	ap.State, ap.Retryable = outcome, false
	if outcome == ApprovalFailed && rec.Retryable {
		if err := e.store.AllowApprovalRetry(ctx, ap.ID); err != nil {
			e.log.WarnContext(ctx, "offering a retry failed", "approval_id", ap.ID, "error", err)
		} else {
			ap.Retryable = true
		}
	}
	return ap, rec, nil
}

// Retry tries a failed, retryable approval again ("Try again"): the same
// approved payload (its hash checked again), run once more. try is the
// number of the try the button offered (Approval.Retries+1 when it
// failed): one conditional UPDATE lets exactly one click of that button
// run it, and a later try needs the button of the failure after it.
// Refusals are ErrNotYours, ErrExpired and ErrNotRetryable (done, its
// fate unknown, or that try made already).
func (e *Engine) Retry(ctx context.Context, approvalID, userID int64, try int) (Approval, Record, error) {
	tx, err := e.store.Begin(ctx)
	if err != nil {
		return Approval{}, Record{}, err
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // after Commit this is a no-op
	ap, err := e.store.RetryApprovalTx(ctx, tx, approvalID, userID, try)
	if err != nil {
		return ap, Record{}, err
	}
	if err := e.enqueueLater(ctx, tx, []int64{ap.ActionID}, try); err != nil {
		return ap, Record{}, err
	}
	if err := e.store.Commit(ctx, tx); err != nil {
		return ap, Record{}, err
	}
	rec, err := e.store.Action(ctx, ap.ActionID)
	if err != nil {
		return ap, rec, err
	}
	return e.runApproved(ctx, ap, rec)
}

// PendingApproval returns userID's open approval in the conversation, if
// any.
func (e *Engine) PendingApproval(ctx context.Context, conversationID, userID int64) (Approval, bool, error) {
	return e.store.PendingApproval(ctx, conversationID, userID)
}

// TurnApprovals returns the approvals asked in the same turn as
// approvalID, in plan order (it included): those one "Approve all"
// decides, each with Decide.
func (e *Engine) TurnApprovals(ctx context.Context, approvalID int64) ([]int64, error) {
	return e.store.TurnApprovals(ctx, approvalID)
}

// Undo reverts userID's last executed action in the conversation. ok is
// false when there is nothing to undo. A high-risk action is not undone by
// a bare "undo" unless its undo is a restore (a delete, a forget): undoing
// an approved event with attendees would cancel it for them, unasked;
// ErrNotUndoable says so. An action that ran longer than UndoWindow ago is
// not undone: ErrTooLate.
func (e *Engine) Undo(ctx context.Context, conversationID, userID int64) (Record, bool, error) {
	r, ok, err := e.store.LastUndoable(ctx, conversationID, userID)
	if err != nil || !ok {
		return r, false, err
	}
	if e.now().Sub(r.ExecutedAt) > e.undoWindow() {
		return r, true, ErrTooLate
	}
	if r.Risk == High && !restores(r.Action.Kind) {
		return r, true, ErrNotUndoable
	}
	if err := e.exec.Undo(ctx, r); err != nil {
		return r, true, err
	}
	if _, err := e.store.MarkUndone(ctx, r); err != nil {
		return r, true, err
	}
	r.State = StateUndone
	return r, true, nil
}

func (e *Engine) now() time.Time {
	if e.Now == nil {
		return time.Now()
	}
	return e.Now()
}

func (e *Engine) undoWindow() time.Duration {
	if e.UndoWindow <= 0 {
		return DefaultUndoWindow
	}
	return e.UndoWindow
}

// ActionArgs is the backstop job of one action (Try: of its try again
// after a failure, so the job is not the first try's, which is done).
type ActionArgs struct {
	ActionID int64 `json:"action_id"`
	Try      int   `json:"try,omitempty"`
}

// Kind is the River job kind; stable across releases.
func (ActionArgs) Kind() string { return "action" }

// InsertOpts keeps one job per action.
func (ActionArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueActions, MaxAttempts: 10, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// QueueActions is the River queue of action jobs.
const QueueActions = "actions"

// Worker runs action jobs: it finishes what a turn planned but did not
// get to, and does nothing for actions already run.
type Worker struct {
	river.WorkerDefaults[ActionArgs]
	engine *Engine
}

// NewWorker returns the action job worker.
func NewWorker(e *Engine) *Worker { return &Worker{engine: e} }

// Work runs the action unless it is finished or awaits a decision.
func (w *Worker) Work(ctx context.Context, job *river.Job[ActionArgs]) error {
	r, err := w.engine.store.Action(ctx, job.Args.ActionID)
	if errors.Is(err, hearth.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if r.State != StatePlanned && r.State != StateRunning {
		return nil
	}
	// execute takes over a running action only once its runner is stale.
	r, err = w.engine.execute(ctx, r, w.engine.StaleAfter)
	if err != nil {
		return err // retried: the row still says running
	}
	if r.State == StateRunning {
		return river.JobSnooze(w.engine.StaleAfter)
	}
	if r.ApprovalID != 0 {
		outcome := ApprovalExecuted
		if r.State != StateDone {
			outcome = ApprovalFailed
		}
		if err := w.engine.store.SetApprovalOutcome(ctx, r.ApprovalID, outcome); err != nil || !r.Retryable {
			return err
		}
		return w.engine.store.AllowApprovalRetry(ctx, r.ApprovalID)
	}
	return nil
}

func mustJSON(v any) []byte {
	if v == nil {
		return nil
	}
	b, err := jsonMarshal(v)
	if err != nil {
		return nil
	}
	return b
}

// restores reports whether undoing kind brings something back rather than
// changing what others see.
func restores(k Kind) bool {
	return k == TaskDelete || k == CalendarDelete || k == MemoryForget || k == NoteDelete || k == EmailDiscard
}
