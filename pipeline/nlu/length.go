package nlu

import (
	"strings"
	"time"

	"github.com/hearthbot/hearth/pipeline/nlu/timex"
	"github.com/hearthbot/hearth/pipeline/words"
)

// LengthChange is a request to change how long something lasts: "make it
// an hour and a half", "make lunch 2 hours long", "make the meeting 30
// minutes longer", "extend the call by 15 minutes", "shorten the review by
// half an hour".
type LengthChange struct {
	// Ref is what lasts, as the user named it ("it", "the 3pm meeting").
	Ref string
	// D is the new length (By 0), or how much to add (By 1) or take off
	// (By -1).
	D  time.Duration
	By int
}

// The verbs that start a change of length: setting one, adding to it,
// taking from it.
var (
	lengthSet     = []string{"make ", "change "}
	lengthLonger  = []string{"extend ", "lengthen ", "prolong "}
	lengthShorter = []string{"shorten ", "cut "}
	lengthVerbs   = append(append(append([]string{}, lengthSet...), lengthLonger...), lengthShorter...)
)

// ChangesLength reads a request to change how long something lasts. The
// length ends the request ("make it 2 hours later" moves it instead).
func ChangesLength(text string) (LengthChange, bool) {
	lc := words.StripPoliteness(words.ASCIILower(strings.TrimSpace(text)))
	var l LengthChange
	switch {
	case words.StartsWithAny(lc, lengthSet...):
	case words.StartsWithAny(lc, lengthLonger...):
		l.By = 1
	case words.StartsWithAny(lc, lengthShorter...):
		l.By = -1
	default:
		return LengthChange{}, false
	}
	rest, _, _ := words.AfterAny(lc, lengthVerbs...)
	f := strings.Fields(strings.TrimRight(rest, ".!"))
	if n := len(f); n > 0 && f[n-1] == "instead" {
		f = f[:n-1]
	}
	if n := len(f); n > 0 && l.By == 0 && (f[n-1] == "longer" || f[n-1] == "shorter") {
		l.By = map[string]int{"longer": 1, "shorter": -1}[f[n-1]]
		f = f[:n-1]
	}
	// The longest length that ends the request; what comes before it
	// names what lasts ("the 3pm meeting an hour": the meeting).
	for k := 1; k < len(f) && k <= 8; k++ {
		d, ok := timex.ParseDuration(strings.Join(f[k:], " "))
		if !ok {
			continue
		}
		l.Ref, l.D = words.TrimWordsRight(strings.Join(f[:k], " "), "to", "last", "for", "by", "short"), d
		return l, l.Ref != ""
	}
	return LengthChange{}, false
}

func lengthChanged(text string) bool {
	_, ok := ChangesLength(text)
	return ok
}

// detailChanged reports a change of where something is or how long it
// lasts ("lunch is at Luigi's", "extend the call by 15 minutes"): Hearth's
// to make, whatever the capability gate makes of its words.
func detailChanged(text string, now time.Time) bool {
	return eventPlaced(text, now) || lengthChanged(text)
}
