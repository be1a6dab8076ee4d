package plan

import (
	"regexp"
	"slices"
	"strings"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// Statements that something is done ("I paid the rent", "the passport
// one is done"): which open tasks they finish.

// DoneRef reads how a statement that a task is finished names it: "the
// passport one is done" → "passport", "I finished the slides" →
// "slides". ok is false for anything else.
func DoneRef(text string) (ref string, ok bool) {
	kind, ref, ok := taskRefRequest(text)
	return ref, ok && kind == action.TaskComplete && ref != ""
}

// HasOpenTask reports whether ref names one of tasks that is open.
func HasOpenTask(ref string, tasks []hearth.Task) bool {
	return len(matchingOpenTasks(ref, tasks)) > 0
}

// CompletedTasks returns the open tasks the statement text names: those
// whose title's content words are all in it (a verb in any tense), the
// ones naming the most words first. Nil when text is no statement of
// something done.
func CompletedTasks(text string, tasks []hearth.Task) []hearth.Task {
	said, ok := DoneStatement(text)
	if !ok {
		return nil
	}
	best := 0
	var out []hearth.Task
	for _, t := range tasks {
		if t.Status != hearth.TaskOpen && t.Status != "" {
			continue
		}
		words := words.MatchWords(t.Title)
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

// moveVerbs start a request to move something.
var MoveVerbs = []string{"move ", "reschedule ", "push ", "shift ", "postpone ", "bump ", "delay ", "change the time of ", "bring forward "}

// doneStatement reports whether text says the user did something, and
// returns its content words with verbs in every form they may take in a
// task's title ("paid" → "paid", "pay"): "I paid the rent", "just called
// mom", "picked up the dry cleaning", "we finally booked the vet". A
// question, a negation ("I didn't call mom") or a present-tense sentence
// is not one.
func DoneStatement(text string) ([][]string, bool) {
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
	if verb := strings.Trim(fields[i], ".!,"); NotPast[verb] || len(BaseForms(verb)) < 2 {
		return nil, false
	}
	var out [][]string
	for _, w := range words.MatchWords(strings.Join(fields[i:], " ")) {
		out = append(out, BaseForms(w))
	}
	return out, len(out) > 0
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

// notPast are words ending in "ed" that are no past tense ("I need to pay
// the rent" is a new task, not a done one).
var NotPast = map[string]bool{
	"need": true, "needed": true, "feed": true, "seed": true, "speed": true, "bed": true, "shed": true, "red": true,
	"wed": true, "weed": true, "bleed": true, "breed": true, "proceed": true, "succeed": true, "exceed": true,
	"indeed": true, "used": true, "wanted": true, "supposed": true, "tried": true, "decided": true, "started": true,
}

// baseForms returns w and, for a past tense, the verbs it may be the past
// of: "paid" → pay; "called" → call; "changed" → change, chang;
// "submitted" → submit; "tidied" → tidy.
func BaseForms(w string) []string {
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

// irregular maps the past tense of common irregular verbs of chores and
// errands to the verb.
var irregular = map[string]string{
	"paid": "pay", "bought": "buy", "sent": "send", "took": "take", "did": "do", "went": "go", "made": "make",
	"wrote": "write", "got": "get", "fed": "feed", "gave": "give", "brought": "bring", "found": "find",
	"rang": "ring", "met": "meet", "sold": "sell", "told": "tell", "left": "leave", "swept": "sweep",
	"hung": "hang", "ran": "run", "drove": "drive", "threw": "throw", "spoke": "speak", "put": "put",
	"cut": "cut", "read": "read", "washed": "wash", "renewed": "renew",
}

// reReopen reads a task finished by mistake, to be open again: "mark the
// report as not done", "untick the report", "reopen the passport task".
var reReopen = regexp.MustCompile(`(?i)^\s*(?:please\s+)?(?:(?:mark|set)\s+(.+?)\s+as\s+(?:not\s+(?:done|finished|complete|completed)|undone|incomplete|unfinished|open|to\s+do)|(?:untick|uncheck|unmark|reopen|re-open)\s+(.+?))\s*[.!]*\s*$`)

// ReopenRef reads how a request to open a finished task again names it
// ("mark the report as not done" → "report"); ok is false for anything
// else.
func ReopenRef(text string) (ref string, ok bool) {
	g := reReopen.FindStringSubmatch(text)
	if g == nil {
		return "", false
	}
	ref = taskRef(g[1] + g[2])
	return ref, ref != ""
}

// planReopen plans task.update opening again the finished task ref names
// (among the context's tasks, which hold the finished ones for it).
func planReopen(in stage.PlanInput, ref string) (stage.Plan, error) {
	p := stage.Plan{Understood: "open “" + markdown.Escape(ref) + "” again"}
	var done []hearth.Task
	for _, t := range in.Context.Tasks {
		if t.Status == hearth.TaskDone {
			done = append(done, t)
		}
	}
	titles := make([]string, len(done))
	for i, t := range done {
		titles[i] = t.Title
	}
	hits := words.BestMatches(ref, titles)
	if len(hits) == 0 {
		if n, ok := tickedOn(in.Context.Notes, ref); ok {
			// "Untick milk": ticked off a list, not a task.
			p, _, err := planListCheck(in, "untick "+ref+" on "+n.Title)
			return p, err
		}
		return p, needDetails("the task: I couldn't find a finished task matching “%s”", ref)
	}
	open := hearth.TaskOpen
	var labels []string
	var acts []action.Action
	for _, i := range hits {
		a, err := action.New(action.TaskUpdate, action.TaskUpdateArgs{ID: done[i].ID, Update: hearth.TaskUpdate{Status: &open}})
		if err != nil {
			return plannedErr(p, err)
		}
		acts = append(acts, a)
		labels = append(labels, done[i].Title)
	}
	return actOrAsk(p, "Which task should I open again?", labels, acts), nil
}

// tickedOn is the list among notes on which item is ticked off, when
// exactly one has it.
func tickedOn(notes []hearth.Note, item string) (hearth.Note, bool) {
	item = words.TrimWordsLeft(item, "the", "my", "our", "some")
	var on []hearth.Note
	for _, n := range notes {
		if n.Title != "" && slices.ContainsFunc(n.Items, func(it hearth.ChecklistItem) bool { return it.Done && strings.EqualFold(it.Text, item) }) {
			on = append(on, n)
		}
	}
	if len(on) != 1 {
		return hearth.Note{}, false
	}
	return on[0], true
}
