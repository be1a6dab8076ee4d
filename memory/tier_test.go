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

// TestSameSubject: a subject said in fewer words is the same one; a
// different owner, thing or qualifier is not.
func TestSameSubject(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"tom's number", "tom's phone number", true},
		{"my phone number", "my phone number", true},
		{"my work number", "my home number", false},
		{"my number", "tom's number", false},
		{"tom's number", "tom's address", false},
		{"", "tom's number", false},
	} {
		if got := memory.SameSubject(tt.a, tt.b); got != tt.want {
			t.Errorf("SameSubject(%q, %q) = %v; want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestChangedValue reads the value of a fact told as a change.
func TestChangedValue(t *testing.T) {
	t.Parallel()
	for fact, want := range map[string]string{
		"Tom's number changed to 555 0199.": "555 0199",
		"The dentist moved to Elm Street":   "Elm Street",
		"Our wifi password is now hunter3":  "hunter3",
		"Tom's number is 555 0199":          "",
	} {
		if got, _ := memory.ChangedValue(fact); got != want {
			t.Errorf("ChangedValue(%q) = %q; want %q", fact, got, want)
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
		"I parked on level 3":              "i parked",
	} {
		if got := memory.Subject(fact); got != want {
			t.Errorf("Subject(%q) = %q; want %q", fact, got, want)
		}
	}
}
