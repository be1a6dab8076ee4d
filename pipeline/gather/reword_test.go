package gather

import (
	"context"
	"testing"
	"time"
)

// TestNoteIn: a note put in a list or a note by its name is an addition
// to it, said as the list planner reads one; a note on a person or a
// thing, and anything else, is left as said.
func TestNoteIn(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 11, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct{ text, want string }{
		{"add a note to my packing list: check the visa", "add check the visa to my packing list"},
		{"Note on the shopping list: oat milk", "add oat milk to the shopping list"},
		{"put a note in our gift ideas note: a scarf for Mum", "add a scarf for Mum to our gift ideas note"},
		{"note to packing list: adapter", "add adapter to my packing list"},
		{"note on Bob: stressed about the move", "note on Bob: stressed about the move"},
		{"add a note to my packing list", "add a note to my packing list"},
		{"add milk to the shopping list", "add milk to the shopping list"},
	} {
		got, err := Sources{}.NoteIn(context.Background(), tt.text, 1, nil, now)
		if err != nil || got != tt.want {
			t.Errorf("NoteIn(%q) = %q, %v; want %q", tt.text, got, err, tt.want)
		}
	}
}

// TestTimer: a timer for a length of time is a reminder after it, named
// for what it times; an alarm at a time, and anything else, is left as
// said.
func TestTimer(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 11, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct{ text, want string }{
		{"set a timer for 10 minutes", "remind me in 10 minutes that the timer is up"},
		{"please set a timer for 2 hours for the bread", "remind me in 2 hours that the bread timer is up"},
		{"start a 20 minute timer for the pasta", "remind me in 20 minutes that the pasta timer is up"},
		{"set a timer for an hour", "remind me in an hour that the timer is up"},
		{"set an alarm for 7am", "set an alarm for 7am"},
		{"set a timer for tomorrow", "set a timer for tomorrow"},
		{"set the table", "set the table"},
	} {
		got, err := Sources{}.Timer(context.Background(), tt.text, 1, nil, now)
		if err != nil || got != tt.want {
			t.Errorf("Timer(%q) = %q, %v; want %q", tt.text, got, err, tt.want)
		}
	}
}
