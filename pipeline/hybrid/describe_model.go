package hybrid

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/llm"
)

// RelationshipDescriber rewrites a relationship's one-sentence
// description from its live notes with the model, for the memory graph's
// nightly consolidation (storyline.Describer). The notes and the current
// description are quoted as data: a note can say anything.
type RelationshipDescriber struct {
	Models *Models
}

// Describer returns the model's relationship describer.
func (m *Models) Describer() RelationshipDescriber { return RelationshipDescriber{Models: m} }

// maxDescription is the longest description kept, in characters.
const maxDescription = 200

// Describe writes r's description from notes: one sentence, at most
// maxDescription characters. An empty or failed answer is an error, and
// the description stays as it was.
func (d RelationshipDescriber) Describe(ctx context.Context, r hearth.Relationship, notes []hearth.GraphNote) (string, error) {
	system, err := render("describe.tmpl", map[string]any{"DataRule": llm.DataRule})
	if err != nil {
		return "", err
	}
	head := r.FromName + " " + r.Scale().Relation + " " + r.ToName
	if r.Label != "" {
		head += " (" + r.Label + ")"
	}
	head += "; attitude: " + r.AttitudeWord() + "; proximity: " + r.ProximityWord()
	parts := []string{"The relationship: " + head, llm.Quote("current description", r.Description)}
	for _, n := range notes {
		parts = append(parts, llm.Quote("note", n.Body))
	}
	user := strings.Join(parts, "\n")
	p := prompt{stage: "describe", tokens: EstimateTokens(system) + EstimateTokens(user), req: llm.Request{
		Messages:  []llm.Message{{Role: llm.RoleSystem, Text: system}, {Role: llm.RoleUser, Text: user}},
		MaxTokens: 80,
	}}
	resp, err := d.Models.ask(ctx, p)
	if err != nil {
		return "", fmt.Errorf("describe relationship %d: %w", r.ID, err)
	}
	text := firstSentence(resp.Text)
	if text == "" {
		return "", fmt.Errorf("describe relationship %d: an empty answer", r.ID)
	}
	return text, nil
}

var reSentence = regexp.MustCompile(`^[^.!?\n]*[.!?]?`)

// firstSentence keeps the first sentence of an answer, without quotes or
// markup, at most maxDescription characters (cut at a word).
func firstSentence(s string) string {
	s = strings.Trim(strings.TrimSpace(s), "\"“”'`*")
	s = strings.TrimSpace(reSentence.FindString(s))
	if rs := []rune(s); len(rs) > maxDescription {
		s = string(rs[:maxDescription])
		if i := strings.LastIndex(s, " "); i > 0 {
			s = s[:i]
		}
		s = strings.TrimRight(s, ",;:") + "…"
	}
	return s
}
