package link

import (
	"testing"

	"github.com/hearthbot/hearth"
)

func TestLinkCommand(t *testing.T) {
	tests := []struct {
		text       string
		verb, code bool
	}{
		{"/link", true, false},
		{"Link", true, false},
		{"/link abcd-efg2", true, true},
		{"abcd-efgh", false, true},
		{"ABCD2EFG", false, true},
		{"strength", false, false}, // code letters, but a word
		{"linkedin", false, false},
		{"remind me to link the accounts", false, false},
		{"ABCD-EFG", false, false},  // too short
		{"ABCD-EFG0", false, false}, // 0 is not in the alphabet
	}
	for _, tt := range tests {
		verb, rest := linkCommand(tt.text)
		code := hearth.LooksLikeCode(rest) || (verb && hearth.NormaliseCode(rest) != "")
		if verb != tt.verb || code != tt.code {
			t.Errorf("%q: verb %v code %v; want %v %v", tt.text, verb, code, tt.verb, tt.code)
		}
	}
}
