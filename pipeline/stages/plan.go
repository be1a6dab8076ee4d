package stages

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/nlu/timex"
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
func Planners() map[nlu.Domain]Planner {
	return map[nlu.Domain]Planner{
		nlu.Memory:   PlannerFunc(planMemory),
		nlu.Task:     PlannerFunc(planTask),
		nlu.Calendar: PlannerFunc(planCalendar),
		nlu.Email:    PlannerFunc(planEmail),
		nlu.Keep:     PlannerFunc(planKeep),
	}
}

// errNeedDetails is wrapped by every planning error that means "I know
// what kind of thing you want but not enough of it": the runner then
// tells the user what it understood and asks them to rephrase.
var errNeedDetails = errors.New("need more details")

func needDetails(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errNeedDetails, fmt.Sprintf(format, args...))
}

// plannedErr turns the typed construction errors of action.New into one
// planning error; it exists so every planner reports them the same way.
func plannedErr(p Plan, err error) (Plan, error) {
	if err != nil {
		return Plan{Understood: p.Understood}, fmt.Errorf("plan: %w", err)
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
			s = strings.TrimSpace(trimPrefixFold(s, "also "))
		}
		out = append(out, s)
	}
	return out
}

// commandAfterAnd finds " and " followed by a command verb in s and
// returns the offset of "and", or -1.
func commandAfterAnd(s string) int {
	lc := asciiLower(s)
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
	lc = stripPoliteness(lc)
	w, _, _ := strings.Cut(lc, " ")
	return slices.Contains(commandVerbs, w)
}

// stripPoliteness drops leading "please", "can you", "could you", "hey".
func stripPoliteness(lc string) string {
	for {
		old := lc
		for _, p := range []string{"please ", "can you ", "could you ", "would you ", "will you ", "hey ", "hi ", "ok ", "okay ", "also ", "and "} {
			lc = strings.TrimPrefix(lc, p)
		}
		if lc == old {
			return lc
		}
	}
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
	lc := asciiLower(cl)
	best, bestN := nlu.Domain(""), 0
	for _, d := range named {
		n := 0
		for _, cue := range clauseCues[d] {
			if containsWord(lc, cue) {
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
func ownText(in PlanInput, d nlu.Domain) (text string, whole bool) {
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

// asciiLower lower-cases ASCII letters only, so byte offsets in the
// result are offsets in the original.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func isWordChar(c byte) bool {
	return c == '\'' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// wordAt finds t in s (both lower-case) where it starts a word, and
// ends one if t ends in a letter (a separator like ":" may follow a
// word directly).
func wordAt(s, t string) int {
	for off := 0; off <= len(s); {
		i := strings.Index(s[off:], t)
		if i < 0 {
			return -1
		}
		i += off
		end := i + len(t)
		startOK := i == 0 || !isWordChar(s[i-1]) || !isWordChar(t[0])
		endOK := end == len(s) || !isWordChar(t[len(t)-1]) || !isWordChar(s[end])
		if startOK && endOK {
			return i
		}
		off = i + 1
	}
	return -1
}

func containsWord(lc, t string) bool { return wordAt(lc, t) >= 0 }

// afterAny returns what follows the first trigger found (at a word
// start, case-insensitively) in s, keeping s's case.
func afterAny(s string, triggers ...string) (rest, trigger string, ok bool) {
	lc := asciiLower(s)
	best := -1
	for _, t := range triggers {
		if i := wordAt(lc, t); i >= 0 && (best < 0 || i < best || i == best && len(t) > len(trigger)) {
			best, trigger = i, t
		}
	}
	if best < 0 {
		return "", "", false
	}
	return strings.TrimSpace(s[best+len(trigger):]), trigger, true
}

// cutBefore returns s up to the first separator found at a word start,
// and what follows it.
func cutBefore(s string, seps ...string) (before, rest string, found bool) {
	before, rest, sep := cutSep(s, seps...)
	return before, rest, sep != ""
}

// cutSep is cutBefore that also says which separator it cut at.
func cutSep(s string, seps ...string) (before, rest, sep string) {
	lc := asciiLower(s)
	best := -1
	for _, p := range seps {
		if i := wordAt(lc, p); i >= 0 && (best < 0 || i < best) {
			best, sep = i, p
		}
	}
	if best < 0 {
		return s, "", ""
	}
	return strings.TrimSpace(s[:best]), strings.TrimSpace(s[best+len(sep):]), sep
}

func trimPrefixFold(s, p string) string {
	if len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) {
		return s[len(p):]
	}
	return s
}

// trimWordsLeft drops any of the given leading words, repeatedly.
func trimWordsLeft(s string, matchWords ...string) string {
	for {
		old := s
		for _, w := range matchWords {
			s = strings.TrimSpace(trimPrefixFold(s, w+" "))
		}
		if s == old {
			return s
		}
	}
}

// trimWordsRight drops any of the given trailing words, repeatedly.
func trimWordsRight(s string, matchWords ...string) string {
	for {
		old := s
		for _, w := range matchWords {
			if len(s) > len(w) && strings.EqualFold(s[len(s)-len(w)-1:], " "+w) {
				s = strings.TrimSpace(s[:len(s)-len(w)-1])
			}
		}
		if s == old {
			return s
		}
	}
}

// tidySlot trims spaces, quotes, trailing punctuation and politeness off a
// piece of a message.
func tidySlot(s string) string {
	for {
		old := s
		s = strings.TrimSpace(s)
		s = strings.Trim(s, "\"“”'‘’")
		s = strings.TrimRight(s, " .!?,;:…")
		s = strings.TrimLeft(s, " :,;-–—")
		s = trimWordsRight(s, "please", "pls", "thanks", "thank you", "for me")
		s = trimWordsLeft(s, "please", "that")
		if s == old {
			return s
		}
	}
}

// asSentence makes s a capitalised sentence ending in one full stop
// (or the user's own "!" or "?").
func asSentence(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimRight(s, " ,;:")
	if s == "" {
		return ""
	}
	s = prose.UpperFirst(s)
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "!") && !strings.HasSuffix(s, "?") {
		s += "."
	}
	return s
}

// firstWords returns at most n words of s.
func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		f = f[:n]
	}
	return strings.Join(f, " ")
}

// ---- Matching --------------------------------------------------------

// stopWords carry no meaning for matching a task, event, memory or note.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "my": true, "our": true, "your": true, "to": true, "for": true, "of": true,
	"on": true, "in": true, "at": true, "with": true, "and": true, "is": true, "are": true, "was": true, "it": true,
	"that": true, "this": true, "task": true, "tasks": true, "reminder": true, "i": true, "me": true, "about": true,
	"what": true, "when": true, "where": true, "who": true, "how": true, "do": true, "does": true, "did": true,
	"you": true, "know": true, "s": true, "please": true, "from": true, "list": true, "one": true, "as": true,
}

// matchWords returns the meaningful lower-case words of s, singular-ish
// ("groceries" → "grocery"), possessives dropped ("John's" → "john").
func matchWords(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’'
	}) {
		f = strings.TrimSuffix(strings.TrimSuffix(f, "'s"), "’s")
		f = strings.Trim(f, "'’")
		if f == "" || stopWords[f] {
			continue
		}
		out = append(out, stemWord(f))
	}
	return out
}

// stemWord folds the plural endings that matter for matching titles.
func stemWord(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		return w[:len(w)-1]
	}
	return w
}

// matchScore says how well a reference the user typed ("the report")
// names a candidate ("Finish the quarterly report"): the share of the
// reference's words found in the candidate, 1 when one contains the
// other outright.
func matchScore(ref, candidate string) float64 {
	r, c := strings.ToLower(strings.TrimSpace(ref)), strings.ToLower(strings.TrimSpace(candidate))
	if r == "" || c == "" {
		return 0
	}
	if r == c {
		return 2 // an exact title beats any partial one
	}
	rw, cw := matchWords(r), matchWords(c)
	if len(rw) == 0 {
		return 0
	}
	hit := 0
	for _, w := range rw {
		if slices.Contains(cw, w) {
			hit++
		}
	}
	score := float64(hit) / float64(len(rw))
	if score == 1 && len(cw) == len(rw) {
		return 1.5 // same words, different case or articles
	}
	return score
}

// bestMatches returns the indexes of the candidates that match ref
// best, if that is at least half of ref's words.
func bestMatches(ref string, candidates []string) []int {
	best := 0.0
	var out []int
	for i, c := range candidates {
		s := matchScore(ref, c)
		switch {
		case s < 0.5:
		case s > best:
			best, out = s, []int{i}
		case s == best:
			out = append(out, i)
		}
	}
	return out
}

// ---- Time ------------------------------------------------------------

// userZone is the user's zone for a turn.
func userZone(c Context) *time.Location {
	if c.Location != nil {
		return c.Location
	}
	if !c.Now.IsZero() {
		return c.Now.Location()
	}
	return time.UTC
}

// userNow is the turn's instant in the user's zone.
func userNow(c Context) time.Time { return c.Now.In(userZone(c)) }

// whenOf returns the date or time that text names. The classifier's slot
// is used when the planner has the whole message; otherwise text (the
// planner's own clauses) is parsed, so a date in another clause is not
// taken. A bare time next to a day ("tomorrow from 2 to 3pm", which
// timex reads as two expressions) is moved onto that day.
func whenOf(in PlanInput, text string, whole bool) *timex.Match {
	ref := userNow(in.Context)
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
		m.To = m.To.AddDate(0, 0, 1)
	}
	return m
}

// midnightIn is the start of t's date in zone z.
func midnightIn(t time.Time, z *time.Location) time.Time {
	t = t.In(z)
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, z)
}

// ---- Questions -------------------------------------------------------

// maxOptions caps a Question's buttons: more than this is a list, not a
// choice, and the user should say more instead.
const maxOptions = 5
