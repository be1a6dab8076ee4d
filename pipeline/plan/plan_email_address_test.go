package plan

import "testing"

func TestEmailGreetingUsesTheName(t *testing.T) {
	if g := emailGreeting([]string{"Sarah Kim <sarah.kim@example.com>"}, ""); g != "Hi Sarah Kim," {
		t.Errorf("greeting %q", g)
	}
}
