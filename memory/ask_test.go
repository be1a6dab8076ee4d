package memory_test

import (
	"testing"

	"github.com/hearthbot/hearth/memory"
)

func TestAskedAbout(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text, who string
		ok        bool
	}{
		{"What do you remember about me?", "", true},
		{"what do you know about myself", "", true},
		{"What have I told you?", "", true},
		{"what did I ask you to remember?", "", true},
		{"what have I asked you to remember about Ben", "Ben", true},
		{"What do you know about Emma?", "Emma", true},
		{"tell me everything you know about my sister", "my sister", true},
		{"What did I tell you about Bob", "Bob", true},
		{"When is John's birthday?", "", false},
		{"Remember that Emma likes dinosaurs", "", false},
		{"Who is Sam?", "Sam", true},
		{"who's Sarah Kim", "Sarah Kim", true},
		{"who is my sister?", "", false}, // one relation: ReadQuestion
		{"who is there?", "", false},
		{"who is it", "", false},
	}
	for _, tt := range tests {
		if who, ok := memory.AskedAbout(tt.text); who != tt.who || ok != tt.ok {
			t.Errorf("AskedAbout(%q) = %q, %v; want %q, %v", tt.text, who, ok, tt.who, tt.ok)
		}
	}
}

func TestAskedAboutByName(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]string{
		"tell me about Bob":             "Bob",
		"Tell me more about Sarah Kim?": "Sarah Kim",
		"tell me about my sister":       "my sister",
		"tell me about tomorrow":        "-",
		"tell me about Monday":          "-",
		"tell me about the weather":     "-",
		"tell me a joke":                "-",
	} {
		who, ok := memory.AskedAbout(text)
		if !ok {
			who = "-"
		}
		if who != want {
			t.Errorf("%q: %q; want %q", text, who, want)
		}
	}
	for text, want := range map[string]string{
		"who do I know who is into climbing?": "is into climbing",
		"do I know anyone who sails":          "sails",
		"which of my friends plays chess?":    "plays chess",
		"who do I know":                       "-",
		"what do I know about climbing":       "-",
	} {
		what, ok := memory.AskedWhoKnown(text)
		if !ok {
			what = "-"
		}
		if what != want {
			t.Errorf("%q: %q; want %q", text, what, want)
		}
	}
}

func TestGiftFor(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		text, who string
	}{
		{"what should I get Sam for his birthday?", "Sam"},
		{"What could I buy my sister?", "my sister"},
		{"any gift ideas for mom?", "mom"},
		{"what would Emma like for Christmas?", "Emma"},
		{"what to get Sarah Kim for her wedding", "Sarah Kim"},
		{"what should I get for dinner?", ""},
		{"what should I get done today?", ""},
		{"what should I buy at the store?", ""},
		{"what would you like to do?", ""},
	} {
		who, ok := memory.GiftFor(tt.text)
		if who != tt.who || ok != (tt.who != "") {
			t.Errorf("GiftFor(%q) = %q, %v; want %q", tt.text, who, ok, tt.who)
		}
	}
}

func TestToldBirth(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]bool{
		"Anna was born in 1990":            true,
		"My son was born on May 3rd 2015.": true,
		"I was born in Lisbon":             true,
		"when was Anna born?":              false,
		"Anna was born in 1990?":           false,
		"the idea was born in a pub":       false,
		"":                                 false,
	} {
		if got := memory.ToldBirth(text); got != want {
			t.Errorf("ToldBirth(%q) = %v; want %v", text, got, want)
		}
	}
}

func TestToldHome(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]bool{
		"I live in Berlin":              true,
		"Jon lives on Elm Street.":      true,
		"I work at Acme":                true,
		"Mia works for Initech":         true,
		"I work at home today":          false,
		"I work from home":              false,
		"where do I live?":              false,
		"I love living here":            false,
		"We live at 12 Oak Street":      true,
		"I live in a flat by the river": true,
		"I live in fear of spiders":     false, // no place
		"we live in hope":               false,
		"I live in the moment":          false,
	} {
		if got := memory.ToldHome(text); got != want {
			t.Errorf("ToldHome(%q) = %v; want %v", text, got, want)
		}
	}
}
