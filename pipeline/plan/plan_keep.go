package plan

import (
	"context"
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

// planKeep plans notes and lists: "add milk and eggs to my shopping
// list" appends to the matching note in Context.Notes (note.append) or
// starts the list (note.create with items); "our shopping list" is the
// family's (see plan_list.go), "cross milk off the shopping list"
// ticks items off (note.check) and "delete my packing list" deletes it
// (note.delete); "make a note: …" and "note to self …"
// create a note with that text. Questions ("what's on my
// shopping list?") plan nothing: the responder answers from
// Context.Notes.
func planKeep(_ context.Context, in stage.PlanInput) (stage.Plan, error) {
	text, whole := ownText(in, nlu.Keep)
	if strings.TrimSpace(text) == "" {
		return stage.Plan{}, nil
	}
	if in.Understanding.Intent != nlu.RequestAction {
		return stage.Plan{Understood: "look at your notes"}, nil
	}
	if lc := words.StripPoliteness(words.ASCIILower(strings.TrimSpace(text))); words.StartsWithAny(lc, RenameVerbs...) {
		if !words.ContainsWord(lc, "list") && !words.ContainsWord(lc, "note") {
			return planRename(in, text) // a task or an event the model heard as a note
		}
		return planNoteRename(in, text)
	}
	if p, ok, err := planListCheck(in, text); ok {
		return p, err
	}
	if p, ok, err := planListDelete(in, text); ok {
		return p, err
	}
	if p, ok, err := planNoteDelete(in, text); ok {
		return p, err
	}
	if p, ok, err := planNoteAppend(in, text); ok {
		return p, err
	}
	if p, ok, err := planListClear(in, text); ok {
		return p, err
	}
	item, list := listItem(text)
	if item == "" && whole && in.Understanding.Slots.List != "" {
		item, list = in.Understanding.Slots.Note, in.Understanding.Slots.List
	}
	if list != "" {
		return planListAdd(in, item, list, listScopeOf(text))
	}
	if item, n, ok := NamedNote(text, in.Context.Notes); ok {
		// "Add a book for dad to my gift ideas": the note or list of
		// that title.
		return planNamedNoteAdd(in, item, n)
	}
	if item, ok := ranOut(text); ok {
		return planRanOut(in, item)
	}
	if item, ok := moreItems(text); ok {
		// "also add rye bread and lemons": to the list Hearth's last
		// reply was about.
		if n, ok := inReply(in.Context, true); ok {
			return planListAdd(in, item, n.Title, anyListOf(n))
		}
	}
	if m := newList.FindStringSubmatch(listRequest(text)); m != nil {
		// "start a packing list with socks and a charger".
		return planListAdd(in, itemsAsWritten(text, m[2]), m[1], listScopeOf(text))
	}
	if m := emptyList.FindStringSubmatch(listRequest(text)); m != nil {
		return planEmptyList(in, itemsAsWritten(text, m[1]), itemsAsWritten(text, m[2]))
	}
	if item, ok := BareAddItems(text); ok {
		return planBareAdd(in, item)
	}
	if m := titledNote.FindStringSubmatch(strings.TrimSpace(words.StripPoliteness(text))); m != nil {
		// "Create a note called gift ideas: a scarf for mom".
		title, body := prose.UpperFirst(words.TidySlot(m[1])), words.TidySlot(m[2])
		p := stage.Plan{Understood: "make a note called " + title}
		if body != "" {
			body = words.AsSentence(body)
		}
		a, err := action.New(action.NoteCreate, action.NoteCreateArgs{Title: title, Body: body})
		if err != nil {
			return plannedErr(p, err)
		}
		p.Actions = []action.Action{a}
		return p, nil
	}
	body := noteBody(text)
	if body == "" && whole {
		body = in.Understanding.Slots.Note
	}
	body = words.TidySlot(body)
	p := stage.Plan{Understood: "make a note"}
	if body == "" || IsPronoun(body) {
		return p, needDetails("what the note should say")
	}
	p.Understood = "make a note: " + body
	a, err := action.New(action.NoteCreate, action.NoteCreateArgs{Body: words.AsSentence(body)})
	if err != nil {
		return plannedErr(p, err)
	}
	p.Actions = []action.Action{a}
	return p, nil
}

// addsTo reads "add a book for dad to my gift ideas": what is added, and
// where to, named without the word "note" or "list".
var addsTo = regexp.MustCompile(`^(?:add|put|pop|stick)\s+(.+?)\s+(?:to|on|onto|in)\s+(?:(?:my|the|our)\s+)?(.+)$`)

// AddsTo reads a request to add something to a thing of the user's named
// by its title alone ("add a book for dad to my gift ideas" → "a book for
// dad", "gift ideas"; "add pancakes to recipes"). Only the user's own
// titles tell it apart from "add flowers to my cart": see NamedNote.
func AddsTo(text string) (item, dest string, ok bool) {
	m := addsTo.FindStringSubmatch(listRequest(text))
	if m == nil {
		return "", "", false
	}
	item, dest = words.TidySlot(itemsAsWritten(text, m[1])), words.TidySlot(m[2])
	return item, dest, item != "" && dest != ""
}

// NamedNote returns the note of notes that text adds an item to by the
// note's title ("… to my gift ideas" and a note called "Gift ideas"), and
// the item. ok is false when text is not such a request, or no title is
// the one it names.
func NamedNote(text string, notes []hearth.Note) (item string, n hearth.Note, ok bool) {
	item, dest, ok := AddsTo(text)
	if !ok {
		return "", hearth.Note{}, false
	}
	for _, n := range notes {
		// "… to my packing" is the list called "Packing list" too.
		if t := strings.TrimSpace(n.Title); strings.EqualFold(t, dest) || strings.EqualFold(t, dest+" list") {
			return item, n, true
		}
	}
	return "", hearth.Note{}, false
}

// planNamedNoteAdd adds item to n: on its list, when n is one, else as a
// line of the note.
func planNamedNoteAdd(in stage.PlanInput, item string, n hearth.Note) (stage.Plan, error) {
	if len(n.Items) > 0 {
		return planListAdd(in, item, n.Title, anyListOf(n))
	}
	p := stage.Plan{Understood: "add to the note “" + markdown.Escape(n.Name()) + "”"}
	a, err := noteLine(n, item)
	if err != nil {
		return plannedErr(p, err)
	}
	p.Actions = []action.Action{a}
	return p, nil
}

// listItem reads "add milk to my shopping list" → ("milk", "shopping
// list").
func listItem(text string) (item, list string) {
	if g := reAddToList.FindStringSubmatch(strings.TrimSpace(text)); g != nil {
		// "Add to my reading list: Dune".
		return words.TidySlot(g[2]), words.TidySlot(g[1])
	}
	rest, _, ok := words.AfterAny(text, "add ", "put ", "throw ", "stick ", "include ", "pop ", "i need ", "we need ", "we're out of ", "we are out of ")
	if !ok {
		return "", ""
	}
	it, l, sep := words.CutSep(rest, "to my ", "on my ", "onto my ", "in my ", "to the ", "on the ", "onto the ", "to our ", "on our ", "for the ", "to that ", "on that ", "to this ", "on this ")
	l = words.TidySlot(l)
	if sep == "" || !strings.Contains(strings.ToLower(l), "list") && !strings.Contains(strings.ToLower(l), "groceries") {
		return "", ""
	}
	return words.TidySlot(it), l
}

// reAddToList reads the list named before what goes on it: "add to my
// reading list: Dune", "put on the shopping list: eggs, milk".
var reAddToList = regexp.MustCompile(`(?i)^(?:please\s+)?(?:add|put)\s+(?:to|on|onto)\s+(?:my|the|our)\s+(.*?\blist)\s*:\s*(.+)$`)

// newList reads "start a packing list with socks", "make a shopping list:
// eggs, milk", "create a packing list for the trip: socks, a charger",
// "add a packing list with a passport": the list's name and its first
// items.
var newList = regexp.MustCompile(`^(?:start|make|create|begin|set up|add)\s+(?:a\s+new\s+|a\s+|an\s+|my\s+|our\s+|new\s+)?(.*?\blist)(?:\s+for\s+[^:]+?)?\s*(?:with|:|of)\s+(.+)$`)

// emptyList reads a request to start a list with nothing on it yet:
// "start a packing list", "create a list called holiday".
var emptyList = regexp.MustCompile(`^(?:start|make|create|begin|set up|add)\s+(?:a\s+new\s+|a\s+|an\s+|my\s+|our\s+|new\s+)?(?:(.+?)\s+)?list(?:\s+(?:called|named|for)\s+([^:]+))?$`)

// planEmptyList starts the list the user named, empty, and asks what goes
// on it; the answer adds it ("socks and a charger" → "add socks and a
// charger to my packing list"). A list of that name already there is
// only asked about.
func planEmptyList(in stage.PlanInput, kind, called string) (stage.Plan, error) {
	title := words.TidySlot(kind) + " list"
	if called = words.TidySlot(called); called != "" {
		title = called
		if !words.ContainsWord(words.ASCIILower(called), "list") {
			title += " list"
		}
	}
	title = prose.UpperFirst(strings.TrimSpace(title))
	p := stage.Plan{Understood: "start a " + prose.LowerFirst(title)}
	name := markdown.Escape(prose.LowerFirst(title))
	q := &stage.Question{Text: "I started your " + name + ". What should go on it?",
		Fill: &stage.Fill{Want: stage.FillRequest, Request: "add", Tail: "to my " + prose.LowerFirst(title)}}
	for _, n := range in.Context.Notes {
		if strings.EqualFold(n.Title, title) {
			q.Text = "You already have a " + name + ". What should go on it?"
			p.Question = q
			return p, nil
		}
	}
	a, err := action.New(action.NoteCreate, action.NoteCreateArgs{Title: title})
	if err != nil {
		return plannedErr(p, err)
	}
	p.Actions, p.Question = []action.Action{a}, q
	return p, nil
}

// bareAdd reads a request to add that names no list: "add eggs and milk".
var bareAdd = regexp.MustCompile(`^(?:add|put|pop|stick|throw in|include)\s+(.+)$`)

// BareAddItems reads a request to add things that names no list ("add
// eggs and milk", "add bread"): the items, as written. ok is false when
// the message says where ("add milk to the list", "add lunch on
// Friday"), or what it adds is more than a few words a list item has:
// then it is a task, an event or a note, not a list's.
func BareAddItems(text string) (string, bool) {
	m := bareAdd.FindStringSubmatch(listRequest(text))
	if m == nil {
		return "", false
	}
	rest := words.TidySlot(words.TrimWordsRight(m[1], "please"))
	for _, it := range splitItems(rest) {
		f := strings.Fields(words.ASCIILower(it.Text))
		if len(f) > 3 || slices.ContainsFunc(f, func(w string) bool { return notAnItem[w] }) {
			return "", false
		}
	}
	item := itemsAsWritten(text, rest)
	if item == "" || IsPronoun(item) {
		return "", false
	}
	return item, true
}

// notAnItem are words no list item has but a task, an event or a person
// does: "add me", "add lunch with Sam tomorrow", "add call mom".
var notAnItem = map[string]bool{
	"me": true, "him": true, "her": true, "them": true, "us": true, "to": true, "with": true, "at": true,
	"for": true, "by": true, "from": true, "onto": true, "today": true, "tomorrow": true, "tonight": true,
	"call": true, "email": true, "text": true, "meeting": true, "appointment": true, "reminder": true,
	"event": true, "task": true, "note": true, "list": true, "calendar": true, "monday": true, "tuesday": true,
	"wednesday": true, "thursday": true, "friday": true, "saturday": true, "sunday": true, "next": true,
	"every": true, "am": true, "pm": true,
}

// itemsAsWritten is lc (a lower-cased part of text) as text has it, case
// and all: "Oat milk" stays so.
func itemsAsWritten(text, lc string) string {
	if i := strings.Index(words.ASCIILower(text), lc); i >= 0 {
		return text[i : i+len(lc)]
	}
	return lc
}

// planBareAdd adds items to the list Hearth's last reply was about, or
// else to the one list the user has, asks which when they have several,
// and starts a shopping list when they have none.
func planBareAdd(in stage.PlanInput, item string) (stage.Plan, error) {
	if n, ok := inReply(in.Context, true); ok {
		// "Add eggs and milk" right after "I started your shopping
		// list": that one, whatever else the user has.
		return planListAdd(in, item, n.Title, anyListOf(n))
	}
	var lists []hearth.Note
	for _, n := range in.Context.Notes {
		if len(n.Items) > 0 {
			lists = append(lists, n)
		}
	}
	switch len(lists) {
	case 0:
		return planListAdd(in, item, "shopping list", myList)
	case 1:
		return planListAdd(in, item, lists[0].Title, anyListOf(lists[0]))
	}
	p := stage.Plan{Understood: "add " + item + " to a list"}
	items := splitItems(item)
	var labels []string
	var acts []action.Action
	for _, n := range lists {
		a, err := action.New(action.NoteAppend, action.NoteAppendArgs{ID: n.ID, Title: n.Title, Items: items})
		if err != nil {
			return plannedErr(p, err)
		}
		acts, labels = append(acts, a), append(labels, n.Title)
	}
	p.Question = askChoice("Which list should I add "+item+" to?", labels, acts)
	return p, nil
}

// titledNote reads a note named as it is made: "create a note called
// gift ideas: a scarf for mom", "make a new note titled Wifi".
var titledNote = regexp.MustCompile(`(?i)^(?:create|make|start|write|add|new)\s+(?:a\s+)?(?:new\s+)?note\s+(?:called|named|titled)\s+(.+?)(?:\s*[:—–]\s*(.+))?$`)

// noteBody reads "make a note: call the vet", "add a note saying call
// the landlord", "note to self buy a charger", "jot down …".
func noteBody(text string) string {
	if lc := words.StripPoliteness(words.ASCIILower(strings.TrimSpace(text))); words.StartsWithAny(lc, "note that ", "note down ") {
		// "Note that the bins go out on Tuesday night".
		rest, _, _ := words.AfterAny(text, "note that ", "note down ")
		return strings.TrimSpace(rest)
	}
	rest, _, ok := words.AfterAny(text, "note to self", "memo to self", "make a note", "take a note", "write a note", "save a note", "add a note", "create a note", "leave a note", "quick note", "jot down", "write down", "jot this down", "write this down", "note:")
	if !ok {
		return ""
	}
	rest = strings.TrimLeft(rest, ":,-–— ")
	return words.TrimWordsLeft(rest, "that", "about", "saying", "of", "to")
}

// splitItems cuts "eggs, bread and milk" into items.
func splitItems(s string) []hearth.ChecklistItem {
	s = strings.ReplaceAll(s, " & ", ",")
	var out []hearth.ChecklistItem
	for _, part := range strings.Split(s, ",") {
		for _, it := range strings.Split(part, " and ") {
			it = words.TidySlot(words.TrimWordsLeft(strings.TrimSpace(it), "and", "some", "a", "an"))
			if it != "" && !IsPronoun(it) {
				out = append(out, hearth.ChecklistItem{Text: it})
			}
		}
	}
	return out
}

// moreItems reads a request to add more without naming where ("also add
// rye bread and lemons", "add eggs too", "add a toothbrush to it", "and
// bread") and returns what to add.
func moreItems(text string) (string, bool) {
	lc := words.ASCIILower(strings.TrimSpace(text)) // politeness would take "also" too
	head := words.StripPoliteness(words.TrimWordsLeft(lc, "and", "oh", "also", "plus", "please"))
	verbs := []string{"add ", "put ", "throw in ", "include ", "stick ", "pop "}
	if !words.StartsWithAny(head, verbs...) {
		// "And bread", "oh and butter", "cheese too": the items alone.
		item := words.TidySlot(words.TrimWordsRight(head, "too", "as well"))
		if head == words.TidySlot(lc) && item == words.TidySlot(head) {
			return "", false
		}
		return BareAddItems("add " + itemsAsWritten(text, item))
	}
	rest, _, _ := words.AfterAny(head, verbs...)
	rest = words.TidySlot(rest)
	item := words.TrimWordsRight(rest, "too", "as well", "also", "to it", "on it", "onto it")
	if head == lc && item == rest || item == "" || IsPronoun(item) {
		return "", false // no "also", "too" or "as well": not more of the same
	}
	return itemsAsWritten(text, item), true
}

// inReply is the note Hearth's last reply was about, by its name (a
// title, or a note's first words): with list, a list (a note with items,
// what "also add …" adds to), else a plain note ("add to that note: …").
func inReply(c stage.Context, list bool) (hearth.Note, bool) {
	for i := len(c.Recent) - 1; i >= 0; i-- {
		m := c.Recent[i]
		if m.From != hearth.FromBot {
			continue
		}
		said := strings.ToLower(markdown.Plain(m.Text))
		for _, n := range c.Notes {
			name := strings.ToLower(strings.TrimSuffix(n.Name(), "…"))
			// A list just started has no items yet; its title says it
			// is one ("I started your shopping list").
			isList := len(n.Items) > 0 || strings.HasSuffix(name, " list")
			if isList == list && (n.Title != "" || !list) && name != "" && strings.Contains(said, name) {
				return n, true
			}
		}
		return hearth.Note{}, false
	}
	return hearth.Note{}, false
}

// ListInReply is the list Hearth's last reply was about, by its name:
// what "what's on it?" asks of.
func ListInReply(c stage.Context) (hearth.Note, bool) {
	return inReply(c, true)
}

// anyListOf is the scope that finds n again by its title: the family's
// for a family list.
func anyListOf(n hearth.Note) listScope {
	if n.Family {
		return familyList
	}
	return myList
}

// reRanOut reads a household running out of something: "we're out of
// coffee", "we ran out of milk and eggs", "we're running low on soap",
// "I'm out of coffee", "we need more eggs".
var reRanOut = regexp.MustCompile(`(?i)^(?:(?:we're|we’re|we are|we've|we’ve|we have|we|i'm|i’m|i am|i've|i’ve|i have|i)\s+(?:all\s+|almost\s+|nearly\s+)?(?:out of|ran out of|run out of|running out of|running low on|low on)|we need(?:\s+more|\s+some)?)\s+(.+)$`)

// ranOut returns what the household ran out of, when it reads as list
// items ("coffee", not "the house" or "time").
func ranOut(text string) (string, bool) {
	m := reRanOut.FindStringSubmatch(strings.TrimSpace(words.StripPoliteness(text)))
	if m == nil {
		return "", false
	}
	rest := words.TidySlot(words.TrimWordsRight(m[1], "again", "already", "now"))
	if lc := words.ASCIILower(rest); strings.HasPrefix(lc, "the ") || lc == "time" || lc == "it" {
		return "", false
	}
	return BareAddItems("add " + rest)
}

// planRanOut offers to put what ran out on the shopping list (the
// user's list of that name, or one started for it): a question with one
// button, since the user said what happened, not what to do.
func planRanOut(in stage.PlanInput, item string) (stage.Plan, error) {
	list := "shopping list"
	for _, n := range in.Context.Notes {
		if len(n.Items) > 0 && !n.Family && n.ForShopping() {
			list = n.Title
			break
		}
	}
	p, err := planListAdd(in, item, list, myList)
	if err != nil || p.Question != nil || len(p.Actions) == 0 {
		return p, err
	}
	name := strings.ToLower(list)
	if !strings.Contains(name, "list") && !strings.Contains(name, "groceries") {
		name += " list"
	}
	p.Question = askChoice("Shall I add "+markdown.Escape(item)+" to your "+markdown.Escape(name)+"?", []string{"Add " + item}, p.Actions[:1])
	p.Actions = nil
	return p, nil
}

// planNoteRename plans giving the note or list the user names a new
// title ("rename the packing list to Rome trip", "rename the gift ideas
// note to Christmas"): note.rename, undone by "undo"; a family list's,
// which every member sees renamed, is asked about first.
func planNoteRename(in stage.PlanInput, text string) (stage.Plan, error) {
	p := stage.Plan{Understood: "rename a note or list"}
	ref, title, ok := renameParts(text)
	if !ok {
		return p, needDetails("the new name")
	}
	ref = words.TidySlot(words.TrimWordsRight(ref, "note"))
	n, ok := findList(in.Context, ref, listScopeOf(text))
	if !ok {
		return p, needDetails("which note or list: I couldn't find a %s", words.TrimWordsLeft(ref, "my", "the", "our"))
	}
	p.Understood = "rename " + prose.LowerFirst(markdown.Escape(n.Title)) + " to “" + markdown.Escape(title) + "”"
	a, err := action.New(action.NoteRename, action.NoteRenameArgs{ID: n.ID, Title: n.Title, NewTitle: title, Family: n.Family})
	if err != nil {
		return plannedErr(p, err)
	}
	p.Actions = []action.Action{a}
	return p, nil
}
