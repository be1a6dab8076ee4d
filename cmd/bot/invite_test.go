package main

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
)

// TestInviteToEvent: "add Sam to my dentist appointment" invites the
// address memory has for Sam to the event that is there, once approved
// (an invitation leaves the machine from a connected calendar), and
// not taken back by a bare "undo". Someone Hearth has no address for is asked
// about, never invited by name; an event that is not there is said so,
// not made ("Sam to my dentist appointment" was once planned as a new
// event); "remove Sam from …" takes Sam off, and leaves the event; things
// and places that are no event are left as they were.
func TestInviteToEvent(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	ada := newChatter(t, base, app, "Ada", "UTC")
	ctx := context.Background()
	attendees := func() []string {
		t.Helper()
		evs, err := app.Store.FindEvents(ctx, hearth.CalendarEventFilter{UserID: ada.contact().User.ID, From: time.Now().Add(-time.Hour), To: time.Now().AddDate(0, 0, 10), Limit: 10})
		if err != nil || len(evs) != 1 {
			t.Fatalf("events %+v, %v; want the dentist appointment alone", evs, err)
		}
		return evs[0].Attendees
	}

	mustContain(t, ada.say("Add dentist appointment to my calendar on Friday at 3pm"), "Dentist appointment")
	mustContain(t, ada.say("Remember that Sam's email is sam@example.com"), "sam@example.com")

	mustContain(t, ada.say("Invite Priya to the dentist appointment"), "I don't have an email address for Priya yet")
	mustContain(t, ada.say("Add Sam to the team lunch"), "I couldn't find an event matching “team lunch”")
	if got := attendees(); len(got) != 0 {
		t.Fatalf("attendees %v before anything was approved", got)
	}

	ask := ada.say("Add Sam to my dentist appointment")
	mustContain(t, ask, "Shall I invite Sam <sam@example.com> to “Dentist appointment”?")
	mustContain(t, ada.click(ask, "Approve"), "Invited Sam <sam@example.com> to Dentist appointment")
	if got := attendees(); !slices.Equal(got, []string{"Sam <sam@example.com>"}) {
		t.Fatalf("attendees %v; want Sam", got)
	}
	mustContain(t, ada.say("add Sam to my dentist appointment"), "Sam is invited to Dentist appointment already")

	// An address is invited as written, beside who is there.
	ask = ada.say("invite bob@example.org to my dentist appointment on Friday")
	mustContain(t, ada.click(ask, "Approve"), "Invited bob@example.org")
	if got := attendees(); !slices.Equal(got, []string{"Sam <sam@example.com>", "bob@example.org"}) {
		t.Fatalf("attendees %v; want Sam and Bob", got)
	}
	// A sent invitation is not taken back by a bare "undo" (it would
	// reach Bob unasked), as with every approved change that reached
	// others.
	mustContain(t, ada.say("undo"), "I can't undo that one")
	if got := attendees(); len(got) != 2 {
		t.Fatalf("attendees after undo %v; want both still", got)
	}

	// Taken off again, once approved: never the event cancelled, which
	// "remove …" once did.
	mustContain(t, ada.say("remove Priya from my dentist appointment"), "Priya isn't invited to Dentist appointment")
	ask = ada.say("remove Sam from my dentist appointment")
	mustContain(t, ask, "Shall I take Sam <sam@example.com> off “Dentist appointment”?")
	mustContain(t, ada.click(ask, "Approve"), "Took Sam <sam@example.com> off Dentist appointment")
	if got := attendees(); !slices.Equal(got, []string{"bob@example.org"}) {
		t.Fatalf("attendees %v; want Bob alone", got)
	}

	// Not invitations: a list's item, an event with someone to make.
	mustContain(t, ada.say("add milk to my shopping list"), "milk")
	if r := ada.say("Add lunch with Sam to my calendar tomorrow at noon"); !strings.Contains(r.Text, "Lunch with Sam") || strings.Contains(r.Text, "invite") {
		t.Fatalf("making an event read as an invitation: %q", r.Text)
	}
}

// TestInviteToDinnerThatDay: "invite Sam to dinner on Saturday" with a
// dinner there that day invites Sam to it (it made a second dinner that
// overlapped the first), and "who's coming to dinner on Saturday?" is
// answered from that day's dinner (it was "I don't see “dinner on
// Saturday”").
func TestInviteToDinnerThatDay(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	ada := newChatter(t, base, app, "Ada", "UTC")
	ada.say("Remember that Sam's email is sam@example.com")
	ada.say("Dinner with Ann on Thursday at 7pm")
	ada.say("Dinner with the Smiths on Saturday at 7pm")
	ask := ada.say("invite Sam to dinner on Saturday")
	mustContain(t, ask, "Shall I invite Sam <sam@example.com> to “Dinner with the Smiths”?")
	ada.click(ask, "Approve")
	mustContain(t, ada.say("who's coming to dinner on Saturday?"), "Invited to Dinner with the Smiths", "sam@example.com")
	mustContain(t, ada.say("who's coming to dinner on Thursday?"), "No one else is invited to Dinner with Ann")
	if evs := ada.events(); len(evs) != 2 {
		t.Fatalf("%d events; want the two dinners alone", len(evs))
	}
}
