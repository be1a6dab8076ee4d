package turn

import (
	"slices"
	"testing"
	"time"

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

// "Too late to undo" names the undo window as a person would.
func TestSpanWords(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "24 hours"},
		{24 * time.Hour, "24 hours"},
		{time.Hour, "hour"},
		{30 * time.Minute, "30 minutes"},
		{90 * time.Second, "1m30s"},
	}
	for _, tt := range tests {
		if got := spanWords(tt.d); got != tt.want {
			t.Errorf("spanWords(%s) = %q; want %q", tt.d, got, tt.want)
		}
	}
}
