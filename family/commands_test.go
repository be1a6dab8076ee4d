package family_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/commands"
	"github.com/hearthbot/hearth/family"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

// passed is the reply of the handler after the family commands.
const passed = "(not a family command)"

type testBundle struct {
	st *store.Store
	h  pipeline.Handler
}

func setup(t *testing.T) *testBundle {
	t.Helper()
	st, _ := storetest.Open(t)
	next := pipeline.HandlerFunc(func(context.Context, pipeline.Turn) (pipeline.Answer, error) {
		return pipeline.Reply(passed), nil
	})
	var reg commands.Registry
	if err := reg.Register(family.Command(st)); err != nil {
		t.Fatal(err)
	}
	return &testBundle{st: st, h: reg.Handler(next)}
}

type person struct {
	b    *testBundle
	user hearth.User
}

func (b *testBundle) person(t *testing.T, name string) *person {
	t.Helper()
	c, err := b.st.SignIn(context.Background(), hearth.ChannelWebchat, strings.ToLower(name), name, strings.ToLower(name), "Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	return &person{b: b, user: c.User}
}

func (p *person) say(t *testing.T, text string) string {
	t.Helper()
	ans, err := p.b.h.HandleTurn(context.Background(), pipeline.Turn{User: p.user, Event: hearth.InboundEvent{Kind: hearth.KindMessage, Text: text}})
	out := ans.Replies
	if err != nil {
		t.Fatalf("%s: %q: %v", p.user.DisplayName, text, err)
	}
	if len(out) != 1 {
		t.Fatalf("%s: %q: %d replies", p.user.DisplayName, text, len(out))
	}
	return out[0].Text
}

var reCode = regexp.MustCompile(`[A-Z2-9]{4}-[A-Z2-9]{4}`)

// code is the invitation code in a reply.
func code(t *testing.T, reply string) string {
	t.Helper()
	c := reCode.FindString(reply)
	if c == "" {
		t.Fatalf("no code in %q", reply)
	}
	return c
}

func TestFamilyCommands(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ann, bob, cat := b.person(t, "Ann"), b.person(t, "Bob"), b.person(t, "Cat Lee")

	steps := []struct {
		who  *person
		say  string
		want []string // all in the reply, case-insensitively
	}{
		{ann, "who is in my family?", []string{"not in a family yet", "start a family"}},
		{ann, "leave my family", []string{"not in a family"}},
		{ann, "let Bob see my events", []string{"not in a family yet"}},
		{bob, "join family hello", []string{"doesn't look like a family code"}},
		{bob, "join family ABCD-EFGH", []string{"isn't valid any more"}},
		{ann, "Start a family", []string{"family is set up", "join family ", "10 minutes"}},
		{ann, "who's in my family", []string{"just you"}},
		{ann, "let Bob see only basics", []string{"no one else"}},
		// Not sharing commands: the runner answers them.
		{ann, "let me see my calendar", []string{passed}},
		{ann, "let Sarah see the draft", []string{passed}},
		{ann, "remind me to call mom", []string{passed}},
		{ann, "strength", []string{passed}},
	}
	for _, s := range steps {
		got := s.who.say(t, s.say)
		for _, w := range s.want {
			if !strings.Contains(strings.ToLower(got), strings.ToLower(w)) {
				t.Fatalf("%s says %q: %q lacks %q", s.who.user.DisplayName, s.say, got, w)
			}
		}
	}

	// Ann's own code is refused and stays good for Bob.
	inv := code(t, ann.say(t, "invite someone to my family"))
	if got := ann.say(t, "join family "+inv); !strings.Contains(got, "already in Ann's family") {
		t.Fatalf("Ann joining her own: %q", got)
	}
	if got := bob.say(t, "join family "+strings.ToLower(inv)); !strings.Contains(got, "Welcome to Ann's family") || !strings.Contains(got, "Ann") {
		t.Fatalf("Bob joining: %q", got)
	}
	if got := cat.say(t, "join family "+inv); !strings.Contains(got, "isn't valid any more") {
		t.Fatalf("reused code: %q", got)
	}
	// A code typed alone joins too.
	if got := cat.say(t, code(t, bob.say(t, "invite Cat to our family"))); !strings.Contains(got, "Welcome to Ann's family") || !strings.Contains(got, "Ann and Bob") {
		t.Fatalf("Cat joining by the code alone: %q", got)
	}
	// ... while a code alone that is no family code goes on (the link command answers it).
	if got := cat.say(t, "ABCD-EFGH"); got != passed {
		t.Fatalf("unknown code alone: %q", got)
	}

	who := ann.say(t, "who is in my family")
	for _, w := range []string{"Ann's family: you, Bob and Cat Lee", "Bob sees your events and milestones; you see Bob's events and milestones"} {
		if !strings.Contains(who, w) {
			t.Fatalf("members: %q lacks %q", who, w)
		}
	}
	grants := []struct {
		say, reply string
		viewer     *person
		tier       hearth.Tier
	}{
		{"let Bob see only basics", "Bob now sees only your basics", bob, hearth.TierBasic},
		{"let cat see my events", "Cat Lee now sees your events and milestones", cat, hearth.TierEvents},
		{"allow Bob to see my personal stuff", "Bob now sees your personal things", bob, hearth.TierPersonal},
		{"hide my events from Cat Lee", "Cat Lee now sees only your basics", cat, hearth.TierBasic},
		{"let Bob see everything", "Bob now sees all of your things", bob, hearth.TierPrivate},
	}
	for _, g := range grants {
		if got := ann.say(t, g.say); !strings.Contains(got, g.reply) {
			t.Fatalf("%q: %q; want %q", g.say, got, g.reply)
		}
		f, err := b.st.FindFamily(context.Background(), g.viewer.user.ID)
		if err != nil {
			t.Fatal(err)
		}
		if f.Members[0].Shows != g.tier {
			t.Fatalf("after %q %s sees Ann's tier %d; want %d", g.say, g.viewer.user.DisplayName, f.Members[0].Shows, g.tier)
		}
	}
	if got := ann.say(t, "let Grandma see only basics"); !strings.Contains(got, "don't know anyone called “Grandma”") || !strings.Contains(got, "Bob and Cat Lee") {
		t.Fatalf("unknown name: %q", got)
	}
	if got := cat.say(t, "leave my family"); !strings.Contains(got, "left Ann's family") {
		t.Fatalf("leave: %q", got)
	}
	if got := ann.say(t, "who is in my family"); strings.Contains(got, "Cat") {
		t.Fatalf("after Cat left: %q", got)
	}
	if got := bob.say(t, "start a family"); !strings.Contains(got, "already in Ann's family") || code(t, got) == "" {
		t.Fatalf("start while in one: %q", got)
	}
}
