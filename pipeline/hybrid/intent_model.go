package hybrid

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"text/template"
	"time"

	"github.com/hearthbot/hearth/pipeline/llm"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
)

//go:embed prompts/*.tmpl
var promptFiles embed.FS

// prompts are the stage prompt templates, parsed once.
var prompts = template.Must(template.ParseFS(promptFiles, "prompts/*.tmpl"))

// render executes the named prompt template.
func render(name string, data any) (string, error) {
	var b bytes.Buffer
	if err := prompts.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("prompt %s: %w", name, err)
	}
	return strings.TrimSpace(b.String()), nil
}

// intentSchema is the model's answer to the intent prompt: the fields of
// nlu.Result a model can decide; slots stay the offline extractor's.
var intentSchema = func() json.RawMessage {
	intents := make([]string, len(nlu.Intents))
	for i, v := range nlu.Intents {
		intents[i] = string(v)
	}
	domains := make([]string, len(nlu.Domains))
	for i, v := range nlu.Domains {
		domains[i] = string(v)
	}
	b, _ := json.Marshal(map[string]any{
		"type": "object",
		"properties": map[string]any{
			"intent":     map[string]any{"type": "string", "enum": intents},
			"domains":    map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": domains}},
			"confidence": map[string]any{"type": "number"},
		},
		"required":             []string{"intent", "domains", "confidence"},
		"additionalProperties": false,
	})
	return b
}()

// intentTurns is how many earlier messages the intent prompt shows.
const intentTurns = 3

// ModelIntent is the hybrid intent stage: the offline classifier first,
// the model only when the classifier is unsure.
type ModelIntent struct {
	// Models is the model configuration; Models.Fast answers.
	Models *Models
	// Offline answers first, and whenever the model cannot.
	Offline stage.Intent
}

var (
	_ stage.Intent       = ModelIntent{}
	_ stage.SpokenIntent = ModelIntent{}
)

// Intent returns the hybrid intent stage over offline.
func (m *Models) Intent(offline stage.Intent) stage.Intent {
	return ModelIntent{Models: m, Offline: offline}
}

// Understand classifies offline and, below the confidence threshold, asks
// the model; any model failure keeps the offline result.
func (s ModelIntent) Understand(ctx context.Context, text string, recent []nlu.Turn, now time.Time) (stage.Understanding, error) {
	return s.understand(ctx, text, recent, now, s.Models.confident())
}

// UnderstandSpoken is Understand for a voice note's transcript: the model
// decides below Models.SpokenConfident, a higher bar than for typed text,
// because the offline classifier is surer of typed words than of
// transcripts (no punctuation, misheard words).
func (s ModelIntent) UnderstandSpoken(ctx context.Context, text string, recent []nlu.Turn, now time.Time) (stage.Understanding, error) {
	return s.understand(ctx, text, recent, now, s.Models.spokenConfident())
}

func (s ModelIntent) understand(ctx context.Context, text string, recent []nlu.Turn, now time.Time, confident float64) (stage.Understanding, error) {
	u, err := s.Offline.Understand(ctx, text, recent, now)
	if err != nil {
		return u, err
	}
	if u.Confidence >= confident {
		skip(ctx, "intent", skipConfident)
		return u, nil
	}
	p, err := intentPrompt(s.Models, text, recent)
	if err != nil {
		skip(ctx, "intent", "over_budget")
		return u, nil //nolint:nilerr // over budget: the offline result stands
	}
	resp, err := s.Models.ask(ctx, p)
	if err != nil {
		return u, nil //nolint:nilerr // every model failure falls back to the offline result
	}
	var got struct {
		Intent     nlu.Intent   `json:"intent"`
		Domains    []nlu.Domain `json:"domains"`
		Confidence float64      `json:"confidence"`
	}
	if err := json.Unmarshal(resp.JSON, &got); err != nil || !slices.Contains(nlu.Intents, got.Intent) {
		return u, nil //nolint:nilerr // the schema was checked by llm; this is belt and braces
	}
	return mergeIntent(u, got.Intent, got.Domains, got.Confidence), nil
}

// mergeIntent takes the model's intent and domains and keeps the offline
// slots (times, names), which the planners read.
func mergeIntent(u stage.Understanding, intent nlu.Intent, domains []nlu.Domain, conf float64) stage.Understanding {
	u.Intent = intent
	u.RequiresAction = intent == nlu.RequestAction
	// The out-of-scope flag is the offline classifier's: it stands only
	// when the model also answers chat.
	u.OutOfScope = u.OutOfScope && intent == nlu.Chat
	if !u.OutOfScope {
		// The capability gate's reason explains an out-of-scope
		// result only.
		u.Reason = ""
	}
	u.Domains = []nlu.Domain{}
	if intent != nlu.Chat && intent != nlu.Followup {
		for _, d := range domains {
			if slices.Contains(nlu.Domains, d) && !slices.Contains(u.Domains, d) {
				u.Domains = append(u.Domains, d)
			}
		}
	}
	u.Confidence = min(max(conf, 0), 1)
	return u
}

func intentPrompt(m *Models, text string, recent []nlu.Turn) (prompt, error) {
	system, err := render("intent.tmpl", map[string]any{"DataRule": llm.DataRule})
	if err != nil {
		return prompt{}, err
	}
	msg := "Message: " + text
	budget := m.Budgets.intent()
	fixed := EstimateTokens(system) + EstimateTokens(msg) + 4
	if fixed > budget {
		return prompt{}, errOverBudget
	}
	// The newest earlier message matters most.
	var items []string
	for i := len(recent) - 1; i >= 0 && len(items) < intentTurns; i-- {
		t := recent[i]
		line := "User: " + t.Text
		if t.FromBot {
			// The bot's words may repeat an email subject or an event
			// title: data, not instructions.
			text := t.Text
			if len(t.Options) > 0 {
				text += "\n[options: " + strings.Join(t.Options, " | ") + "]"
			}
			line = "Hearth: " + llm.Quote("Hearth's earlier message", text)
		}
		items = append(items, line)
	}
	kept, dropped, total := fit(budget, fixed, items)
	slices.Reverse(kept)
	user := msg
	if len(kept) > 0 {
		user = "Earlier messages, oldest first:\n" + strings.Join(kept, "\n") + "\n\n" + msg
	}
	return prompt{stage: "intent", tokens: total, budget: budget, dropped: dropped, req: llm.Request{
		Messages:  []llm.Message{{Role: llm.RoleSystem, Text: system}, {Role: llm.RoleUser, Text: user}},
		Schema:    intentSchema,
		MaxTokens: 60,
	}}, nil
}
