package memory_test

import (
	"testing"

	"github.com/hearthbot/hearth/memory"
)

func TestAskedAbout(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text, who string
		ok        bool
	}{
		{"What do you remember about me?", "", true},
		{"what do you know about myself", "", true},
		{"What have I told you?", "", true},
		{"What do you know about Emma?", "Emma", true},
		{"tell me everything you know about my sister", "my sister", true},
		{"What did I tell you about Bob", "Bob", true},
		{"When is John's birthday?", "", false},
		{"Remember that Emma likes dinosaurs", "", false},
	}
	for _, tt := range tests {
		if who, ok := memory.AskedAbout(tt.text); who != tt.who || ok != tt.ok {
			t.Errorf("AskedAbout(%q) = %q, %v; want %q, %v", tt.text, who, ok, tt.who, tt.ok)
		}
	}
}
