package nlu

import (
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth/pipeline/nlu/internal/features"
)

// TestCapabilityGateKeeps checks that requests for what Hearth can do stay
// requests through Classify, in written and in spoken style: the gate
// must not cost in-scope accuracy.
func TestCapabilityGateKeeps(t *testing.T) {
	c := newTestClassifier(t)
	ref := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	for _, text := range []string{
		// reminders and alarms
		"Remind me to pick up the dry cleaning on Friday",
		"hey can you remind me to text jen back tonight",
		"olly set an alarm for 6 30",
		"olly cross off laundry",
		"wake me up at quarter to seven",
		"don't let me forget the passport",
		// to-dos and lists
		"put eggs on the list",
		"add oat milk",
		"cross off laundry",
		"mark the gym thing as done",
		"i need to call the insurance company tomorrow",
		"gotta renew my license by june",
		// calendar, by name and by change
		"book a dentist appointment for next monday",
		"set up coffee with alex next week",
		"stick yoga class on my schedule for tuesday",
		"cancel my 2 o'clock",
		"move lunch with sam to wednesday",
		"push the standup to 10",
		"clear my calendar tomorrow afternoon",
		// email
		"reply to jenny and say yes",
		"send dad the photos from saturday",
		// memory and notes
		"note down that the wifi password is kiwi22",
		"save this: the boiler code is 1234",
		"remember the neighbours are away next week",
		// a dated task in a verb phrase of its own
		"call the plumber tomorrow morning",
		"take out the trash tonight",
	} {
		res := c.Classify(text, nil, ref)
		if res.Intent != RequestAction || res.OutOfScope || res.Reason != "" {
			t.Errorf("%q: got %s out of scope %v (%s); want a request", text, res.Intent, res.OutOfScope, res.Reason)
		}
	}
}

// TestCapabilityGateRefuses checks that requests for what Hearth cannot
// do are chat with OutOfScope set, whatever the model made of their
// words, and that the gate's own refusals say why.
func TestCapabilityGateRefuses(t *testing.T) {
	c := newTestClassifier(t)
	ref := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		text string
		why  string // a part of Reason when the gate (not the model) refuses; "" when either may
	}{
		{"set the sprinklers to run at 5am", "devices"},
		{"dim the lights in the living room at 9", "devices"},
		{"make sure the garage door is closed", ""},
		{"add a stop at the gas station to my route", "directions"},
		{"make a reservation at the sushi place for friday", "bookings"},
		{"schedule a grocery delivery for tomorrow morning", "shopping"},
		{"renew my passport", "no reminder"},
		{"get the car started at 7 tomorrow", ""},
		{"add a song to my workout playlist", "music"},
		{"send flowers to my mom on her birthday", "shopping"},
		{"we need a new fridge delivered on saturday", "shopping"},
		{"put on some relaxing music", ""},
		{"book me an uber to the airport at 5am", ""},
		{"send 50 bucks to jake on venmo", ""},
		{"cancel my amazon order", ""},
		{"find a plumber near me", ""},
	} {
		res := c.Classify(tt.text, nil, ref)
		if res.Intent != Chat || !res.OutOfScope {
			t.Errorf("%q: got %s %v out of scope %v; want chat, out of scope", tt.text, res.Intent, res.Domains, res.OutOfScope)
			continue
		}
		if tt.why != "" && !strings.Contains(res.Reason, tt.why) {
			t.Errorf("%q: reason %q; want it to mention %q", tt.text, res.Reason, tt.why)
		}
		if len(res.Domains) != 0 || res.RequiresAction {
			t.Errorf("%q: domains %v, requires action %v; want none", tt.text, res.Domains, res.RequiresAction)
		}
	}
}

// TestCapable checks the gate's decision on its own, with the model's
// abstain probability given: a strong cue keeps a request however
// suspicious the model is, one weak cue only when the model is not, two
// weak cues unless something Hearth cannot do is named, and no cue never;
// a statement about the user's life is always kept.
func TestCapable(t *testing.T) {
	for _, tt := range []struct {
		text string
		when bool
		oos  float64
		ok   bool
	}{
		{"remind me to buy tickets for the show", false, 0.9, true},
		{"put the recital on the calendar", false, 0.9, true},
		{"find a time for a meeting with the design team", false, 0.5, true},
		{"i have to return the library books", false, 0.5, true},
		{"tom just got a new job at the bank", false, 0.5, true},
		{"we're out of coffee", false, 0.5, true},
		{"priya prefers green tea", false, 0.5, true},
		{"tom enjoys cooking", false, 0.5, true},
		{"tom's new address is 12 elm road", false, 0.5, true},
		{"lets play something upbeat", false, 0.05, false},
		{"cancel the book club on wednesday", true, 0.1, true},
		{"cancel the book club", false, 0.3, false},
		{"cancel the book club on wednesday", true, 0.3, true}, // two weak cues
		{"water the plants at six", true, 0.3, false},
		{"water the plants at six", true, 0.05, true},
		{"pay the water bill on friday", true, 0.05, true},
		{"pay the water bill", false, 0.05, false},
		{"buy a birthday present saturday", true, 0.6, true}, // the user's own errand, however suspicious
		{"can you buy a birthday present saturday", true, 0.6, false},
		{"pick up the dry cleaning and buy stamps tomorrow", true, 0.05, true},
		{"pick up the dry cleaning and order me a pizza tomorrow", true, 0.05, false},
		{"order me a curry at 7", true, 0.05, false},
		{"preheat the oven to 400", true, 0.05, false},
		{"buy tickets for the school event", false, 0.05, false},
		{"schedule the service appointment online", false, 0.05, false},
		{"find out when the pharmacy is open", false, 0.05, false},
		{"book a tire change at the garage online for friday", true, 0.05, false},
		{"i want to hear something upbeat", false, 0.05, false},
		{"i need you to send my landlord the money", false, 0.05, false},
		{"whos the best goalkeeper ever", false, 0.05, false},
		{"set the thermostat to 70", false, 0.05, false},
		{"share this with the family", false, 0.05, true},
		{"olly add bananas", false, 0.05, true},
		{"olly make the hallway lamp green", false, 0.05, false},
	} {
		toks, q := features.Tokens(nil, tt.text)
		if ok, why := capable(toks, q, tt.when, tt.oos); ok != tt.ok || why == "" {
			t.Errorf("capable(%q, when %v, oos %.2f) = %v (%s); want %v with a reason", tt.text, tt.when, tt.oos, ok, why, tt.ok)
		}
	}
}
