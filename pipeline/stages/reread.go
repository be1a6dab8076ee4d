package stages

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/nlu"
)

// The intent stage reads a message without the user's data; a few
// readings need it, and the runner rereads the understanding with it
// before the context stage:
//
//   - A statement of something done ("I paid the rent", "called mom",
//     "picked up the dry cleaning") completes the open task it names. The
//     classifier cannot tell that from news to remember ("I paid for
//     lunch"): only the user's open tasks can, and only when one matches
//     the statement well: every content word of the task's title is in
//     the statement, its verb in any tense.
//   - A request to move something moves an event when it names one of
//     the user's events, whatever the classifier took "the dentist" for.

// Completion rewrites the understanding of a statement of something done
// that names an open task of the user into a request to complete it (the
// task planner then marks it done). Anything else, and any statement no
// open task matches, is left as the intent stage understood it.
func (s Sources) Completion(ctx context.Context, u Understanding, text string, userID int64) (Understanding, error) {
	if u.Intent == nlu.RequestAction && slices.Equal(u.Domains, []nlu.Domain{nlu.Task}) {
		return u, nil // the task planner looks itself
	}
	if _, ok := doneStatement(text); !ok || s.Tasks == nil {
		return u, nil
	}
	tasks, err := s.Tasks.FindTasks(ctx, hearth.TaskFilter{UserID: userID, Status: hearth.TaskOpen, IncludeUndated: true, Limit: 100})
	if err != nil {
		return u, fmt.Errorf("context: open tasks: %w", err)
	}
	if len(completedTasks(text, tasks)) == 0 {
		return u, nil
	}
	u.Intent, u.Domains, u.RequiresAction = nlu.RequestAction, []nlu.Domain{nlu.Task}, true
	return u, nil
}

// doneStatement reports whether text says the user did something, and
// returns its content words with verbs in every form they may take in a
// task's title ("paid" → "paid", "pay"): "I paid the rent", "just called
// mom", "picked up the dry cleaning", "we finally booked the vet". A
// question, a negation ("I didn't call mom") or a present-tense sentence
// is not one.
func doneStatement(text string) ([][]string, bool) {
	t := strings.TrimSpace(text)
	if t == "" || strings.Contains(t, "?") || len(t) > 200 {
		return nil, false
	}
	fields := strings.Fields(strings.ToLower(t))
	i := 0
	for i < len(fields) && slices.Contains([]string{"i", "we", "just", "finally", "already", "also", "ok", "ok,", "okay", "okay,", "so", "well,", "hearth,"}, strings.Trim(fields[i], ".!,")) {
		i++
	}
	if i == len(fields) {
		return nil, false
	}
	if verb := strings.Trim(fields[i], ".!,"); notPast[verb] || len(baseForms(verb)) < 2 {
		return nil, false
	}
	var out [][]string
	for _, w := range matchWords(strings.Join(fields[i:], " ")) {
		out = append(out, baseForms(w))
	}
	return out, len(out) > 0
}

// completedTasks returns the open tasks the statement text names: those
// whose title's content words are all in it (a verb in any tense), the
// ones naming the most words first. Nil when text is no statement of
// something done.
func completedTasks(text string, tasks []hearth.Task) []hearth.Task {
	said, ok := doneStatement(text)
	if !ok {
		return nil
	}
	best := 0
	var out []hearth.Task
	for _, t := range tasks {
		if t.Status != hearth.TaskOpen && t.Status != "" {
			continue
		}
		words := matchWords(t.Title)
		if len(words) == 0 || !allSaid(words, said) {
			continue
		}
		switch {
		case len(words) > best:
			best, out = len(words), []hearth.Task{t}
		case len(words) == best:
			out = append(out, t)
		}
	}
	return out
}

// allSaid reports whether every word is one of the forms said.
func allSaid(words []string, said [][]string) bool {
	for _, w := range words {
		if !slices.ContainsFunc(said, func(forms []string) bool { return slices.Contains(forms, w) }) {
			return false
		}
	}
	return true
}

// irregular maps the past tense of common irregular verbs of chores and
// errands to the verb.
var irregular = map[string]string{
	"paid": "pay", "bought": "buy", "sent": "send", "took": "take", "did": "do", "went": "go", "made": "make",
	"wrote": "write", "got": "get", "fed": "feed", "gave": "give", "brought": "bring", "found": "find",
	"rang": "ring", "met": "meet", "sold": "sell", "told": "tell", "left": "leave", "swept": "sweep",
	"hung": "hang", "ran": "run", "drove": "drive", "threw": "throw", "spoke": "speak", "put": "put",
	"cut": "cut", "read": "read", "washed": "wash", "renewed": "renew",
}

// notPast are words ending in "ed" that are no past tense ("I need to pay
// the rent" is a new task, not a done one).
var notPast = map[string]bool{
	"need": true, "needed": true, "feed": true, "seed": true, "speed": true, "bed": true, "shed": true, "red": true,
	"wed": true, "weed": true, "bleed": true, "breed": true, "proceed": true, "succeed": true, "exceed": true,
	"indeed": true, "used": true, "wanted": true, "supposed": true, "tried": true, "decided": true, "started": true,
}

// baseForms returns w and, for a past tense, the verbs it may be the past
// of: "paid" → pay; "called" → call; "changed" → change, chang;
// "submitted" → submit; "tidied" → tidy.
func baseForms(w string) []string {
	out := []string{w}
	if v, ok := irregular[w]; ok {
		return append(out, v)
	}
	if len(w) < 4 || !strings.HasSuffix(w, "ed") {
		return out
	}
	stem := w[:len(w)-2]
	switch {
	case strings.HasSuffix(w, "ied"):
		out = append(out, w[:len(w)-3]+"y")
	case len(stem) > 2 && stem[len(stem)-1] == stem[len(stem)-2] && strings.ContainsRune("bdgmnprt", rune(stem[len(stem)-1])):
		out = append(out, stem[:len(stem)-1])
	}
	return append(out, stem, w[:len(w)-1])
}

// moveVerbs start a request to move something.
var moveVerbs = []string{"move ", "reschedule ", "push ", "shift ", "postpone ", "bump ", "change the time of ", "bring forward "}

// EventMove rewrites the understanding of a request to move something
// ("move the dentist to Friday at 4", "reschedule my 10am tomorrow to
// 3pm") into a calendar request when it names one of the user's events of
// the coming month and the intent stage did not name the calendar. It
// leaves anything else as understood: "move the rent task to Friday"
// names no event.
func (s Sources) EventMove(ctx context.Context, u Understanding, text string, userID int64, now time.Time) (Understanding, error) {
	if slices.Contains(u.Domains, nlu.Calendar) || s.Calendar == nil || now.IsZero() {
		return u, nil
	}
	lc := stripPoliteness(asciiLower(strings.TrimSpace(text)))
	if !startsWithAny(lc, moveVerbs...) || strings.Contains(lc, "?") {
		return u, nil
	}
	from, to := wider(now, now, now)
	events, err := s.Calendar.FindEvents(ctx, hearth.CalendarEventFilter{UserID: userID, From: from, To: to, Limit: 100})
	if err != nil {
		return u, fmt.Errorf("context: events to move: %w", err)
	}
	in := PlanInput{Text: text, Understanding: u, Context: Context{Now: now, Location: now.Location(), Events: events}}
	ref, located, _, ok := moveRef(in, text)
	if !ok || len(matchEvents(ref, located, in.Context)) == 0 {
		return u, nil
	}
	u.Intent, u.Domains, u.RequiresAction = nlu.RequestAction, []nlu.Domain{nlu.Calendar}, true
	return u, nil
}
