package respond

import (
	"strings"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/stage/stagetest"
)

// TestRespondNamedList: a question naming a list the user does not have
// says so; it was answered from another list (the word "list" matched).
func TestRespondNamedList(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	c.Notes = []hearth.Note{{ID: 3, Body: "Gate code 4471"}, {ID: 1, Title: "Shopping list", Items: []hearth.ChecklistItem{{Text: "bread"}}}}
	for text, want := range map[string]string{
		"what's on the packing list?": "You don't have a packing list. Your notes and lists:",
		"show me the Christmas list":  "You don't have a christmas list.",
		"what's on the list?":         "Your shopping list has bread.",
		"what's on my shopping list?": "Your shopping list has bread.",
		"what's on the grocery list?": "Your shopping list has bread.",
	} {
		in := stage.RespondInput{Text: text, Context: c, Understanding: stage.Understanding{Intent: nlu.AskInfo, Domains: []nlu.Domain{nlu.Keep}}}
		if got := respondTo(t, in); !strings.HasPrefix(got, want) {
			t.Errorf("%q: %q; want %q", text, got, want)
		}
	}
	// The other way round: only a packing list.
	c.Notes = []hearth.Note{{ID: 2, Title: "Packing list", Items: []hearth.ChecklistItem{{Text: "passport"}}}}
	for text, want := range map[string]string{
		"what's on the shopping list?": "You don't have a shopping list.",
		"what's on my list?":           "Your packing list has passport.",
		"what's on the packing list?":  "Your packing list has passport.",
	} {
		in := stage.RespondInput{Text: text, Context: c, Understanding: stage.Understanding{Intent: nlu.AskInfo, Domains: []nlu.Domain{nlu.Keep}}}
		if got := respondTo(t, in); !strings.HasPrefix(got, want) {
			t.Errorf("%q: %q; want %q", text, got, want)
		}
	}
}
