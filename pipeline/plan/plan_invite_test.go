package plan

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
)

// TestPlanInvite: inviting people to an event that is there updates its
// attendees with their addresses (memory's, the address book's, or as
// written); who has none, or is invited already, is said so; an event
// that is not there is said so when the user named it as theirs, and
// left to be made when they did not ("… to a planning session tomorrow
// at 10am").
func TestPlanInvite(t *testing.T) {
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	c := stage.Context{Now: now, Location: time.UTC,
		Events: []hearth.CalendarEvent{
			{ID: 1, Title: "Dentist appointment", Start: now.Add(30 * time.Hour), End: now.Add(31 * time.Hour)},
			{ID: 2, Title: "Team lunch", Start: now.Add(50 * time.Hour), End: now.Add(51 * time.Hour), Attendees: []string{"Sam Lee <sam@example.com>"}},
		},
		Entities: []hearth.Entity{{ID: 7, Name: "Sam Lee", Kind: hearth.EntityPerson}, {ID: 8, Name: "Priya", Kind: hearth.EntityPerson}},
		Memories: []hearth.Memory{{ID: 70, EntityID: 7, Attribute: hearth.AttrEmail, Value: "sam@example.com"}},
		Contacts: map[string][]hearth.AddressBookEntry{"bo": {{Name: "Bo Chen", Email: "bo@example.net"}}},
	}
	tests := []struct {
		text    string
		id      int64
		all     []string // the attendees after the update
		invited []string
	}{
		{"Add Sam to my dentist appointment", 1, []string{"Sam Lee <sam@example.com>"}, []string{"Sam Lee <sam@example.com>"}},
		{"invite bob@example.org and Bo to the dentist appointment tomorrow", 1, []string{"bob@example.org", "Bo Chen <bo@example.net>"}, []string{"bob@example.org", "Bo Chen <bo@example.net>"}},
		{"Please invite Bo and Sam to the team lunch.", 2, []string{"Sam Lee <sam@example.com>", "Bo Chen <bo@example.net>"}, []string{"Bo Chen <bo@example.net>"}},
		// Named bare with a day, but that day has one so called.
		{"invite Bo to lunch on Wednesday", 2, []string{"Sam Lee <sam@example.com>", "Bo Chen <bo@example.net>"}, []string{"Bo Chen <bo@example.net>"}},
	}
	// "it" is the event the last reply named.
	c.Recent = []hearth.Message{{From: hearth.FromUser, Text: "team lunch on wednesday"}, {From: hearth.FromBot, Text: "Added Team lunch to your calendar for Wednesday at 12:00 PM."}}
	tests = append(tests, struct {
		text    string
		id      int64
		all     []string
		invited []string
	}{"invite bob@example.org to it", 2, []string{"Sam Lee <sam@example.com>", "bob@example.org"}, []string{"bob@example.org"}})
	for _, tt := range tests {
		in := stage.PlanInput{Text: tt.text, Understanding: stage.Understanding{Intent: nlu.RequestAction, Domains: []nlu.Domain{nlu.Calendar}}, Context: c}
		p, ok, err := planInvite(in, tt.text)
		if !ok || err != nil || len(p.Actions) != 1 {
			t.Fatalf("%q: plan %+v, %v, %v", tt.text, p, ok, err)
		}
		got, err := action.Decode[action.EventUpdateArgs](p.Actions[0])
		if err != nil || p.Actions[0].Kind != action.CalendarUpdate || got.ID != tt.id || got.Update.Attendees == nil ||
			!slices.Equal(*got.Update.Attendees, tt.all) || !slices.Equal(got.Invited, tt.invited) || got.Update.Start != nil {
			t.Fatalf("%q: planned %s %s, %v", tt.text, p.Actions[0].Kind, p.Actions[0].Payload, err)
		}
		if action.RiskOf(p.Actions[0]) != action.High {
			t.Fatalf("%q: an invitation runs without approval", tt.text)
		}
	}

	said := []struct{ text, want string }{
		{"Invite Sam to the team lunch", "Sam is invited to Team lunch already."},
		{"Invite Priya to my dentist appointment", "I don't have an email address for Priya yet"},
	}
	for _, tt := range said {
		in := stage.PlanInput{Text: tt.text, Context: c}
		p, ok, err := planInvite(in, tt.text)
		if !ok || err != nil || len(p.Actions) != 0 || p.Question == nil || !strings.Contains(p.Question.Text, tt.want) {
			t.Fatalf("%q: plan %+v, %v, %v; want it said: %s", tt.text, p, ok, err, tt.want)
		}
	}
	var de *stage.DetailsError
	if p, ok, err := planInvite(stage.PlanInput{Context: c}, "add Sam to my board meeting"); !ok || !errors.As(err, &de) || len(p.Actions) != 0 {
		t.Fatalf("a missing event planned %+v, %v, %v; want why", p, ok, err)
	}
	// Taken off: the attendees without them, never the event cancelled.
	for _, tt := range []struct {
		text string
		gone []string
	}{
		{"remove Sam from the team lunch", []string{"Sam Lee <sam@example.com>"}},
		{"take sam@example.com off of the team lunch", []string{"Sam Lee <sam@example.com>"}},
		{"uninvite Sam Lee from my team lunch", []string{"Sam Lee <sam@example.com>"}},
	} {
		people, refText, ok := UninviteParts(tt.text)
		if !ok {
			t.Fatalf("%q: not read as taking someone off", tt.text)
		}
		p, err := planUninvite(stage.PlanInput{Context: c}, people, refText)
		if err != nil || len(p.Actions) != 1 || p.Actions[0].Kind != action.CalendarUpdate {
			t.Fatalf("%q: plan %+v, %v", tt.text, p, err)
		}
		got, _ := action.Decode[action.EventUpdateArgs](p.Actions[0])
		if got.ID != 2 || got.Update.Attendees == nil || len(*got.Update.Attendees) != 0 || !slices.Equal(got.Uninvited, tt.gone) {
			t.Fatalf("%q: planned %s", tt.text, p.Actions[0].Payload)
		}
	}
	if p, err := planUninvite(stage.PlanInput{Context: c}, []string{"Bo"}, "my dentist appointment"); err != nil || len(p.Actions) != 0 ||
		p.Question == nil || p.Question.Text != "Bo isn't invited to Dentist appointment." {
		t.Fatalf("taking off someone not invited planned %+v, %v; want it said", p, err)
	}
	in := stage.PlanInput{Text: "remove Sam from my dentist appointment", Understanding: stage.Understanding{Intent: nlu.RequestAction, Domains: []nlu.Domain{nlu.Calendar}}, Context: c}
	if p, err := planCalendar(context.Background(), in); err != nil || len(p.Actions) != 0 || p.Question == nil {
		t.Fatalf("the calendar planner planned %+v, %v for taking someone off; want no action (Sam is not invited)", p, err)
	}
	// An event and a day, capitalised: a cancellation, as before.
	in.Text = "Remove Team Lunch from Wednesday"
	if p, err := planCalendar(context.Background(), in); err != nil || len(p.Actions) != 1 || p.Actions[0].Kind != action.CalendarDelete {
		t.Fatalf("cancelling an event by its day planned %+v, %v", p, err)
	}
	// An event to make, with someone invited: the create planner's.
	for _, text := range []string{"Invite Priya to a planning session tomorrow at 10am", "Invite Sam to a dentist appointment on Friday", "invite Bo to lunch tomorrow", "invite Bo to lunch on Wednesday at 1pm"} {
		if _, ok, _ := planInvite(stage.PlanInput{Context: c}, text); ok {
			t.Fatalf("%q: making an event with an invitee read as inviting to one there", text)
		}
	}
}

// TestInviteParts: only people are invited, and only to events.
func TestInviteParts(t *testing.T) {
	for _, tt := range []struct {
		text   string
		people []string
		ref    string
	}{
		{"Add Sam to my dentist appointment", []string{"Sam"}, "my dentist appointment"},
		{"invite Priya Shah, bob@example.org & Bo to the team lunch on Friday!", []string{"Priya Shah", "bob@example.org", "Bo"}, "the team lunch on Friday"},
		{"add milk to my shopping list", nil, ""},
		{"Add Sam to my calendar", nil, ""},
		{"add a reminder to my dentist appointment", nil, ""},
		{"Add lunch with Sam to my calendar tomorrow", nil, ""},
		{"add Grandma to the family", nil, ""},
		{"add The Beatles Concert to my diary", nil, ""},
		{"invite", nil, ""},
	} {
		people, ref, ok := InviteParts(tt.text)
		if ok != (tt.people != nil) || !slices.Equal(people, tt.people) || ref != tt.ref {
			t.Errorf("InviteParts(%q) = %q, %q, %v; want %q, %q", tt.text, people, ref, ok, tt.people, tt.ref)
		}
	}
	for _, tt := range []struct {
		text   string
		people []string
		ref    string
	}{
		{"remove Sam from my dentist appointment", []string{"Sam"}, "my dentist appointment"},
		{"take Bo and sam@example.com off of the team lunch", []string{"Bo", "sam@example.com"}, "the team lunch"},
		{"remove Dentist from my calendar", nil, ""},
		{"remove eggs from the shopping list", nil, ""},
		{"remove the Dentist from Friday", nil, ""},
	} {
		people, ref, ok := UninviteParts(tt.text)
		if ok != (tt.people != nil) || !slices.Equal(people, tt.people) || ref != tt.ref {
			t.Errorf("UninviteParts(%q) = %q, %q, %v; want %q, %q", tt.text, people, ref, ok, tt.people, tt.ref)
		}
	}
}
