package respond

import (
	"regexp"
	"slices"
	"strings"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// Answers about the user's notes, lists and email drafts, and how
// replies name a list and its items.

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
	if allNotes.MatchString(words.ASCIILower(strings.TrimSpace(in.Text))) {
		// "What notes do I have?": every one, by its title or its first words.
		return "You have " + countOf(len(notes), "note or list", "notes and lists") + ": " + noteNames(notes) + "."
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
	named := reNamedList.FindStringSubmatch(in.Text)
	if loc := reOnList.FindStringSubmatchIndex(in.Text); loc != nil {
		// "Is the passport on the packing list?" names the list after
		// the item.
		named = reNamedList.FindStringSubmatch(in.Text[loc[5]:])
	}
	if len(hits) == 0 && shoppingQuestion(in.Text) {
		// "What do I need to buy?" asks for the shopping list, whatever
		// it is called; "the shopping list" named is not the packing
		// list that is the user's only one.
		if i, ok := shoppingList(notes); ok && (named == nil || notes[i].ForShopping()) {
			hits = []int{i}
		}
	}
	if len(hits) == 0 && (words.ContainsWord(words.ASCIILower(in.Text), "pack") || words.ContainsWord(words.ASCIILower(in.Text), "packed")) {
		// "What's left to pack?": the packing list, whatever else it is
		// called.
		if i := slices.IndexFunc(notes, func(n hearth.Note) bool {
			return len(n.Items) > 0 && strings.Contains(strings.ToLower(n.Title), "pack")
		}); i >= 0 {
			hits = []int{i}
		}
	}
	if g := named; len(hits) == 0 && g != nil && len(words.MatchWords(g[1])) > 0 {
		// "What's on the packing list?" when there is none: not the
		// shopping list instead.
		return "You don't have a " + markdown.Escape(strings.ToLower(g[1])) + " list. Your notes and lists: " + noteNames(notes) + "."
	}
	if len(hits) == 0 && words.ContainsWord(words.ASCIILower(in.Text), "list") {
		// "What's on the list?" names none: the list last changed (notes
		// come newest first).
		if i := slices.IndexFunc(notes, func(n hearth.Note) bool { return len(n.Items) > 0 }); i >= 0 {
			hits = []int{i}
		}
	}
	if len(hits) == 0 {
		if len(memoryHits(in)) > 0 {
			return r.answerMemory(in)
		}
		return "I couldn't find that. Your notes are: " + noteNames(notes) + "."
	}
	n := notes[hits[0]]
	if n.Title == "" {
		return "Your note says: " + markdown.Escape(n.Body)
	}
	name := ownedList(n.Title, n)
	if len(n.Items) > 0 {
		if !words.ContainsWord(words.ASCIILower(n.Title), "list") {
			name += " list" // "your groceries list has milk"
		}
		var todo []string
		for _, it := range n.Items {
			if !it.Done {
				todo = append(todo, markdown.Escape(it.Text))
			}
		}
		if g := reOnList.FindStringSubmatch(in.Text); g != nil {
			// "Is milk on the shopping list?"
			return onList(n, name, words.TrimWordsLeft(strings.ToLower(g[2]), "the", "some", "any"), strings.EqualFold(g[1], "are"), todo)
		}
		if len(todo) == 0 {
			return prose.UpperFirst(name) + " is all checked off."
		}
		if reHowMany.MatchString(in.Text) {
			return prose.UpperFirst(name) + " has " + countOf(len(todo), "thing", "things") + ": " + prose.List(todo) + "."
		}
		return prose.UpperFirst(name) + " has " + prose.List(todo) + "."
	}
	if t := words.ASCIILower(n.Title); n.Body != "" && !words.ContainsWord(t, "note") && !words.ContainsWord(t, "list") {
		name += " note" // "your gift ideas note says", not "your gift ideas says"
	}
	if n.Body != "" {
		return prose.UpperFirst(name) + " says: " + markdown.Escape(n.Body)
	}
	return prose.UpperFirst(name) + " is empty."
}

// reOnList reads a question whether something is on a list: "is milk on
// the shopping list?", "are eggs on my list?"; reHowMany one for how many
// things are.
var (
	reOnList  = regexp.MustCompile(`(?i)^\s*(is|are)\s+(.+?)\s+(?:on|in)\s+(?:the|my|our)\b`)
	reHowMany = regexp.MustCompile(`(?i)^\s*how\s+many\b`)
)

// onList answers whether item is on n (called name), ticked off or not,
// as asked ("are eggs …?": plural); todo is what is still on it.
func onList(n hearth.Note, name, item string, plural bool, todo []string) string {
	i := slices.IndexFunc(n.Items, func(it hearth.ChecklistItem) bool { return strings.EqualFold(it.Text, item) })
	thing, is, isnt := markdown.Escape(item), " is on ", " isn't on "
	if plural {
		is, isnt = " are on ", " aren't on "
	}
	switch {
	case i >= 0 && !n.Items[i].Done:
		return "Yes — " + thing + is + name + "."
	case i >= 0:
		return prose.UpperFirst(thing) + is + name + ", ticked off."
	case len(todo) == 0:
		return "No — " + thing + isnt + name + "."
	}
	return "No — " + thing + isnt + name + ". It has " + prose.List(todo) + "."
}

// reNamedList reads the list a question names: "the packing list",
// "my christmas list".
var reNamedList = regexp.MustCompile(`(?i)\b(?:the|my|our)\s+([\p{L}\d' -]+?)\s+list\b`)

// shoppingWords ask what there is to buy: "what do I need to buy?",
// "what groceries do we need?", "anything to pick up at the store?".
var shoppingWords = []string{"buy", "groceries", "grocery", "shop", "shopping", "store", "supermarket", "market", "pick up", "get at the", "get from the"}

func shoppingQuestion(text string) bool {
	lc := words.ASCIILower(text)
	return slices.ContainsFunc(shoppingWords, func(w string) bool { return words.ContainsWord(lc, w) })
}

// shoppingList is the index of the list things to buy are on: the one
// titled so ("Shopping list", "Groceries"), else the user's only list.
func shoppingList(notes []hearth.Note) (int, bool) {
	lists := 0
	only := -1
	for i, n := range notes {
		if n.ForShopping() {
			return i, true
		}
		if len(n.Items) > 0 {
			lists, only = lists+1, i
		}
	}
	return only, lists == 1
}

// allNotes reads a question for every note: "what notes do I have?",
// "show me my notes", "list my lists".
var allNotes = regexp.MustCompile(`^(?:what|which|show|show me|list|read|read me|tell me)\s+(?:are\s+)?(?:all\s+)?(?:of\s+)?(?:my\s+|the\s+)?(?:notes|lists|notes and lists)(?:\s+(?:do\s+i\s+have|have\s+i\s+got|are\s+there|have\s+i\s+made))?\s*[?.!]*$`)

// noteNames lists notes by their titles, else their first words, quoted.
func noteNames(notes []hearth.Note) string {
	names := make([]string, len(notes))
	for i, n := range notes {
		names[i] = markdown.Escape(n.Title)
		if n.Title == "" {
			names[i] = quoted(n.Name())
		}
	}
	return prose.List(names)
}

func (r *TemplateResponder) answerEmail(in stage.RespondInput) string {
	if nlu.SentQuestion(in.Text) {
		return answerSent(in)
	}
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

// appendedItems says what adding p's items did to the list, as the
// notes (hearth.AddItems) do it: items already on the list are not added
// again, ticked ones are put back on. The list as it was is the one the
// turn gathered (notes); not among them, every item reads as added.
func appendedItems(p action.NoteAppendArgs, list string, notes []hearth.Note) (past string, alone []string) {
	var before []hearth.ChecklistItem
	for _, n := range notes {
		if n.ID == p.ID {
			before = n.Items
		}
	}
	_, added, reopened, already := hearth.AddItems(before, p.Items)
	var did []string
	if len(added) > 0 {
		did = append(did, "added "+prose.List(itemTexts(added))+" to "+list)
	}
	if len(reopened) > 0 {
		on := list
		if len(did) > 0 {
			on = "it"
		}
		did = append(did, "put "+prose.List(itemTexts(reopened))+" back on "+on)
	}
	there := prose.List(itemTexts(already))
	if len(did) == 0 {
		verb := " is"
		if len(already) > 1 {
			verb = " are"
		}
		return "found " + there + " already on " + list, []string{prose.UpperFirst(there) + verb + " already on " + list + "."}
	}
	past = strings.Join(did, " and ")
	if len(already) > 0 {
		verb := " was"
		if len(already) > 1 {
			verb = " were"
		}
		past += " (" + there + verb + " already on it)"
	}
	return past, nil
}

// refList names the list an action's payload refers to (a note.delete's,
// whose note is gone by the time the reply is written; a note.rename's,
// by its old title).
func refList(p action.NoteRefArgs) string {
	if p.Family {
		return ownedList(p.Title, hearth.Note{Family: true})
	}
	return ownedList(p.Title, nil)
}

func ownedList(title string, result any) string {
	if title == "" {
		return "the note"
	}
	if n, ok := result.(hearth.Note); ok && n.Family {
		return "the family " + listName(title)
	}
	return "your " + listName(title)
}

func listName(title string) string {
	if title == "" {
		return "list"
	}
	return prose.LowerFirst(markdown.Escape(title))
}

// stillOn ends a reply about items ticked or taken off n with what is
// left to do on it.
func stillOn(n hearth.Note) string {
	var left []string
	for _, it := range n.Items {
		if !it.Done {
			left = append(left, markdown.Escape(it.Text))
		}
	}
	if len(left) == 0 {
		return " — that's everything on it."
	}
	return ". Still on it: " + prose.List(left) + "."
}

func itemTexts(items []hearth.ChecklistItem) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		out = append(out, markdown.Escape(it.Text))
	}
	return out
}

// answerSent answers a question about mail sent ("what emails have I
// sent?", "did Sam get my email?") from the mail sent (the context's
// Drafts, then), to whom the question names when it names someone it
// went to; mail kept in Hearth's outbox is said to have left nothing.
func answerSent(in stage.RespondInput) string {
	var sent []hearth.Email
	for _, e := range in.Context.Drafts {
		if e.Status == hearth.EmailSent {
			sent = append(sent, e)
		}
	}
	if names := questionNames(in.Text); len(names) > 0 {
		// "Did Sam get my email?": what went to Sam.
		sent = slices.DeleteFunc(sent, func(e hearth.Email) bool {
			return !slices.ContainsFunc(e.To, func(a string) bool {
				return slices.ContainsFunc(words.MatchWords(a), func(w string) bool { return slices.Contains(names, w) })
			})
		})
		if len(sent) == 0 {
			who := slices.Clone(names)
			for i, n := range who {
				who[i] = prose.UpperFirst(n)
			}
			return "I haven't sent any email to " + markdown.Escape(strings.Join(who, " ")) + "."
		}
	}
	if len(sent) == 0 {
		return "You haven't sent any email through me yet."
	}
	lines := make([]string, len(sent))
	for i, e := range sent {
		lines[i] = "to " + prose.List(markdown.EscapeAll(e.To)) + " — " + quoted(e.Subject) + ", " + stage.WhenPhrase(e.SentAt, false, in.Context)
		if e.Via == hearth.ViaOutbox {
			lines[i] += " (kept in Hearth's outbox: no mail service is connected, so it did not leave this machine)"
		}
	}
	return "You sent " + countOf(len(sent), "email", "emails") + ": " + prose.List(lines) + "."
}
