package plan

import (
	"regexp"
	"slices"
	"strings"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// Lists: adding to a list, ticking items off, and whose list it is. A
// list the user calls "our" list, or the family's, is owned by their
// family (every member reads and changes it); "my" list is their own;
// "the" list is whichever they have, their own first.

// listScope is whose list the user means.
type listScope int

const (
	anyList listScope = iota
	myList
	familyList
)

// listScopeOf reads whose list a message names.
func listScopeOf(text string) listScope {
	lc := words.ASCIILower(text)
	switch {
	case strings.Contains(lc, " our ") || strings.HasPrefix(lc, "our ") || strings.Contains(lc, "family"):
		return familyList
	case strings.Contains(lc, " my ") || strings.HasPrefix(lc, "my "):
		return myList
	}
	return anyList
}

// findList is the note among notes whose title the list name matches
// ("shopping list" finds "Shopping", "groceries" finds "Groceries"),
// preferring the scope's owner: the family's list for "our", the user's
// own for "my" and "the". ok is false when none matches; a family list
// never stands for "my" list while the user has one of their own.
func findList(c stage.Context, list string, scope listScope) (hearth.Note, bool) {
	notes := c.Notes
	name := words.TrimWordsRight(words.TrimWordsLeft(list, "my", "the", "our", "family", "family's", "that", "this"), "list")
	if name == "" || strings.EqualFold(name, "list") {
		// "Take milk off the list": the list Hearth just spoke of, or
		// the only one there is.
		if n, ok := inReply(c, true); ok {
			return n, true
		}
		var lists []hearth.Note
		for _, n := range notes {
			if len(n.Items) > 0 && n.Family == (scope == familyList) {
				lists = append(lists, n)
			}
		}
		if len(lists) == 1 {
			return lists[0], true
		}
		return hearth.Note{}, false
	}
	var titles []string
	for _, n := range notes {
		titles = append(titles, n.Title)
	}
	hits := words.BestMatches(name, titles)
	if len(hits) == 0 {
		return hearth.Note{}, false
	}
	for _, h := range hits {
		if notes[h].Family == (scope == familyList) {
			return notes[h], true
		}
	}
	if scope == familyList {
		// "Our" list when only a personal one exists: a new family list.
		return hearth.Note{}, false
	}
	return notes[hits[0]], true
}

// planListAdd appends items to the list the user named, or starts it:
// the family's for "our" list.
func planListAdd(in stage.PlanInput, item, list string, scope listScope) (stage.Plan, error) {
	list = words.TrimWordsLeft(list, "my", "the", "our")
	whose := "your "
	if scope == familyList {
		whose = "the family "
		list = words.TrimWordsLeft(list, "family", "family's")
	}
	p := stage.Plan{Understood: "add something to " + whose + strings.ToLower(list)}
	items := splitItems(item)
	if len(items) == 0 {
		return p, needDetails("what to add to the %s", list)
	}
	p.Understood = "add " + item + " to " + whose + strings.ToLower(list)
	if n, ok := findList(in.Context, list, scope); ok {
		a, err := action.New(action.NoteAppend, action.NoteAppendArgs{ID: n.ID, Title: n.Title, Items: items})
		if err != nil {
			return plannedErr(p, err)
		}
		p.Actions = []action.Action{a}
		return p, nil
	}
	title := prose.UpperFirst(strings.ToLower(list))
	if !strings.Contains(strings.ToLower(title), "list") {
		title += " list"
	}
	a, err := action.New(action.NoteCreate, action.NoteCreateArgs{Title: title, Items: items, Family: scope == familyList})
	if err != nil {
		return plannedErr(p, err)
	}
	p.Actions = []action.Action{a}
	return p, nil
}

var (
	// "tick off milk on the shopping list", "check off eggs from our list".
	tickOffFirst = regexp.MustCompile(`^(?:cross|tick|check|strike|scratch|mark|take)\s+off\s+(.+?)\s+(?:on|from|in)\s+(.+)$`)
	// "cross milk off the shopping list", "remove eggs from the list",
	// "mark milk as done on the shopping list".
	tickOffAfter = regexp.MustCompile(`^(?:cross|tick|check|strike|scratch|mark|take|remove|delete)\s+(.+?)\s+(?:as\s+(?:done|bought|got|gotten|ticked)\s+)?(?:off|from|on|in)\s+(?:of\s+)?(.+)$`)
	// Taking items off a list rather than ticking them: "remove eggs from
	// the list", "take the milk off the shopping list". Someone who bought
	// it ticks it off; someone who says remove wants it gone.
	takesOff = regexp.MustCompile(`^(?:remove|delete|take)\b`)
	// "untick milk on the shopping list", "put milk back on the list".
	tickOn = regexp.MustCompile(`^(?:untick|uncheck|unmark)\s+(.+?)\s+(?:on|in|from)\s+(.+)$|^put\s+(.+?)\s+back\s+on\s+(.+)$`)
	// Ticking off without naming the list: "tick off milk", "cross the
	// eggs off", "mark milk as bought".
	tickOffBare = regexp.MustCompile(`^(?:cross|tick|check|strike|scratch)\s+off\s+(.+)$|^(?:cross|tick|check|strike|scratch)\s+(.+?)\s+off$|^mark\s+(.+?)\s+as\s+(?:bought|got|gotten|ticked|ticked off)$`)
)

// listRequest is text as the list patterns read it: lower case, without
// "please" and the closing punctuation.
func listRequest(text string) string {
	return strings.TrimRight(strings.TrimSpace(words.StripPoliteness(words.ASCIILower(text))), ".!?")
}

// listDelete reads "delete my shopping list", "get rid of the packing
// list": the list's name.
var listDelete = regexp.MustCompile(`^(?:delete|remove|get rid of|throw away|throw out|scrap|trash|bin)\s+(.*\blist)$`)

// planListDelete plans deleting the list the user named ("delete our
// shopping list": the family's, asked about first). ok is false when the
// message is not that.
func planListDelete(in stage.PlanInput, text string) (stage.Plan, bool, error) {
	lc := listRequest(text)
	m := listDelete.FindStringSubmatch(lc)
	if m == nil {
		return stage.Plan{}, false, nil
	}
	name := words.TidySlot(words.TrimWordsLeft(m[1], "my", "the", "our", "family", "family's"))
	p := stage.Plan{Understood: "delete the " + name}
	n, ok := findList(in.Context, m[1], listScopeOf(text))
	if !ok {
		return p, true, needDetails("which list: I couldn't find a %s", name)
	}
	p, err := planDelete(in, p, n)
	return p, true, err
}

// listClear reads "clear my shopping list", "empty the packing list":
// the list's name.
var listClear = regexp.MustCompile(`^(?:clear|clear out|empty|wipe|reset)\s+((?:my|the|our|family)\s+.*\blist)$`)

// planListClear plans ticking off everything still on the list the user
// named ("clear my shopping list"): the list stays, for next time, and
// undo puts the items back. ok is false when the message is not that.
func planListClear(in stage.PlanInput, text string) (stage.Plan, bool, error) {
	m := listClear.FindStringSubmatch(listRequest(text))
	if m == nil {
		return stage.Plan{}, false, nil
	}
	name := words.TidySlot(words.TrimWordsLeft(m[1], "my", "the", "our", "family", "family's"))
	p := stage.Plan{Understood: "clear the " + name}
	n, ok := findList(in.Context, m[1], listScopeOf(text))
	if !ok {
		return p, true, needDetails("which list: I couldn't find a %s", name)
	}
	var open []string
	for _, it := range n.Items {
		if !it.Done {
			open = append(open, it.Text)
		}
	}
	if len(open) == 0 {
		whose := "Your "
		if n.Family {
			whose = "The family "
		}
		p.Question = &stage.Question{Text: whose + prose.LowerFirst(markdown.Escape(n.Title)) + " is already all checked off."}
		return p, true, nil
	}
	a, err := action.New(action.NoteCheck, action.NoteCheckArgs{ID: n.ID, Title: n.Title, Items: open, Done: true})
	if err != nil {
		p, err = plannedErr(p, err)
		return p, true, err
	}
	p.Actions = []action.Action{a}
	return p, true, nil
}

// noteDelete reads "delete the note about the plumber", "remove my note
// on the trip", "delete the plumber note", "delete the note gift ideas":
// what the note is about, or called.
var noteDelete = regexp.MustCompile(`^(?:delete|remove|get rid of|throw away|throw out|scrap|trash|bin|erase)\s+(?:the|my|that)\s+notes?\s+(?:about|on|for|with|saying|that says)\s+(.+)$|^(?:delete|remove|get rid of|throw away|throw out|scrap|trash|bin|erase)\s+(?:the|my)\s+(.+?)\s+note$|^(?:delete|remove|get rid of|throw away|throw out|scrap|trash|bin|erase)\s+(?:the|my)\s+note\s+(?:called\s+|named\s+)?(.+)$`)

// noteAppend reads a request to add words to a note: "add to that note:
// bring the invoice", "add bring the invoice to the plumber note",
// "append to my note about the trip: book the ferry". The groups are the
// note's words ("" for "that note") and what to add, in either order.
var noteAppend = regexp.MustCompile(`^(?:add|append|put|write)\s+(?:this\s+)?(?:to|on|in|onto)\s+(?:that|the|this|my)\s+(?:(.+?)\s+)?note(?:\s+(?:about|on)\s+(.+?))?\s*(?::|,|-|\bthat\b|\bsaying\b)\s*(.+)$|^(?:add|append|put|write)\s+(.+?)\s+(?:to|on|in|onto)\s+(?:that|the|this|my)\s+(?:(.+?)\s+)?note(?:\s+(?:about|on)\s+(.+?))?$`)

// planNoteAppend adds words to the note the user names by what it says,
// or, as "that note", to the note Hearth's last reply was about. ok is
// false when the message is not that.
func planNoteAppend(in stage.PlanInput, text string) (stage.Plan, bool, error) {
	m := noteAppend.FindStringSubmatch(listRequest(text))
	if m == nil {
		return stage.Plan{}, false, nil
	}
	about, add := words.TidySlot(m[1]+" "+m[2]), m[3]
	if m[4] != "" {
		about, add = words.TidySlot(m[5]+" "+m[6]), m[4]
	}
	add = words.TidySlot(itemsAsWritten(text, add))
	p := stage.Plan{Understood: "add to a note"}
	if add == "" || IsPronoun(add) {
		return p, true, needDetails("what to add to the note")
	}
	var hits []hearth.Note
	if about == "" {
		if n, ok := inReply(in.Context, false); ok {
			hits = []hearth.Note{n}
		}
	} else {
		for _, n := range notesSaying(in.Context.Notes, about) {
			if len(n.Items) == 0 {
				hits = append(hits, n) // a note, not a list: lists take items
			}
		}
	}
	var labels []string
	var acts []action.Action
	for _, n := range hits {
		a, err := noteLine(n, add)
		if err != nil {
			p, err = plannedErr(p, err)
			return p, true, err
		}
		acts, labels = append(acts, a), append(labels, n.Name())
	}
	if len(acts) == 0 {
		if about == "" {
			return p, true, needDetails("which note to add it to")
		}
		return p, true, needDetails("which note: I couldn't find a note about %s", about)
	}
	p.Understood = "add to the note “" + markdown.Escape(labels[0]) + "”"
	return actOrAsk(p, "Which note should I add it to?", labels, acts), true, nil
}

// noteLine is the action that adds what was said to note n as a line of
// its own, written as a sentence.
func noteLine(n hearth.Note, said string) (action.Action, error) {
	return action.New(action.NoteAppend, action.NoteAppendArgs{ID: n.ID, Title: n.Title, Text: words.AsSentence(prose.UpperFirst(said))})
}

// notesSaying are the notes whose title and words hold every word of
// about ("the plumber" finds "The plumber comes Friday").
func notesSaying(notes []hearth.Note, about string) []hearth.Note {
	want := words.MatchWords(about)
	if len(want) == 0 {
		return nil
	}
	var out []hearth.Note
	for _, n := range notes {
		has := words.MatchWords(n.Title + " " + n.Body)
		if words.AllIn(want, has) {
			out = append(out, n)
		}
	}
	return out
}

// planNoteDelete plans deleting the note the user describes by what it
// says ("delete the note about the plumber"), asking which when several
// say it. ok is false when the message is not that.
func planNoteDelete(in stage.PlanInput, text string) (stage.Plan, bool, error) {
	m := noteDelete.FindStringSubmatch(listRequest(text))
	if m == nil {
		return stage.Plan{}, false, nil
	}
	about := words.TidySlot(m[1] + m[2] + m[3])
	p := stage.Plan{Understood: "delete the note about " + about}
	hits := notesSaying(in.Context.Notes, about)
	switch len(hits) {
	case 0:
		return p, true, needDetails("which note: I couldn't find a note about %s", about)
	case 1:
		p, err := planDelete(in, p, hits[0])
		return p, true, err
	}
	var labels []string
	var acts []action.Action
	for _, n := range hits {
		if n.Family && n.UserID != in.User.ID {
			continue // not theirs to delete
		}
		a, err := action.New(action.NoteDelete, action.NoteRefArgs{ID: n.ID, Title: n.Title, Family: n.Family})
		if err != nil {
			p, err = plannedErr(p, err)
			return p, true, err
		}
		acts, labels = append(acts, a), append(labels, n.Name())
	}
	if len(acts) == 0 {
		// Every one is another member's: that is the answer.
		p, err := planDelete(in, p, hits[0])
		return p, true, err
	}
	return actOrAsk(p, "Which note should I delete?", labels, acts), true, nil
}

// planDelete plans deleting n, the note or list the user named; the
// family's only by whoever started it.
func planDelete(in stage.PlanInput, p stage.Plan, n hearth.Note) (stage.Plan, error) {
	if n.Family && n.UserID != in.User.ID {
		// The family's list is deleted only by whoever started it (the
		// store holds to that): said so, rather than asked and refused.
		p.Question = &stage.Question{Text: "Only whoever started the family " + prose.LowerFirst(markdown.Escape(n.Title)) + " can delete it. I can still add to it or tick things off."}
		return p, nil
	}
	a, err := action.New(action.NoteDelete, action.NoteRefArgs{ID: n.ID, Title: n.Title, Family: n.Family})
	if err != nil {
		return plannedErr(p, err)
	}
	p.Actions = []action.Action{a}
	return p, nil
}

// TickOffItems reads a request to tick items off without naming the list
// ("tick off milk and eggs"): the items, as said.
func TickOffItems(text string) ([]string, bool) {
	lc := listRequest(text)
	m := tickOffBare.FindStringSubmatch(lc)
	if m == nil {
		if m = toldBought.FindStringSubmatch(lc); m == nil {
			return nil, false
		}
		m = []string{m[0], m[1], "", ""}
	}
	items := itemsSaid(words.TrimWordsLeft(m[1]+m[2]+m[3], "the", "my", "some"))
	return items, len(items) > 0
}

// itemsSaid are the items of a list of things said ("the milk and some
// eggs" → milk, eggs), without their articles.
func itemsSaid(said string) []string {
	var items []string
	for _, it := range splitItems(said) {
		if t := words.TrimWordsLeft(it.Text, "the", "my", "some", "a", "an"); t != "" {
			items = append(items, t)
		}
	}
	return items
}

// TakeOffItems reads a request to take items off without naming the list
// ("remove the bread", "take milk and eggs off"): the items, as said. Only
// items on a list make it one (OnLists): "delete the dentist" is not.
func TakeOffItems(text string) ([]string, bool) {
	m := takeOffBare.FindStringSubmatch(listRequest(text))
	if m == nil {
		return nil, false
	}
	items := itemsSaid(m[1] + m[2])
	return items, len(items) > 0
}

// "Take" only with "off": "take my pills" is no list's.
var takeOffBare = regexp.MustCompile(`^(?:remove|delete)\s+(.+)$|^take\s+(.+?)\s+off$`)

// toldBought reads a statement of things got that may be on a list: "I
// bought the milk", "we packed the socks and the charger".
var toldBought = regexp.MustCompile(`^(?:(?:i|we)\s+)?(?:just\s+|already\s+|finally\s+)?(?:bought|got|packed|picked up|grabbed)\s+(.+?)(?:\s+(?:already|today|just now))?$`)

// ToldBought reports whether text tells of things got ("I packed the
// socks", "got the eggs") rather than asking to tick them off: only items on a list make
// it a tick-off (OnLists); "I got the job" is no list's.
func ToldBought(text string) bool { return toldBought.MatchString(listRequest(text)) }

// OnLists reports whether every one of items is on one of notes' lists,
// not yet ticked off.
func OnLists(notes []hearth.Note, items []string) bool {
	return len(listsWith(notes, items, false)) > 0
}

// ListsHold reports whether every one of items is on one of notes' lists,
// ticked off or not: what can be taken off ("remove the eggs" after
// "tick off eggs").
func ListsHold(notes []hearth.Note, items []string) bool {
	return len(listsWith(notes, items, true)) > 0
}

// CompletesTask reports whether the task planner would complete one of
// tasks, the user's open tasks, for text ("tick off the report").
func CompletesTask(text string, tasks []hearth.Task) bool {
	kind, ref, ok := taskRefRequest(text)
	return ok && kind == action.TaskComplete && ref != "" && len(matchingOpenTasks(ref, tasks)) > 0
}

// listsWith are the lists on which each of items is, not yet ticked off,
// or, with ticked, in either state.
func listsWith(notes []hearth.Note, items []string, ticked bool) []hearth.Note {
	var out []hearth.Note
	for _, n := range notes {
		all := true
		for _, it := range items {
			_, ok := findItem(n.Items, it, true)
			if !ok && ticked {
				_, ok = findItem(n.Items, it, false)
			}
			if !ok {
				all = false
				break
			}
		}
		if all {
			out = append(out, n)
		}
	}
	return out
}

// planBareTickOff ticks items off the list that has them ("tick off
// milk"), or takes them off it (remove: "remove the bread"), asking which
// when several lists do.
func planBareTickOff(in stage.PlanInput, items []string, remove bool) (stage.Plan, error) {
	verb := "tick"
	if remove {
		verb = "take"
	}
	p := stage.Plan{Understood: verb + " " + prose.List(items) + " off a list"}
	lists := listsWith(in.Context.Notes, items, false)
	if len(lists) == 0 && remove {
		// Taken off after being ticked off ("tick off eggs", then
		// "remove the eggs"): the list that still holds it.
		lists = listsWith(in.Context.Notes, items, true)
	}
	if len(lists) == 0 {
		return p, needDetails("which list: %s isn't on any of your lists", prose.List(items))
	}
	var labels []string
	var acts []action.Action
	for _, n := range lists {
		var texts []string
		for _, it := range items {
			texts = append(texts, matchItem(n.Items, it, true, remove))
		}
		a, err := itemsOff(n, texts, true, remove)
		if err != nil {
			return plannedErr(p, err)
		}
		acts, labels = append(acts, a), append(labels, n.Title)
	}
	if len(acts) == 1 {
		p.Understood = verb + " " + prose.List(items) + " off " + lists[0].Title
		p.Actions = acts
		return p, nil
	}
	p.Question = askChoice("Which list should I "+verb+" "+prose.List(items)+" off?", labels, acts)
	return p, nil
}

// planListCheck plans ticking items off a named list ("cross milk off
// the shopping list") or back on ("untick milk on the shopping list"), or
// taking them off it ("remove eggs from the shopping list").
// ok is false when the message is not that.
func planListCheck(in stage.PlanInput, text string) (stage.Plan, bool, error) {
	lc := listRequest(text)
	done := true
	var itemText, list string
	if m := tickOn.FindStringSubmatch(lc); m != nil {
		done = false
		itemText, list = m[1]+m[3], m[2]+m[4]
	} else if m := tickOffFirst.FindStringSubmatch(lc); m != nil {
		itemText, list = m[1], m[2]
	} else if m := tickOffAfter.FindStringSubmatch(lc); m != nil {
		itemText, list = m[1], m[2]
	} else if items, ok := TickOffItems(text); ok {
		p, err := planBareTickOff(in, items, false)
		return p, true, err
	} else if items, ok := TakeOffItems(text); ok && ListsHold(in.Context.Notes, items) {
		p, err := planBareTickOff(in, items, true)
		return p, true, err
	} else {
		return stage.Plan{}, false, nil
	}
	l := words.ASCIILower(list)
	if !strings.Contains(l, "list") && !strings.Contains(l, "groceries") {
		return stage.Plan{}, false, nil
	}
	scope := listScopeOf(text)
	p := stage.Plan{Understood: "tick things off a list"}
	n, ok := findList(in.Context, list, scope)
	if !ok {
		name := words.TidySlot(words.TrimWordsLeft(list, "my", "the", "our"))
		p.Understood = "tick " + itemText + " off the " + name
		return p, true, needDetails("which list: I couldn't find a %s", name)
	}
	remove := done && takesOff.MatchString(lc) && !strings.Contains(lc, " as ")
	var texts []string
	for _, it := range splitItems(itemText) {
		texts = append(texts, matchItem(n.Items, it.Text, done, remove))
	}
	if slices.Contains([]string{"everything", "all", "it all", "all of it", "all items", "all the items", "everything on it"}, strings.TrimSpace(itemText)) {
		// "Remove everything from the shopping list": every item on it.
		texts = nil
		for _, it := range n.Items {
			if remove || it.Done != done {
				texts = append(texts, it.Text)
			}
		}
		if len(texts) == 0 {
			return p, true, needDetails("which items: I can't find anything on your %s to change", prose.LowerFirst(n.Title))
		}
	}
	if len(texts) == 0 {
		return stage.Plan{}, false, nil
	}
	p.Understood = "tick " + prose.List(texts) + " off " + n.Title
	if remove {
		p.Understood = "take " + prose.List(texts) + " off " + n.Title
	}
	a, err := itemsOff(n, texts, done, remove)
	if err != nil {
		p, err = plannedErr(p, err)
		return p, true, err
	}
	p.Actions = []action.Action{a}
	return p, true, nil
}

// matchItem is the text of the list item the user's words stand for
// ("the milk" → "Milk", "eggs" → "egg"), preferring items not yet in the
// wanted state (done), or, with either, taking one in it when none is (an
// item taken off may be ticked already); the words themselves when none
// matches.
func matchItem(items []hearth.ChecklistItem, said string, done, either bool) string {
	if text, ok := findItem(items, said, done); ok {
		return text
	}
	if text, ok := findItem(items, said, !done); ok && either {
		return text
	}
	return said
}

// itemsOff is the action that ticks texts of list n off (done) or back
// on, or, with remove, takes them off it.
func itemsOff(n hearth.Note, texts []string, done, remove bool) (action.Action, error) {
	if remove {
		return action.New(action.NoteRemove, action.NoteRemoveArgs{ID: n.ID, Title: n.Title, Items: texts})
	}
	return action.New(action.NoteCheck, action.NoteCheckArgs{ID: n.ID, Title: n.Title, Items: texts, Done: done})
}

// findItem is the text of the list item not yet in the wanted state
// (done) that the user's words stand for; ok is false when none is.
func findItem(items []hearth.ChecklistItem, said string, done bool) (string, bool) {
	var texts []string
	var idx []int
	for i, it := range items {
		if it.Done != done {
			texts = append(texts, it.Text)
			idx = append(idx, i)
		}
	}
	if hits := words.BestMatches(said, texts); len(hits) > 0 {
		return items[idx[hits[0]]].Text, true
	}
	return "", false
}
