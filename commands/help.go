package commands

import (
	"context"
	"strings"

	"github.com/hearthbot/hearth/pipeline"
)

// Usage is one line of help: how to invoke a command and what it does.
type Usage struct {
	Name, Args, Help string
}

// Usages lists the commands help shows, in registration order.
func (g *Registry) Usages() []Usage {
	var out []Usage
	for _, c := range g.commands {
		if !c.Hidden {
			out = append(out, Usage{Name: c.Name, Args: c.Args, Help: c.Help})
		}
	}
	return out
}

// Help is the help text, generated from the registry: a line per command
// with its name, arguments, help and first example. prefix is how the
// channel invokes a command ("/" for a typed or Telegram command,
// "/hearth " for Slack).
func (g *Registry) Help(prefix string) string {
	var b strings.Builder
	b.WriteString("Just tell me what you need in your own words — “remind me to call mom tomorrow at 5pm”, “what's on my calendar this week?”, “remember that John's birthday is March 15th”. These commands work too:\n")
	for _, c := range g.commands {
		if c.Hidden {
			continue
		}
		b.WriteString("• " + prefix + c.Name)
		if c.Args != "" {
			b.WriteString(" " + c.Args)
		}
		b.WriteString(": " + c.Help)
		if len(c.Examples) > 0 {
			b.WriteString(" (or “" + c.Examples[0] + "”)")
		}
		b.WriteString("\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

func (g *Registry) helpHint() string { return "Send /help for the list." }

// HelpCommand is the help command, answering with g's generated help.
func HelpCommand(g *Registry) Command {
	return Command{
		Name: "help", Help: "what I can do and the commands I know",
		Examples: []string{"commands", "list commands", "show commands"},
		Match: func(norm string) bool {
			switch norm {
			case "help", "commands", "list commands", "show commands", "what commands do you know":
				return true
			}
			return false
		},
		Handler: HandlerFunc(func(context.Context, Request) (pipeline.Answer, bool, error) {
			return pipeline.Reply(g.Help("/")), true, nil
		}),
	}
}

// StartCommand greets someone who opens a chat with Hearth (Telegram's
// /start) with the same generated help.
func StartCommand(g *Registry) Command {
	return Command{
		Name: "start", Help: "say hello and see what I can do",
		Handler: HandlerFunc(func(_ context.Context, r Request) (pipeline.Answer, bool, error) {
			return pipeline.Reply("Hi " + r.User.DisplayName + "! I'm Hearth. " + g.Help("/")), true, nil
		}),
	}
}
