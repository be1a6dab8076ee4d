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
		{"calling Tom", "Call Tom", true},
		{"taking the bins out", "Take the bins out", true},
		{"swimming lessons", "Swim lesson", true},
		{"shopping", "Shop for shoes", true},
		{"calling Tom", "Call Tim", false},
		{"the car", "Care home visit", false},
		{"opening the shed", "Open the shed", true},
		{"", "Team lunch", false},
		{"with the", "Team lunch", false},
	} {
		if got := Covers(tt.ref, tt.title); got != tt.want {
			t.Errorf("Covers(%q, %q) = %v; want %v", tt.ref, tt.title, got, tt.want)
		}
	}
}

// TestStripPoliteness: what leads into a request goes, second thoughts
// included; a request that starts with such a word as its own stays.
func TestStripPoliteness(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"please can you add eggs", "add eggs"},
		{"actually make it 8", "make it 8"},
		{"actually, make it 8pm", "make it 8pm"},
		{"no, make it tuesday", "make it tuesday"},
		{"oops, move it to 3", "move it to 3"},
		{"no wait, cancel it", "cancel it"},
		{"no thanks", "no thanks"},
		{"sorry i'm late", "sorry i'm late"},
		{"wait for the plumber", "wait for the plumber"},
	} {
		if got := StripPoliteness(tt.in); got != tt.want {
			t.Errorf("StripPoliteness(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

// TestDropFillers: a voice note's fillers go, the words and lines stay.
func TestDropFillers(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"um can you remind me to call the plumber uh tomorrow morning", "can you remind me to call the plumber tomorrow morning"},
		{"ok so tomorrow I have a meeting", "tomorrow I have a meeting"},
		{"hey so the parents evening is on thursday", "the parents evening is on thursday"},
		{"So, what's on today?", "what's on today?"},
		{"add to my list:\\neggs\\nhummus", "add to my list:\\neggs\\nhummus"},
		{"ok thanks", "ok thanks"},
		{"the summer plan", "the summer plan"},
	} {
		if got := DropFillers(tt.in); got != tt.want {
			t.Errorf("DropFillers(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

// TestTidySlot: a slot loses the quotes, punctuation and politeness around
// it, and what a possessive day left ("Sunday's call" less "Sunday").
func TestTidySlot(t *testing.T) {
	for in, want := range map[string]string{
		"  “call mum” please.": "call mum",
		"'s call with mum":     "call with mum",
		"’s dentist":           "dentist",
		"that the bins":        "the bins",
		"Sam's party":          "Sam's party",
	} {
		if got := TidySlot(in); got != want {
			t.Errorf("TidySlot(%q) = %q; want %q", in, got, want)
		}
	}
}

// TestMatchWordsStems: the endings folded for matching, and words that
// only look like them.
func TestMatchWordsStems(t *testing.T) {
	for in, want := range map[string]string{
		"parked": "park", "stopped": "stop", "baked": "bake", "swimming": "swim", "taking": "take", "eggs": "egg",
		"needing": "need", "need": "need", "feed": "feed", "bed": "bed", "shed": "shed", "called": "call", "tidied": "tidy", "parties": "party",
	} {
		if got := MatchWords(in); len(got) != 1 || got[0] != want {
			t.Errorf("MatchWords(%q) = %v; want [%s]", in, got, want)
		}
	}
}
