package respond

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/memory"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
	"github.com/hearthbot/hearth/scheduler/recur"
)

// ---- Answering from memory ---------------------------------------------

// answerMemory answers from the memories that share the most words with
// the question ("When is John's birthday?" finds "John's birthday is
// March 15th").
func (r *TemplateResponder) answerMemory(in stage.RespondInput) string {
	if s, ok := answerAge(in); ok {
		return s
	}
	if s, ok := answerBirthdays(in); ok {
		return s
	}
	hits := memoryHits(in)
	if len(hits) == 0 {
		if s := relatedAnswer(in.Context); s != "" {
			return s // found by meaning among relationships and their notes
		}
		if in.Context.NotesFound > 0 {
			// Asked as a fact, written as a note.
			return r.answerNotes(in)
		}
		if reMyName.MatchString(words.ASCIILower(strings.TrimSpace(in.Text))) && in.User.DisplayName != "" {
			// Not told as a fact, but known: the name they signed in with.
			return "You're " + markdown.Escape(in.User.DisplayName) + " — that's the name I know you by. Say “call me …” if you'd like another."
		}
		return r.noMemory(in)
	}
	var out []string
	for _, m := range hits {
		out = append(out, markdown.Escape(words.AsSentence(prose.SecondPerson(m.Content))))
	}
	if len(out) == 1 {
		if _, ok := nlu.WhenIs(in.Text); ok {
			// "When is our anniversary?" (and "how long until …?", asked
			// as it): how far off the next one is.
			if away, ok := yearlyAway(hits[0], in.Context); ok {
				return strings.TrimSuffix(out[0], ".") + " — " + away + "."
			}
		}
		return out[0]
	}
	return "Here's what I know: " + strings.Join(out, " ")
}

// yearlyAway says how far off the next birthday or anniversary a fact
// tells is: "today", "tomorrow", "in 12 days".
func yearlyAway(m hearth.Memory, c stage.Context) (string, bool) {
	d, ok := memory.ParseBirthday(m.Content, m.About)
	if !ok || c.Now.IsZero() {
		return "", false
	}
	today := recur.DateOf(c.Now, stage.UserZone(c))
	day, ok := today.NextYearly(time.Month(d.Month), d.Day)
	if !ok {
		return "", false
	}
	switch n := today.DaysUntil(day); n {
	case 0:
		return "that's today", true
	case 1:
		return "that's tomorrow", true
	default:
		return fmt.Sprintf("in %d days", n), true
	}
}

// memoryHits are the (at most 3) memories that share the most words with
// the question, none when no memory shares half of them.
func memoryHits(in stage.RespondInput) []hearth.Memory {
	text, kin, name := kinNamed(in.Text, in.Context.Entities)
	q := words.MatchWords(text)
	if len(q) == 0 || len(in.Context.Memories) == 0 {
		return nil
	}
	names := questionNames(text)
	if kin != "" && name == "" {
		// "When is my dad's birthday?" is not answered by "my dad is a
		// pilot", nor by "my mum's birthday …": "dad" names whom it asks
		// after.
		names = append(names, words.MatchWords(kin)...)
	}
	role := nlu.AsksRole(text) && len(names) > 0 // "what's his job?" names no one to ask after
	if role {
		// "What does Tom do (for a living)?" asks what Tom is or does:
		// "Tom is a pilot", not "Tom loves sailing".
		q = append(slices.Clone(names), roleWord)
	}
	self := len(names) == 0 && slices.Contains(strings.Fields(words.ASCIILower(in.Text)), "i")
	best := 0.0
	var hits []hearth.Memory
memories:
	for _, m := range in.Context.Memories {
		if self && !toldOfSelf(m.Content) {
			// "What am I allergic to?" is not answered by "Ben is
			// allergic to peanuts".
			continue
		}
		mw := words.MatchWords(m.About + " " + m.Content)
		if name != "" && strings.Contains(words.ASCIILower(m.Content), words.ASCIILower(kin)) {
			// "My sister's birthday is …" is Julia's.
			mw = append(mw, words.MatchWords(name)...)
		}
		if role && (nlu.TellsRole(m.Content) || slices.ContainsFunc(mw, func(w string) bool { return w == "job" || w == "occupation" || w == "profession" })) {
			mw = append(mw, roleWord)
		}
		// "When is Carla's birthday?" must not answer with John's: a
		// name in the question has to be in the memory.
		for _, n := range names {
			if !slices.Contains(mw, n) {
				continue memories
			}
		}
		n, said, other := 0, 0, 0
		for _, w := range q {
			named := slices.Contains(names, w)
			if !named {
				other++
			}
			if slices.Contains(mw, w) || fondness[w] && slices.ContainsFunc(mw, func(m string) bool { return fondness[m] }) {
				n++
				if !named {
					said++
				}
			}
		}
		if other > 0 && said == 0 {
			// "What is Mia allergic to?" is not answered by "Mia's
			// teacher is …": the name alone is not what was asked.
			continue
		}
		s := float64(n) / float64(len(q))
		switch {
		case s < 0.5 || n == 0:
		case s > best:
			best, hits = s, []hearth.Memory{m}
		case s == best:
			hits = append(hits, m)
		}
	}
	if len(hits) > 3 {
		hits = hits[:3]
	}
	return hits
}

// roleWord stands, among a question's words and a fact's, for what
// someone does for a living: no text has it.
const roleWord = "\x00role"

// kinNamed reads whom a question names by what they are to the user
// ("when is my sister's birthday?"): kin is those words ("my sister"),
// and, when the context holds the one person the user told Hearth is
// that, name is their name and text the question asked of them by it
// ("when is Julia's birthday?"); otherwise text is the question as
// asked.
func kinNamed(q string, es []hearth.Entity) (text, kin, name string) {
	phrase, rel, ok := memory.KinIn(q)
	if !ok {
		return q, "", ""
	}
	for _, e := range es {
		if !strings.EqualFold(e.Relation, rel) && !slices.ContainsFunc(e.Aliases, func(a string) bool { return strings.EqualFold(a, phrase) }) {
			continue
		}
		if name != "" {
			return q, phrase, "" // two of them: whose, the words alone say
		}
		name = e.Name
	}
	if name == "" {
		return q, phrase, ""
	}
	return strings.Replace(q, phrase, name, 1), phrase, name
}

// toldOfSelf reports a fact the user told of themselves, kept in their
// words: "I'm allergic to penicillin", "my car is a blue Golf"; "my son
// Leo is allergic to cats" tells of someone else.
func toldOfSelf(content string) bool {
	f := strings.Fields(strings.ReplaceAll(content, "’", "'"))
	switch {
	case len(f) == 0:
		return false
	case f[0] == "I" || strings.HasPrefix(f[0], "I'"):
		return true
	case strings.EqualFold(f[0], "my") && len(f) > 1:
		return !memory.RelationWord(strings.TrimSuffix(strings.Trim(f[1], ",."), "'s"))
	}
	return false
}

// fondness are the words of liking, one as good as another in a question
// ("what does Tom like?" is answered by "Tom loves jazz").
var fondness = map[string]bool{"like": true, "love": true, "enjoy": true, "prefer": true, "adore": true}

// questionNames are the capitalised words of a question other than its
// first, matched like matchWords: the names it asks about.
func questionNames(q string) []string {
	var out []string
	for i, f := range strings.Fields(q) {
		if i == 0 || f == "" || f[0] < 'A' || f[0] > 'Z' || f == "I" || strings.HasPrefix(f, "I'") {
			continue
		}
		out = append(out, words.MatchWords(f)...)
	}
	return out
}

func (r *TemplateResponder) noMemory(in stage.RespondInput) string {
	if ref, ok := nlu.WhenIs(in.Text); ok {
		// Nothing on the calendar or in the tasks by that name either
		// (gather.WhenIs looked).
		return "I don't see “" + markdown.Escape(ref) + "” on your calendar or in your tasks, and you haven't told me when it is."
	}
	return r.variant(in.Text, "mem-none",
		"I don't have anything about that yet. Tell me and I'll remember it.",
		"I don't know that one yet — tell me and I'll remember it.")
}
