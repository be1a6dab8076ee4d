package nlu

import (
	"regexp"
	"strings"
)

// reEventNote reads a note put on something in the calendar: "add a note
// to the dentist appointment: bring the x-rays", "note on my meeting with
// Sam: print the slides".
var reEventNote = regexp.MustCompile(`(?i)^\s*(?:please\s+)?(?:(?:add|put|write|make)\s+(?:a\s+)?)?note\s+(?:on|to|in|for)\s+(.+?)\s*:\s*(.+?)\s*$`)

// eventNoteNouns are what a calendar entry is called by; a note on
// anything else ("note on Bob: …") is the memory graph's.
var eventNoteNouns = map[string]bool{
	"appointment": true, "appt": true, "meeting": true, "event": true, "booking": true, "reservation": true,
	"call": true, "lunch": true, "dinner": true, "breakfast": true, "party": true, "interview": true,
	"class": true, "lesson": true, "session": true, "flight": true,
}

// EventNote reads a note put on an event: ref names the event ("the
// dentist appointment"), note is what to add to its description.
func EventNote(text string) (ref, note string, ok bool) {
	g := reEventNote.FindStringSubmatch(text)
	if g == nil {
		return "", "", false
	}
	for _, w := range strings.Fields(strings.ToLower(g[1])) {
		if eventNoteNouns[strings.TrimSuffix(strings.TrimSuffix(strings.Trim(w, ".,!?"), "'s"), "’s")] {
			return g[1], g[2], true
		}
	}
	return "", "", false
}
