package nlu

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestReadDiscard: a request to throw a draft away names it by its
// recipient, its topic, "that", or all of them, and the classifier takes
// it to the drafts, not to a task called "draft"; received mail and other
// deletes are not such requests.
func TestReadDiscard(t *testing.T) {
	c := newTestClassifier(t)
	ref := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		text string
		want Discard
		ok   bool
	}{
		{"delete that draft", Discard{That: true}, true},
		{"Discard the draft", Discard{}, true},
		{"please scrap my draft to Sam", Discard{To: "Sam"}, true},
		{"delete the email draft for the landlord about the heater", Discard{To: "the landlord", About: "the heater"}, true},
		{"get rid of the draft about the party.", Discard{About: "the party"}, true},
		{"delete all my drafts", Discard{All: true}, true},
		{"bin both drafts", Discard{All: true}, true},
		{"can you throw away this email", Discard{That: true}, true},
		{"cancel the email to Tom please", Discard{To: "Tom"}, true},
		{"delete the drafts", Discard{All: true}, true},
		{"delete the email from Sam", Discard{}, false},
		{"delete the dentist", Discard{}, false},
		{"draft an email to Sam", Discard{}, false},
		{"delete milk from the shopping list", Discard{}, false},
		{"remove the draft folder from my phone settings and restart", Discard{}, false},
	} {
		got, ok := ReadDiscard(tt.text)
		if ok != tt.ok || got != tt.want {
			t.Errorf("ReadDiscard(%q) = %+v, %v; want %+v, %v", tt.text, got, ok, tt.want, tt.ok)
		}
		if !tt.ok {
			continue
		}
		if got := c.Classify(tt.text, []Turn{}, ref); got.Intent != RequestAction || !slices.Equal(got.Domains, []Domain{Email}) {
			t.Errorf("Classify(%q) = %s %v; want a request about email", tt.text, got.Intent, got.Domains)
		}
	}
}

// FuzzReadDiscard: whatever the text, reading it never panics, and what
// it names is words of the text.
func FuzzReadDiscard(f *testing.F) {
	for _, s := range []string{"delete that draft", "scrap my draft to Sam about the party", "delete all my drafts", "cancel the email to  please", "get rid of"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, ok := ReadDiscard(s)
		if !ok {
			if d != (Discard{}) {
				t.Fatalf("ReadDiscard(%q) = %+v with ok false", s, d)
			}
			return
		}
		if !strings.Contains(s, d.To) || !strings.Contains(s, d.About) {
			t.Fatalf("ReadDiscard(%q) = %+v: not words of the text", s, d)
		}
	})
}
