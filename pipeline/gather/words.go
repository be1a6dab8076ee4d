package gather

import (
	"slices"
	"strings"

	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// The words of a message the context stage goes by: which of them a
// fact or a note could contain, and what kind of question they make.

// pastTense reports whether a question asks about the past ("what was",
// "where did we live", "who did I work with").
func pastTense(text string) bool {
	lc := words.ASCIILower(text)
	for _, w := range []string{"was", "were", "did", "used to", "had"} {
		if words.ContainsWord(lc, w) {
			return true
		}
	}
	return false
}

// aboutWriting reports whether a question asks what the user wrote or
// noted down.
func aboutWriting(text string) bool {
	for _, w := range strings.Fields(strings.ToLower(text)) {
		switch strings.Trim(w, "?!.,;:\"'“”‘’()") {
		case "write", "wrote", "written", "note", "notes", "noted", "jot", "jotted":
			return true
		}
	}
	return false
}

// noteKeywords keeps the content words of a message about notes: "find
// my note on the trip" → "trip". A note never contains "find" or
// "note", and the store wants every word of the query.
func noteKeywords(text string) string {
	var out []string
	for _, w := range strings.Fields(keywords(text)) {
		lw := strings.ToLower(strings.Trim(w, "?!.,;:\"'“”‘’()"))
		if lw == "" || questionWords[lw] || noteWords[lw] {
			continue
		}
		out = append(out, w)
	}
	return strings.Join(out, " ")
}

// noteWords are how people ask for a note, never what it is about.
var noteWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`note notes note's jotted jot wrote write written writing saved save kept keep
		find show open look looking search read pull up down see get give list lists have has had
		anything everything some all there here on in into down did say said put made make mine`) {
		m[w] = true
	}
	return m
}()

// keywords keeps the words of a question that can match a remembered
// fact: "What's my sister's name?" → "sister's name". Full-text search
// wants every word, and the fact never contains "what's".
func keywords(text string) string {
	var out []string
	for _, w := range strings.Fields(text) {
		w = strings.Trim(w, "?!.,;:\"'“”‘’()")
		if w == "" || questionWords[strings.ToLower(w)] {
			continue
		}
		out = append(out, w)
	}
	if len(out) == 0 {
		return text
	}
	return strings.Join(out, " ")
}

var questionWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`what what's whats when when's where where's who who's whom whose which why how
		is are was were am be do does did can could would will should shall
		a an the my our your his her their its me i you we us it this that these those
		of to in on at for about from with by
		tell remind recall know remember please again any anything something have has
		forget delete remove erase drop
		write wrote written say said note notes noted jot jotted down`) {
		m[w] = true
	}
	return m
}()

// spanQuestion reports a question for what the calendar or the to-do list
// holds over a span ("what's on my calendar tomorrow?", "what do I have
// to do this week?"): the events and tasks answer it, and no fact or note
// could, its words being only the span's and those of asking for one.
// Any word of its own ("when is my haircut?", "what do I need for the
// party?") or a person named makes it a question memory may answer too.
func spanQuestion(u stage.Understanding, text string) bool {
	if u.Intent != nlu.AskInfo || len(u.Domains) == 0 || len(u.Slots.People) > 0 {
		return false
	}
	if slices.ContainsFunc(u.Domains, func(d nlu.Domain) bool { return d != nlu.Calendar && d != nlu.Task }) {
		return false
	}
	if w := u.Slots.When; w != nil && w.Start >= 0 && w.Start <= w.End && w.End <= len(text) {
		text = text[:w.Start] + " " + text[w.End:]
	}
	for _, w := range strings.Fields(strings.ToLower(text)) {
		w = strings.Trim(w, "?!.,;:\"'“”‘’()")
		if w != "" && !questionWords[w] && !spanWords[w] {
			return false
		}
	}
	return true
}

// spanWords ask what a stretch of time holds; none is a fact's.
var spanWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`calendar calendar's schedule agenda diary plans planned plan got
		doing done due todo to-do tasks task things thing events event appointments meetings reminders reminder
		coming up next happening going look looks looking like else left open pending busy free
		there there's all everything list day week weekend morning afternoon evening tonight today tomorrow`) {
		m[w] = true
	}
	return m
}()
