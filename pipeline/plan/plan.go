// Package plan is the action stage offline: one planner per domain
// (tasks, calendar, email, notes and lists, memories), each in a file of
// its own, turning an understood message and its context into typed
// actions, or a question when it cannot tell what was meant. The model
// planners in hybrid fall back to these.
package plan

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/nlu/timex"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// Planners returns the offline, rule-based planner of every domain. They
// read the classifier's slots first and the message text second, never
// call a model, and are safe for concurrent use.
//
// When the classifier names several domains ("I just closed on my house!
// Add it to my calendar for a celebration dinner Saturday"), the runner
// gives every named planner the same input; each one then plans only the
// clauses that are its own (see ownText), and returns an empty Plan, not
// an error, when none is.
func Planners() map[nlu.Domain]stage.Planner {
	return map[nlu.Domain]stage.Planner{
		nlu.Memory:   stage.PlannerFunc(planMemory),
		nlu.Task:     stage.PlannerFunc(planTask),
		nlu.Calendar: stage.PlannerFunc(planCalendar),
		nlu.Email:    stage.PlannerFunc(planEmail),
		nlu.Keep:     stage.PlannerFunc(planKeep),
	}
}

func needDetails(format string, args ...any) error {
	return &stage.DetailsError{Detail: fmt.Sprintf(format, args...)}
}

// plannedErr turns the typed construction errors of action.New into one
// planning error; it exists so every planner reports them the same way.
func plannedErr(p stage.Plan, err error) (stage.Plan, error) {
	if err != nil {
		return stage.Plan{Understood: p.Understood}, fmt.Errorf("plan: %w", err)
	}
	return p, nil
}

// ---- Clauses ---------------------------------------------------------

// splitClauses cuts a message into the clauses a person would read as
// separate requests or statements: at sentence ends (". ", "!", "?",
// ";", new lines), at ", and " and before "and <command>" ("add milk to
// my list and remind me to call mom"). Every planner uses it, so a
// multi-domain message is cut the same way for all of them.
func splitClauses(text string) []string {
	sentences := nlu.Clauses(text)
	var out []string
	for _, s := range sentences {
		for {
			cut := commandAfterAnd(s)
			if cut < 0 {
				break
			}
			out = append(out, strings.TrimSpace(s[:cut]))
			s = strings.TrimSpace(s[cut+len("and "):])
			s = strings.TrimSpace(words.TrimPrefixFold(s, "also "))
		}
		out = append(out, s)
	}
	return out
}

// commandAfterAnd finds " and " followed by a command verb in s and
// returns the offset of "and", or -1.
func commandAfterAnd(s string) int {
	lc := words.ASCIILower(s)
	for off := 0; ; {
		i := strings.Index(lc[off:], " and ")
		if i < 0 {
			return -1
		}
		i += off + 1
		if rest := strings.TrimPrefix(lc[i+4:], "also "); startsWithCommand(rest) {
			return i
		}
		off = i + 4
	}
}

// commandVerbs start a request clause.
var commandVerbs = []string{
	"add", "put", "remind", "schedule", "book", "email", "e-mail", "send", "set", "make", "create", "cancel",
	"delete", "remove", "move", "reschedule", "write", "draft", "take", "tell", "reply", "invite", "mark",
	"note", "jot", "block", "forget", "update", "change", "complete", "finish", "remember", "let",
}

// startsWithCommand reports whether a lower-cased clause starts with a
// command verb, after politeness ("please", "can you").
func startsWithCommand(lc string) bool {
	lc = words.StripPoliteness(lc)
	w, _, _ := strings.Cut(lc, " ")
	return slices.Contains(commandVerbs, w)
}

// clauseCue lists the words that make a clause belong to a domain. A
// clause with several cues belongs to the domain with the most.
var clauseCues = map[nlu.Domain][]string{
	nlu.Task:     {"remind", "reminder", "task", "tasks", "to-do", "todo", "to do", "alarm", "done", "complete", "finished", "don't let me forget"},
	nlu.Calendar: {"calendar", "schedule", "appointment", "meeting", "event", "dinner", "lunch", "breakfast", "party", "invite", "book", "reschedule", "agenda"},
	nlu.Email:    {"email", "e-mail", "mail", "write to", "tell", "message", "draft", "let"},
	nlu.Keep:     {"list", "note to self", "make a note", "take a note", "jot", "write down", "note:", "groceries"},
	nlu.Memory:   {"remember", "forget that", "keep in mind", "fyi", "note that", "birthday", "anniversary"},
}

// clauseDomain says which domain a clause belongs to, among the ones the
// classifier named: the domain with the most cues; a clause that states
// something rather than asking for something ("I just closed on my
// house") is memory's. It reports false when no named domain fits.
func clauseDomain(cl string, named []nlu.Domain) (nlu.Domain, bool) {
	lc := words.ASCIILower(cl)
	best, bestN := nlu.Domain(""), 0
	for _, d := range named {
		n := 0
		for _, cue := range clauseCues[d] {
			if words.ContainsWord(lc, cue) {
				n++
			}
		}
		if n > bestN {
			best, bestN = d, n
		}
	}
	if bestN > 0 {
		return best, true
	}
	if slices.Contains(named, nlu.Memory) && !startsWithCommand(lc) && !strings.HasSuffix(strings.TrimSpace(cl), "?") {
		return nlu.Memory, true
	}
	return "", false
}

// ownText returns the part of the message that is domain d's, the
// clauses joined with ". ", and whether the planner has the whole
// message to itself (one named domain, or one clause). With several
// domains and several clauses, a clause nobody claims goes to the first
// named domain, so nothing the user said is silently dropped.
func ownText(in stage.PlanInput, d nlu.Domain) (text string, whole bool) {
	named := in.Understanding.Domains
	if len(named) <= 1 {
		return in.Text, true
	}
	cls := splitClauses(in.Text)
	if len(cls) <= 1 {
		return in.Text, true
	}
	var mine []string
	for _, cl := range cls {
		got, ok := clauseDomain(cl, named)
		if !ok {
			got = named[0]
		}
		if got == d {
			mine = append(mine, cl)
		}
	}
	return strings.Join(mine, ". "), false
}

// ---- Text helpers ----------------------------------------------------

// ---- Matching --------------------------------------------------------

// ---- Time ------------------------------------------------------------

// whenOf returns the date or time that text names. The classifier's slot
// is used when the planner has the whole message; otherwise text (the
// planner's own clauses) is parsed, so a date in another clause is not
// taken. A bare time next to a day ("tomorrow from 2 to 3pm", which
// timex reads as two expressions) is moved onto that day.
func whenOf(in stage.PlanInput, text string, whole bool) *timex.Match {
	ref := stage.UserNow(in.Context)
	if in.Context.Now.IsZero() {
		// No reference instant: only the classifier's own reading is safe.
		return in.Understanding.Slots.When
	}
	ms := timex.Find(text, ref, timex.Options{})
	if whole && in.Understanding.Slots.When != nil && len(ms) < 2 {
		return in.Understanding.Slots.When
	}
	if len(ms) == 0 {
		return nil
	}
	best := ms[0]
	for _, m := range ms[1:] {
		if m.End-m.Start > best.End-best.Start {
			best = m
		}
	}
	if len(ms) == 2 {
		day, clockOf := ms[0], ms[1]
		if day.Grain < timex.Day {
			day, clockOf = clockOf, day
		}
		if day.Kind == timex.Value && day.Grain == timex.Day && clockOf.Grain < timex.Day {
			best = onDay(clockOf, day.Value)
		}
	}
	return &best
}

// onDay moves a time-of-day match onto the date of day, keeping its
// wall-clock times.
func onDay(m timex.Match, day time.Time) timex.Match {
	move := func(t time.Time) time.Time {
		if t.IsZero() {
			return t
		}
		return time.Date(day.Year(), day.Month(), day.Day(), t.Hour(), t.Minute(), t.Second(), 0, day.Location())
	}
	m.Value, m.From, m.To = move(m.Value), move(m.From), move(m.To)
	m.ClockOnly = false
	if !m.From.IsZero() && !m.To.IsZero() && !m.To.After(m.From) {
		if am := m.From.Add(-12 * time.Hour); m.From.Hour() >= 13 && am.Before(m.To) && !strings.Contains(strings.ToLower(m.Text), "pm") {
			// "on Tuesday between 8 and 12": a bare hour read after now
			// (8 pm) ends after the range's end on the day; 8 am is meant.
			m.From = am
			return m
		}
		m.To = m.To.AddDate(0, 0, 1)
	}
	return m
}

// ---- Questions -------------------------------------------------------

// maxOptions caps a Question's buttons: more than this is a list, not a
// choice, and the user should say more instead.
const maxOptions = 5
