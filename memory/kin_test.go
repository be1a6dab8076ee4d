package memory_test

import (
	"testing"

	"github.com/hearthbot/hearth/memory"
)

func TestKinIn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text, phrase, rel string
		ok                bool
	}{
		{"When is my sister's birthday?", "my sister", "sister", true},
		{"what's my sister’s phone number?", "my sister", "sister", true},
		{"What does our son like?", "our son", "son", true},
		{"where does My Best Friend live", "My Best Friend", "best friend", true},
		{"is my mother-in-law allergic to nuts?", "my mother-in-law", "mother-in-law", true},
		{"what did my dad say?", "my dad", "dad", true},
		{"my sons' school", "my sons", "", false},
		{"when is my birthday?", "", "", false},
		{"what's on my calendar?", "", "", false},
		{"is Ada my sistering partner?", "", "", false},
	}
	for _, tt := range tests {
		phrase, rel, ok := memory.KinIn(tt.text)
		if ok != tt.ok || ok && (phrase != tt.phrase || rel != tt.rel) {
			t.Errorf("KinIn(%q) = %q, %q, %v; want %q, %q, %v", tt.text, phrase, rel, ok, tt.phrase, tt.rel, tt.ok)
		}
	}
}
