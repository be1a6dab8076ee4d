package memory

import "testing"

// TestNewValue: a new value told as news is restated as the fact it
// makes; other facts are not.
func TestNewValue(t *testing.T) {
	for _, tt := range []struct{ fact, want string }{
		{"Tom got a new number: 555 9999", "Tom's number is 555 9999"},
		{"Sam has a new email, sam@new.example", "Sam's email is sam@new.example"},
		{"I have a new phone number 0170 555", "My phone number is 0170 555"},
		{"my brother has a new address: 12 Oak Street.", "My brother's address is 12 Oak Street"},
		{"Tom's new number is 555 9999", "Tom's number is 555 9999"},
		{"my new email is me@new.example", "my email is me@new.example"},
		{"Tom got a new dog", ""},
		{"Tom's new bike is red", ""},
		{"the new number is 5", ""},
	} {
		got, ok := NewValue(tt.fact)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("NewValue(%q) = %q, %v; want %q", tt.fact, got, ok, tt.want)
		}
	}
}
