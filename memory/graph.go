package memory

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/commands"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/pipeline/nlu"
)

// GraphStore is what the memory graph's chat commands read and write.
// Every read goes through the permission predicate, in the query.
type GraphStore interface {
	FindEntities(ctx context.Context, f hearth.EntityFilter) ([]hearth.Entity, error)
	SaveEntity(ctx context.Context, e hearth.Entity) (hearth.Entity, error)
	AddGraphNote(ctx context.Context, n hearth.GraphNote, now time.Time) (hearth.GraphNote, error)
	FindGraphNotes(ctx context.Context, f hearth.GraphNoteFilter) ([]hearth.GraphNote, error)
	FindRelationships(ctx context.Context, f hearth.RelationshipFilter) ([]hearth.Relationship, error)
	ConfirmRelationship(ctx context.Context, viewerID, id int64) (bool, error)
	FindStorylines(ctx context.Context, f hearth.StorylineFilter) ([]hearth.Storyline, error)
}

// GraphButtonPrefix starts the id of the button that confirms an inferred
// relationship ("graph:confirm:ID").
const GraphButtonPrefix = "graph:"

var (
	// "note on Bob: stressed about the move", "add a note to Emma: into dinosaurs this year"
	reNoteOn = regexp.MustCompile(`(?i)^(?:please\s+)?(?:add\s+a\s+)?note\s+(?:on|to|about|for)\s+(.+?)\s*:\s*(.+)$`)
	// "note that Bob is stressed about the move for a week": with a
	// lifetime said, a note on a node; without one, "note that …" stays a
	// fact for the memory planner.
	reNoteThat = regexp.MustCompile(`(?i)^(?:please\s+)?(?:make\s+a\s+)?note\s+that\s+(.+)$`)
	reLifetime = regexp.MustCompile(`(?i)\s*,?\s*\b(for\s+(?:a|one|the)\s+(week|month|year)|(?:for\s+)?this\s+(week|month|year)|(?:for\s+)?(forever|for\s+good|permanently|always))\s*$`)
	// The node a note's sentence is about: its leading name ("Bob is …",
	// "Emma's piano …", "the move is …").
	reSubject   = regexp.MustCompile(`^((?:the\s+|my\s+|our\s+)?[\p{L}][\p{L}\-]*(?:\s+[\p{Lu}][\p{L}\-]*)?)(?:'s)?\s+(?:is|are|was|has|have|had|loves|likes|hates|wants|needs|seems|feels|got|started|will|can|can't|does|doesn't|isn't)\b`)
	reNotesOn   = regexp.MustCompile(`(?i)^what\s+notes\s+(?:do\s+you\s+have|have\s+you\s+got)\s+(?:on|about|for)\s+(.+)$`)
	reCloseTo   = regexp.MustCompile(`(?i)^who\s+(?:is|are)\s+(.+?)\s+close\s+to$`)
	reHowKnow   = regexp.MustCompile(`(?i)^how\s+do\s+(?:i|we)\s+know\s+(.+)$`)
	reInto      = regexp.MustCompile(`(?i)^what(?:'s|\s+is|\s+are)\s+(.+?)\s+into$`)
	reGoingOnOf = regexp.MustCompile(`(?i)^what(?:'s|\s+has)\s+been\s+(?:going\s+on|happening)\s+with\s+(.+)$`)
	reGoingOn   = regexp.MustCompile(`(?i)^what(?:'s|\s+is|\s+has)\s+(?:been\s+)?going\s+on(?:\s+lately|\s+recently)?$`)
)

// ReadGraphNote reads a note with a lifetime: the name of what it is
// about, the note, and its lifetime ("" is the default, a month). ok is
// false when the message is not such a note.
func ReadGraphNote(text string) (name, body string, lifetime hearth.Lifetime, ok bool) {
	text = commands.Tidy(text)
	if g := reNoteOn.FindStringSubmatch(text); g != nil {
		name = strings.TrimSpace(g[1])
		_, _, list := nlu.ListNote(text)
		if _, _, event := nlu.EventNote(text); list || event {
			// "Add a note to my packing list: …" is for the list, "… to
			// the dentist appointment: …" for the event: not a node.
			return "", "", "", false
		}
		body, lifetime = cutLifetime(g[2])
		return name, body, lifetime, body != ""
	}
	g := reNoteThat.FindStringSubmatch(text)
	if g == nil {
		return "", "", "", false
	}
	body, lifetime = cutLifetime(g[1])
	if lifetime == "" {
		return "", "", "", false
	}
	s := reSubject.FindStringSubmatch(body)
	if s == nil {
		return "", "", "", false
	}
	return strings.TrimSpace(s[1]), prose.UpperFirst(body), lifetime, true
}

// cutLifetime takes a lifetime phrase off the end of a note ("this
// year" → year; "Emma is into dinosaurs this year" keeps its meaning
// without it, as the expiry says it).
func cutLifetime(s string) (string, hearth.Lifetime) {
	s = strings.TrimSpace(s)
	loc := reLifetime.FindStringSubmatchIndex(s)
	if loc == nil {
		return s, ""
	}
	g := reLifetime.FindStringSubmatch(s)
	var l hearth.Lifetime
	switch {
	case g[2] != "":
		l = hearth.Lifetime(strings.ToLower(g[2]))
	case g[3] != "":
		l = hearth.Lifetime(strings.ToLower(g[3]))
	default:
		l = hearth.LifetimeForever
	}
	return strings.TrimSpace(s[:loc[0]]), l
}

// GraphQuestionKind is what a question to the memory graph asks.
type GraphQuestionKind int

// The questions the memory graph answers.
const (
	// NotesOn: "what notes do you have on Bob?" — the live notes.
	NotesOn GraphQuestionKind = iota + 1
	// CloseTo: "who is Emma close to?" — the closest relationships.
	CloseTo
	// HowKnow: "how do I know Priya?" — the paths from the user.
	HowKnow
	// Into: "what is Bob into?" — what Bob engages with, warmly.
	Into
	// GoingOn: "what's been going on with the move?", "what's going on?"
	// — storylines (Name empty: all recent ones).
	GoingOn
)

// GraphQuestion is a question to the memory graph.
type GraphQuestion struct {
	Kind GraphQuestionKind
	Name string
}

// notAName are first words that make "how do I know if it rains" a
// question about something other than a node.
var notAName = map[string]bool{"if": true, "whether": true, "when": true, "what": true, "where": true, "why": true,
	"how": true, "that": true, "which": true, "who": true, "it": true, "this": true, "you": true, "about": true}

// ReadGraphQuestion reads a question to the memory graph, or reports
// false.
func ReadGraphQuestion(text string) (GraphQuestion, bool) {
	t := commands.Tidy(text)
	for _, c := range []struct {
		re   *regexp.Regexp
		kind GraphQuestionKind
	}{{reNotesOn, NotesOn}, {reCloseTo, CloseTo}, {reHowKnow, HowKnow}, {reInto, Into}, {reGoingOnOf, GoingOn}} {
		if g := c.re.FindStringSubmatch(t); g != nil {
			name := trimName(g[1])
			if name == "" || len(strings.Fields(name)) > 5 || notAName[strings.ToLower(strings.Fields(name)[0])] {
				return GraphQuestion{}, false
			}
			return GraphQuestion{Kind: c.kind, Name: name}, true
		}
	}
	if reGoingOn.MatchString(t) {
		return GraphQuestion{Kind: GoingOn}, true
	}
	return GraphQuestion{}, false
}

// GraphCommands are the memory graph's chat commands: a note with a
// lifetime, and the questions it answers offline. Who added a note and
// the message it came from are the turn's, set here. now is the clock.
func GraphCommands(st GraphStore, now func() time.Time) []commands.Command {
	if now == nil {
		now = time.Now
	}
	note := commands.Command{
		Name: "note_on", Args: "NAME: NOTE",
		Help:      "note something about someone for a while (a week, a month, a year, forever)",
		Examples:  []string{"note on Bob: stressed about the move for a week", "note that Emma is into dinosaurs this year"},
		NeedsZone: true,
		Match: func(norm string) bool {
			_, _, _, ok := ReadGraphNote(norm)
			return ok
		},
		Handler: commands.HandlerFunc(func(ctx context.Context, r commands.Request) (pipeline.Answer, bool, error) {
			text := r.Text
			if r.ByName {
				text = "note on " + r.Args
			}
			name, body, lifetime, ok := ReadGraphNote(text)
			if !ok {
				return pipeline.Reply("Say “note on NAME: …”, and for how long (“for a week”, “this year”, “forever”)."), true, nil
			}
			msg, err := addNote(ctx, st, r, name, body, lifetime, now())
			return pipeline.Reply(msg), err == nil, err
		}),
	}
	ask := commands.Command{
		Name: "graph", Args: "QUESTION",
		Help:      "ask what I know of people and threads: notes, who is close, how you know someone, what's going on",
		Examples:  []string{"what notes do you have on Bob?", "who is Emma close to?", "how do I know Priya?", "what is Bob into?", "what's been going on with the move?", "what's going on?"},
		NeedsZone: true,
		Private:   true,
		Match: func(norm string) bool {
			_, ok := ReadGraphQuestion(norm)
			return ok
		},
		Handler: commands.HandlerFunc(func(ctx context.Context, r commands.Request) (pipeline.Answer, bool, error) {
			text := r.Text
			if r.ByName {
				text = r.Args
			}
			q, ok := ReadGraphQuestion(text)
			if !ok {
				return pipeline.Answer{}, false, nil
			}
			return answerGraph(ctx, st, r.User, q, now())
		}),
	}
	return []commands.Command{note, ask}
}

// GraphButtons confirms an inferred relationship from its button.
func GraphButtons(st GraphStore) commands.Handler {
	return commands.HandlerFunc(func(ctx context.Context, r commands.Request) (pipeline.Answer, bool, error) {
		idText, ok := strings.CutPrefix(r.Event.ButtonID, GraphButtonPrefix+"confirm:")
		id, err := strconv.ParseInt(idText, 10, 64)
		if !ok || err != nil {
			return pipeline.Answer{}, false, nil
		}
		changed, err := st.ConfirmRelationship(ctx, r.User.ID, id)
		if err != nil {
			return pipeline.Answer{}, true, fmt.Errorf("confirm relationship: %w", err)
		}
		if !changed {
			return pipeline.Reply("That one was confirmed already."), true, nil
		}
		return pipeline.Reply("Thanks — confirmed."), true, nil
	})
}

// node finds the entity a name stands for, as the viewer sees it.
func node(ctx context.Context, st GraphStore, uid int64, name string) (hearth.Entity, bool, error) {
	es, err := st.FindEntities(ctx, hearth.EntityFilter{UserID: uid, Name: name, Limit: 1})
	if err != nil || len(es) == 0 {
		return hearth.Entity{}, false, err
	}
	return es[0], true, nil
}

func addNote(ctx context.Context, st GraphStore, r commands.Request, name, body string, lifetime hearth.Lifetime, now time.Time) (string, error) {
	if msg, ok, err := addRelationshipNote(ctx, st, r, name, body, lifetime, now); ok || err != nil {
		return msg, err
	}
	e, found, err := node(ctx, st, r.User.ID, strings.TrimPrefix(strings.TrimPrefix(name, "my "), "our "))
	if err != nil {
		return "", fmt.Errorf("note: %w", err)
	}
	if !found {
		// A new node: a person when it is a name, else a concept ("the move").
		kind := hearth.EntityConcept
		if r0 := []rune(name); unicode.IsUpper(r0[0]) && !strings.HasPrefix(strings.ToLower(name), "the ") {
			kind = hearth.EntityPerson
		}
		if e, err = st.SaveEntity(ctx, hearth.Entity{UserID: r.User.ID, Name: strings.TrimPrefix(name, "the "), Kind: kind}); err != nil {
			return "", fmt.Errorf("note: %w", err)
		}
	}
	n, err := st.AddGraphNote(ctx, hearth.GraphNote{AddedBy: r.User.ID, EntityID: e.ID, Body: body, Lifetime: lifetime, SourceEventID: r.Event.ID}, now)
	if err != nil {
		return "", fmt.Errorf("note: %w", err)
	}
	return "Noted on " + markdown.Escape(e.Name) + ", " + expiry(n, zoneOf(r.User)) + ": “" + markdown.Escape(n.Body) + "”.", nil
}

func zoneOf(u hearth.User) *time.Location {
	if loc, err := time.LoadLocation(u.Timezone); err == nil && u.Timezone != "" {
		return loc
	}
	return time.UTC
}

// expiry says until when a note lives.
func expiry(n hearth.GraphNote, loc *time.Location) string {
	if n.ExpiresAt.IsZero() {
		return "kept until you remove it"
	}
	return "until " + n.ExpiresAt.In(loc).Format("Mon 2 Jan 2006")
}

func answerGraph(ctx context.Context, st GraphStore, u hearth.User, q GraphQuestion, now time.Time) (pipeline.Answer, bool, error) {
	if q.Kind == GoingOn {
		text, err := goingOn(ctx, st, u, q.Name, now)
		return pipeline.Reply(text), err == nil, err
	}
	name := q.Name
	if q.Kind == HowKnow {
		name = strings.TrimPrefix(name, "my ")
	}
	e, found, err := node(ctx, st, u.ID, name)
	if err != nil {
		return pipeline.Answer{}, true, fmt.Errorf("graph question: %w", err)
	}
	if !found && q.Kind == HowKnow {
		// "How do I know Zed?" about no one Hearth knows: the turn goes
		// on, as a question the pipeline may answer otherwise.
		return pipeline.Answer{}, false, nil
	}
	if !found {
		return pipeline.Reply("I don't know anyone or anything called " + q.Name + " yet."), true, nil
	}
	switch q.Kind {
	case NotesOn:
		ns, err := st.FindGraphNotes(ctx, hearth.GraphNoteFilter{UserID: u.ID, EntityID: e.ID, Now: now})
		if err != nil {
			return pipeline.Answer{}, true, fmt.Errorf("graph question: %w", err)
		}
		return pipeline.Reply(NotesAnswer(e.Name, ns, zoneOf(u))), true, nil
	case CloseTo, Into:
		rs, err := st.FindRelationships(ctx, hearth.RelationshipFilter{UserID: u.ID, EntityID: e.ID, Now: now})
		if err != nil {
			return pipeline.Answer{}, true, fmt.Errorf("graph question: %w", err)
		}
		var text string
		if q.Kind == CloseTo {
			text = CloseToAnswer(e, rs)
		} else {
			ns, err := st.FindGraphNotes(ctx, hearth.GraphNoteFilter{UserID: u.ID, EntityID: e.ID, Now: now})
			if err != nil {
				return pipeline.Answer{}, true, fmt.Errorf("graph question: %w", err)
			}
			text = IntoAnswer(e, rs, ns)
		}
		return withConfirm(text, rs), true, nil
	case HowKnow:
		rs, err := howKnow(ctx, st, u.ID, e, now)
		if err != nil {
			return pipeline.Answer{}, true, fmt.Errorf("graph question: %w", err)
		}
		return withConfirm(HowKnowAnswer(e, rs), rs), true, nil
	}
	return pipeline.Answer{}, false, nil
}

// withConfirm offers a button for the first unconfirmed relationship an
// answer rests on: inferred relationships are candidates until the user
// says they are right.
func withConfirm(text string, rs []hearth.Relationship) pipeline.Answer {
	a := pipeline.Reply(text)
	if b, ok := ConfirmButton(rs); ok {
		a.Replies[0].Buttons = []hearth.Button{b}
	}
	return a
}

// ConfirmButton is the Confirm button of the first candidate among the
// relationships an answer rests on, if any.
func ConfirmButton(rs []hearth.Relationship) (hearth.Button, bool) {
	for _, r := range rs {
		if r.State == hearth.RelationshipCandidate {
			return hearth.Button{ID: GraphButtonPrefix + "confirm:" + strconv.FormatInt(r.ID, 10),
				Label: "Confirm " + r.FromName + " → " + r.ToName}, true
		}
	}
	return hearth.Button{}, false
}

// howKnow reads the paths from the user's own node to e: a relationship
// either way, else one node in between.
func howKnow(ctx context.Context, st GraphStore, uid int64, e hearth.Entity, now time.Time) ([]hearth.Relationship, error) {
	selves, err := st.FindEntities(ctx, hearth.EntityFilter{UserID: uid, Relation: "self", Limit: 10})
	if err != nil {
		return nil, err
	}
	var self hearth.Entity
	for _, s := range selves {
		if s.MemberID == uid && s.UserID == uid {
			self = s
		}
	}
	target, err := st.FindRelationships(ctx, hearth.RelationshipFilter{UserID: uid, EntityID: e.ID, Now: now})
	if err != nil || self.ID == 0 {
		return target, err
	}
	mine, err := st.FindRelationships(ctx, hearth.RelationshipFilter{UserID: uid, EntityID: self.ID, Now: now})
	if err != nil {
		return nil, err
	}
	other := func(r hearth.Relationship, id int64) int64 {
		if r.FromID == id {
			return r.ToID
		}
		return r.FromID
	}
	for _, r := range target {
		if other(r, e.ID) == self.ID {
			return []hearth.Relationship{r}, nil
		}
	}
	for _, m := range mine {
		via := other(m, self.ID)
		for _, r := range target {
			if other(r, e.ID) == via {
				return []hearth.Relationship{m, r}, nil
			}
		}
	}
	return nil, nil
}

// NotesAnswer lists the live notes on a node with their expiry.
func NotesAnswer(name string, ns []hearth.GraphNote, loc *time.Location) string {
	if len(ns) == 0 {
		return "I have no notes on " + name + " right now."
	}
	lines := []string{"Notes on " + name + ":"}
	for _, n := range ns {
		lines = append(lines, "• "+markdown.Escape(n.Body)+" ("+expiry(n, loc)+")")
	}
	return strings.Join(lines, "\n")
}

// closeness says a relationship in its pair's words: "close, known-well".
func closeness(r hearth.Relationship) string {
	s := r.AttitudeWord() + ", " + r.ProximityWord()
	if r.Label != "" {
		s = r.Label + "; " + s
	}
	if r.State == hearth.RelationshipCandidate {
		s += "; not confirmed"
	}
	return s
}

// CloseToAnswer lists the people a person is closest to, closest first:
// relationships between people whose proximity or attitude is 4 or more.
func CloseToAnswer(e hearth.Entity, rs []hearth.Relationship) string {
	var parts []string
	for _, r := range rs {
		if hearth.NodeTypeOf(r.FromKind) != hearth.NodePerson || hearth.NodeTypeOf(r.ToKind) != hearth.NodePerson {
			continue
		}
		if r.Proximity < 4 && r.Attitude < 4 {
			continue
		}
		other := r.ToName
		if r.ToID == e.ID {
			other = r.FromName
		}
		parts = append(parts, other+" ("+closeness(r)+")")
	}
	if len(parts) == 0 {
		return "I don't know of anyone " + e.Name + " is close to yet."
	}
	return e.Name + " is close to " + prose.List(parts) + "."
}

// IntoAnswer lists what a person engages with warmly (attitude 4 or more,
// from them to a concept or thing), and the live notes on them.
func IntoAnswer(e hearth.Entity, rs []hearth.Relationship, ns []hearth.GraphNote) string {
	var parts []string
	for _, r := range rs {
		if r.FromID != e.ID || hearth.NodeTypeOf(r.ToKind) == hearth.NodePerson || r.Attitude < 4 {
			continue
		}
		parts = append(parts, r.ToName+" ("+closeness(r)+")")
	}
	var lines []string
	if len(parts) > 0 {
		lines = append(lines, e.Name+" is into "+prose.List(parts)+".")
	}
	for _, n := range ns {
		lines = append(lines, "Noted: "+markdown.Escape(n.Body))
	}
	if len(lines) == 0 {
		return "I don't know what " + e.Name + " is into yet."
	}
	return strings.Join(lines, "\n")
}

// HowKnowAnswer says how the user knows e: directly, or through someone
// or something.
func HowKnowAnswer(e hearth.Entity, path []hearth.Relationship) string {
	say := func(r hearth.Relationship) string {
		s := markdown.Escape(r.FromName) + " → " + markdown.Escape(r.ToName) + " (" + closeness(r) + ")"
		if r.Description != "" {
			s += ", " + markdown.Escape(prose.LowerFirst(strings.TrimRight(r.Description, ".")))
		}
		return s
	}
	switch len(path) {
	case 1:
		return "You know " + e.Name + " directly: " + say(path[0]) + "."
	case 2:
		via := path[0].ToName
		if path[0].ToID == path[1].FromID || path[0].ToID == path[1].ToID {
			via = path[0].ToName
		} else {
			via = path[0].FromName
		}
		return "You know " + e.Name + " through " + via + ": " + say(path[0]) + ", and " + say(path[1]) + "."
	}
	return "I don't know how you know " + e.Name + " yet."
}

// GoingOnLine is the briefing's "what's going on" line: the storylines
// mentioned lately, most recent first, grouped by theme; "" when none.
func GoingOnLine(ss []hearth.Storyline) string {
	var names []string
	seen := map[string]bool{}
	for _, s := range ss {
		n := s.Title
		if s.ThemeTitle != "" {
			n = s.ThemeTitle
		}
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
		if len(names) == 4 {
			break
		}
	}
	if len(names) == 0 {
		return ""
	}
	return "What's going on: " + prose.List(names) + "."
}

func goingOn(ctx context.Context, st GraphStore, u hearth.User, name string, now time.Time) (string, error) {
	ss, err := st.FindStorylines(ctx, hearth.StorylineFilter{UserID: u.ID, Name: name, Since: now.AddDate(0, 0, -30), Limit: 10})
	if err != nil {
		return "", fmt.Errorf("going on: %w", err)
	}
	if name == "" {
		if line := GoingOnLine(ss); line != "" {
			return line, nil
		}
		return "Nothing has come up again and again lately.", nil
	}
	if len(ss) == 0 {
		return "Nothing about " + name + " has come up over several days lately.", nil
	}
	loc := zoneOf(u)
	var lines []string
	for _, s := range ss {
		line := prose.UpperFirst(s.Title) + ": mentioned on " + strconv.Itoa(s.Days) + " days since " + s.FirstAt.In(loc).Format("2 Jan") +
			", last on " + s.LastAt.In(loc).Format("Mon 2 Jan")
		if s.ThemeTitle != "" && s.ThemeTitle != s.Title {
			line += " (part of " + s.ThemeTitle + ")"
		}
		lines = append(lines, line+".")
		ns, err := st.FindGraphNotes(ctx, hearth.GraphNoteFilter{UserID: u.ID, EntityID: s.EntityID, Now: now, Limit: 3})
		if err != nil {
			return "", fmt.Errorf("going on: %w", err)
		}
		for _, n := range ns {
			lines = append(lines, "• "+n.Body)
		}
	}
	return strings.Join(lines, "\n"), nil
}
