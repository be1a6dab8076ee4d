package nlu

import (
	"regexp"
	"strings"
)

// reNoteOn reads a note put on or in something named: "add a note to the
// dentist appointment: bring the x-rays", "note on my packing list:
// check the visa", "note on Bob: stressed about the move".
var reNoteOn = regexp.MustCompile(`(?i)^\s*(?:please\s+)?(?:(?:add|put|write|make)\s+(?:a\s+)?)?note\s+(?:on|to|in|for)\s+(.+?)\s*:\s*(.+?)\s*$`)

// eventNoteNouns are what a calendar entry is called by; a note on
// anything else ("note on Bob: …") is the memory graph's.
var eventNoteNouns = map[string]bool{
	"appointment": true, "appt": true, "meeting": true, "event": true, "booking": true, "reservation": true,
	"call": true, "lunch": true, "dinner": true, "breakfast": true, "party": true, "interview": true,
	"class": true, "lesson": true, "session": true, "flight": true,
}

// NoteOn reads a note put on or in something named: ref is what it is
// named ("the dentist appointment", "my packing list"), note the note.
// Whose it is the caller tells: an event's (EventNote), a list's
// (ListNote), or the memory graph's.
func NoteOn(text string) (ref, note string, ok bool) {
	g := reNoteOn.FindStringSubmatch(text)
	if g == nil {
		return "", "", false
	}
	return g[1], g[2], true
}

// EventNote reads a note put on an event: ref names the event ("the
// dentist appointment"), note is what to add to its description.
func EventNote(text string) (ref, note string, ok bool) {
	ref, note, ok = NoteOn(text)
	if !ok {
		return "", "", false
	}
	for _, w := range strings.Fields(strings.ToLower(ref)) {
		if eventNoteNouns[strings.TrimSuffix(strings.TrimSuffix(strings.Trim(w, ".,!?"), "'s"), "’s")] {
			return ref, note, true
		}
	}
	return "", "", false
}

// ListNote reads a note put in a list or a note by its name ("add a note
// to my packing list: check the visa"): ref names it ("my packing list"),
// note is what to add.
func ListNote(text string) (ref, note string, ok bool) {
	ref, note, ok = NoteOn(text)
	f := strings.Fields(strings.ToLower(ref))
	if !ok || len(f) < 2 || !listNouns[f[len(f)-1]] {
		return "", "", false
	}
	return ref, note, true
}

// listNouns end the names of lists and notes ("packing list", "gift
// ideas note").
var listNouns = map[string]bool{"list": true, "lists": true, "checklist": true, "note": true, "notes": true}
