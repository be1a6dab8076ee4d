package respond

import (
	"strings"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/stage/stagetest"
)

// TestRespondAboutOneself: a question about the user ("what am I
// allergic to?") is answered from what they told of themselves, not
// from what they told of their son or a friend, which share its words.
func TestRespondAboutOneself(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	others := []hearth.Memory{
		{ID: 1, Content: "My son Leo is allergic to cats", About: "Leo"},
		{ID: 2, Content: "Ben is allergic to peanuts"},
	}
	tests := []struct {
		name     string
		memories []hearth.Memory
		text     string
		want     string
	}{
		{"told of oneself", append([]hearth.Memory{{ID: 3, Content: "I'm allergic to penicillin"}}, others...), "what am I allergic to?", "You're allergic to penicillin."},
		{"told of oneself by what one has", append([]hearth.Memory{{ID: 3, Content: "My blood type is O negative"}}, others...), "do I know my blood type?", "Your blood type is O negative."},
		{"only of others", others, "am I allergic to anything?", "I don't"},
		{"of someone named", others, "what is Ben allergic to?", "Ben is allergic to peanuts."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.Memories = tt.memories
			in := stage.RespondInput{Text: tt.text, Context: c, Understanding: stage.Understanding{Intent: nlu.AskInfo, Domains: []nlu.Domain{nlu.Memory}}}
			if got := respondTo(t, in); !strings.HasPrefix(got, tt.want) {
				t.Errorf("%q: %q; want %q…", tt.text, got, tt.want)
			}
		})
	}
}

// TestRespondYearlyAway: asked when a birthday or anniversary is (or how
// long until it), the answer says how far off the next one is.
func TestRespondYearlyAway(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t) // March 10, 2026
	c.Memories = []hearth.Memory{
		{ID: 1, Content: "John's birthday is March 15th", About: "John"},
		{ID: 2, Content: "My anniversary is March 10"},
		{ID: 3, Content: "Mum's birthday is March 9", About: "Mum"},
	}
	for text, want := range map[string]string{
		"When is John's birthday?": "John's birthday is March 15th — in 5 days.",
		"when is our anniversary?": "Your anniversary is March 10 — that's today.",
		"When is Mum's birthday?":  "Mum's birthday is March 9 — in 364 days.",
		"What is John's birthday?": "John's birthday is March 15th.",
	} {
		in := stage.RespondInput{Text: text, Context: c, Understanding: stage.Understanding{Intent: nlu.AskInfo, Domains: []nlu.Domain{nlu.Memory}}}
		if got := respondTo(t, in); got != want {
			t.Errorf("%q: %q; want %q", text, got, want)
		}
	}
}
