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

// answerAbout lists everything Hearth knows about someone (the user when
// who is ""): the facts, grouped by topic, each with when it was told,
// then the memory graph around them (their relationships in their pair's
// words, and their live notes with their expiry).
func (r *TemplateResponder) answerAbout(in stage.RespondInput, who string) string {
	ms := in.Context.Memories
	graph := graphLines(in.Context)
	name := markdown.Escape(who)
	if e, ok := askedEntity(in.Context, who); ok {
		// "Who is my sister?" is answered about Anna, by her name.
		name = markdown.Escape(e.Name)
		if e.Relation != "" {
			name += " (your " + markdown.Escape(e.Relation) + ")"
		}
	}
	if len(ms) == 0 && len(graph) == 0 {
		if who == "" {
			return "You haven't told me anything to remember yet. Say “remember that …” and I will."
		}
		if name != markdown.Escape(who) {
			return "All I know is their name: " + name + ". Tell me more and I'll remember it."
		}
		return "I don't know anything about " + name + " yet. Tell me and I'll remember it."
	}
	z := stage.UserZone(in.Context)
	groups := map[hearth.MemoryCategory][]string{}
	for _, m := range ms {
		told := m.CreatedAt.In(z).Format("2 January")
		if m.CreatedAt.In(z).Year() != in.Context.Now.In(z).Year() {
			told = m.CreatedAt.In(z).Format("2 January 2006")
		}
		groups[m.Category] = append(groups[m.Category], "• "+markdown.Escape(words.AsSentence(prose.SecondPerson(m.Content)))+" (you told me on "+told+")")
	}
	head := "Here's what I know about " + name + ":"
	if who == "" {
		head = "Here's what you've told me:"
	}
	lines := []string{head}
	for _, c := range []struct {
		cat  hearth.MemoryCategory
		name string
	}{{hearth.MemoryPersonal, "Personal"}, {hearth.MemoryWork, "Work"}, {hearth.MemoryKnowledge, "Good to know"}} {
		if g := groups[c.cat]; len(g) > 0 {
			lines = append(lines, "", c.name+":")
			lines = append(lines, g...)
		}
	}
	return strings.Join(append(lines, graph...), "\n")
}

// askedEntity is the person or thing the context stage found for a
// question about who (by name, alias or relation: "Anna", "my sister").
func askedEntity(c stage.Context, who string) (hearth.Entity, bool) {
	for _, e := range c.Entities {
		if strings.EqualFold(e.Name, who) || e.Relation != "" && strings.EqualFold("my "+e.Relation, who) || slices.ContainsFunc(e.Aliases, func(a string) bool { return strings.EqualFold(a, who) }) {
			return e, true
		}
	}
	return hearth.Entity{}, false
}

// graphLines are the relationships and notes the context stage read
// around the people named: "Emma → Lily: friend (close, intimate-
// knowledge)", "Note: stressed about the move (until Mon 9 Mar)".
func graphLines(c stage.Context) []string {
	var rels, notes []string
	for _, r := range c.Relationships {
		line := "• " + markdown.Escape(r.FromName) + " → " + markdown.Escape(r.ToName) + ": "
		if r.Label != "" {
			line += markdown.Escape(r.Label) + " "
		}
		line += "(" + r.AttitudeWord() + ", " + r.ProximityWord()
		if r.State == hearth.RelationshipCandidate {
			line += ", not confirmed"
		}
		line += ")"
		if r.Description != "" {
			line += " — " + markdown.Escape(prose.LowerFirst(strings.TrimRight(r.Description, ".")))
		}
		rels = append(rels, line)
	}
	z := stage.UserZone(c)
	for _, n := range c.GraphNotes {
		until := "kept until you remove it"
		if !n.ExpiresAt.IsZero() {
			until = "until " + n.ExpiresAt.In(z).Format("Mon 2 Jan")
		}
		notes = append(notes, "• "+markdown.Escape(words.AsSentence(n.Body))+" ("+until+")")
	}
	var out []string
	if len(rels) > 0 {
		out = append(append(out, "", "Relationships:"), rels...)
	}
	if len(notes) > 0 {
		out = append(append(out, "", "Notes:"), notes...)
	}
	return out
}

// relatedAnswer answers a question from the relationships found by
// meaning ("who do I know who is into climbing?"): each in its pair's
// words, with its description and live notes; "" when none was found.
func relatedAnswer(c stage.Context) string {
	if len(c.Related) == 0 && len(c.RelatedNotes) == 0 {
		return ""
	}
	lines := []string{"From what you've told me:"}
	for _, r := range c.Related {
		line := "• " + markdown.Escape(r.FromName) + " → " + markdown.Escape(r.ToName) + ": "
		if r.Label != "" {
			line += markdown.Escape(r.Label) + " "
		}
		line += "(" + r.AttitudeWord() + ", " + r.ProximityWord() + ")"
		var more []string
		if r.Description != "" {
			more = append(more, markdown.Escape(strings.TrimRight(r.Description, ".")))
		}
		for _, n := range r.Notes {
			more = append(more, markdown.Escape(strings.TrimRight(n.Body, ".")))
		}
		if len(more) > 0 {
			line += " — " + strings.Join(more, "; ")
		}
		lines = append(lines, line)
	}
	for _, n := range c.RelatedNotes {
		lines = append(lines, "• "+markdown.Escape(n.About)+": "+markdown.Escape(strings.TrimRight(n.Body, ".")))
	}
	return strings.Join(lines, "\n")
}

// likeWords mark a fact that says what someone likes or wants: what a
// present is chosen from.
var likeWords = []string{"like", "likes", "liked", "love", "loves", "loved", "enjoy", "enjoys", "into", "favourite",
	"favorite", "fan", "collects", "collect", "wants", "want", "wished", "wishes", "wish", "adores", "adore", "obsessed"}

// answerGift answers what to give someone with what Hearth knows they
// like, and says so when it knows nothing of the kind.
func answerGift(in stage.RespondInput, who string) string {
	var liked []string
	for _, m := range in.Context.Memories {
		lc := words.ASCIILower(m.Content)
		if slices.ContainsFunc(likeWords, func(w string) bool { return words.ContainsWord(lc, w) }) {
			liked = append(liked, markdown.Escape(words.AsSentence(prose.SecondPerson(m.Content))))
		}
	}
	name := who
	if rest, ok := strings.CutPrefix(strings.ToLower(who), "my "); ok {
		name = "your " + rest
	}
	name = markdown.Escape(name)
	switch len(liked) {
	case 0:
		return "I don't know what " + name + " likes yet. Tell me (“remember that " + name + " loves jazz”) and I'll have ideas next time."
	case 1:
		return "From what you've told me: " + liked[0]
	}
	return "From what you've told me:\n• " + strings.Join(liked, "\n• ")
}
