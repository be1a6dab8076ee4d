package words

import "testing"

// TestCovers: a reference covers a title when every word of it is there.
func TestCovers(t *testing.T) {
	for _, tt := range []struct {
		ref, title string
		want       bool
	}{
		{"dentist", "Dentist appointment", true},
		{"the dentsit appointment", "Dentist appointment", true},
		{"team lunches", "Team lunch", true},
		{"lunch with Sam", "Team lunch", false},
		{"lunch with Sam", "Lunch with Sam and Bo", true},
		{"", "Team lunch", false},
		{"with the", "Team lunch", false},
	} {
		if got := Covers(tt.ref, tt.title); got != tt.want {
			t.Errorf("Covers(%q, %q) = %v; want %v", tt.ref, tt.title, got, tt.want)
		}
	}
}
