package main

import (
	"context"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/hearthbot/hearth"
)

// TestFamilyListScenario: a shopping list the family shares, through the
// web chat: both members add to it, read it and tick items off; someone
// outside the family sees nothing of it; the briefing shows what is left.
func TestFamilyListScenario(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	ada := newChatter(t, base, app, "Ada", "UTC")
	ben := newChatter(t, base, app, "Ben", "UTC")
	cyd := newChatter(t, base, app, "Cyd", "UTC")

	invite := ada.say("Start a family")
	code := regexp.MustCompile(`[A-Z2-9]{4}-[A-Z2-9]{4}`).FindString(invite.Text)
	if code == "" {
		t.Fatalf("no code in %q", invite.Text)
	}
	mustContain(t, ben.say("join family "+code), "welcome")

	mustContain(t, ada.say("Add milk and eggs to our shopping list"), "family shopping list", "milk and eggs")
	mustContain(t, ben.say("What's on the shopping list?"), "milk and eggs")
	mustContain(t, ben.say("add bread to our shopping list"), "added bread to the family shopping list")
	lists, err := app.Store.FindNotes(context.Background(), hearth.NoteFilter{UserID: ada.contact().User.ID})
	if err != nil || len(lists) != 1 || !lists[0].Family || len(lists[0].Items) != 3 {
		t.Fatalf("ada's notes %+v, %v; want one family list of three", lists, err)
	}

	// Outside the family: nothing to see, and no family list to add to.
	if r := cyd.say("What's on the shopping list?"); strings.Contains(r.Text, "milk") {
		t.Fatalf("a non-member sees the family list: %q", r.Text)
	}
	mustContain(t, cyd.say("add tea to our shopping list"), "aren't in a family")
	if got, _ := app.Store.FindNotes(context.Background(), hearth.NoteFilter{UserID: cyd.contact().User.ID}); len(got) != 0 {
		t.Fatalf("cyd has notes %+v", got)
	}

	mustContain(t, ada.say("cross milk off the shopping list"), "Ticked milk off the family shopping list", "Still on it: eggs and bread")
	mustContain(t, ben.say("what's on our shopping list?"), "eggs and bread")
	if r := ben.say("what's on our shopping list?"); strings.Contains(r.Text, "milk") {
		t.Fatalf("a ticked item is still listed: %q", r.Text)
	}
	briefing := ben.say("briefing now")
	mustContain(t, briefing, "Family lists", "Shopping list: eggs, bread")

	// Undo takes the tick back, for everyone.
	mustContain(t, ada.say("undo"), "Undone")
	mustContain(t, ben.say("what's on the shopping list?"), "milk")

	// All ticked off: the list leaves the briefing.
	ben.say("tick off milk, eggs and bread on the shopping list")
	if b := ada.say("briefing now"); strings.Contains(b.Text, "Family lists") {
		t.Fatalf("an empty list is in the briefing: %q", b.Text)
	}

	// Deleting it takes it from everyone: only whoever started it may,
	// and only once they approve; "undo" brings it back.
	mustContain(t, ben.say("delete our shopping list"), "Only whoever started the family shopping list can delete it")
	ask := ada.say("delete our shopping list")
	mustContain(t, ask, "Shall I delete the family shopping list? Everyone in your family would lose it")
	mustContain(t, ada.click(ask, "Approve"), "deleted the family shopping list")
	if r := ben.say("what's on our shopping list?"); strings.Contains(r.Text, "checked off") {
		t.Fatalf("a deleted list is still read: %q", r.Text)
	}
	mustContain(t, ada.say("undo"), "Undone")
	mustContain(t, ben.say("what's on our shopping list?"), "The family shopping list is all checked off")
}

// TestListKeepsOneOfEach: asking for something already on a list does
// not write it twice, and asking again for something ticked off puts it
// back on; the reply says which. "Tick off eggs" needs no list named.
func TestListKeepsOneOfEach(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	ada := newChatter(t, base, app, "Ada", "UTC")

	ada.say("Add milk to my shopping list")
	mustContain(t, ada.say("add milk to my shopping list"), "Milk is already on your shopping list.")
	mustContain(t, ada.say("Add Milk and eggs to my shopping list"), "added eggs to your shopping list (milk was already on it)")
	mustContain(t, ada.say("tick milk off my shopping list"), "Still on it: eggs")
	mustContain(t, ada.say("add milk and bread to my shopping list"), "added bread to your shopping list and put milk back on it")
	lists, err := app.Store.FindNotes(context.Background(), hearth.NoteFilter{UserID: ada.contact().User.ID})
	want := []hearth.ChecklistItem{{Text: "milk"}, {Text: "eggs"}, {Text: "bread"}}
	if err != nil || len(lists) != 1 || !reflect.DeepEqual(lists[0].Items, want) {
		t.Fatalf("ada's notes %+v, %v; want one list of %v", lists, err, want)
	}

	// Ticking off without naming the list: the list that has it, unless
	// an open task is meant.
	mustContain(t, ada.say("tick off eggs"), "Ticked eggs off your shopping list. Still on it: milk and bread.")
	ada.say("remind me to buy stamps")
	mustContain(t, ada.say("tick off stamps"), "marked “Buy stamps” as done")

	// Cleared: everything ticked off, and undo puts it back.
	mustContain(t, ada.say("clear my shopping list"), "Ticked milk and bread off your shopping list")
	mustContain(t, ada.say("clear my shopping list"), "Your shopping list is already all checked off.")
	ada.say("undo")
	mustContain(t, ada.say("what's on my shopping list?"), "milk and bread")
}

// TestAddNamingNoList: "add eggs" with no list named starts a shopping
// list, then goes to the one list there is, then asks which of two.
func TestAddNamingNoList(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	ada := newChatter(t, base, app, "Ada", "UTC")

	mustContain(t, ada.say("add eggs and milk"), "started a shopping list with eggs and milk")
	mustContain(t, ada.say("hi"), "Ada")
	mustContain(t, ada.say("add bread"), "added bread to your shopping list")
	mustContain(t, ada.say("start a packing list with socks"), "started a packing list with socks")
	// Right after, the list just started is meant; after anything else,
	// with two lists, Hearth asks.
	mustContain(t, ada.say("add sunscreen"), "added sunscreen to your packing list")
	mustContain(t, ada.say("hi"), "Ada")
	q := ada.say("add towels")
	if q.Text != "Which list should I add towels to?" || len(q.Buttons) != 2 {
		t.Fatalf("with two lists: %q %+v; want a question with a button for each", q.Text, q.Buttons)
	}
	mustContain(t, ada.click(q, "Packing list"), "towels")
	// Run out of something: offered for the shopping list, added on yes;
	// "the list" is then the one just spoken of.
	offer := ada.say("we're out of coffee")
	if offer.Text != "Shall I add coffee to your shopping list?" || len(offer.Buttons) != 1 {
		t.Fatalf("out of coffee: %q %+v; want one offer", offer.Text, offer.Buttons)
	}
	mustContain(t, ada.say("yes"), "coffee", "shopping list")
	mustContain(t, ada.say("cross coffee off the list"), "Ticked coffee off your shopping list")
	lists, err := app.Store.FindNotes(context.Background(), hearth.NoteFilter{UserID: ada.contact().User.ID})
	if err != nil || len(lists) != 2 {
		t.Fatalf("ada's notes %+v, %v; want two lists", lists, err)
	}
	got := map[string][]hearth.ChecklistItem{}
	for _, n := range lists {
		got[n.Title] = n.Items
	}
	want := map[string][]hearth.ChecklistItem{
		"Shopping list": {{Text: "eggs"}, {Text: "milk"}, {Text: "bread"}, {Text: "coffee", Done: true}},
		"Packing list":  {{Text: "socks"}, {Text: "sunscreen"}, {Text: "towels"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("lists %+v; want %+v", got, want)
	}
}

// TestListJustStarted: a list started empty takes what is added next, in
// whatever words ("add eggs and milk", "add socks to it"), though another
// list has items; "what's on it?" asks it.
func TestListJustStarted(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Ada", "UTC")
	mustContain(t, c.say("start a packing list"), "What should go on it?")
	mustContain(t, c.say("add passport and charger"), "added passport and charger to your packing list")
	mustContain(t, c.say("add sunscreen"), "added sunscreen to your packing list")
	mustContain(t, c.say("add socks to it"), "added socks to your packing list")
	mustContain(t, c.say("start a shopping list"), "What should go on it?")
	mustContain(t, c.say("add eggs and milk"), "added eggs and milk to your shopping list")
	mustContain(t, c.say("what's on it?"), "Your shopping list has eggs and milk.")
	mustContain(t, c.say("what's on the packing list?"), "passport, charger, sunscreen and socks")
	if n := c.count("SELECT count(*) FROM facts WHERE user_id = $1", c.contact().User.ID); n != 0 {
		t.Fatalf("%d facts; adding to lists keeps none", n)
	}
	if ts := c.tasks(); len(ts) != 0 {
		t.Fatalf("tasks %+v; adding to lists makes none", ts)
	}
}

// TestNotesByWhatTheySay: notes without titles are listed by their first
// words and deleted by what they say, with undo; a note that is not there
// is said so.
func TestNotesByWhatTheySay(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	ada := newChatter(t, base, app, "Ada", "UTC")

	ada.say("make a note: the plumber is coming Tuesday")
	ada.say("make a note: gate code 4471")
	mustContain(t, ada.say("what notes do I have?"), "You have 2 notes and lists:", "“The plumber is coming Tuesday”", "“Gate code 4471”")
	mustContain(t, ada.say("delete the note about the gate code"), "deleted the note")
	if r := ada.say("what notes do I have?"); strings.Contains(r.Text, "Gate code") {
		t.Fatalf("the deleted note is listed: %q", r.Text)
	}
	mustContain(t, ada.say("undo"), "Undone: the note “Gate code 4471” is back.")
	mustContain(t, ada.say("what notes do I have?"), "“Gate code 4471”")
	mustContain(t, ada.say("delete the note about the dentist"), "I couldn't find a note about the dentist.")

	// Added to, by "that note" after Hearth spoke of it, or by its words:
	// the same note, named by its first sentence still, never a new one.
	ada.say("what did I note about the plumber?")
	mustContain(t, ada.say("add to that note: bring the invoice"), "added “Bring the invoice” to the note “The plumber is coming Tuesday”")
	mustContain(t, ada.say("add call first to the plumber note"), "to the note “The plumber is coming Tuesday”")
	mustContain(t, ada.say("what did I note about the plumber?"), "The plumber is coming Tuesday.\nBring the invoice.\nCall first.")
	mustContain(t, ada.say("what notes do I have?"), "You have 2 notes and lists:")
	mustContain(t, ada.say("undo"), "Undone")
	if r := ada.say("what did I note about the plumber?"); strings.Contains(r.Text, "Call first") {
		t.Fatalf("undo left the addition: %q", r.Text)
	}

	// A list started empty asks what goes on it; what was packed is
	// ticked off it; a statement about anything else is no task.
	mustContain(t, ada.say("start a packing list"), "I started your packing list. What should go on it?")
	mustContain(t, ada.say("socks and a charger"), "packing list")
	mustContain(t, ada.say("I packed the socks"), "Ticked socks off your packing list", "Still on it: charger")
	mustContain(t, ada.say("what's on my packing list?"), "Your packing list has charger.")
	mustContain(t, ada.say("add a toothbrush to it"), "added toothbrush to your packing list")
	n := len(ada.tasks())
	ada.say("I packed the car")
	if got := len(ada.tasks()); got != n {
		t.Fatalf("a statement became a task: %d → %d", n, got)
	}

	// A note named as it is made is found by its name, asked as a fact.
	mustContain(t, ada.say("create a note called gift ideas: scarf for mom"), "scarf for mom")
	mustContain(t, ada.say("what are my gift ideas?"), "Your gift ideas note says: Scarf for mom.")
}

// TestRemoveFromList: "remove" takes an item off a list rather than
// ticking it off (it stayed on the list, done), and undo puts it back.
func TestRemoveFromList(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	ada := newChatter(t, base, app, "Ada", "UTC")
	ada.say("Add milk, bread and eggs to my shopping list")

	mustContain(t, ada.say("remove bread from my shopping list"), "Took bread off your shopping list. Still on it: milk and eggs.")
	lists, err := app.Store.FindNotes(context.Background(), hearth.NoteFilter{UserID: ada.contact().User.ID})
	if err != nil || len(lists) != 1 {
		t.Fatalf("notes %+v, %v; want the shopping list", lists, err)
	}
	var items []string
	for _, it := range lists[0].Items {
		items = append(items, it.Text)
	}
	if !reflect.DeepEqual(items, []string{"milk", "eggs"}) {
		t.Fatalf("items %v; want bread gone, not ticked", items)
	}
	mustContain(t, ada.say("undo"), "Undone: I put bread back on the note “Shopping list”.")
	mustContain(t, ada.say("what's on my shopping list?"), "milk, bread and eggs")

	// Ticking off still ticks.
	mustContain(t, ada.say("cross eggs off my shopping list"), "Ticked eggs off")
	// The list need not be named when the item is on one; what is on none
	// is not taken for a list's.
	mustContain(t, ada.say("remove the bread"), "Took bread off your shopping list. Still on it: milk.")
	// Ticked off, it can still be taken off.
	mustContain(t, ada.say("remove eggs"), "Took eggs off your shopping list")
	if r := ada.say("delete the dentist appointment"); strings.Contains(r.Text, "list") {
		t.Fatalf("an item on no list was looked for on one: %q", r.Text)
	}
}

// TestShoppingAsPeopleTalk: a shopping list kept the way people talk in
// chat: items added with a bare "and …", the list asked for as "the
// list", an item got ("got the eggs") ticked off, and "we need …" offered
// for the list.
func TestShoppingAsPeopleTalk(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Ida", "UTC")
	c.say("put eggs on the shopping list")
	mustContain(t, c.say("and bread"), "added bread to your shopping list")
	mustContain(t, c.say("oh and butter"), "added butter to your shopping list")
	mustContain(t, c.say("what's on the list?"), "eggs, bread and butter")
	mustContain(t, c.say("got the eggs"), "Ticked eggs off your shopping list")
	r := c.say("we need toilet paper")
	mustContain(t, r, "Shall I add toilet paper to your shopping list?")
	c.click(r, "Add toilet paper")
	mustContain(t, c.say("what do I need to buy?"), "bread, butter and toilet paper")

	// A packing list, asked about as packing.
	c.say("create a packing list for the trip: passport, charger, sunscreen")
	mustContain(t, c.say("packed the charger"), "Ticked charger off your packing list")
	if r := c.say("what's left to pack?"); !strings.Contains(r.Text, "passport and sunscreen") || strings.Contains(r.Text, "bread") {
		t.Fatalf("left to pack: %q", r.Text)
	}
	// A note put in a list is an item of it, not a note on a new thing
	// called "my packing list".
	mustContain(t, c.say("add a note to my packing list: check the visa"), "added check the visa to your packing list")
	mustContain(t, c.say("what's on my packing list?"), "check the visa")
	if r := c.say("what do you know about my packing list?"); strings.Contains(r.Text, "Notes:") {
		t.Fatalf("a graph note was kept: %q", r.Text)
	}
}

// TestRenameList: "rename the packing list to Rome trip" renames it, and
// "undo" gives it its old name back.
func TestRenameList(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Ada", "UTC")
	c.say("start a packing list with socks and passport")
	mustContain(t, c.say("rename the packing list to Rome trip"), "renamed your packing list to “Rome trip”")
	mustContain(t, c.say("what lists do I have?"), "Rome trip")
	mustContain(t, c.say("undo"), "called “Packing list” again")
	mustContain(t, c.say("what lists do I have?"), "Packing list")
}
