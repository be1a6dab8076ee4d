package commands

import "testing"

// TestZoneMatch: which messages are the time-zone command.
func TestZoneMatch(t *testing.T) {
	t.Parallel()
	cmd := ZoneCommand(nil)
	for text, want := range map[string]bool{
		"Set my time zone to Europe/Paris.": true,
		"change my timezone to Chicago":     true,
		"my time zone is now CET":           true,
		"What's my time zone?":              true,
		"which time zone am I in":           true,
		"what time is it?":                  false,
		"I'm in Paris this week":            false,
		"set my alarm to 7":                 false,
	} {
		if got := cmd.Match(Normalise(text)); got != want {
			t.Errorf("%q: matched %v; want %v", text, got, want)
		}
	}
}
