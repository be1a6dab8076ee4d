package memory_test

import (
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/memory"
)

func TestTier(t *testing.T) {
	t.Parallel()
	tests := []struct {
		fact string
		tier hearth.Tier
		sure bool
	}{
		{"Mum takes blood pressure medication every morning", hearth.TierPrivate, true},
		{"My salary goes up in April", hearth.TierPrivate, true},
		{"Emma is allergic to peanuts", hearth.TierPrivate, true},
		{"John's birthday is March 15th", hearth.TierPersonal, true},
		{"Sarah's phone number is 555 0100", hearth.TierPersonal, true},
		{"Ben prefers tea to coffee", hearth.TierPersonal, true},
		{"I just closed on my house", hearth.TierEvents, true},
		{"Emma graduated from primary school", hearth.TierEvents, true},
		{"Sarah is my sister", hearth.TierBasic, true},
		{"The garage code changed", hearth.TierPersonal, false},
		// The most private cue wins.
		{"Dad's birthday dinner is at the hospital cafeteria", hearth.TierPrivate, true},
	}
	for _, tt := range tests {
		if tier, sure := memory.Tier(tt.fact); tier != tt.tier || sure != tt.sure {
			t.Errorf("Tier(%q) = %d, %v; want %d, %v", tt.fact, tier, sure, tt.tier, tt.sure)
		}
	}
}

func TestSubject(t *testing.T) {
	t.Parallel()
	for fact, want := range map[string]string{
		"John's birthday is March 15th":    "john's birthday",
		"My phone number is 555 0100":      "my phone number",
		"Our   wifi password is hunter2":   "our wifi password",
		"Emma is allergic to peanuts":      "",
		"I just closed on my house":        "",
		"The dentist moved to Main Street": "the dentist",
	} {
		if got := memory.Subject(fact); got != want {
			t.Errorf("Subject(%q) = %q; want %q", fact, got, want)
		}
	}
}
