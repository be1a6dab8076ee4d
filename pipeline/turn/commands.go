package turn

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/commands"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/pipeline/stage"
)

// The short answers the runner's commands recognise, after
// commands.Normalise.
var (
	undoWords = []string{"undo", "undo that", "undo it", "undo please", "please undo", "undo the last one", "take that back", "revert that"}
	yesWords  = []string{"yes", "y", "yep", "yeah", "yes please", "ok", "okay", "sure", "go ahead", "go for it", "do it", "send it", "approve", "approved", "confirm", "yes send it", "looks good", "lgtm"}
	noWords   = []string{"no", "n", "nope", "no thanks", "cancel", "cancel it", "don't", "dont", "stop", "don't send it", "never mind", "nevermind", "abort"}
)

// Commands returns the runner's commands for the registry: undo, and yes
// or no to the approval the user has pending. Yes and no decline when
// nothing awaits approval, so "ok" is then an ordinary message.
func (r *Runner) Commands() []commands.Command {
	return []commands.Command{{
		Name: "undo", NeedsZone: true,
		Help:     "take back the last thing I did for you",
		Examples: undoWords,
		Match:    func(norm string) bool { return slices.Contains(undoWords, norm) },
		Handler: commands.HandlerFunc(func(ctx context.Context, c commands.Request) (pipeline.Answer, bool, error) {
			st, err := r.begin(c.Turn)
			if err != nil {
				return pipeline.Answer{}, false, err
			}
			st.trace.Intent = "undo"
			text, err := r.undo(ctx, st)
			if err != nil {
				return pipeline.Answer{}, false, err
			}
			return r.end(st, text), true, nil
		}),
	}, r.decision("approve", yesWords, true), r.decision("decline", noWords, false)}
}

// decision answers the pending approval with approve.
func (r *Runner) decision(name string, words []string, approve bool) commands.Command {
	return commands.Command{
		Name: name, NeedsZone: true, Hidden: true,
		Examples: words,
		Match:    func(norm string) bool { return slices.Contains(words, norm) },
		Handler: commands.HandlerFunc(func(ctx context.Context, c commands.Request) (pipeline.Answer, bool, error) {
			ap, ok, err := r.cfg.Engine.PendingApproval(ctx, c.Event.ConversationID, c.User.ID)
			if err != nil || !ok {
				return pipeline.Answer{}, false, err
			}
			if last, err := r.askedSince(ctx, c, ap.ID); err != nil || last {
				// A newer question with its own buttons ("Shall I add
				// coffee to your shopping list?") is what "yes" answers.
				return pipeline.Answer{}, false, err
			}
			st, err := r.begin(c.Turn)
			if err != nil {
				return pipeline.Answer{}, false, err
			}
			st.trace.Intent = "followup"
			decide := r.decide
			if !ap.Action.Kind.SendsMail() {
				// A bulk change's "yes" is its Approve all; an email
				// is always decided on its own.
				decide = r.decideAll
			}
			text, err := decide(ctx, st, ap.ID, approve)
			if err != nil {
				return pipeline.Answer{}, false, err
			}
			return r.end(st, text), true, nil
		}),
	}
}

// askedSince reports whether Hearth's latest message offers buttons that
// are not approvalID's: a question asked after the approval, which a yes
// or a no then answers instead.
func (r *Runner) askedSince(ctx context.Context, c commands.Request, approvalID int64) (bool, error) {
	var q stage.Question
	_, _, recent, err := r.cfg.State.TurnOpening(ctx, c.Event.ConversationID, c.User.ID, 4, &q)
	if err != nil {
		return false, fmt.Errorf("turn opening: %w", err)
	}
	for i := len(recent) - 1; i >= 0; i-- {
		m := recent[i]
		if m.From != hearth.FromBot {
			continue
		}
		// The prompt of a bulk change has one Approve all for the turn's
		// approvals, the newest of which approvalID is.
		approve := approveButton(approvalID)
		return len(m.Buttons) > 0 && !slices.ContainsFunc(m.Buttons, func(b hearth.Button) bool {
			return b.ID == approve || strings.HasPrefix(b.ID, "approveall:")
		}), nil
	}
	return false, nil
}
