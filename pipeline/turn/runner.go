// Package turn is the turn runner: the pipeline.Handler that drives the
// four stages for one message or button click, keeps the conversation's
// open questions and approvals, leaves the turn's trace, and registers the
// runner's own commands (undo, yes and no to an approval).
package turn

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/commands"
	"github.com/hearthbot/hearth/memory"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/gather"
	"github.com/hearthbot/hearth/pipeline/hybrid"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/plan"
	"github.com/hearthbot/hearth/pipeline/respond"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// State is the conversation state the runner keeps: open questions,
// edits of answered prompts, and traces.
type State interface {
	SaveQuestion(ctx context.Context, eventID, conversationID int64, q any) (int64, error)
	// TurnOpening reads what a message turn starts from in one round
	// trip: the user's pending approval's id and open question's (0 for
	// none; the question decoded into q) and the last n messages.
	TurnOpening(ctx context.Context, conversationID, userID int64, n int, q any) (approvalID, questionID int64, recent []hearth.Message, err error)
	Question(ctx context.Context, conversationID, userID, id int64, q any) (bool, error)
	AnswerQuestion(ctx context.Context, id int64) (bool, error)
	EditMessageWithButton(ctx context.Context, conversationID int64, buttonID, text string) ([]int64, error)
	EditMessageWithButtonTx(ctx context.Context, tx pgx.Tx, conversationID int64, buttonID, text string) ([]int64, error)
	SaveTrace(ctx context.Context, t hearth.Trace) error
	SaveTraceTx(ctx context.Context, tx pgx.Tx, t hearth.Trace) error
}

// Config assembles a Runner. Every field but Log and Now is required.
type Config struct {
	Intent    stage.Intent
	Sources   gather.Sources
	Planners  map[nlu.Domain]stage.Planner
	Responder stage.Responder
	Engine    *action.Engine
	State     State
	Log       *slog.Logger
	// Now is the clock. Defaults to time.Now.
	Now func() time.Time
	// Models, when set, is the model configuration the stages were built
	// with (Models.Intent, Models.Planners, Models.Responder): the runner
	// opens each turn's model accounting and deadline and records it in
	// the trace. Nil means offline.
	Models *hybrid.Models
	// Editor changes a draft awaiting approval as the user instructs
	// (the Edit button). Nil means no instruction is understood and the
	// user is asked for the new text.
	Editor stage.DraftEditor
}

// Runner answers a turn with the four stages. It is a pipeline.Handler.
type Runner struct{ cfg Config }

// NewRunner returns a Runner.
func NewRunner(cfg Config) *Runner {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Runner{cfg: cfg}
}

var _ pipeline.Handler = (*Runner)(nil)

// turnState is what one turn accumulates for its reply and its trace.
type turnState struct {
	t       pipeline.Turn
	now     time.Time
	start   time.Time
	trace   hearth.Trace
	buttons []hearth.Button
	// writes commit with the turn's reply (see pipeline.Answer).
	writes []pipeline.Write
}

func (s *turnState) lap(stage string, since time.Time) time.Time {
	now := time.Now()
	s.trace.Timings[stage] += now.Sub(since).Microseconds()
	return now
}

// HandleTurn runs one turn and leaves its trace.
func (r *Runner) HandleTurn(ctx context.Context, t pipeline.Turn) (pipeline.Answer, error) {
	st, err := r.begin(t)
	if err != nil {
		return pipeline.Answer{}, err
	}
	var models *hybrid.Meter
	if r.cfg.Models != nil {
		ctx, models = r.cfg.Models.Begin(ctx, t, st.now)
	}
	var text string
	switch t.Event.Kind {
	case hearth.KindButton:
		st.trace.Intent = "button"
		text, err = r.button(ctx, st)
	case hearth.KindUnsupported:
		st.trace.Intent = "unsupported"
		text = unsupportedReply(t.Event.Text)
	default:
		text, err = r.message(ctx, st)
	}
	if err != nil {
		return pipeline.Answer{}, err
	}
	if models != nil {
		text = r.cfg.Models.Finish(ctx, models, &st.trace, text)
	}
	return r.end(st, text), nil
}

// begin starts a turn's state in the user's zone.
func (r *Runner) begin(t pipeline.Turn) (*turnState, error) {
	loc, err := pipeline.LoadTimezone(t.User.Timezone)
	if err != nil {
		return nil, fmt.Errorf("turn %d: %w", t.Event.ID, err)
	}
	return &turnState{t: t, now: r.cfg.Now().In(loc), start: time.Now(), trace: hearth.Trace{
		EventID: t.Event.ID, ConversationID: t.Event.ConversationID, UserID: t.User.ID,
		Timings: map[string]int64{}, Actions: []hearth.TraceAction{},
	}}, nil
}

// end is the turn's answer: the reply, and its writes with the trace.
func (r *Runner) end(st *turnState, text string) pipeline.Answer {
	st.trace.Timings["total"] = time.Since(st.start).Microseconds()
	trace := st.trace
	return pipeline.Answer{Replies: []hearth.Outbound{{Text: text, Buttons: st.buttons}}, Writes: st.writes, Traced: true, Trace: &trace}
}

func (r *Runner) message(ctx context.Context, st *turnState) (string, error) {
	ev := st.t.Event
	// A voice note's "um" and "ok so" are no part of any title.
	ev.Text = words.DropFillers(ev.Text)
	if what, ok := nlu.Until(ev.Text); ok {
		if _, day := nlu.OneDay(what, st.now); !day {
			// "How many days until Lena's birthday?" asks when it is,
			// of something Hearth keeps; a day itself ("until
			// Christmas") the reply counts out.
			ev.Text = "When is " + what + "?"
		}
	}
	began := time.Now()
	// The open question (q, qid) is read once, with the approval waiting
	// and the recent messages; nothing in the turn changes it before it
	// is used below.
	var q stage.Question
	apID, qid, recent, err := r.cfg.State.TurnOpening(ctx, ev.ConversationID, st.t.User.ID, gather.HistoryTurns, &q)
	if err != nil {
		return "", fmt.Errorf("turn opening: %w", err)
	}
	if apID != 0 && qid != 0 && q.EditApproval == apID {
		ap, ok, err := r.cfg.Engine.PendingApproval(ctx, ev.ConversationID, st.t.User.ID)
		if err != nil {
			return "", err
		}
		if ok && ap.ID == apID {
			st.trace.Intent = "followup"
			return r.edit(ctx, st, qid, q, ap, ev.Text)
		}
	}
	if reply, ok, err := r.underDraft(ctx, st, apID, recent); ok || err != nil {
		return reply, err
	}

	// A question that waits for words ("What is Sarah's email
	// address?", "When was that?") takes the next message when it is such
	// an answer; anything else is an ordinary message.
	if qid != 0 && q.Fill != nil {
		acts, ok, err := plan.Fill(*q.Fill, ev.Text, st.now)
		if err != nil {
			r.cfg.Log.WarnContext(ctx, "a question's answer did not fill its action", "turn_id", ev.ID, "error", err)
		} else if ok {
			st.trace.Intent = "followup"
			return r.filled(ctx, st, qid, acts)
		}
	}

	// A question that waits for the rest of a request ("What should I
	// remind you about?") reads the answer with the request: the turn
	// goes on as if the user had said it all at once. Only the message
	// right after it answers: any words would do, so once the talk has
	// moved on, "Sam's email is …" is not what to be reminded of.
	if qid != 0 && q.Fill != nil && justAsked(recent, ev.Text, q.Text) {
		if text, ok := plan.Continue(*q.Fill, ev.Text); ok {
			if _, err := r.cfg.State.AnswerQuestion(ctx, qid); err != nil {
				return "", err
			}
			ev.Text, qid, q = text, 0, stage.Question{}
		}
	}

	// "Yes" to a question with one button ("Remind me in an hour", "Keep
	// it without a date") presses it, right after it was asked.
	if qid != 0 && len(q.Options) == 1 && slices.Contains(yesWords, commands.Normalise(ev.Text)) && justAsked(recent, ev.Text, q.Text) {
		st.trace.Intent = "followup"
		return r.pick(ctx, st, qid, q, 0)
	}

	// "When is it?" asks when the item just spoken of is: by its name;
	// "actually it's at 4" moves it; "what's on it?" asks the list.
	if ev.Text, err = r.cfg.Sources.Reword(ctx, ev.Text, st.t.User.ID, recent, st.now); err != nil {
		return "", err
	}
	understand := r.cfg.Intent.Understand
	if si, ok := r.cfg.Intent.(stage.SpokenIntent); ok && ev.Spoken {
		understand = si.UnderstandSpoken
	}
	u, err := understand(ctx, ev.Text, toTurns(recent, ev.Text), st.now)
	if err != nil {
		// A failed classification is a chat, never an action.
		r.cfg.Log.WarnContext(ctx, "intent failed; treating as chat", "turn_id", ev.ID, "error", err)
		u = stage.Understanding{Intent: nlu.Chat, Domains: []nlu.Domain{}}
	}
	// "I paid the rent" completes the open task it names, whatever the
	// classifier made of it.
	if u, err = r.cfg.Sources.Completion(ctx, u, ev.Text, st.t.User.ID); err != nil {
		return "", err
	}
	// "What's the wifi password?" asks memory when memory has it.
	if u, err = r.cfg.Sources.Recall(ctx, u, ev.Text, st.t.User.ID); err != nil {
		return "", err
	}
	// "Forget the dentist" forgets what memory holds about the dentist,
	// never adds it to the to-do list.
	if u, err = r.cfg.Sources.Forget(ctx, u, ev.Text, st.t.User.ID); err != nil {
		return "", err
	}
	// "Tick off milk" completes the task it names, else ticks it off the
	// list that has it.
	if u, err = r.cfg.Sources.TickOff(ctx, u, ev.Text, st.t.User.ID); err != nil {
		return "", err
	}
	// "Move the dentist to Friday" moves an event when the user has one
	// by that name, whatever domain the classifier named.
	if u, err = r.cfg.Sources.EventMove(ctx, u, ev.Text, st.t.User.ID, st.now); err != nil {
		return "", err
	}
	// "When is my haircut?" asks the calendar or the tasks when one has
	// it and memory does not.
	if u, err = r.cfg.Sources.WhenIs(ctx, u, ev.Text, st.t.User.ID, st.now); err != nil {
		return "", err
	}
	// "Who works at Acme?" is a question to memory, whatever the
	// classifier made of it.
	u = gather.MemoryQuestion(u, ev.Text, st.now)
	u = gather.MemoryEdit(u, ev.Text)
	// "Add a book to my gift ideas" adds to the note of that title.
	if u, err = r.cfg.Sources.NoteAdd(ctx, u, ev.Text, st.t.User.ID); err != nil {
		return "", err
	}
	// "Add eggs" names no list: it is for the user's lists.
	u = gather.ListAdd(u, ev.Text)
	// "Family movie night every Friday at 7pm" is for the calendar.
	u = gather.Repeating(u, ev.Text, st.now)
	st.trace.Intent, st.trace.Confidence = string(u.Intent), u.Confidence
	for _, d := range u.Domains {
		st.trace.Domains = append(st.trace.Domains, string(d))
	}
	began = st.lap("intent", began)

	if u.Intent == nlu.Followup && u.RequiresAction {
		// "Move it to 2pm", "also add lemons": a followup that asks for a
		// change (the trace keeps "followup") is gathered, planned and
		// answered as the request it is.
		u.Intent = nlu.RequestAction
	}
	if u.Intent == nlu.Followup && qid != 0 && u.Slots.Option >= 1 && u.Slots.Option <= len(q.Options) {
		return r.pick(ctx, st, qid, q, u.Slots.Option-1)
	}

	c, err := r.cfg.Sources.Gather(ctx, u, ev.Text, st.t.User, recent, st.now)
	if err != nil {
		return "", err
	}
	began = st.lap("context", began)

	in := stage.RespondInput{Text: ev.Text, Understanding: u, User: st.t.User, Context: c}
	if u.Intent == nlu.AskInfo && listsGraph(ev.Text) {
		// An answer that lists an inferred relationship offers to
		// confirm it, as the graph's own answers do.
		if b, ok := memory.ConfirmButton(slices.Concat(c.Relationships, c.Related)); ok {
			st.buttons = append(st.buttons, b)
		}
	}
	if u.Intent == nlu.RequestAction {
		plan, planErr := r.plan(ctx, stage.PlanInput{Text: ev.Text, Understanding: u, User: st.t.User, Context: c})
		in.Understood = plan.Understood
		switch {
		case planErr != nil && len(plan.Actions) == 0 && plan.Question == nil:
			r.cfg.Log.InfoContext(ctx, "planning failed", "turn_id", ev.ID, "error", planErr)
			in.PlanFailed = true
			if de := (*stage.DetailsError)(nil); errors.As(planErr, &de) {
				in.Missing = de.Detail
			}
		default:
			if plan.Question != nil {
				plan.Question.OwnWords = !plan.Model
				if err := r.ask(ctx, st, *plan.Question); err != nil {
					return "", err
				}
				in.Question = plan.Question
			}
			began = st.lap("plan", began)
			if len(plan.Actions) > 0 {
				outs, err := r.run(ctx, st, plan.Actions, !plan.Model)
				if err != nil {
					return "", err
				}
				in.Outcomes = outs
			}
		}
		began = st.lap("action", began)
	}
	return r.respond(ctx, st, in, began), nil
}

// listsGraph reports whether the answer to a question lists the memory
// graph around people: "tell me about Emma", "who do I know who …?".
func listsGraph(text string) bool {
	_, about := memory.AskedAbout(text)
	_, who := memory.AskedWhoKnown(text)
	return about || who
}

// plan asks the planner of each domain the intent named, and only those.
func (r *Runner) plan(ctx context.Context, in stage.PlanInput) (stage.Plan, error) {
	var out stage.Plan
	var errs []error
	for _, d := range in.Understanding.Domains {
		p, ok := r.cfg.Planners[d]
		if !ok {
			continue
		}
		got, err := p.Plan(ctx, in)
		if got.Understood != "" && out.Understood == "" {
			out.Understood = got.Understood
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("plan %s: %w", d, err))
			continue
		}
		out.Actions = append(out.Actions, got.Actions...)
		out.Model = out.Model || got.Model && len(got.Actions) > 0
		if out.Question == nil {
			out.Question = got.Question
		}
	}
	if out.Understood == "" {
		out.Understood = "do something for you"
	}
	out = plan.AskBeforeRepeating(out, in.Context)
	if len(out.Actions) == 0 && out.Question == nil {
		errs = append(errs, errors.New("no planner produced anything"))
	}
	return out, errors.Join(errs...)
}

// run executes actions through the engine and turns the records into
// outcomes, adding Approve/Cancel buttons for those that wait. ownWords
// says the actions were read from this message by code, no model (see
// action.Turn).
func (r *Runner) run(ctx context.Context, st *turnState, plan []action.Action, ownWords bool) ([]stage.Outcome, error) {
	ev := st.t.Event
	recs, err := r.cfg.Engine.Run(ctx, action.Turn{EventID: ev.ID, ConversationID: ev.ConversationID, UserID: st.t.User.ID, OwnWords: ownWords}, plan)
	if err != nil {
		if errors.Is(err, hearth.ErrInvalid) {
			return []stage.Outcome{{Action: plan[0], Status: stage.Failed, Error: hearth.ErrorMessage(err)}}, nil
		}
		return nil, err
	}
	outs := make([]stage.Outcome, 0, len(recs))
	var waiting []action.Record
	for _, rec := range recs {
		o := stage.Outcome{Action: rec.Action, Result: decodeResult(rec), Error: rec.Error}
		switch rec.State {
		case action.StateDone:
			o.Status = stage.Done
		case action.StateAwaitingApproval:
			o.Status = stage.AwaitingApproval
			waiting = append(waiting, rec)
		default:
			o.Status = stage.Failed
			if o.Error == "" {
				o.Error = "it didn't go through"
			}
		}
		st.trace.Actions = append(st.trace.Actions, hearth.TraceAction{Kind: string(rec.Action.Kind), Status: string(o.Status), Error: o.Error})
		outs = append(outs, o)
	}
	st.buttons = append(st.buttons, approvalButtons(waiting)...)
	return outs, nil
}

// approvalButtons are the buttons of a turn's approvals: Approve and
// Cancel (and Edit, for an email) for each, or, for a bulk change
// ("cancel everything on Friday"), one Approve all and Cancel all that
// decide every approval of the turn. Emails are never approved in bulk:
// each draft is read and sent on its own.
func approvalButtons(waiting []action.Record) []hearth.Button {
	email := slices.ContainsFunc(waiting, func(r action.Record) bool {
		return r.Action.Kind.SendsMail()
	})
	if len(waiting) > 1 && !email {
		id := strconv.FormatInt(waiting[0].ApprovalID, 10)
		return []hearth.Button{{ID: "approveall:" + id, Label: "Approve all"}, {ID: "cancelall:" + id, Label: "Cancel all"}}
	}
	var bs []hearth.Button
	for _, rec := range waiting {
		id := strconv.FormatInt(rec.ApprovalID, 10)
		bs = append(bs, hearth.Button{ID: approveButton(rec.ApprovalID), Label: "Approve"}, hearth.Button{ID: "cancel:" + id, Label: "Cancel"})
		if rec.Action.Kind == action.EmailSend {
			bs = append(bs, hearth.Button{ID: "edit:" + id, Label: "Edit"})
		}
	}
	return bs
}

func (r *Runner) respond(ctx context.Context, st *turnState, in stage.RespondInput, began time.Time) string {
	text, err := r.cfg.Responder.Respond(ctx, in)
	if err != nil || strings.TrimSpace(text) == "" {
		r.cfg.Log.WarnContext(ctx, "respond failed; using the fallback", "turn_id", st.t.Event.ID, "error", err)
		text = respond.DoneFallback(in.Outcomes)
	}
	st.lap("respond", began)
	return text
}

// ask stores a question and offers its options as buttons.
func (r *Runner) ask(ctx context.Context, st *turnState, q stage.Question) error {
	qid, err := r.cfg.State.SaveQuestion(ctx, st.t.Event.ID, st.t.Event.ConversationID, q)
	if err != nil {
		return err
	}
	for i, o := range q.Options {
		st.buttons = append(st.buttons, hearth.Button{ID: fmt.Sprintf("opt:%d:%d", qid, i+1), Label: o.Label})
	}
	return nil
}

// pick runs the actions of the chosen option of an open question.
func (r *Runner) pick(ctx context.Context, st *turnState, qid int64, q stage.Question, i int) (string, error) {
	began := time.Now()
	ok, err := r.cfg.State.AnswerQuestion(ctx, qid)
	if err != nil {
		return "", err
	}
	if !ok {
		return "That question was already answered.", nil
	}
	opt := q.Options[i]
	r.editPrompt(st, fmt.Sprintf("opt:%d:%d", qid, i+1), "→ "+opt.Label)
	outs, err := r.run(ctx, st, opt.Actions, q.OwnWords)
	if err != nil {
		return "", err
	}
	began = st.lap("action", began)
	return r.respond(ctx, st, stage.RespondInput{Text: opt.Label, User: st.t.User, Understanding: stage.Understanding{Intent: nlu.RequestAction}, Context: stage.Context{Now: st.now, Location: st.now.Location()}, Outcomes: outs}, began), nil
}

// filled runs the actions a question's answer in words completed.
func (r *Runner) filled(ctx context.Context, st *turnState, qid int64, acts []action.Action) (string, error) {
	began := time.Now()
	ok, err := r.cfg.State.AnswerQuestion(ctx, qid)
	if err != nil {
		return "", err
	}
	if !ok {
		return "That question was already answered.", nil
	}
	outs, err := r.run(ctx, st, acts, false)
	if err != nil {
		return "", err
	}
	began = st.lap("action", began)
	in := stage.RespondInput{Text: st.t.Event.Text, User: st.t.User, Understanding: stage.Understanding{Intent: nlu.RequestAction},
		Context: stage.Context{Now: st.now, Location: st.now.Location()}, Outcomes: outs}
	return r.respond(ctx, st, in, began), nil
}

func (r *Runner) undo(ctx context.Context, st *turnState) (string, error) {
	began := time.Now()
	rec, ok, err := r.cfg.Engine.Undo(ctx, st.t.Event.ConversationID, st.t.User.ID)
	st.lap("action", began)
	switch {
	case errors.Is(err, action.ErrNotUndoable):
		return "I can't undo that one, sorry — " + undoableWhy(rec.Action.Kind) + ".", nil
	case errors.Is(err, action.ErrTooLate):
		return "It's too late to undo that: I can only undo what I did in the last " + spanWords(r.cfg.Engine.UndoWindow) + ".", nil
	case err != nil:
		return "", err
	case !ok:
		return "There's nothing for me to undo.", nil
	}
	st.trace.Actions = append(st.trace.Actions, hearth.TraceAction{Kind: "undo:" + string(rec.Action.Kind), Status: "done"})
	if rec.ChangedNothing() {
		// "Undone" would claim a change: the fact was Hearth's before it
		// was told again, and it stays.
		return "Nothing to undo there: I already had " + describe(rec.Action, decodeResult(rec)) + " before you told me again, so it stays. To drop it, say “forget” and what it is.", nil
	}
	return undone(rec, stage.Context{Now: st.now, Location: st.now.Location()}), nil
}

// unsupportedReply answers a message Hearth cannot read: say what it
// was and what works instead, never silence (ARCHITECTURE.md, invariant 9).
func unsupportedReply(what string) string {
	if what == "voice note" || what == "audio" {
		return "I can't listen to voice notes yet: transcription isn't set up on this Hearth. Could you type it instead?"
	}
	return fmt.Sprintf("I can only read text for now, so I can't do anything with a %s. Could you tell me in words?", what)
}

// spanWords says a span the way a reply does: "24 hours", "30 minutes".
func spanWords(d time.Duration) string {
	if d <= 0 {
		d = action.DefaultUndoWindow
	}
	switch {
	case d%time.Hour == 0 && d != time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + " hours"
	case d == time.Hour:
		return "hour"
	case d%time.Minute == 0:
		return strconv.Itoa(int(d/time.Minute)) + " minutes"
	}
	return d.String()
}

func undoableWhy(k action.Kind) string {
	if k.SendsMail() {
		return "an email that was sent can't be unsent"
	}
	return "it can't be reversed"
}

// toTurns gives the classifier the conversation before this message, with
// the options each bot message offered.
// justAsked reports whether Hearth's last message, before the current
// one, asked question.
func justAsked(msgs []hearth.Message, current, question string) bool {
	turns := toTurns(msgs, current)
	n := len(turns)
	return n > 0 && turns[n-1].FromBot && question != "" && strings.Contains(turns[n-1].Text, question)
}

// beforeCurrent is msgs without the message being answered, current,
// when the transcript already has it last.
func beforeCurrent(msgs []hearth.Message, current string) []hearth.Message {
	if n := len(msgs); n > 0 && msgs[n-1].From == hearth.FromUser && msgs[n-1].Text == current {
		return msgs[:n-1]
	}
	return msgs
}

func toTurns(msgs []hearth.Message, current string) []nlu.Turn {
	msgs = beforeCurrent(msgs, current)
	turns := make([]nlu.Turn, 0, len(msgs))
	for _, m := range msgs {
		t := nlu.Turn{FromBot: m.From == hearth.FromBot, Text: m.Text}
		for _, b := range m.Buttons {
			t.Options = append(t.Options, b.Label)
		}
		turns = append(turns, t)
	}
	return turns
}
