package main

import (
	"context"
	"strings"
	"testing"

	"github.com/hearthbot/hearth"
)

// TestAddToNamedNote adds to a note named by its title alone: "add a book
// for dad to my gift ideas" goes on the note called "gift ideas" (it was
// refused: "gift" reads as shopping). Without such a note, and for things
// Hearth cannot keep ("add flowers to my cart"), nothing is written.
func TestAddToNamedNote(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Rui", "UTC")
	c.say("add a book for dad to my gift ideas") // no such note yet
	c.say("Create a note called gift ideas: scarf for mum")
	mustContain(t, c.say("Add a book for dad to my gift ideas"), "gift ideas")
	c.say("add flowers to my cart")
	notes, err := app.Store.FindNotes(context.Background(), hearth.NoteFilter{UserID: c.contact().User.ID})
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 1 || !strings.Contains(notes[0].Body, "Scarf for mum") || !strings.Contains(notes[0].Body, "A book for dad.") || strings.Contains(notes[0].Body, "flowers") {
		t.Fatalf("notes %+v, want one gift ideas note with the book added and nothing else", notes)
	}
}
