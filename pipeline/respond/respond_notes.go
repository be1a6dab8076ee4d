package respond

import (
	"slices"
	"strings"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// Answers about the user's notes, lists and email drafts.

func (r *TemplateResponder) answerNotes(in stage.RespondInput) string {
	notes := in.Context.Notes
	// "What did I write about the boiler?" may be about something said
	// as a fact ("note: the boiler code is 4471" is remembered, not a
	// Keep note): a matching memory answers when no note does.
	if len(notes) == 0 {
		if len(memoryHits(in)) > 0 {
			return r.answerMemory(in)
		}
		return "You don't have any notes or lists yet."
	}
	titles := make([]string, len(notes))
	for i, n := range notes {
		titles[i] = n.Title
	}
	q := strings.Join(words.MatchWords(in.Text), " ")
	if found := in.Context.NotesFound; found > 0 {
		// Found by what they say: the best title among them, else the
		// best match ("what did I write about the boiler?").
		titles = titles[:min(found, len(titles))]
	}
	hits := words.BestMatches(q, titles)
	if len(hits) == 0 {
		// The question may name only part of a title ("shopping").
		for i, t := range titles {
			for _, w := range words.MatchWords(in.Text) {
				if slices.Contains(words.MatchWords(t), w) {
					hits = append(hits, i)
					break
				}
			}
		}
	}
	if len(hits) == 0 && in.Context.NotesFound > 0 {
		hits = []int{0}
	}
	if len(hits) == 0 {
		if len(memoryHits(in)) > 0 {
			return r.answerMemory(in)
		}
		return "I couldn't find that. Your notes are: " + prose.List(markdown.EscapeAll(titles)) + "."
	}
	n := notes[hits[0]]
	if n.Title == "" {
		return "Your note says: " + markdown.Escape(n.Body)
	}
	name := ownedList(n.Title, n)
	if len(n.Items) > 0 {
		var todo []string
		for _, it := range n.Items {
			if !it.Done {
				todo = append(todo, markdown.Escape(it.Text))
			}
		}
		if len(todo) == 0 {
			return prose.UpperFirst(name) + " is all checked off."
		}
		return prose.UpperFirst(name) + " has " + prose.List(todo) + "."
	}
	if n.Body != "" {
		return prose.UpperFirst(name) + " says: " + markdown.Escape(n.Body)
	}
	return prose.UpperFirst(name) + " is empty."
}

func (r *TemplateResponder) answerEmail(in stage.RespondInput) string {
	var drafts []string
	for _, e := range in.Context.Drafts {
		if e.Status == hearth.EmailDraft || e.Status == "" {
			drafts = append(drafts, "to "+prose.List(markdown.EscapeAll(e.To))+" — "+quoted(e.Subject))
		}
	}
	if len(drafts) == 0 {
		return "No drafts waiting for you."
	}
	return "You have " + countOf(len(drafts), "draft", "drafts") + ": " + prose.List(drafts) + "."
}
