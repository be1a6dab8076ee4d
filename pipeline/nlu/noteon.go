package nlu

import (
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hearthbot/hearth/pipeline/nlu/timex"
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
	"class": true, "lesson": true, "session": true, "flight": true, "dentist": true, "doctor": true, "checkup": true,
	"haircut": true, "wedding": true, "barbecue": true, "bbq": true, "picnic": true, "recital": true, "concert": true,
	"rehearsal": true, "coffee": true, "brunch": true, "drinks": true, "practice": true,
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
	if !callsEvent(ref) {
		return "", "", false
	}
	return ref, note, true
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

// Where an event is, set: "set the location of the dentist to 12 Main
// Street", "the venue for the party is the town hall" (told in passing,
// "lunch with Sam is at Luigi's", is isAt's).
var (
	reSetPlace = regexp.MustCompile(`(?i)^\s*(?:please\s+)?(?:set|change|update|make)\s+(?:the\s+)?(?:location|place|venue|address)\s+(?:of|for)\s+(.+?)\s+(?:to|as)\s+(.+?)\s*[.!]*\s*$`)
	rePlaceIs  = regexp.MustCompile(`(?i)^\s*(?:the\s+)?(?:location|place|venue|address)\s+(?:of|for)\s+(.+?)\s+is\s+(?:now\s+)?(.+?)\s*[.!]*\s*$`)
)

// EventPlace reads where an event is, told or set: ref names the event
// ("lunch with Sam"), place is where it is ("Luigi's"). A time is not a
// place ("dinner is at 7" moves dinner), and "X is at …" is an event's
// only when X is called by what calendar entries are ("lunch", "the
// dentist"): "Mum is at the hospital" is news of Mum.
func EventPlace(text string, now time.Time) (ref, place string, ok bool) {
	if strings.HasSuffix(strings.TrimSpace(text), "?") {
		return "", "", false
	}
	// Every message is asked: the regular expressions run only on one
	// that has their words.
	lc := strings.ToLower(text)
	var g []string
	if strings.Contains(lc, "location") || strings.Contains(lc, "place") || strings.Contains(lc, "venue") || strings.Contains(lc, "address") {
		if g = reSetPlace.FindStringSubmatch(text); g == nil {
			g = rePlaceIs.FindStringSubmatch(text)
		}
	}
	if g == nil {
		if g = isAt(text, lc); g == nil || !callsEvent(g[1]) {
			return "", "", false
		}
	}
	ref, place = strings.TrimSpace(g[1]), strings.TrimSpace(g[2])
	if ref == "" || place == "" || len(place) > 200 || reClockOnly.MatchString(place) || len(timex.Find(place, now, timex.Options{})) > 0 {
		return "", "", false
	}
	if f := strings.Fields(strings.ToLower(ref)); len(f) > 8 || slices.Contains(f, "that") || slices.Contains(placeNotRef, f[0]) {
		return "", "", false // "email Sam that dinner is at Luigi's" is a message
	}
	return ref, place, true
}

// reClockOnly is a bare hour, which timex leaves alone and no place is:
// "dinner is at 7", "at 7.30", "at noon".
var reClockOnly = regexp.MustCompile(`(?i)^(?:\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.|o'?clock|h)?|noon|midday|midnight)$`)

// placeNotRef open a request whose words only report an event's place.
var placeNotRef = []string{"email", "tell", "text", "message", "remind", "ask", "let", "say", "write", "send"}

// isAtWords say where something is or has moved to: "lunch is at
// Luigi's", "the meeting has moved to room 4".
var isAtWords = []string{" is at ", "'s at ", "’s at ", " will be at ", " is now at ", " is going to be at ",
	" has moved to ", " has been moved to ", " is moved to ", " was moved to ", " got moved to ", " moved to "}

// isAt splits "lunch with Sam is at Luigi's" at its first isAtWords: the
// whole text, what is there and where, as a regular expression's groups
// (a scan: every message is asked).
func isAt(text, lc string) []string {
	at, sep := -1, ""
	for _, w := range isAtWords {
		if i := strings.Index(lc, w); i > 0 && (at < 0 || i < at) {
			at, sep = i, w
		}
	}
	if at < 0 || len(lc) != len(text) {
		return nil
	}
	ref := strings.TrimSpace(text[:at])
	for _, lead := range []string{"so ", "and ", "oh ", "btw ", "also "} {
		if len(ref) > len(lead) && strings.EqualFold(ref[:len(lead)], lead) {
			ref = strings.TrimSpace(ref[len(lead):])
		}
	}
	return []string{text, ref, strings.TrimRight(strings.TrimSpace(text[at+len(sep):]), ".! ")}
}

// callsEvent reports words that call something by what calendar entries
// are called ("the dentist appointment", "lunch with Sam").
func callsEvent(ref string) bool {
	for _, w := range strings.Fields(strings.ToLower(ref)) {
		if eventNoteNouns[strings.TrimSuffix(strings.TrimSuffix(strings.Trim(w, ".,!?"), "'s"), "’s")] {
			return true
		}
	}
	return false
}

func eventPlaced(text string, now time.Time) bool {
	_, _, ok := EventPlace(text, now)
	return ok
}
