package plan

import (
	"testing"

	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/pipeline/words"
)

func TestLowering(t *testing.T) {
	for in, want := range map[string]string{
		"My sister's name is Anna":   "my sister's name is Anna",
		"The Q3 report is due":       "the Q3 report is due",
		"John likes dark chocolate":  "John likes dark chocolate",
		"Q3 numbers are in":          "Q3 numbers are in",
		"You're allergic to peanuts": "you're allergic to peanuts",
	} {
		if got := words.LowerLead(in); got != want {
			t.Errorf("lowerLead(%q) = %q; want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"Call mom": "call mom", "Sarah's party": "Sarah's party", "NASA call": "NASA call"} {
		if got := prose.LowerFirst(in); got != want {
			t.Errorf("prose.LowerFirst(%q) = %q; want %q", in, got, want)
		}
	}
}
