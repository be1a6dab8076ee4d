package plan

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// Moving by an amount rather than to a time: "push the dentist back an
// hour", "move it 30 minutes earlier", "postpone the report by 2 days",
// "make the call half an hour later". The task or event keeps its length
// and moves by exactly that much; "it" is what the last reply was about.

// shift is how far a move goes: minutes, and calendar days ("a day
// later" is the same time of day tomorrow, whatever the clocks do).
// Negative is earlier.
type shift struct {
	minutes, days int
	// snooze moves a reminder whose time has passed from now, not from
	// when it was due ("snooze it for an hour" after it went off).
	snooze bool
}

// from is t moved by s, days counted in z.
func (s shift) from(t time.Time, z *time.Location) time.Time {
	return t.In(z).AddDate(0, 0, s.days).Add(time.Duration(s.minutes) * time.Minute)
}

const (
	shiftAmount = `(\d+|an?|one|two|three|four|five|six|half\s+an)`
	shiftUnit   = `(minutes?|mins?|hours?|hrs?|days?|weeks?)`
)

// The ways a move by an amount is said, each read into the
// reference (what moves), a direction word before the amount, the
// amount, its unit and a direction word after it.
var (
	// "the laundry reminder by 30 minutes", "it back by an hour".
	reShiftBy = regexp.MustCompile(`(?i)^(.*?)\s*(?:\b(back|forward|out|ahead|later|earlier)\s+)?\bby\s+` + shiftAmount + `\s+` + shiftUnit + `(?:\s+(later|earlier|sooner))?\s*[.!]*$`)
	// "it back an hour", "the trip out a week".
	reShiftWord = regexp.MustCompile(`(?i)^(.*?)\s*\b(back|forward|out|ahead)\s+` + shiftAmount + `\s+` + shiftUnit + `(?:\s+(later|earlier|sooner))?\s*[.!]*$`)
	// "it an hour later", "the call 30 minutes earlier".
	reShiftAfter = regexp.MustCompile(`(?i)^(.*?)\s*()\b` + shiftAmount + `\s+` + shiftUnit + `\s+(later|earlier|sooner|back)\s*[.!]*$`)
	// "snooze it for an hour", "snooze the vet 10 minutes": later.
	reShiftFor = regexp.MustCompile(`(?i)^(.*?)\s*()\b(?:for\s+)?` + shiftAmount + `\s+` + shiftUnit + `()\s*[.!]*$`)
)

// spanOf reads an amount of time as people say it, the words matched by
// shiftAmount and shiftUnit: "30 minutes", "an hour", "half an hour",
// "two days", "a week". ok is false for none, or more than a week of
// minutes or a year of days.
func spanOf(amount, unit string) (sh shift, ok bool) {
	amount, unit = strings.ToLower(strings.Join(strings.Fields(amount), " ")), strings.ToLower(unit)
	n := map[string]int{"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}[amount]
	if v, err := strconv.Atoi(amount); err == nil {
		n = v
	}
	switch {
	case amount == "half an":
		sh.minutes = 30
	case strings.HasPrefix(unit, "min"):
		sh.minutes = n
	case strings.HasPrefix(unit, "h"):
		sh.minutes = 60 * n
	case strings.HasPrefix(unit, "day"):
		sh.days = n
	default:
		sh.days = 7 * n
	}
	if sh.minutes <= 0 && sh.days <= 0 || sh.minutes > 60*24*7 || sh.days > 366 {
		return shift{}, false
	}
	return sh, true
}

// shiftVerbs start a move by an amount: the move verbs, and "make"
// ("make it an hour later").
var shiftVerbs = append([]string{"make ", "snooze "}, MoveVerbs...)

// shiftRequest reads a request to move something by an amount: what is
// moved (as the user named it) and how far.
func shiftRequest(text string) (refText string, sh shift, ok bool) {
	lc := words.StripPoliteness(words.ASCIILower(strings.TrimSpace(text)))
	if !words.StartsWithAny(lc, shiftVerbs...) {
		return "", shift{}, false
	}
	rest, verb, _ := words.AfterAny(text, shiftVerbs...)
	var g []string
	for _, re := range []*regexp.Regexp{reShiftBy, reShiftWord, reShiftAfter, reShiftFor} {
		if re == reShiftFor && strings.TrimSpace(verb) != "snooze" {
			break
		}
		if g = re.FindStringSubmatch(strings.TrimSpace(rest)); g != nil {
			break
		}
	}
	if g == nil {
		return "", shift{}, false
	}
	sh, ok = spanOf(g[3], g[4])
	if !ok {
		return "", shift{}, false
	}
	// Later unless said otherwise; "bring forward" is earlier.
	earlier := strings.TrimSpace(verb) == "bring forward"
	for _, d := range []string{strings.ToLower(g[2]), strings.ToLower(g[5])} {
		switch d {
		case "earlier", "sooner":
			earlier = true
		case "later", "back", "out":
			earlier = false
		}
	}
	if earlier {
		sh.minutes, sh.days = -sh.minutes, -sh.days
	}
	sh.snooze = strings.TrimSpace(verb) == "snooze"
	return g[1], sh, true
}

// planShift moves what refText names by sh: the open task of that name,
// or else the event.
func planShift(in stage.PlanInput, refText string, sh shift) (stage.Plan, error) {
	p := stage.Plan{Understood: "move something"}
	ref := resolveRef(taskRef(stripTimeWords(refText, in.Context)), in.Context)
	if ref == "" || isPronounRef(ref) {
		return p, needDetails("what to move")
	}
	p.Understood = "move “" + markdown.Escape(ref) + "”"
	if !hasTask(ref, in.Context) {
		if ev := eventRefWords(ref); hasEvent(ev, in.Context) {
			return shiftEvents(in, p, ev, sh)
		}
	}
	z := stage.UserZone(in.Context)
	return moveMatching(in, p, ref, func(t hearth.Task) (time.Time, bool, error) {
		switch {
		case t.Due.IsZero():
			return time.Time{}, false, needDetails("which time to move it from: “%s” has none", t.Title)
		case t.AllDay && sh.minutes != 0:
			return time.Time{}, false, needDetails("a time to move it to: “%s” is due all day", t.Title)
		}
		if due := t.Due; sh.snooze && !in.Context.Now.IsZero() && due.Before(in.Context.Now) {
			return sh.from(in.Context.Now, z), false, nil
		}
		return sh.from(t.Due, z), t.AllDay, nil
	})
}

// shiftEvents moves the events ref names by sh, asking which when
// several match.
func shiftEvents(in stage.PlanInput, p stage.Plan, ref string, sh shift) (stage.Plan, error) {
	z := stage.UserZone(in.Context)
	var labels []string
	var acts []action.Action
	for _, e := range MatchEvents(ref, nil, in.Context) {
		if e.AllDay && sh.minutes != 0 {
			return p, needDetails("a time to move it to: “%s” is all day", e.Title)
		}
		start, end := sh.from(e.Start, z), sh.from(e.End, z)
		a, err := action.New(action.CalendarUpdate, action.EventUpdateArgs{ID: e.ID, Update: hearth.CalendarEventUpdate{Start: &start, End: &end}})
		if err != nil {
			return plannedErr(p, err)
		}
		acts = append(acts, a)
		labels = append(labels, eventLabel(e, in.Context))
	}
	return actOrAsk(p, "Which one should I move?", labels, acts), nil
}
