package nlu

import (
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hearthbot/hearth/pipeline/nlu/timex"
)

// reWhenIs reads a question for when one thing is: "when is my haircut?",
// "what time is the dentist?", "when's the car insurance due?", "when is
// swimming?". "When's my next swimming?" and "when is swimming next?" ask
// for the next of a repeating one, "what time is the haircut now?" after
// a move: the thing is "swimming", "haircut" still.
var reWhenIs = regexp.MustCompile(`(?i)^\s*(?:so\s+|and\s+|hey\s+)?(?:when(?:'s|’s|s|\s+is|\s+was)|what\s+(?:time|day|date)(?:'s|’s|\s+is|\s+was))\s+(?:(?:my|the|our)\s+)?(?:next\s+)?(.+?)(?:\s+(?:due|happening|again|on|next|now))?\s*[?.!]*\s*$`)

// reWhenDoI reads the same question asked of what the user does: "when
// am I seeing the doctor?", "when do I have piano?", "when are we going
// to the dentist next?".
var reWhenDoI = regexp.MustCompile(`(?i)^\s*(?:so\s+|and\s+|hey\s+)?when\s+(?:am\s+i|are\s+we|do\s+i|do\s+we)\s+(?:seeing|meeting|having|see|meet|have|going\s+to|go\s+to)\s+(?:(?:my|the|our)\s+)?(?:next\s+)?(.+?)(?:\s+(?:again|next|now))?\s*[?.!]*\s*$`)

// WhenIs reports a question for when one thing named is ("when is my
// haircut?", "when am I seeing the doctor?"), and how it names it
// ("haircut", "doctor"): an event's or a task's title, or a remembered
// date ("my birthday"), whichever the user has.
func WhenIs(text string) (string, bool) {
	g := reWhenIs.FindStringSubmatch(text)
	if g == nil {
		g = reWhenDoI.FindStringSubmatch(text)
	}
	if g == nil {
		return "", false
	}
	// "What time is dinner tomorrow?": dinner, the day said being the
	// next one's.
	ref := strings.TrimSpace(reDayAfter.ReplaceAllString(g[1], ""))
	if first, _, _ := strings.Cut(strings.ToLower(ref), " "); slices.Contains(notNamed, first) || first == "to" {
		return "", false // "when is it?", "what time is it?", "when are you free"
	}
	return ref, ref != ""
}

// reDayAfter is a day said after what a when-question names.
var reDayAfter = regexp.MustCompile(`(?i)\s+(?:today|tonight|tomorrow(?:\s+(?:morning|afternoon|evening|night))?|this\s+(?:morning|afternoon|evening|week|weekend)|next\s+week|on\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))$`)

// reWhenDo reads a question for when the user does something: "when do I
// water the plants?", "when should we take out the bins?".
var reWhenDo = regexp.MustCompile(`(?i)^\s*(?:so\s+|and\s+|hey\s+)?when\s+(?:do|should|must)\s+(?:i|we)\s+(?:next\s+)?(.+?)(?:\s+(?:again|next))?\s*[?.!]*\s*$`)

// WhenDo reports a question for when the user does something, and what
// ("water the plants"): a recurring reminder's text, when they have one.
// WhenIs reads the questions of when a thing is, which come first.
func WhenDo(text string) (string, bool) {
	g := reWhenDo.FindStringSubmatch(text)
	if g == nil {
		return "", false
	}
	ref := strings.TrimSpace(g[1])
	if first, _, _ := strings.Cut(strings.ToLower(ref), " "); slices.Contains(notNamed, first) {
		return "", false
	}
	return ref, ref != ""
}

// notNamed start what a when-question asks of something not named by
// its title: the thing just spoken of, the clock, a person ("to" is
// "when do I have to leave?", not a thing).
var notNamed = []string{"it", "that", "this", "there", "i", "you", "we", "he", "she", "they", "a", "an"}

// reWhenIsIt reads a question for when the thing just spoken of is:
// "when is it?", "when's that again?", "what time is that?", "when?".
// "What time is it?" and "what day is it?" ask the clock, not this.
var reWhenIsIt = regexp.MustCompile(`(?i)^\s*(?:so\s+|and\s+|ok\s+|okay\s+)?(?:when(?:'s|’s|\s+is|\s+was)\s+(?:it|that|this)|what\s+(?:time|day|date)(?:'s|’s|\s+is|\s+was)\s+(?:that|this))(?:\s+(?:again|on|happening|due))?\s*[?.!]*\s*$|^\s*(?:so\s+|and\s+|ok\s+|okay\s+)?when\s*\?+\s*$`)

// WhenIsIt reports a question for when the item the conversation just
// spoke of is ("when is it?" right after "Dentist appointment is on your
// calendar"): the caller finds which item that is.
func WhenIsIt(text string) bool {
	return reWhenIsIt.MatchString(text)
}

// reUntil reads a question for how far off something is: "how long until
// Christmas?", "how many days until Lena's birthday?".
var reUntil = regexp.MustCompile(`(?i)^\s*(?:so\s+|and\s+|ok\s+)?(?:how\s+long|how\s+many\s+(?:days|weeks|sleeps))\s+(?:is\s+it\s+|are\s+there\s+|is\s+there\s+)?(?:left\s+)?(?:until|till|til|to|before)\s+(.+?)\s*[?.!]*\s*$`)

// Until reports a question for how far off something is, and what it
// names ("Christmas", "Lena's birthday", "the dentist").
func Until(text string) (string, bool) {
	g := reUntil.FindStringSubmatch(text)
	if g == nil {
		return "", false
	}
	what := strings.TrimSpace(g[1])
	return what, what != ""
}

// OneDay returns the one day s names, as timex reads it ("Sunday", "the
// 15th", "Christmas"), and false for anything else: a time, a span, or
// something only the user's things can date ("Lena's birthday").
func OneDay(s string, ref time.Time) (timex.Match, bool) {
	ms := timex.Find(s, ref, timex.Options{})
	if len(ms) != 1 || ms[0].Kind != timex.Value || ms[0].Grain != timex.Day {
		return timex.Match{}, false
	}
	return ms[0], true
}

// reWhoComing reads a question for who an event is with: "who's coming
// to Mia's play?", "who is invited to the barbecue?", "who's going to
// the meeting?".
var reWhoComing = regexp.MustCompile(`(?i)^\s*(?:so\s+|and\s+)?who(?:'s|’s|s|\s+is|\s+are|\s+else\s+is)\s+(?:coming|going|invited|attending)\s+(?:to\s+)?(?:(?:my|the|our)\s+)?(.+?)\s*[?.!]*\s*$`)

// EventDetail is what a question asks of one event (see EventAsked).
type EventDetail string

// The details EventAsked reads.
const (
	Guests EventDetail = "guests" // "who's coming to Mia's play?"
	Place  EventDetail = "place"  // "where is lunch with Sam?"
	Length EventDetail = "length" // "how long is the dentist?"
)

// reWhereIs reads a question for where something is: "where is lunch
// with Sam?", "where's the party being held?", "where is my passport?"
// (a thing's place, which memory answers).
var reWhereIs = regexp.MustCompile(`(?i)^\s*(?:so\s+|and\s+|hey\s+)?where(?:'s|’s|s|\s+is|\s+was|\s+will\s+be)\s+(?:(?:my|the|our)\s+)?(.+?)(?:\s+(?:again|happening|being\s+held|taking\s+place|held|located))?\s*[?.!]*\s*$`)

// reHowLong reads a question for how long something lasts: "how long is
// the dentist?", "how long does the meeting take?", "how long will the
// flight be?" ("how long until Christmas?" is Until's).
var reHowLong = regexp.MustCompile(`(?i)^\s*(?:so\s+|and\s+|hey\s+)?how\s+long\s+(?:is|was|will|does|did)\s+(?:(?:my|the|our)\s+)?(.+?)(?:\s+(?:be|going\s+to\s+be|again|last|take|run|go\s+on|for))?\s*[?.!]*\s*$`)

// askedOf are the domains that answer each detail.
var askedOf = map[EventDetail][]Domain{Guests: {Calendar}, Place: {Calendar, Memory}, Length: {Calendar, Memory}}

// EventAsked reports a question for one detail of an event — who is
// invited, where it is, how long it lasts — which detail, and how it
// names the event ("Mia's play"). A place or a length may be a thing's
// the user told ("where is my passport?"), which memory answers.
func EventAsked(text string) (ref string, what EventDetail, ok bool) {
	var g []string
	switch {
	case reWhoComing.MatchString(text):
		g, what = reWhoComing.FindStringSubmatch(text), Guests
	case reWhereIs.MatchString(text):
		g, what = reWhereIs.FindStringSubmatch(text), Place
	case reHowLong.MatchString(text):
		if _, until := Until(text); until {
			return "", "", false
		}
		g, what = reHowLong.FindStringSubmatch(text), Length
	default:
		return "", "", false
	}
	// "Who's coming to dinner on Saturday?": dinner (the context stage
	// reads that day's).
	ref = strings.TrimSpace(reDayAfter.ReplaceAllString(g[1], ""))
	first, _, _ := strings.Cut(strings.ToLower(ref), " ")
	if ref == "" || slices.Contains(notNamed, first) || slices.Contains([]string{"everyone", "everybody", "until", "till", "left", "ago", "nearest", "closest", "best"}, first) {
		return "", "", false // "where is it?", "how long is it until …?"
	}
	if what != Guests && !strings.Contains(ref, " ") && ref != strings.ToLower(ref) {
		return "", "", false // "where is Sam?" asks after a person
	}
	return ref, what, true
}
