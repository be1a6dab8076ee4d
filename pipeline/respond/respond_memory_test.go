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

// TestRespondKin: a question that names someone by what they are to the
// user ("my sister") is answered by what was told of them by name, when
// the context holds the one person the user said is that; the relation
// word alone never answers it ("when is my mum's birthday?" is not "your
// mum's name is Helga").
func TestRespondKin(t *testing.T) {
	t.Parallel()
	julia := hearth.Entity{ID: 1, Name: "Julia", Relation: "sister"}
	tom := hearth.Entity{ID: 2, Name: "Tom", Relation: "brother"}
	memories := []hearth.Memory{
		{ID: 1, Content: "Julia's birthday is on March 3rd", About: "Julia"},
		{ID: 2, Content: "My sister's name is Julia"},
		{ID: 3, Content: "Julia's number is 0176 1234567", About: "Julia"},
		{ID: 4, Content: "My mum's name is Helga"},
		{ID: 5, Content: "My dad is a pilot"},
		{ID: 6, Content: "My brother's birthday is July 4"},
		{ID: 7, Content: "Leo was born on 4 May 2017", About: "Leo", Attribute: hearth.AttrBorn, Value: "2017-05-04"},
	}
	tests := []struct {
		name     string
		entities []hearth.Entity
		text     string
		want     string
	}{
		{"birthday told by name", []hearth.Entity{julia}, "When is my sister's birthday?", "Julia's birthday is on March 3rd — in 358 days."},
		{"number told by name", []hearth.Entity{julia}, "what's my sister's phone number?", "Julia's number is 0176 1234567."},
		{"told by the relation", []hearth.Entity{tom}, "when is my brother's birthday?", "Your brother's birthday is July 4"},
		{"the name itself", []hearth.Entity{julia}, "what's my sister's name?", "Your sister's name is Julia."},
		{"sister unknown", nil, "When is my sister's birthday?", "I don't see"},
		{"two sisters", []hearth.Entity{julia, {ID: 3, Name: "Anna", Relation: "sister"}}, "When is my sister's birthday?", "I don't see"},
		{"only her name", nil, "when is my mum's birthday?", "I don't see"},
		{"only what he does", nil, "when is my dad's birthday?", "I don't see"},
		{"an age by relation", []hearth.Entity{{ID: 4, Name: "Leo", Relation: "son"}}, "how old is my son?", "Leo is 8 (born May 4, 2017)."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := stagetest.Fixture(t) // March 10, 2026
			c.Memories, c.Entities = memories, tt.entities
			in := stage.RespondInput{Text: tt.text, Context: c, Understanding: stage.Understanding{Intent: nlu.AskInfo, Domains: []nlu.Domain{nlu.Memory}}}
			if got := respondTo(t, in); !strings.HasPrefix(got, tt.want) {
				t.Errorf("%q: %q; want %q…", tt.text, got, tt.want)
			}
		})
	}
}

// TestRespondRole: "what does Tom do?" is answered by what Tom is or does
// for a living, not by everything known of him; by relation too.
func TestRespondRole(t *testing.T) {
	t.Parallel()
	memories := []hearth.Memory{
		{ID: 1, Content: "Tom loves sailing", About: "Tom"},
		{ID: 2, Content: "Tom is a pilot", About: "Tom"},
		{ID: 3, Content: "Tom lives in Hamburg", About: "Tom"},
		{ID: 4, Content: "My dad is retired"},
		{ID: 5, Content: "Julia works at the city hospital", About: "Julia"},
		{ID: 6, Content: "Ben loves jazz", About: "Ben"},
	}
	tests := []struct {
		name     string
		entities []hearth.Entity
		text     string
		want     string
	}{
		{"by name", nil, "what does Tom do?", "Tom is a pilot."},
		{"for a living", nil, "What does Tom do for a living?", "Tom is a pilot."},
		{"his job", nil, "what's Tom's job?", "Tom is a pilot."},
		{"by relation", nil, "what does my dad do?", "Your dad is retired."},
		{"by relation, told by name", []hearth.Entity{{ID: 1, Name: "Julia", Relation: "sister"}}, "what does my sister do?", "Julia works at the city hospital."},
		{"no role told", nil, "what does Ben do?", "I don't"},
		{"no one named", nil, "what's his job?", "I don't"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := stagetest.Fixture(t)
			c.Memories, c.Entities = memories, tt.entities
			in := stage.RespondInput{Text: tt.text, Context: c, Understanding: stage.Understanding{Intent: nlu.AskInfo, Domains: []nlu.Domain{nlu.Memory}}}
			if got := respondTo(t, in); got != tt.want && !strings.HasPrefix(got, tt.want) {
				t.Errorf("%q: %q; want %q", tt.text, got, tt.want)
			}
		})
	}
}
