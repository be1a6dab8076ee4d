package memory

import (
	"strings"
	"testing"

	"github.com/hearthbot/hearth"
)

// TestReadEnding: a value that stopped holding, said with "no longer",
// "stopped" or "any more", is read as the value it ends; a plain
// negation, a question and a value that is no place are not.
func TestReadEnding(t *testing.T) {
	for _, tt := range []struct {
		fact string
		want Statement
		ok   bool
	}{
		{"Ben no longer works at Acme", Statement{Name: "Ben", Kind: hearth.EntityPerson, Attribute: hearth.AttrEmployer, Value: "Acme"}, true},
		{"Sam doesn't work at Initech anymore.", Statement{Name: "Sam", Kind: hearth.EntityPerson, Attribute: hearth.AttrEmployer, Value: "Initech"}, true},
		{"my brother Jon has stopped working for Globex", Statement{Name: "Jon", Kind: hearth.EntityPerson, Relation: "brother", Aliases: []string{"my brother"}, Attribute: hearth.AttrEmployer, Value: "Globex"}, true},
		{"I don't live in Leeds any more", Statement{Self: true, Attribute: AttrHome, Value: "Leeds"}, true},
		{"Grandma no longer lives on Elm Street", Statement{Name: "Grandma", Kind: hearth.EntityPerson, Attribute: AttrHome, Value: "Elm Street"}, true},
		{"Mia no longer goes to Lincoln Elementary", Statement{Name: "Mia", Kind: hearth.EntityPerson, Attribute: hearth.AttrSchool, Value: "Lincoln Elementary"}, true},
		{"Mia isn't at Lincoln Elementary anymore", Statement{Name: "Mia", Kind: hearth.EntityPerson, Attribute: hearth.AttrSchool, Value: "Lincoln Elementary"}, true},
		{"Sam doesn't work for free", Statement{}, false},
		{"Sam doesn't work at Initech", Statement{}, false},
		{"I don't live in the moment anymore", Statement{}, false},
		{"Ben works at Acme", Statement{}, false},
		{"does Ben no longer work at Acme", Statement{}, false},
	} {
		got, ok := ReadEnding(tt.fact)
		if ok != tt.ok || ok && (got.Name != tt.want.Name || got.Self != tt.want.Self || got.Relation != tt.want.Relation ||
			got.Attribute != tt.want.Attribute || got.Value != tt.want.Value) {
			t.Errorf("ReadEnding(%q) = %+v, %v; want %+v, %v", tt.fact, got, ok, tt.want, tt.ok)
		}
	}
	if ToldEnding("Does Ben no longer work at Acme?") {
		t.Error("a question told an ending")
	}
}

// FuzzReadEnding: whatever the fact, reading it never panics, and the
// value it reads is words of the fact.
func FuzzReadEnding(f *testing.F) {
	for _, s := range []string{"Ben no longer works at Acme", "I don't live in Leeds any more", "Mia isn't at Lincoln Elementary anymore", "x doesn't work at"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if st, ok := ReadEnding(s); ok && (st.Value == "" || !strings.Contains(s, st.Value)) {
			t.Fatalf("ReadEnding(%q) = %+v: the value is not words of the fact", s, st)
		}
	})
}
