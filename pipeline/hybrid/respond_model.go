package hybrid

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/hearthbot/hearth/pipeline/llm"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
)

// ModelResponder writes replies with the model where a template would be
// stiff (answers, small talk, advice) and keeps the templates where
// exactness matters: confirmations of what was done, approvals (the exact
// payload the user approves), questions with options, and planning
// failures.
type ModelResponder struct {
	// Models is the model configuration; Models.Chat answers.
	Models *Models
	// Offline writes the templated replies and every fallback.
	Offline stage.Responder
}

var _ stage.Responder = ModelResponder{}

// Responder returns the hybrid reply stage over offline.
func (m *Models) Responder(offline stage.Responder) stage.Responder {
	return ModelResponder{Models: m, Offline: offline}
}

// Respond writes the reply; any model failure, or a reply claiming an
// action that no outcome shows, gives the template's reply instead.
func (r ModelResponder) Respond(ctx context.Context, in stage.RespondInput) (string, error) {
	if templated(in) {
		skip(ctx, "reply", skipTemplate)
		return r.Offline.Respond(ctx, in)
	}
	p, err := replyPrompt(r.Models, in)
	if err != nil {
		skip(ctx, "reply", "over_budget")
		return r.Offline.Respond(ctx, in)
	}
	resp, err := r.Models.ask(ctx, p)
	text := strings.TrimSpace(resp.Text)
	if err != nil || text == "" {
		return r.Offline.Respond(ctx, in)
	}
	if len(in.Outcomes) == 0 && claimsAction.MatchString(text) {
		r.Models.log().InfoContext(ctx, "model reply claims an action that did not happen; using the template")
		return r.Offline.Respond(ctx, in)
	}
	return text, nil
}

// templated says whether a reply must come from the templates.
func templated(in stage.RespondInput) bool {
	if in.Question != nil || in.PlanFailed || len(in.Outcomes) > 0 {
		return true
	}
	return in.Understanding.Intent == nlu.RequestAction || in.Understanding.Intent == nlu.Followup
}

// claimsAction spots a reply saying something was done ("I've added",
// "I sent", "reminder set"): with no outcomes, that would be untrue.
var claimsAction = regexp.MustCompile(`(?i)\b(i'?ve|i have|i)\s+(just\s+)?(added|created|scheduled|sent|emailed|saved|set|booked|deleted|removed|moved|updated|noted|stored)\b|\b(reminder|event|task|note)\s+(is\s+)?(set|added|created|scheduled|saved)\b`)

// outcomeView is what the reply prompt shows of one outcome.
type outcomeView struct {
	Action string       `json:"action"`
	Status stage.Status `json:"status"`
	Error  string       `json:"error,omitempty"`
}

func replyPrompt(m *Models, in stage.RespondInput) (prompt, error) {
	now := in.Context.Now
	if now.IsZero() {
		now = time.Now()
	}
	system, err := render("reply.tmpl", map[string]any{
		"Zone": stage.UserZone(in.Context).String(), "Now": now.Format("Monday 2 January 2006 15:04"), "DataRule": llm.DataRule,
	})
	if err != nil {
		return prompt{}, err
	}
	var outs []outcomeView
	for _, o := range in.Outcomes {
		outs = append(outs, outcomeView{Action: string(o.Action.Kind), Status: o.Status, Error: o.Error})
	}
	outcomes := "none (nothing was done this turn)"
	if len(outs) > 0 {
		b, _ := json.Marshal(outs)
		outcomes = string(b)
	}
	msg := fmt.Sprintf("Understood as: %s\nOutcomes: %s\nThe user's message: %s", in.Understanding.Intent, outcomes, in.Text)
	budget := m.Budgets.reply()
	fixed := EstimateTokens(system) + EstimateTokens(msg) + 8
	if fixed > budget {
		return prompt{}, errOverBudget
	}
	var d nlu.Domain
	if len(in.Understanding.Domains) > 0 {
		d = in.Understanding.Domains[0]
	}
	items := append(recentItems(in.Context), contextItems(in.Context, d)...)
	kept, dropped, total := fit(budget, fixed, items)
	user := msg
	if len(kept) > 0 {
		user = "Context:\n" + strings.Join(kept, "\n") + "\n\n" + msg
	}
	return prompt{stage: "reply", tokens: total, budget: budget, dropped: dropped, req: llm.Request{
		Messages:  []llm.Message{{Role: llm.RoleSystem, Text: system}, {Role: llm.RoleUser, Text: user}},
		MaxTokens: 200,
	}}, nil
}
