package nlu

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestReadDraftRef: a request to throw a draft away names it by its
// recipient, its topic, "that", or all of them, and the classifier takes
// it to the drafts, not to a task called "draft"; received mail and other
// deletes are not such requests.
func TestReadDraftRef(t *testing.T) {
	c := newTestClassifier(t)
	ref := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		text string
		want DraftRef
		ok   bool
	}{
		{"delete that draft", DraftRef{That: true}, true},
		{"Discard the draft", DraftRef{}, true},
		{"please scrap my draft to Sam", DraftRef{To: "Sam"}, true},
		{"delete the email draft for the landlord about the heater", DraftRef{To: "the landlord", About: "the heater"}, true},
		{"get rid of the draft about the party.", DraftRef{About: "the party"}, true},
		{"delete all my drafts", DraftRef{All: true}, true},
		{"bin both drafts", DraftRef{All: true}, true},
		{"can you throw away this email", DraftRef{That: true}, true},
		{"cancel the email to Tom please", DraftRef{To: "Tom"}, true},
		{"delete the drafts", DraftRef{All: true}, true},
		{"delete the email from Sam", DraftRef{}, false},
		{"delete the dentist", DraftRef{}, false},
		{"draft an email to Sam", DraftRef{}, false},
		{"delete milk from the shopping list", DraftRef{}, false},
		{"remove the draft folder from my phone settings and restart", DraftRef{}, false},
		{"send the draft to Sam", DraftRef{Send: true, To: "Sam"}, true},
		{"go ahead and send that draft", DraftRef{Send: true, That: true}, true},
		{"send all my drafts", DraftRef{Send: true, All: true}, true},
		{"send the email to Sam", DraftRef{Send: true, To: "Sam", Maybe: true}, true},
		{"send that email", DraftRef{Send: true, That: true, Maybe: true}, true},
		{"send my email about the heater now", DraftRef{Send: true, About: "the heater", Maybe: true}, true},
		{"send an email to Sam", DraftRef{}, false},
		{"send Sam an email", DraftRef{}, false},
		{"send Sam the draft of my essay", DraftRef{}, false},
	} {
		got, ok := ReadDraftRef(tt.text)
		if ok != tt.ok || got != tt.want {
			t.Errorf("ReadDraftRef(%q) = %+v, %v; want %+v, %v", tt.text, got, ok, tt.want, tt.ok)
		}
		if !tt.ok {
			continue
		}
		if got := c.Classify(tt.text, []Turn{}, ref); got.Intent != RequestAction || !slices.Equal(got.Domains, []Domain{Email}) {
			t.Errorf("Classify(%q) = %s %v; want a request about email", tt.text, got.Intent, got.Domains)
		}
	}
}

// FuzzReadDraftRef: whatever the text, reading it never panics, and what
// it names is words of the text.
func FuzzReadDraftRef(f *testing.F) {
	for _, s := range []string{"delete that draft", "scrap my draft to Sam about the party", "delete all my drafts", "cancel the email to  please", "get rid of"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, ok := ReadDraftRef(s)
		if !ok {
			if d != (DraftRef{}) {
				t.Fatalf("ReadDraftRef(%q) = %+v with ok false", s, d)
			}
			return
		}
		if !strings.Contains(s, d.To) || !strings.Contains(s, d.About) {
			t.Fatalf("ReadDraftRef(%q) = %+v: not words of the text", s, d)
		}
	})
}
