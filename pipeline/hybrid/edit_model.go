package hybrid

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/hearthbot/hearth/pipeline/llm"
	"github.com/hearthbot/hearth/pipeline/stage"
)

// ModelDraftEditor rewrites an email draft with the model as the user
// instructs, and falls back to the offline rules when the model fails,
// refuses or answers badly. The recipients are never the model's to
// change: the runner keeps the approved ones.
type ModelDraftEditor struct {
	// Models is the model configuration; Models.Chat answers.
	Models *Models
	// Offline is the rule-based editor, used when the model cannot be.
	Offline stage.DraftEditor
}

var _ stage.DraftEditor = ModelDraftEditor{}

// DraftEditor returns the hybrid draft editor over offline.
func (m *Models) DraftEditor(offline stage.DraftEditor) stage.DraftEditor {
	return ModelDraftEditor{Models: m, Offline: offline}
}

var editSchema = json.RawMessage(`{"type":"object","properties":{"changed":{"type":"boolean"},"subject":{"type":"string"},"body":{"type":"string"},"what":{"type":"string"}},"required":["changed","subject","body","what"],"additionalProperties":false}`)

// EditDraft asks the model for the edited draft.
func (e ModelDraftEditor) EditDraft(ctx context.Context, in stage.DraftEdit) (stage.DraftEdited, error) {
	p, err := editPrompt(e.Models, in)
	if err != nil {
		skip(ctx, "edit_email", "over_budget")
		return e.Offline.EditDraft(ctx, in)
	}
	resp, err := e.Models.ask(ctx, p)
	if err != nil {
		return e.Offline.EditDraft(ctx, in)
	}
	var got struct {
		Changed bool   `json:"changed"`
		Subject string `json:"subject"`
		Body    string `json:"body"`
		What    string `json:"what"`
	}
	if err := json.Unmarshal(resp.JSON, &got); err != nil || got.Changed && strings.TrimSpace(got.Body) == "" {
		e.Models.log().InfoContext(ctx, "model edit rejected; using the offline rules", "error", err)
		return e.Offline.EditDraft(ctx, in)
	}
	if !got.Changed {
		return e.Offline.EditDraft(ctx, in)
	}
	d := in.Draft
	d.Subject, d.Body = strings.TrimSpace(got.Subject), strings.TrimSpace(got.Body)
	if d.Subject == "" {
		d.Subject = in.Draft.Subject
	}
	what := strings.TrimSuffix(strings.TrimSpace(got.What), ".")
	if what == "" {
		what = "changed the draft"
	}
	return stage.DraftEdited{Draft: d, Changed: d.Body != in.Draft.Body || d.Subject != in.Draft.Subject, What: what}, nil
}

func editPrompt(m *Models, in stage.DraftEdit) (prompt, error) {
	now := in.Now
	if now.IsZero() {
		now = m.now()
	}
	system, err := render("edit_email.tmpl", map[string]any{
		"Now": now.Format(time.RFC3339 + " Monday"), "Zone": now.Location().String(),
		"Greeting": in.Style.Greeting, "SignOff": in.Style.SignOff, "DataRule": llm.DataRule,
	})
	if err != nil {
		return prompt{}, err
	}
	user := "The draft:\n" + llm.Quote("email subject", in.Draft.Subject) + "\n" + llm.Quote("email body", in.Draft.Body) +
		"\n\nThe user's instruction: " + in.Instruction
	budget := m.Budgets.plan()
	total := EstimateTokens(system) + EstimateTokens(user)
	if total > budget {
		return prompt{}, fmt.Errorf("edit prompt: %w", errOverBudget)
	}
	return prompt{stage: "edit_email", tokens: total, budget: budget, req: llm.Request{
		Messages:  []llm.Message{{Role: llm.RoleSystem, Text: system}, {Role: llm.RoleUser, Text: user}},
		Schema:    editSchema,
		MaxTokens: 600,
	}}, nil
}
