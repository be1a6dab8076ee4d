package turn

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/respond"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// A turn that answers a button or a pending approval: Approve, Cancel and
// Edit, the options of a question, and the edit of a draft it leads to.

// button handles a click: an approval decision or a question's option.
func (r *Runner) button(ctx context.Context, st *turnState) (string, error) {
	kind, rest, _ := strings.Cut(st.t.Event.ButtonID, ":")
	switch kind {
	case "approve", "cancel":
		id, err := strconv.ParseInt(rest, 10, 64)
		if err != nil {
			return "I don't recognise that button.", nil
		}
		return r.decide(ctx, st, id, kind == "approve")
	case "approveall", "cancelall":
		id, err := strconv.ParseInt(rest, 10, 64)
		if err != nil {
			return "I don't recognise that button.", nil
		}
		return r.decideAll(ctx, st, id, kind == "approveall")
	case "retry":
		ids, ns, _ := strings.Cut(rest, ":")
		id, err1 := strconv.ParseInt(ids, 10, 64)
		try, err2 := strconv.Atoi(ns)
		if err1 != nil || err2 != nil || try < 1 {
			return "I don't recognise that button.", nil
		}
		return r.retry(ctx, st, id, try)
	case "edit":
		id, err := strconv.ParseInt(rest, 10, 64)
		if err != nil {
			return "I don't recognise that button.", nil
		}
		ap, ok, err := r.cfg.Engine.PendingApproval(ctx, st.t.Event.ConversationID, st.t.User.ID)
		if err != nil {
			return "", err
		}
		if !ok || ap.ID != id || ap.UserID != st.t.User.ID {
			return "That draft can't be edited any more.", nil
		}
		if _, err := r.cfg.State.SaveQuestion(ctx, st.t.Event.ID, st.t.Event.ConversationID, stage.Question{Text: "edit", EditApproval: id}); err != nil {
			return "", err
		}
		return "Sure — how should I change it? For example \"say Friday instead\", \"make it shorter\" or \"more formal\".", nil
	case "opt":
		qs, ns, _ := strings.Cut(rest, ":")
		qid, err1 := strconv.ParseInt(qs, 10, 64)
		n, err2 := strconv.Atoi(ns)
		if err1 != nil || err2 != nil {
			return "I don't recognise that button.", nil
		}
		var q stage.Question
		open, err := r.cfg.State.Question(ctx, st.t.Event.ConversationID, st.t.User.ID, qid, &q)
		if errors.Is(err, hearth.ErrNotFound) || n < 1 || n > len(q.Options) {
			return "I don't recognise that button.", nil
		}
		if err != nil {
			return "", err
		}
		if !open {
			return "That question was already answered.", nil
		}
		return r.pick(ctx, st, qid, q, n-1)
	}
	return "I don't recognise that button any more. What would you like to do?", nil
}

// decide applies Approve/Cancel and edits the prompt to show the outcome.
func (r *Runner) decide(ctx context.Context, st *turnState, approvalID int64, approve bool) (string, error) {
	began := time.Now()
	ap, rec, err := r.cfg.Engine.Decide(ctx, approvalID, st.t.User.ID, approve)
	defer st.lap("action", began)
	switch {
	case errors.Is(err, action.ErrNotYours):
		return "Only the person who asked can approve or cancel that.", nil
	case errors.Is(err, action.ErrAlreadyDecided):
		return fmt.Sprintf("That one was already %s.", decidedWord(ap.State)), nil
	case errors.Is(err, action.ErrExpired):
		r.editPrompt(st, approveButton(approvalID), "⌛ Expired.")
		return "That request expired, so I didn't do it. Ask me again if you still want it.", nil
	case err != nil:
		return approvalRefusal(err)
	}
	st.trace.Actions = append(st.trace.Actions, traceOf(rec))
	button := approveButton(approvalID)
	if !approve {
		r.editPrompt(st, button, "✖ Cancelled.")
		return "Okay, I cancelled that. Nothing was sent or changed.", nil
	}
	return r.approvedOutcome(st, button, "✔ Approved and done.", ap, rec), nil
}

// decideAll applies one Approve all or Cancel all to every approval of
// the turn that asked approvalID (a bulk change): each is decided as
// Decide decides one, those decided already are left as they are, and
// the reply says what was done.
func (r *Runner) decideAll(ctx context.Context, st *turnState, approvalID int64, approve bool) (string, error) {
	began := time.Now()
	ids, err := r.cfg.Engine.TurnApprovals(ctx, approvalID)
	if err != nil {
		return approvalRefusal(err)
	}
	if len(ids) == 1 {
		return r.decide(ctx, st, approvalID, approve)
	}
	// The prompt carries both buttons; the Approve all one finds it.
	button := "approveall:" + strconv.FormatInt(approvalID, 10)
	var outs []stage.Outcome
	decided, expired := 0, 0
	for _, id := range ids {
		_, rec, err := r.cfg.Engine.Decide(ctx, id, st.t.User.ID, approve)
		switch {
		case errors.Is(err, action.ErrNotYours):
			return "Only the person who asked can approve or cancel that.", nil
		case errors.Is(err, action.ErrAlreadyDecided):
			continue
		case errors.Is(err, action.ErrExpired):
			expired++
			continue
		case err != nil && !errors.Is(err, action.ErrTampered):
			return approvalRefusal(err)
		}
		decided++
		st.trace.Actions = append(st.trace.Actions, traceOf(rec))
		if !approve {
			continue
		}
		o := stage.Outcome{Action: rec.Action, Result: decodeResult(rec), Status: stage.Failed, Error: rec.Error}
		switch {
		case err != nil:
			o.Error = "something about it changed after you saw it"
		case rec.State == action.StateDone:
			o.Status = stage.Done
		case rec.State == action.StateRunning:
			o.Error = "it's still under way; I'll record how it went"
		}
		outs = append(outs, o)
	}
	began = st.lap("action", began)
	switch {
	case decided == 0 && expired > 0:
		r.editPrompt(st, button, "⌛ Expired.")
		return "That request expired, so I didn't do it. Ask me again if you still want it.", nil
	case decided == 0:
		return "Those were already decided.", nil
	case !approve:
		r.editPrompt(st, button, "✖ Cancelled.")
		return "Okay, I cancelled that. Nothing was sent or changed.", nil
	}
	r.editPrompt(st, button, "✔ Approved.")
	return r.respond(ctx, st, stage.RespondInput{Text: "approve all", User: st.t.User, Understanding: stage.Understanding{Intent: nlu.RequestAction},
		Context: stage.Context{Now: st.now, Location: st.now.Location()}, Outcomes: outs}, began), nil
}

// approvalRefusal is the answer to an Approve, Cancel or Try again click
// the engine refused for a reason both share; other errors fail the turn.
func approvalRefusal(err error) (string, error) {
	switch {
	case errors.Is(err, action.ErrTampered):
		return "Something about that request changed after you saw it, so I didn't do it. Please ask again.", nil
	case errors.Is(err, hearth.ErrNotFound):
		return "I can't find that request any more.", nil
	}
	return "", err
}

// traceOf is an action's line in the turn's trace.
func traceOf(rec action.Record) hearth.TraceAction {
	return hearth.TraceAction{Kind: string(rec.Action.Kind), Status: string(rec.State), Error: rec.Error}
}

// approvedOutcome edits the prompt whose button was clicked to show what
// became of an approved action and says it; a failure that may be tried
// again offers "Try again", carrying the number of that try.
func (r *Runner) approvedOutcome(st *turnState, button, done string, ap action.Approval, rec action.Record) string {
	switch rec.State {
	case action.StateDone:
		r.editPrompt(st, button, done)
		return respond.DoneFallback([]stage.Outcome{{Action: rec.Action, Status: stage.Done, Result: decodeResult(rec)}})
	case action.StateRunning:
		r.editPrompt(st, button, "⏳ Under way.")
		return "That's under way right now; I'll record how it went."
	}
	r.editPrompt(st, button, "⚠ Failed: "+rec.Error)
	if !ap.Retryable {
		return fmt.Sprintf("I tried, but it didn't go through: %s.", rec.Error)
	}
	st.buttons = append(st.buttons, hearth.Button{ID: fmt.Sprintf("retry:%d:%d", ap.ID, ap.Retries+1), Label: "Try again"})
	return fmt.Sprintf("I tried, but it didn't go through: %s. I can try again with exactly what you approved; it won't go out twice.", rec.Error)
}

// retry runs a failed approval's action again (its "Try again" button).
func (r *Runner) retry(ctx context.Context, st *turnState, approvalID int64, try int) (string, error) {
	began := time.Now()
	ap, rec, err := r.cfg.Engine.Retry(ctx, approvalID, st.t.User.ID, try)
	defer st.lap("action", began)
	switch {
	case errors.Is(err, action.ErrNotYours):
		return "Only the person who asked can try that again.", nil
	case errors.Is(err, action.ErrExpired):
		return "That request expired, so I didn't try again. Ask me again if you still want it.", nil
	case errors.Is(err, action.ErrNotRetryable):
		if ap.State == action.ApprovalExecuted {
			return "That one already went through.", nil
		}
		return "I already tried that again (or can't be sure it didn't go out), so I didn't send it again.", nil
	case err != nil:
		return approvalRefusal(err)
	}
	st.trace.Actions = append(st.trace.Actions, traceOf(rec))
	return r.approvedOutcome(st, fmt.Sprintf("retry:%d:%d", approvalID, try), "✔ Done on trying again.", ap, rec), nil
}

// edit changes a pending email as the user's message says: an
// instruction goes to the Editor; when it cannot apply it, the user is
// asked for the new text, and their next message (q.EditText) is the
// body. The old approval is then cancelled and a new one, for exactly the
// edited payload, is asked for.
func (r *Runner) edit(ctx context.Context, st *turnState, qid int64, q stage.Question, ap action.Approval, text string) (string, error) {
	began := time.Now()
	if qid != 0 { // 0: typed under the draft, no Edit pressed
		if _, err := r.cfg.State.AnswerQuestion(ctx, qid); err != nil {
			return "", err
		}
	}
	p, err := action.Decode[action.EmailArgs](action.Action{Kind: action.EmailSend, Payload: ap.Action.Payload})
	if err != nil {
		return "", err
	}
	what := ""
	if q.EditText && keepsDraft(text) {
		// "Thanks, it's fine now" after "What should the email say?" is
		// no email text: the draft stays as it was, waiting.
		st.lap("action", began)
		return "Okay, I left the draft as it was. Approve, cancel or edit it above.", nil
	}
	if q.EditText {
		p.Body = strings.TrimSpace(text)
	} else {
		edited, err := r.editDraft(ctx, st, p, text)
		if err != nil {
			return "", err
		}
		if !edited.Changed && edited.Already != "" {
			st.lap("action", began)
			return "It's already " + edited.Already + ", so I left the draft as it was. Approve, cancel or edit it above.", nil
		}
		if !edited.Changed {
			if _, err := r.cfg.State.SaveQuestion(ctx, st.t.Event.ID, st.t.Event.ConversationID, stage.Question{Text: "edit", EditApproval: ap.ID, EditText: true}); err != nil {
				return "", err
			}
			st.lap("action", began)
			return "I can't make that change on my own. What should the email say? Send me the new text and I'll show you the draft again.", nil
		}
		p, what = edited.Draft, edited.What
	}
	if _, _, err := r.cfg.Engine.Decide(ctx, ap.ID, st.t.User.ID, false); err != nil {
		return "That draft was decided meanwhile, so I left it as it was.", nil
	}
	r.editPrompt(st, approveButton(ap.ID), "✎ Replaced by a new draft.")
	// The edited text is a new draft: a saved one asked to be sent stays
	// saved as it was.
	p.DraftID = 0
	next, err := action.New(action.EmailSend, p)
	if ap.Action.Kind == action.EmailReply {
		// A reply stays a reply, in its thread.
		orig, derr := action.Decode[action.EmailReplyArgs](ap.Action)
		if derr != nil {
			return "", derr
		}
		next, err = action.New(action.EmailReply, action.EmailReplyArgs{InReplyTo: orig.InReplyTo, To: p.To, Subject: p.Subject, Body: p.Body})
	}
	if err != nil {
		return "", err
	}
	outs, err := r.run(ctx, st, []action.Action{next}, false)
	if err != nil {
		return "", err
	}
	began = st.lap("action", began)
	reply := r.respond(ctx, st, stage.RespondInput{Text: text, User: st.t.User, Understanding: stage.Understanding{Intent: nlu.RequestAction, Domains: []nlu.Domain{nlu.Email}},
		Context: stage.Context{Now: st.now, Location: st.now.Location()}, Outcomes: outs}, began)
	if what != "" {
		reply = "I " + what + ".\n\n" + reply
	}
	return reply, nil
}

// editDraft asks the Editor to apply an instruction to a draft, in the
// user's style.
func (r *Runner) editDraft(ctx context.Context, st *turnState, p action.EmailArgs, text string) (stage.DraftEdited, error) {
	if r.cfg.Editor == nil {
		return stage.DraftEdited{Draft: p}, nil
	}
	in := stage.DraftEdit{Instruction: text, Draft: p, User: st.t.User, Now: st.now}
	if s := r.cfg.Sources.Styles; s != nil {
		style, err := s.MailStyle(ctx, st.t.User.ID)
		if err != nil {
			return stage.DraftEdited{}, err
		}
		in.Style = style
	}
	edited, err := r.cfg.Editor.EditDraft(ctx, in)
	if err != nil {
		r.cfg.Log.WarnContext(ctx, "editing the draft failed; asking for the text", "turn_id", st.t.Event.ID, "error", err)
		return stage.DraftEdited{Draft: p}, nil
	}
	// Whoever edited, the recipients are the approved ones.
	edited.Draft.To = p.To
	return edited, nil
}

func (r *Runner) editPrompt(st *turnState, buttonID, outcome string) {
	conv, version := st.t.Event.ConversationID, st.t.Event.ID
	// The edit commits with the turn, and so does the job that carries it
	// to platforms which can edit a sent message.
	st.writes = append(st.writes, func(ctx context.Context, tx pgx.Tx) error {
		ids, err := r.cfg.State.EditMessageWithButtonTx(ctx, tx, conv, buttonID, outcome)
		if err != nil {
			return err
		}
		return pipeline.EnqueueEdits(ctx, tx, ids, version)
	})
}

func decidedWord(s action.ApprovalState) string {
	switch s {
	case action.ApprovalRejected:
		return "cancelled"
	case action.ApprovalExpired:
		return "expired"
	case action.ApprovalFailed:
		return "tried, and it failed"
	}
	return "approved"
}

// promptedLast reports whether the bot's last turn, the messages after
// the user's message before current, carries the button buttonID: the
// prompt the user is answering. (A prompt replaced by a new draft is
// edited, and comes after the new one in the transcript.)
func promptedLast(msgs []hearth.Message, current, buttonID string) bool {
	msgs = beforeCurrent(msgs, current)
	for i := len(msgs) - 1; i >= 0 && msgs[i].From == hearth.FromBot; i-- {
		if slices.ContainsFunc(msgs[i].Buttons, func(b hearth.Button) bool { return b.ID == buttonID }) {
			return true
		}
	}
	return false
}

// underDraft reads words typed right under a draft waiting for approval
// (apID), without a button pressed: "make it shorter" is the change Edit
// would make, "delete that draft" the draft's Cancel. ok is false for
// other words, or when the draft is not the last thing Hearth said.
func (r *Runner) underDraft(ctx context.Context, st *turnState, apID int64, recent []hearth.Message) (reply string, ok bool, err error) {
	ev := st.t.Event
	edit, discard := draftInstruction(ev.Text), nlu.DiscardsDraft(ev.Text)
	if apID == 0 || !edit && !discard || !promptedLast(recent, ev.Text, approveButton(apID)) {
		return "", false, nil
	}
	ap, ok, err := r.cfg.Engine.PendingApproval(ctx, ev.ConversationID, st.t.User.ID)
	if err != nil || !ok || ap.ID != apID || !ap.Action.Kind.SendsMail() {
		return "", false, err
	}
	st.trace.Intent = "followup"
	if discard {
		reply, err = r.decide(ctx, st, apID, false)
	} else {
		reply, err = r.edit(ctx, st, 0, stage.Question{}, ap, ev.Text)
	}
	return reply, true, err
}

// draftInstructions begin a change to an email draft said in words:
// "make it shorter", "say Friday instead", "sign it from both of us".
var draftInstructions = []string{"make it ", "make the email ", "make the draft ", "make this ", "make that ", "shorter", "longer",
	"more formal", "less formal", "more casual", "more friendly", "friendlier", "say ", "change it ", "sign it ", "sign off ",
	"change the subject ", "set the subject ", "make the subject ", "update the subject ", "subject:", "subject line:"}

func draftInstruction(text string) bool {
	lc := words.StripPoliteness(words.ASCIILower(strings.TrimSpace(text)))
	return words.StartsWithAny(lc, draftInstructions...)
}

// keepDraft begin a short answer that leaves a draft as it was.
var keepDraft = []string{"never mind", "nevermind", "nvm", "no", "nope", "leave it", "it's fine", "its fine", "it is fine", "fine",
	"thanks", "thank you", "forget it", "ok", "okay", "all good"}

func keepsDraft(text string) bool {
	lc := words.ASCIILower(strings.TrimSpace(text))
	return len(strings.Fields(lc)) <= 5 && words.StartsWithWords(lc, keepDraft...)
}

// approveButton is the id of an approval's Approve button: what a click
// sends back, and how the prompt carrying it is found again.
func approveButton(approvalID int64) string {
	return "approve:" + strconv.FormatInt(approvalID, 10)
}
