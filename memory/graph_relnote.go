package memory

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/commands"
	"github.com/hearthbot/hearth/internal/markdown"
)

// addRelationshipNote notes something on the relationship between two
// nodes named "A and B" ("note on Emma and Lily: fell out over a toy for
// a week"): the relationship that holds now between them, either way,
// that the user may see. ok is false when the name is not two known nodes
// with a relationship ("Bob and Alice's wedding" is one node), and the
// note goes on a node as before.
func addRelationshipNote(ctx context.Context, st GraphStore, r commands.Request, name, body string, lifetime hearth.Lifetime, now time.Time) (string, bool, error) {
	a, b, two := strings.Cut(name, " and ")
	if !two {
		return "", false, nil
	}
	ea, okA, err := node(ctx, st, r.User.ID, strings.TrimSpace(a))
	if err != nil || !okA {
		return "", false, err
	}
	eb, okB, err := node(ctx, st, r.User.ID, strings.TrimSpace(b))
	if err != nil || !okB || ea.ID == eb.ID {
		return "", false, err
	}
	rs, err := st.FindRelationships(ctx, hearth.RelationshipFilter{UserID: r.User.ID, EntityID: ea.ID, Now: now, Limit: 100})
	if err != nil {
		return "", false, fmt.Errorf("note: %w", err)
	}
	for _, rel := range rs {
		if rel.FromID != eb.ID && rel.ToID != eb.ID {
			continue
		}
		n, err := st.AddGraphNote(ctx, hearth.GraphNote{AddedBy: r.User.ID, RelationshipID: rel.ID, Body: body, Lifetime: lifetime, SourceEventID: r.Event.ID}, now)
		if err != nil {
			return "", true, fmt.Errorf("note: %w", err)
		}
		return "Noted on " + markdown.Escape(rel.FromName) + " → " + markdown.Escape(rel.ToName) + ", " + expiry(n, zoneOf(r.User)) + ": “" + markdown.Escape(n.Body) + "”.", true, nil
	}
	x, y := markdown.Escape(ea.Name), markdown.Escape(eb.Name)
	return "I don't know how " + x + " and " + y + " are related yet. Tell me first (“" + y + " is " + x + "'s friend”).", true, nil
}
