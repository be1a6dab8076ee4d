package memory

import "testing"

func TestShareTarget(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text, who string
		ok        bool
	}{
		{"tell Grandma too", "Grandma", true},
		{"grandma should know", "grandma", true},
		{"Bob should know too", "Bob", true},
		{"share this with the family", "the family", true},
		{"let Emma know as well", "Emma", true},
		{"show it to Ben as well", "Ben", true},
		{"tell Sarah I'll be late", "", false},
		{"tell me a joke", "", false},
		{"let me know", "", false},
		{"tell me too", "", false},
		{"what should I know", "", false},
	}
	for _, tt := range tests {
		if who, ok := shareTarget(tt.text); who != tt.who || ok != tt.ok {
			t.Errorf("shareTarget(%q) = %q, %v; want %q, %v", tt.text, who, ok, tt.who, tt.ok)
		}
	}
}
