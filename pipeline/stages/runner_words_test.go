package stages

import "testing"

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
		n := normalise(tt.text)
		if yesWords[n] != tt.yes || noWords[n] != tt.no {
			t.Errorf("%q → %q: yes %v, no %v; want %v, %v", tt.text, n, yesWords[n], noWords[n], tt.yes, tt.no)
		}
	}
}
