package nlu

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestEventNote: a note put on an appointment is read as the event's,
// and classified as a request to the calendar; a note on anyone or
// anything else is not.
func TestEventNote(t *testing.T) {
	c := newTestClassifier(t)
	ref := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		text, ref, note string
		ok              bool
	}{
		{"add a note to the dentist appointment: bring the x-rays", "the dentist appointment", "bring the x-rays", true},
		{"Note on my meeting with Sam: print the slides.", "my meeting with Sam", "print the slides.", true},
		{"please put a note on Friday's dinner: Ana is vegetarian", "Friday's dinner", "Ana is vegetarian", true},
		{"note on Bob: stressed about the move", "", "", false},
		{"add a note to my packing list: check the visa", "", "", false},
		{"add a note to the dentist appointment", "", "", false},
	} {
		r, n, ok := EventNote(tt.text)
		if ok != tt.ok || r != tt.ref || n != tt.note {
			t.Errorf("EventNote(%q) = %q, %q, %v; want %q, %q, %v", tt.text, r, n, ok, tt.ref, tt.note, tt.ok)
		}
		if tt.ok {
			if got := c.Classify(tt.text, []Turn{}, ref); got.Intent != RequestAction || !slices.Equal(got.Domains, []Domain{Calendar}) {
				t.Errorf("Classify(%q) = %s %v; want a request to the calendar", tt.text, got.Intent, got.Domains)
			}
		}
	}
}

// FuzzNoteOn: whatever is said, a note read names something and says
// something, both in the words said.
func FuzzNoteOn(f *testing.F) {
	for _, s := range []string{"add a note to the dentist appointment: bring the x-rays", "note on Bob: stressed", "note to : x", "note on a:", "put a note in our list: milk",
		"lunch with Sam is at Luigi's", "set the location of the party to the park", "the venue for dinner is  ", "where is lunch?", "how long is the  dentist?",
		"make it an hour and a half", "extend the call by 15 minutes longer"} {
		f.Add(s)
	}
	eventPlace := func(s string) (string, string, bool) { return EventPlace(s, testRef) }
	f.Fuzz(func(t *testing.T, text string) {
		if ref, what, ok := EventAsked(text); ok && (ref == "" || !strings.Contains(text, ref) || askedOf[what] == nil) {
			t.Fatalf("%q asked %q of %q", text, what, ref)
		}
		BirthdaysAsked(text)
		if d, ok := FreeFor(text); ok != (d > 0) || d > 24*time.Hour {
			t.Fatalf("FreeFor(%q) = %v, %v", text, d, ok)
		}
		if l, ok := ChangesLength(text); ok && (l.Ref == "" || l.D <= 0 || l.By < -1 || l.By > 1) {
			t.Fatalf("%q read as %+v", text, l)
		}
		for _, read := range []func(string) (string, string, bool){NoteOn, EventNote, ListNote, eventPlace} {
			ref, note, ok := read(text)
			if ok && (ref == "" || note == "" || !strings.Contains(text, ref) || !strings.Contains(text, note)) {
				t.Fatalf("%q read as %q: %q", text, ref, note)
			}
		}
	})
}
