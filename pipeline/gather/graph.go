package gather

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/memory"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
)

// graphNodes is how many named nodes a turn reads the graph around, and
// graphLimit how many relationships and notes of each.
const (
	graphNodes = 3
	graphLimit = 20
	// relatedLimit is how many relationships a question finds by meaning.
	relatedLimit = 5
)

// graph reads the memory graph around the people and things the message
// names ("tell me about Bob", "what do you know about Priya?", a person
// the classifier found): each node's relationships that hold now and its
// live notes join the context, every read through the permission
// predicate in the store's query.
func (s Sources) graph(ctx context.Context, c *stage.Context, uid int64, u stage.Understanding, text string, now time.Time) error {
	if s.Graph == nil || s.Entities == nil || u.Intent == nlu.Chat {
		return nil
	}
	names := graphNames(u, text)
	for _, n := range names {
		es, err := s.Entities.FindEntities(ctx, hearth.EntityFilter{UserID: uid, Name: n, Limit: 1})
		if err != nil {
			return fmt.Errorf("context: the graph around %q: %w", n, err)
		}
		if len(es) == 0 {
			continue
		}
		// c.Entities stays the questions' and recipients' own (read
		// below): the graph adds only what is around the node.
		e := es[0]
		rs, err := s.Graph.FindRelationships(ctx, hearth.RelationshipFilter{UserID: uid, EntityID: e.ID, Now: now, Limit: graphLimit})
		if err != nil {
			return fmt.Errorf("context: relationships of %s: %w", e.Name, err)
		}
		for _, r := range rs {
			if !slices.ContainsFunc(c.Relationships, func(x hearth.Relationship) bool { return x.ID == r.ID }) {
				c.Relationships = append(c.Relationships, r)
			}
		}
		ns, err := s.Graph.FindGraphNotes(ctx, hearth.GraphNoteFilter{UserID: uid, EntityID: e.ID, Now: now, Limit: graphLimit})
		if err != nil {
			return fmt.Errorf("context: notes on %s: %w", e.Name, err)
		}
		c.GraphNotes = append(c.GraphNotes, ns...)
	}
	return nil
}

// graphNames are the names a message gives: whom a question about
// someone asks after, then the people the classifier found, at most
// graphNodes, without repeats.
func graphNames(u stage.Understanding, text string) []string {
	var out []string
	add := func(n string) {
		n = strings.TrimSpace(n)
		if n == "" || len(out) == graphNodes || slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, n) }) {
			return
		}
		out = append(out, n)
	}
	if who, ok := memory.AskedAbout(text); ok {
		add(who)
	}
	for _, p := range u.Slots.People {
		add(p)
	}
	return out
}

// related reads, for a question, the relationships nearest by meaning
// to its words (with embeddings), and for "who do I know who …?" also
// the relationships and the notes on people whose words match what is
// asked, offline, and the notes on people nearest by meaning (with
// embeddings). Every read goes through the permission predicate.
func (s Sources) related(ctx context.Context, c *stage.Context, uid int64, text, query string, now time.Time) error {
	what, who := memory.AskedWhoKnown(text)
	if who {
		query = what
	}
	if s.Related != nil && query != "" {
		c.Related = s.Related.RelatedTo(ctx, uid, query, relatedLimit, now)
	}
	if !who || s.Graph == nil {
		return nil
	}
	rs, err := s.Graph.FindRelationships(ctx, hearth.RelationshipFilter{UserID: uid, Query: what, Now: now, Limit: relatedLimit})
	if err != nil {
		return fmt.Errorf("context: relationships about %q: %w", what, err)
	}
	for _, r := range rs {
		if !slices.ContainsFunc(c.Related, func(x hearth.Relationship) bool { return x.ID == r.ID }) {
			c.Related = append(c.Related, r)
		}
	}
	// A relationship's notes come with it (above); the notes on people
	// and things are the words' matches, then, with embeddings, the
	// nearest by meaning.
	onNodes, err := s.Graph.FindGraphNotes(ctx, hearth.GraphNoteFilter{UserID: uid, Query: what, Now: now, OnNodes: true, Limit: relatedLimit})
	if err != nil {
		return fmt.Errorf("context: notes about %q: %w", what, err)
	}
	if s.Related != nil {
		onNodes = s.Related.NotesAbout(ctx, uid, what, relatedLimit, now, onNodes)
	}
	c.RelatedNotes = append(c.RelatedNotes, onNodes...)
	return nil
}
