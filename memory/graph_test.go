package memory_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/commands"
	"github.com/hearthbot/hearth/memory"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/store/storetest"
)

func TestReadGraphNote(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text     string
		name     string
		body     string
		lifetime hearth.Lifetime
		ok       bool
	}{
		{"note that Bob is stressed about the move for a week", "Bob", "Bob is stressed about the move", hearth.LifetimeWeek, true},
		{"Note that Emma is into dinosaurs this year.", "Emma", "Emma is into dinosaurs", hearth.LifetimeYear, true},
		{"note that the move is exhausting this month", "the move", "The move is exhausting", hearth.LifetimeMonth, true},
		{"note that Grandma loves tulips forever", "Grandma", "Grandma loves tulips", hearth.LifetimeForever, true},
		{"note on Bob: stressed about the move", "Bob", "stressed about the move", "", true},
		{"add a note to Sarah Kim: prefers calls for a year", "Sarah Kim", "prefers calls", hearth.LifetimeYear, true},
		// Without a lifetime, "note that …" is a fact for the planner.
		{"note that Emma has a dentist appointment Thursday", "", "", "", false},
		{"note that for a week", "", "", "", false},
		{"remind me to call Bob", "", "", "", false},
		// A note in a list or a note is for the list (gather.NoteIn).
		{"add a note to my packing list: check the visa", "", "", "", false},
		{"note on the gift ideas note: a scarf", "", "", "", false},
		// A note on an appointment is for the event's notes (nlu.EventNote).
		{"add a note to the dentist appointment: bring the x-rays", "", "", "", false},
	}
	for _, tt := range tests {
		name, body, l, ok := memory.ReadGraphNote(tt.text)
		if ok != tt.ok || name != tt.name || body != tt.body || l != tt.lifetime {
			t.Errorf("%q: %q %q %q %v, want %q %q %q %v", tt.text, name, body, l, ok, tt.name, tt.body, tt.lifetime, tt.ok)
		}
	}
}

func TestReadGraphQuestion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want memory.GraphQuestion
		ok   bool
	}{
		{"what notes do you have on Bob?", memory.GraphQuestion{Kind: memory.NotesOn, Name: "Bob"}, true},
		{"Who is Emma close to?", memory.GraphQuestion{Kind: memory.CloseTo, Name: "Emma"}, true},
		{"how do I know Priya?", memory.GraphQuestion{Kind: memory.HowKnow, Name: "Priya"}, true},
		{"what is Bob into?", memory.GraphQuestion{Kind: memory.Into, Name: "Bob"}, true},
		{"what's Bob into", memory.GraphQuestion{Kind: memory.Into, Name: "Bob"}, true},
		{"what's been going on with the move?", memory.GraphQuestion{Kind: memory.GoingOn, Name: "the move"}, true},
		{"what's going on?", memory.GraphQuestion{Kind: memory.GoingOn}, true},
		{"what is on my calendar", memory.GraphQuestion{}, false},
		{"who is my dentist?", memory.GraphQuestion{}, false},
		{"how do I know if it will rain?", memory.GraphQuestion{}, false},
		{"how do we know when the bus comes", memory.GraphQuestion{}, false},
	}
	for _, tt := range tests {
		got, ok := memory.ReadGraphQuestion(tt.text)
		if ok != tt.ok || got != tt.want {
			t.Errorf("%q: %+v %v, want %+v %v", tt.text, got, ok, tt.want, tt.ok)
		}
	}
}

var graphSeq atomic.Int64

// TestGraphCommands drives the commands through a registry over the real
// store: a note with a lifetime (its author and message set by the code),
// listing notes before and after expiry on the injected clock, the three
// relationship questions in their pair's words, the confirm button, and
// "what's been going on with the move?".
func TestGraphCommands(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	c, err := st.SignIn(ctx, hearth.ChannelWebchat, fmt.Sprint("ann-", graphSeq.Add(1)), "Ann", "conv-ann", "Europe/Rome")
	if err != nil {
		t.Fatal(err)
	}
	ann := c.User
	ann.Timezone = "Europe/Rome"
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	var reg commands.Registry
	if err := reg.Register(memory.GraphCommands(st, clock)...); err != nil {
		t.Fatal(err)
	}
	reg.RegisterButtons(memory.GraphButtonPrefix, memory.GraphButtons(st))
	h := reg.Handler(pipeline.HandlerFunc(func(context.Context, pipeline.Turn) (pipeline.Answer, error) {
		return pipeline.Reply("(pipeline)"), nil
	}))
	say := func(text string) hearth.Outbound {
		t.Helper()
		a, err := h.HandleTurn(ctx, pipeline.Turn{User: ann, Event: hearth.InboundEvent{Kind: hearth.KindMessage, Text: text}})
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		return a.Replies[0]
	}
	ent := func(name string, k hearth.EntityKind, extra ...func(*hearth.Entity)) hearth.Entity {
		e := hearth.Entity{UserID: ann.ID, Name: name, Kind: k}
		for _, f := range extra {
			f(&e)
		}
		e, err := st.SaveEntity(ctx, e)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	rel := func(from, to hearth.Entity, label string, att, prox int, state hearth.RelationshipState) hearth.Relationship {
		r, err := st.SaveRelationship(ctx, hearth.Relationship{UserID: ann.ID, FromID: from.ID, ToID: to.ID, Label: label, Attitude: att, Proximity: prox, State: state})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}

	if got := say("note that Bob is stressed about the move for a week").Text; !strings.Contains(got, "Noted on Bob, until Mon 9 Mar 2026") {
		t.Errorf("note: %q", got)
	}
	say("note on Bob: loves sailing forever")
	notes, err := st.FindGraphNotes(ctx, hearth.GraphNoteFilter{UserID: ann.ID, Now: now})
	if err != nil || len(notes) != 2 || notes[0].AddedBy != ann.ID {
		t.Fatalf("notes %+v %v", notes, err)
	}
	if got := say("what notes do you have on Bob?").Text; !strings.Contains(got, "stressed about the move (until Mon 9 Mar 2026)") || !strings.Contains(got, "loves sailing (kept") {
		t.Errorf("notes on Bob: %q", got)
	}
	now = now.AddDate(0, 0, 8)
	if got := say("what notes do you have on Bob?").Text; strings.Contains(got, "stressed") || !strings.Contains(got, "sailing") {
		t.Errorf("after a week: %q", got)
	}

	me := ent("Ann", hearth.EntityPerson, func(e *hearth.Entity) { e.Relation, e.MemberID = "self", ann.ID })
	emma, lily, priya := ent("Emma", hearth.EntityPerson), ent("Lily", hearth.EntityPerson), ent("Priya", hearth.EntityPerson)
	acme, chess := ent("Acme", hearth.EntityOrganisation), ent("chess", hearth.EntityConcept)
	bob, _ := st.FindEntities(ctx, hearth.EntityFilter{UserID: ann.ID, Name: "Bob"})
	friend := rel(emma, lily, "friend", 5, 4, hearth.RelationshipCandidate)
	rel(emma, priya, "classmate", 3, 2, hearth.RelationshipConfirmed)
	rel(me, acme, "worked at", 4, 4, hearth.RelationshipConfirmed)
	rel(priya, acme, "works at", 4, 5, hearth.RelationshipConfirmed)
	rel(bob[0], chess, "plays", 5, 4, hearth.RelationshipConfirmed)

	out := say("who is Emma close to?")
	if !strings.Contains(out.Text, "Lily (friend; close, known-well; not confirmed)") || strings.Contains(out.Text, "Priya") {
		t.Errorf("close to: %q", out.Text)
	}
	if len(out.Buttons) != 1 || out.Buttons[0].ID != fmt.Sprintf("graph:confirm:%d", friend.ID) {
		t.Fatalf("buttons: %+v", out.Buttons)
	}
	click, err := h.HandleTurn(ctx, pipeline.Turn{User: ann, Event: hearth.InboundEvent{Kind: hearth.KindButton, ButtonID: out.Buttons[0].ID}})
	if err != nil || !strings.Contains(click.Replies[0].Text, "confirmed") {
		t.Fatalf("click: %+v %v", click, err)
	}
	if out := say("who is Emma close to?"); strings.Contains(out.Text, "not confirmed") || len(out.Buttons) != 0 {
		t.Errorf("after confirming: %+v", out)
	}
	if got := say("how do I know Priya?").Text; !strings.Contains(got, "through Acme") || !strings.Contains(got, "involved-with") {
		t.Errorf("how do I know: %q", got)
	}
	if got := say("how do I know Zed?").Text; got != "(pipeline)" {
		t.Errorf("an unknown name is the pipeline's: %q", got)
	}
	if got := say("what is Bob into?").Text; !strings.Contains(got, "chess (plays; passionate, experienced)") || !strings.Contains(got, "sailing") {
		t.Errorf("into: %q", got)
	}

	// The move comes up on three days; the nightly promotion makes it a
	// storyline the question finds.
	move := ent("house move", hearth.EntityProject, func(e *hearth.Entity) { e.Aliases = []string{"the move"} })
	for i := range 3 {
		if err := st.RecordMentions(ctx, []hearth.Mention{{EntityID: move.ID, Source: fmt.Sprint("m", i), At: now.AddDate(0, 0, -i)}}); err != nil {
			t.Fatal(err)
		}
	}
	if got := say("what's been going on with the move?").Text; !strings.Contains(got, "Nothing about the move") {
		t.Errorf("before promotion: %q", got)
	}
	if _, err := st.PromoteStorylines(ctx, "Europe/Rome", now, now.AddDate(0, 0, -30), 3); err != nil {
		t.Fatal(err)
	}
	if got := say("what's been going on with the move?").Text; !strings.Contains(got, "House move: mentioned on 3 days") {
		t.Errorf("going on with the move: %q", got)
	}
	if got := say("what's going on?").Text; got != "What's going on: house move." {
		t.Errorf("going on: %q", got)
	}
}
