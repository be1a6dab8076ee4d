package memory

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/commands"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/pipeline"
)

// GraphShareStore is what giving a node's part of the memory graph to the
// family needs.
type GraphShareStore interface {
	FindEntities(ctx context.Context, f hearth.EntityFilter) ([]hearth.Entity, error)
	FindFamily(ctx context.Context, userID int64) (hearth.Family, error)
	ShareNodeWithFamily(ctx context.Context, ownerID, entityID int64, family bool) (hearth.GraphShare, error)
}

var (
	// "share what you know about Bob with the family", "share Bob with
	// my family", "give the family your notes on Bob".
	reShareNode = regexp.MustCompile(`(?i)^(?:please\s+)?(?:share\s+(?:(?:what|everything|all)\s+you\s+(?:know|have)\s+(?:about|on)\s+|(?:my\s+|your\s+|the\s+)?notes\s+(?:about|on)\s+)?(.+?)\s+with\s+(?:the\s+(?:whole\s+)?family|my\s+family|our\s+family|everyone\s+in\s+the\s+family)|give\s+(?:the\s+family|my\s+family|our\s+family)\s+(?:what\s+you\s+know\s+about|everything\s+about|your\s+notes\s+on|my\s+notes\s+on)\s+(.+?))(?:\s+too)?$`)
	// "make what you know about Bob private", "keep Bob private", "stop
	// sharing Bob with the family".
	reUnshareNode = regexp.MustCompile(`(?i)^(?:please\s+)?(?:(?:make|keep)\s+(?:(?:what|everything)\s+you\s+know\s+about\s+|my\s+notes\s+on\s+|the\s+notes\s+on\s+)?(.+?)\s+private(?:\s+again)?|stop\s+sharing\s+(?:(?:what|everything)\s+you\s+know\s+about\s+)?(.+?)\s+with\s+(?:the|my|our)\s+family)$`)
)

// readShareNode reads a request to give a node's part of the graph to the
// family (family true) or to take it back, and the node's name.
func readShareNode(text string) (name string, family, ok bool) {
	t := commands.Tidy(text)
	if g := reShareNode.FindStringSubmatch(t); g != nil {
		name, family = strings.TrimSpace(g[1]+g[2]), true
	} else if g := reUnshareNode.FindStringSubmatch(t); g != nil {
		name = strings.TrimSpace(g[1] + g[2])
	} else {
		return "", false, false
	}
	// "share this with the family" is the share command's (the fact told
	// last), and a name is a few words.
	switch strings.ToLower(name) {
	case "", "this", "that", "it", "everything", "my stuff", "my things":
		return "", false, false
	}
	return name, family, len(strings.Fields(name)) <= 4
}

// GraphShareCommand is "share what you know about Bob with the family":
// the person or thing (the user's own entity), the user's relationships
// touching it with their other ends, and the user's notes on them become
// the family's, seen by every member. "Make what you know about Bob
// private" takes the node, those relationships and notes back.
func GraphShareCommand(st GraphShareStore) commands.Command {
	return commands.Command{
		Name: "share_node", Args: "NAME [private]",
		Help:     "give your family what I know about someone or something (their notes and relationships), or make it private again",
		Examples: []string{"share what you know about Bob with the family", "make what you know about Bob private"},
		Match: func(norm string) bool {
			_, _, ok := readShareNode(norm)
			return ok
		},
		Handler: commands.HandlerFunc(func(ctx context.Context, r commands.Request) (pipeline.Answer, bool, error) {
			name, family, ok := readShareNode(r.Text)
			if !ok && r.ByName {
				// "/share_node Bob", "/share_node Bob private"
				rest, private := strings.CutSuffix(strings.TrimSpace(r.Args), " private")
				name, family, ok = strings.TrimSpace(rest), !private, strings.TrimSpace(rest) != ""
			}
			if !ok {
				return pipeline.Reply("Say “share what you know about NAME with the family”, or “make what you know about NAME private”."), true, nil
			}
			text, err := shareNode(ctx, st, r.User.ID, name, family)
			return pipeline.Reply(text), err == nil, err
		}),
	}
}

func shareNode(ctx context.Context, st GraphShareStore, uid int64, name string, family bool) (string, error) {
	fam, err := st.FindFamily(ctx, uid)
	if errors.Is(err, hearth.ErrNotFound) {
		if family {
			return notInFamily, nil
		}
	} else if err != nil {
		return "", fmt.Errorf("share node: %w", err)
	}
	es, err := st.FindEntities(ctx, hearth.EntityFilter{UserID: uid, Name: strings.TrimPrefix(name, "the "), Limit: 10})
	if err != nil {
		return "", fmt.Errorf("share node: %w", err)
	}
	var mine []hearth.Entity
	for _, e := range es {
		if e.UserID == uid {
			mine = append(mine, e)
		}
	}
	switch {
	case len(mine) == 0 && len(es) > 0:
		return "What I know about " + markdown.Escape(es[0].Name) + " was told by someone else, so it is theirs to share.", nil
	case len(mine) == 0:
		return "I don't know anyone or anything called " + markdown.Escape(name) + " yet.", nil
	}
	e := mine[0]
	n, err := st.ShareNodeWithFamily(ctx, uid, e.ID, family)
	if err != nil {
		return "", fmt.Errorf("share node: %w", err)
	}
	what := markdown.Escape(e.Name)
	if parts := graphCounts(n); parts != "" {
		what += ", with " + parts + ","
	}
	if family {
		return "Done — " + what + " now belongs to " + markdown.Escape(fam.Name) + ": everyone in it sees it, and it stays with the family.", nil
	}
	return "Done — " + what + " is yours alone again: your family sees it only as your access settings allow.", nil
}

// graphCounts says how many relationships and notes a share moved: "2
// relationships and 1 note".
func graphCounts(n hearth.GraphShare) string {
	var parts []string
	plural := func(k int, one string) string {
		if k == 1 {
			return "1 " + one
		}
		return strconv.Itoa(k) + " " + one + "s"
	}
	if n.Relationships > 0 {
		parts = append(parts, plural(n.Relationships, "relationship"))
	}
	if n.Notes > 0 {
		parts = append(parts, plural(n.Notes, "note"))
	}
	return strings.Join(parts, " and ")
}
