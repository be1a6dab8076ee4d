package commands

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline"
)

// Request is one invocation of a command.
type Request struct {
	pipeline.Turn
	// Text is what the user wrote, trimmed; for a command invoked by name
	// it is "name args" without the slash, so a handler that reads
	// phrasings reads both the same way.
	Text string
	// Norm is Text normalised by Normalise.
	Norm string
	// Args is what followed the name when the command was invoked by name
	// ("/link ABCD-EFGH" → "ABCD-EFGH"); empty for a phrasing.
	Args string
	// ByName is true when the command was invoked by its name.
	ByName bool
}

// A Handler runs a command. handled is false when the request turns out
// not to be the command's after all (a code typed alone that is no family
// code): the registry then tries the next command, and at the end the
// turn goes on to intent as if no command had matched.
type Handler interface {
	HandleCommand(ctx context.Context, r Request) (a pipeline.Answer, handled bool, err error)
}

// HandlerFunc adapts a function to a Handler.
type HandlerFunc func(ctx context.Context, r Request) (pipeline.Answer, bool, error)

// HandleCommand calls f(ctx, r).
func (f HandlerFunc) HandleCommand(ctx context.Context, r Request) (pipeline.Answer, bool, error) {
	return f(ctx, r)
}

// Command is one deterministic chat command.
type Command struct {
	// Name invokes the command: typed as "/name" or "name", Slack's
	// "/hearth name", Telegram's "/name". Lower-case letters, digits and
	// underscores (Telegram's rule), at most 32.
	Name string
	// Args names the arguments in help ("[CODE]"), if any.
	Args string
	// Help is the one line help and menus show.
	Help string
	// Examples are phrasings the command answers besides its name; every
	// one must Match (a test checks), and help shows the first.
	Examples []string
	// Match reports whether a normalised message (see Normalise) is this
	// command. Nil: only the name invokes it.
	Match func(norm string) bool
	// NeedsZone commands only run for users whose time zone is known;
	// for others the turn goes on (and the time-zone question is asked).
	NeedsZone bool
	// Private commands answer with what only the user should see (a
	// briefing, a link code): Slack runs them only in the user's DM.
	Private bool
	// Hidden commands are left out of help and menus (yes, no).
	Hidden  bool
	Handler Handler
}

var validName = regexp.MustCompile(`^[a-z0-9_]{1,32}$`)

// TraceSaver leaves a command turn's trace, as the runner does for the
// turns it answers, so `bot turns tail` shows command turns too.
type TraceSaver interface {
	SaveTraceTx(ctx context.Context, tx pgx.Tx, t hearth.Trace) error
}

// Registry holds the commands, in the order they are tried. The zero
// value is an empty registry ready to use.
type Registry struct {
	commands []Command
	buttons  []buttonRoute
	// Traces, when set, records a trace for every command turn.
	Traces TraceSaver
	// Now is the clock traces are timed with. Defaults to time.Now.
	Now func() time.Time
}

type buttonRoute struct {
	prefix  string
	handler Handler
}

// Register adds commands, tried after those registered before. It refuses
// a malformed or repeated name and a command without a handler.
func (g *Registry) Register(cmds ...Command) error {
	for _, c := range cmds {
		switch {
		case !validName.MatchString(c.Name):
			return fmt.Errorf("register command %q: a name is 1-32 of a-z, 0-9 and _", c.Name)
		case c.Handler == nil:
			return fmt.Errorf("register command %q: no handler", c.Name)
		case c.Help == "" && !c.Hidden:
			return fmt.Errorf("register command %q: no help line", c.Name)
		}
		if _, dup := g.Lookup(c.Name); dup {
			return fmt.Errorf("register command %q: registered twice", c.Name)
		}
		for _, ex := range c.Examples {
			if c.Match == nil || !c.Match(Normalise(ex)) {
				return fmt.Errorf("register command %q: its example %q does not match", c.Name, ex)
			}
		}
		g.commands = append(g.commands, c)
	}
	return nil
}

// RegisterButtons sends clicks on buttons whose id starts with prefix to
// h (a reminder's Done and Snooze, say).
func (g *Registry) RegisterButtons(prefix string, h Handler) {
	g.buttons = append(g.buttons, buttonRoute{prefix, h})
}

// Commands returns the registered commands, in order.
func (g *Registry) Commands() []Command { return append([]Command(nil), g.commands...) }

// Lookup returns the command with the name.
func (g *Registry) Lookup(name string) (Command, bool) {
	for _, c := range g.commands {
		if c.Name == name {
			return c, true
		}
	}
	return Command{}, false
}

// Match returns the first command a normalised message invokes, by name
// ("/link", "link CODE") or by phrasing, with the arguments after a name.
// It does no I/O; a handler may still decline.
func (g *Registry) Match(norm string) (Command, string, bool) {
	for _, c := range g.candidates(norm, norm) {
		return c.cmd, c.args, true
	}
	return Command{}, "", false
}

type candidate struct {
	cmd    Command
	args   string
	byName bool
}

// candidates lists the commands a message may be, in the order to try:
// a command named by the first word first, then those whose phrasings
// match, in registration order. tidy is the message as Tidy left it, so
// arguments keep their case; norm is it normalised.
func (g *Registry) candidates(tidy, norm string) []candidate {
	var out []candidate
	word, _, _ := strings.Cut(norm, " ")
	_, rest, _ := strings.Cut(tidy, " ")
	name, slash := strings.CutPrefix(word, "/")
	// A bare word invokes a command only alone or when the command takes
	// arguments: "start a family" is not the start command.
	if c, ok := g.Lookup(name); ok && (slash || rest == "" || c.Args != "") {
		out = append(out, candidate{c, rest, true})
	}
	for _, c := range g.commands {
		if c.Match != nil && c.Match(norm) && (len(out) == 0 || out[0].cmd.Name != c.Name) {
			out = append(out, candidate{cmd: c})
		}
	}
	return out
}

// Handler returns the pipeline step that runs commands and buttons routed
// here, passing every other turn to next.
func (g *Registry) Handler(next pipeline.Handler) pipeline.Handler {
	return pipeline.HandlerFunc(func(ctx context.Context, t pipeline.Turn) (pipeline.Answer, error) {
		start := g.now()
		var cands []candidate
		switch t.Event.Kind {
		case hearth.KindButton:
			for _, b := range g.buttons {
				if strings.HasPrefix(t.Event.ButtonID, b.prefix) {
					cands = append(cands, candidate{cmd: Command{Name: strings.TrimSuffix(b.prefix, ":"), Handler: b.handler, NeedsZone: true}})
				}
			}
		case hearth.KindCommand:
			name, args, _ := strings.Cut(strings.TrimSpace(t.Event.Text), " ")
			if c, ok := g.Lookup(name); ok {
				cands = []candidate{{c, strings.TrimSpace(args), true}}
			} else {
				return pipeline.Reply(fmt.Sprintf("I don't know the command %q. %s", name, g.helpHint())), nil
			}
		case hearth.KindMessage:
			tidy := Tidy(t.Event.Text)
			cands = g.candidates(tidy, strings.ToLower(tidy))
		}
		for _, c := range cands {
			if c.cmd.NeedsZone && t.User.Timezone == "" {
				continue
			}
			r := Request{Turn: t, Text: strings.TrimSpace(t.Event.Text), Args: c.args, ByName: c.byName}
			if c.byName {
				r.Text = strings.TrimSpace(c.cmd.Name + " " + c.args)
			}
			r.Norm = Normalise(r.Text)
			ans, ok, err := c.cmd.Handler.HandleCommand(ctx, r)
			if err != nil {
				return pipeline.Answer{}, fmt.Errorf("command %s: %w", c.cmd.Name, err)
			}
			if ok {
				if !ans.Traced {
					g.trace(&ans, t, c.cmd.Name, start)
				}
				return ans, nil
			}
		}
		return next.HandleTurn(ctx, t)
	})
}

// trace adds the command turn's trace to its unit of work.
func (g *Registry) trace(a *pipeline.Answer, t pipeline.Turn, name string, start time.Time) {
	if g.Traces == nil {
		return
	}
	intent := "command"
	if t.Event.Kind == hearth.KindButton {
		intent = "button"
	}
	tr := hearth.Trace{
		EventID: t.Event.ID, ConversationID: t.Event.ConversationID, UserID: t.User.ID,
		Intent: intent, Domains: []string{name}, Confidence: 1,
		Timings: map[string]int64{"total": g.now().Sub(start).Microseconds()}, Actions: append([]hearth.TraceAction{}, a.Actions...),
	}
	// A trace is for operators: losing one (its user was just merged into
	// another by /link) is not worth failing the user's turn over, so it
	// is written under a savepoint that a failure rolls back alone.
	a.Add(func(ctx context.Context, tx pgx.Tx) error {
		sp, err := tx.Begin(ctx)
		if err != nil {
			return fmt.Errorf("trace savepoint: %w", err)
		}
		if err := g.Traces.SaveTraceTx(ctx, sp, tr); err != nil {
			return sp.Rollback(ctx)
		}
		return sp.Commit(ctx)
	})
}

func (g *Registry) now() time.Time {
	if g.Now != nil {
		return g.Now()
	}
	return time.Now()
}

// Normalise is how commands read a message: Tidy, in lower case.
func Normalise(s string) string { return strings.ToLower(Tidy(s)) }

// Tidy makes a phone's curly apostrophe straight, folds runs of spaces
// and drops trailing punctuation, keeping the case of names ("let
// Grandma see only basics").
func Tidy(s string) string {
	s = strings.ReplaceAll(strings.TrimSpace(s), "’", "'")
	s = strings.TrimRightFunc(s, func(r rune) bool { return strings.ContainsRune(".!? ", r) })
	return strings.Join(strings.Fields(s), " ")
}
