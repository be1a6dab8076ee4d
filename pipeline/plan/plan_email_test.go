package plan

import (
	"slices"
	"strings"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/stage/stagetest"
)

// TestEmailFromContacts: a recipient memory has no address for is taken
// from the address book's entries for that name: one → the draft, several
// → a button each, none → the question asking for the address; memory's
// address, when there is one, comes first. An address the address book
// gave is remembered as its person's email beside the draft (under the
// one person memory knows by that name, else the contact's name).
func TestEmailFromContacts(t *testing.T) {
	t.Parallel()
	dana := hearth.AddressBookEntry{Name: "Dana Smith", Email: "dana@example.org"}
	sams := []hearth.AddressBookEntry{{Name: "Sam Lee", Email: "sam.lee@example.org"}, {Name: `Sam "the man" Park`, Email: "sam@example.net"}}
	for _, tt := range []struct {
		name     string
		text     string
		entities []hearth.Entity
		memories []hearth.Memory
		contacts map[string][]hearth.AddressBookEntry
		wantTo   string   // the draft's one recipient
		wantOpts []string // or the question's options
		wantAsk  bool     // or the question asking for the address
		// remember: whose email the draft's or each option's address is
		// remembered as ("" none).
		remember []string
	}{
		{"one contact", "Email Dana that Friday works", nil, nil, map[string][]hearth.AddressBookEntry{"dana": {dana}},
			"Dana Smith <dana@example.org>", nil, false, []string{"Dana Smith"}},
		{"a person memory knows without an address", "Email Dana that Friday works", []hearth.Entity{{ID: 1, Name: "Dana"}}, nil,
			map[string][]hearth.AddressBookEntry{"dana": {dana}}, "Dana Smith <dana@example.org>", nil, false, []string{"Dana"}},
		{"a contact without a name", "Email Dana that Friday works", nil, nil, map[string][]hearth.AddressBookEntry{"dana": {{Email: "dana@example.org"}}},
			"dana@example.org", nil, false, []string{"Dana"}},
		{"memory's address first", "Email Dana that Friday works", []hearth.Entity{{ID: 1, Name: "Dana"}},
			[]hearth.Memory{{ID: 9, EntityID: 1, Attribute: hearth.AttrEmail, Value: "dana.home@example.com"}},
			map[string][]hearth.AddressBookEntry{"dana": {dana}}, "Dana <dana.home@example.com>", nil, false, []string{""}},
		{"several contacts", "Email Sam that dinner is at 7", nil, nil, map[string][]hearth.AddressBookEntry{"sam": sams},
			"", []string{"Sam Lee <sam.lee@example.org>", `"Sam \"the man\" Park" <sam@example.net>`}, false, []string{"Sam Lee", `Sam "the man" Park`}},
		{"no contact", "Email Quentin that the game is off", nil, nil, map[string][]hearth.AddressBookEntry{"dana": {dana}}, "", nil, true, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := stagetest.Fixture(t)
			c.Entities, c.Memories, c.Contacts = tt.entities, tt.memories, tt.contacts
			p := planText(t, tt.text, c)
			// remembered checks acts: the email, after the memory of its
			// address as who's email when who is not "".
			remembered := func(acts []action.Action, who string) action.Action {
				t.Helper()
				if who == "" {
					if len(acts) != 1 {
						t.Fatalf("want the email alone, got %v", kindsOf(acts))
					}
					return acts[0]
				}
				if len(acts) != 2 || acts[0].Kind != action.MemoryStore {
					t.Fatalf("want the memory and the email, got %v", kindsOf(acts))
				}
				e := decode[action.EmailArgs](t, acts[1])
				m := decode[action.MemoryStoreArgs](t, acts[0])
				if m.Entity == nil || m.Entity.Name != who || m.Entity.Kind != hearth.EntityPerson || m.Attribute != hearth.AttrEmail ||
					len(e.To) != 1 || !strings.Contains(e.To[0], "<"+m.Value+">") && e.To[0] != m.Value {
					t.Fatalf("remembered %+v for %q, want %s's email", m, e.To, who)
				}
				return acts[1]
			}
			switch {
			case tt.wantTo != "":
				if len(p.questions) != 0 {
					t.Fatalf("want one draft, got %v %+v %v", kindsOf(p.actions), p.questions, p.errs)
				}
				if e := decode[action.EmailArgs](t, remembered(p.actions, tt.remember[0])); !slices.Equal(e.To, []string{tt.wantTo}) {
					t.Fatalf("to %q, want %q", e.To, tt.wantTo)
				}
			case tt.wantOpts != nil:
				if len(p.actions) != 0 || len(p.questions) != 1 || len(p.questions[0].Options) != len(tt.wantOpts) {
					t.Fatalf("want a question with %d buttons, got %v %+v %v", len(tt.wantOpts), kindsOf(p.actions), p.questions, p.errs)
				}
				for i, want := range tt.wantOpts {
					o := p.questions[0].Options[i]
					if e := decode[action.EmailArgs](t, remembered(o.Actions, tt.remember[i])); !slices.Equal(e.To, []string{want}) || o.Label != want {
						t.Errorf("option %d: %q %q, want %q", i, o.Label, e.To, want)
					}
				}
			case tt.wantAsk:
				if len(p.actions) != 0 || len(p.questions) != 1 || p.questions[0].Fill == nil {
					t.Fatalf("want the question asking for the address, got %v %+v %v", kindsOf(p.actions), p.questions, p.errs)
				}
			}
		})
	}
}

// TestEmailParts reads whom a message is for and what it says, with or
// without a word between them.
func TestEmailParts(t *testing.T) {
	for _, tt := range []struct{ text, to, said, topic string }{
		{"email Sarah that I'll be late", "Sarah", "I'll be late", ""},
		{"tell mum I'll be late", "mum", "I'll be late", ""},
		{"message my brother we're on our way", "my brother", "we're on our way", ""},
		{"tell Sam about the heater", "Sam", "", "the heater"},
		{"email Sam", "Sam", "", ""},
		{"let's go", "", "", ""},
	} {
		to, said, topic := emailParts(tt.text)
		if to != tt.to || said != tt.said || topic != tt.topic {
			t.Errorf("emailParts(%q) = %q, %q, %q; want %q, %q, %q", tt.text, to, said, topic, tt.to, tt.said, tt.topic)
		}
	}
}

// TestRemindAboutEmail: a reminder to do something about an email is the
// task planner's; the email planner writes no email for it (it asked
// "What should the email to tomorrow say?").
func TestRemindAboutEmail(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	for _, text := range []string{"remind me to reply to Anna's email tomorrow", "please remind me to email the landlord on Friday"} {
		p := planText(t, text, c)
		for _, pl := range p.plans {
			for _, a := range pl.Actions {
				if strings.HasPrefix(string(a.Kind), "email.") {
					t.Errorf("%q: planned %s", text, a.Kind)
				}
			}
			if pl.Question != nil {
				t.Errorf("%q: asked %q", text, pl.Question.Text)
			}
		}
		p.only(t, action.TaskCreate)
	}
}
