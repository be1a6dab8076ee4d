package commands_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/commands"
	"github.com/hearthbot/hearth/pipeline"
)

// reply is a command handler answering with a fixed text, or declining.
func reply(text string, handled bool) commands.Handler {
	return commands.HandlerFunc(func(_ context.Context, r commands.Request) (pipeline.Answer, bool, error) {
		return pipeline.Reply(text + "|" + r.Args), handled, nil
	})
}

func exactly(words ...string) func(string) bool {
	return func(norm string) bool {
		for _, w := range words {
			if norm == w {
				return true
			}
		}
		return false
	}
}

func TestRegister(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cmd  commands.Command
		want string
	}{
		{"bad name", commands.Command{Name: "Brief-ing", Help: "x", Handler: reply("", true)}, "a name is"},
		{"no handler", commands.Command{Name: "x", Help: "x"}, "no handler"},
		{"no help", commands.Command{Name: "x", Handler: reply("", true)}, "no help"},
		{"example that does not match", commands.Command{Name: "x", Help: "x", Examples: []string{"hello"}, Match: exactly("hi"), Handler: reply("", true)}, "does not match"},
		{"example without a matcher", commands.Command{Name: "x", Help: "x", Examples: []string{"hello"}, Handler: reply("", true)}, "does not match"},
		{"twice", commands.Command{Name: "dup", Help: "x", Handler: reply("", true)}, "twice"},
	}
	for _, tt := range tests {
		var reg commands.Registry
		if err := reg.Register(commands.Command{Name: "dup", Help: "x", Handler: reply("", true)}); err != nil {
			t.Fatal(err)
		}
		err := reg.Register(tt.cmd)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Register = %v; want an error containing %q", tt.name, err, tt.want)
		}
	}
}

func TestHandler(t *testing.T) {
	t.Parallel()
	var reg commands.Registry
	err := reg.Register(
		commands.Command{Name: "family", Help: "families", Examples: []string{"start a family"}, Match: exactly("start a family", "abcd-efg2"), Handler: reply("family", false)},
		commands.Command{Name: "link", Args: "[CODE]", Help: "link", Examples: []string{"ABCD-EFG2"}, Match: exactly("abcd-efg2"), Handler: reply("link", true)},
		commands.Command{Name: "briefing", Help: "briefing", NeedsZone: true, Examples: []string{"Briefing now!"}, Match: exactly("briefing now"), Handler: reply("briefing", true)},
		commands.Command{Name: "start", Help: "hello", Handler: reply("start", true)},
	)
	if err != nil {
		t.Fatal(err)
	}
	reg.RegisterButtons("sched:", reply("button", true))
	next := pipeline.HandlerFunc(func(context.Context, pipeline.Turn) (pipeline.Answer, error) { return pipeline.Reply("next|"), nil })
	h := reg.Handler(next)
	zoned := hearth.User{ID: 1, Timezone: "Europe/Berlin"}
	tests := []struct {
		name string
		ev   hearth.InboundEvent
		user hearth.User
		want string
	}{
		{"a phrasing", hearth.InboundEvent{Kind: hearth.KindMessage, Text: "  Briefing   NOW. "}, zoned, "briefing|"},
		{"a typed name with arguments", hearth.InboundEvent{Kind: hearth.KindMessage, Text: "/link abcd-efg2"}, zoned, "link|abcd-efg2"},
		{"a bare word with arguments is no command", hearth.InboundEvent{Kind: hearth.KindMessage, Text: "start a family"}, zoned, "next|"},
		{"a bare name alone is", hearth.InboundEvent{Kind: hearth.KindMessage, Text: "start"}, zoned, "start|"},
		{"a declining command passes to the next", hearth.InboundEvent{Kind: hearth.KindMessage, Text: "ABCD-EFG2"}, zoned, "link|"},
		{"a platform command by name", hearth.InboundEvent{Kind: hearth.KindCommand, Text: "briefing"}, zoned, "briefing|"},
		{"a platform command Hearth does not know", hearth.InboundEvent{Kind: hearth.KindCommand, Text: "frobnicate now"}, zoned, "I don't know the command"},
		{"no zone yet: the turn goes on", hearth.InboundEvent{Kind: hearth.KindMessage, Text: "briefing now"}, hearth.User{ID: 2}, "next|"},
		{"a routed button", hearth.InboundEvent{Kind: hearth.KindButton, ButtonID: "sched:done:1:2"}, zoned, "button|"},
		{"another button", hearth.InboundEvent{Kind: hearth.KindButton, ButtonID: "approve:3"}, zoned, "next|"},
		{"anything else", hearth.InboundEvent{Kind: hearth.KindMessage, Text: "what's the weather"}, zoned, "next|"},
	}
	for _, tt := range tests {
		ans, err := h.HandleTurn(context.Background(), pipeline.Turn{Event: tt.ev, User: tt.user})
		if err != nil || len(ans.Replies) != 1 || !strings.HasPrefix(ans.Replies[0].Text, tt.want) {
			t.Errorf("%s: %+v, %v; want a reply starting %q", tt.name, ans.Replies, err, tt.want)
		}
	}
}

func TestHelpIsGenerated(t *testing.T) {
	t.Parallel()
	var reg commands.Registry
	err := reg.Register(commands.HelpCommand(&reg),
		commands.Command{Name: "link", Args: "[CODE]", Help: "join your chats", Handler: reply("", true)},
		commands.Command{Name: "approve", Hidden: true, Handler: reply("", true)})
	if err != nil {
		t.Fatal(err)
	}
	help := reg.Help("/hearth ")
	for _, want := range []string{"/hearth help: what I can do", "/hearth link [CODE]: join your chats"} {
		if !strings.Contains(help, want) {
			t.Errorf("help %q lacks %q", help, want)
		}
	}
	if strings.Contains(help, "approve") {
		t.Errorf("help %q lists a hidden command", help)
	}
	if u := reg.Usages(); len(u) != 2 || u[1] != (commands.Usage{Name: "link", Args: "[CODE]", Help: "join your chats"}) {
		t.Errorf("Usages = %+v", u)
	}
}

func TestNormalise(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"  Don’t   send it!? ":         "don't send it",
		"Let Grandma see ONLY basics.": "let grandma see only basics",
		"":                             "",
	} {
		if got := commands.Normalise(in); got != want {
			t.Errorf("Normalise(%q) = %q; want %q", in, got, want)
		}
	}
	if got := commands.Tidy("Let  Grandma see.  "); got != "Let Grandma see" {
		t.Errorf("Tidy = %q", got)
	}
}
