package memory_test

import (
	"testing"

	"github.com/hearthbot/hearth/commands"
	"github.com/hearthbot/hearth/memory"
)

// TestGraphShareMatch: what the share-a-node command answers, and what it
// leaves to the share command (the fact told last) and to others.
func TestGraphShareMatch(t *testing.T) {
	t.Parallel()
	c := memory.GraphShareCommand(nil)
	for text, want := range map[string]bool{
		"share what you know about Bob with the family":                               true,
		"Share everything you know about my sister with the family.":                  true,
		"share Bob with my family":                                                    true,
		"share your notes on the move with the family":                                true,
		"give the family what you know about Priya":                                   true,
		"make what you know about Bob private":                                        true,
		"keep Bob private":                                                            true,
		"stop sharing Bob with the family":                                            true,
		"share this with the family":                                                  false,
		"share it with the family":                                                    false,
		"tell Grandma too":                                                            false,
		"share what you know about Bob with Grandma":                                  false,
		"make everything private":                                                     false,
		"share the things you know about all the people in my street with the family": false,
	} {
		if got := c.Match(commands.Normalise(text)); got != want {
			t.Errorf("%q: %v; want %v", text, got, want)
		}
	}
}
