package turn

import (
	"slices"
	"testing"

	"github.com/hearthbot/hearth/commands"
)

// Short answers to an approval are read the same however they are typed:
// case, trailing punctuation, spacing, and a phone's curly apostrophe.
func TestShortAnswers(t *testing.T) {
	tests := []struct {
		text    string
		yes, no bool
	}{
		{"Yes!", true, false},
		{"  go   ahead ", true, false},
		{"don’t send it", false, true},
		{"Don't.", false, true},
		{"maybe later", false, false},
	}
	for _, tt := range tests {
		n := commands.Normalise(tt.text)
		if yes, no := slices.Contains(yesWords, n), slices.Contains(noWords, n); yes != tt.yes || no != tt.no {
			t.Errorf("%q → %q: yes %v, no %v; want %v, %v", tt.text, n, yes, no, tt.yes, tt.no)
		}
	}
}
