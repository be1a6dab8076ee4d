package gather

import (
	"context"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/hybrid"
	"github.com/hearthbot/hearth/pipeline/llm"
)

// Recall finds memories and notes by their words (the store's full-text
// and trigram searches) and, for a query, also by meaning: the query is
// embedded and the nearest embedded rows are mixed in after the text
// matches. Every search is the store's permission-aware query; nothing is
// filtered afterwards. Without an Embedder, the text searches answer
// alone: there are never fake vectors.
type Recall struct {
	// Text is the memories' full-text and trigram search (the store's
	// FindMemories).
	Text interface {
		FindMemories(context.Context, hearth.MemoryFilter) ([]hearth.Memory, error)
	}
	// NoteText is the notes' word and trigram search (the store's
	// FindNotes). Needed only by FindNotes.
	NoteText interface {
		FindNotes(context.Context, hearth.NoteFilter) ([]hearth.Note, error)
	}
	// Similar is the vector search (the store's SimilarMemories and
	// SimilarNotes).
	Similar interface {
		SimilarMemories(ctx context.Context, userID int64, model string, vec []float32, about string, maxDistance float64, limit int) ([]hearth.Memory, error)
		SimilarNotes(ctx context.Context, userID int64, model string, vec []float32, maxDistance float64, limit int) ([]hearth.Note, error)
	}
	// Relations is the vector search over relationships (the store's
	// SimilarRelationships). Needed only by RelatedTo.
	Relations interface {
		SimilarRelationships(ctx context.Context, userID int64, model string, vec []float32, maxDistance float64, limit int, now time.Time) ([]hearth.Relationship, error)
	}
	// GraphNotes is the vector search over notes on people and things
	// (the store's SimilarGraphNotes). Needed only by NotesAbout.
	GraphNotes interface {
		SimilarGraphNotes(ctx context.Context, userID int64, model string, vec []float32, maxDistance float64, limit int, now time.Time) ([]hearth.GraphNote, error)
	}
	// Embedder embeds the query; nil means text search only.
	Embedder llm.Embedder
	// Model names the embedding model and dimension, as the background job
	// stored it.
	Model string
	// MaxDistance is the farthest cosine distance mixed in. Defaults to 0.6.
	MaxDistance float64
	// RelatedMaxDistance is the farthest cosine distance of a
	// relationship RelatedTo returns, and of a note NotesAbout returns.
	// Defaults to 0.75: a relationship's
	// embedded text (both names, the relation, its words, description and
	// notes) is long, which pulls it farther from a short question than a
	// one-sentence fact with the same words.
	RelatedMaxDistance float64
	// Timeout bounds embedding the query when the turn has no deadline.
	// Defaults to 1s.
	Timeout time.Duration
}

// FindMemories returns the text matches, then the nearest by meaning not
// already among them, up to the filter's limit. A search narrowed to a
// subject (About) stays narrowed in the vector search too.
func (r Recall) FindMemories(ctx context.Context, f hearth.MemoryFilter) ([]hearth.Memory, error) {
	found, err := r.Text.FindMemories(ctx, f)
	if err != nil || r.Similar == nil {
		return found, err
	}
	return mixNearest(ctx, r, f.UserID, f.Query, f.Limit, found, func(m hearth.Memory) int64 { return m.ID },
		func(vec []float32, maxD float64, limit int) ([]hearth.Memory, error) {
			return r.Similar.SimilarMemories(ctx, f.UserID, r.Model, vec, f.About, maxD, limit)
		}), nil
}

// FindNotes returns the notes whose words match the query (FindNotes of
// the store), then the nearest by meaning not already among them, up to
// the filter's limit. A search by title alone is the store's.
func (r Recall) FindNotes(ctx context.Context, f hearth.NoteFilter) ([]hearth.Note, error) {
	found, err := r.NoteText.FindNotes(ctx, f)
	if err != nil || f.Title != "" || r.Similar == nil {
		return found, err
	}
	return mixNearest(ctx, r, f.UserID, f.Query, f.Limit, found, func(n hearth.Note) int64 { return n.ID },
		func(vec []float32, maxD float64, limit int) ([]hearth.Note, error) {
			return r.Similar.SimilarNotes(ctx, f.UserID, r.Model, vec, maxD, limit)
		}), nil
}

// RelatedTo returns the relationships userID may see that hold at now
// and are nearest by meaning to query (their names, relation, words,
// description and notes), up to limit; none without an embedder.
func (r Recall) RelatedTo(ctx context.Context, userID int64, query string, limit int, now time.Time) []hearth.Relationship {
	if r.Relations == nil {
		return nil
	}
	r.MaxDistance = r.relatedDistance()
	return mixNearest(ctx, r, userID, query, limit, nil, func(x hearth.Relationship) int64 { return x.ID },
		func(vec []float32, maxD float64, limit int) ([]hearth.Relationship, error) {
			return r.Relations.SimilarRelationships(ctx, userID, r.Model, vec, maxD, limit, now)
		})
}

// NotesAbout returns the live notes on people and things that userID may
// see and that are nearest by meaning to query, up to limit, after found
// (the notes whose words match, which stay first and are not repeated);
// found alone without an embedder. They are held to RelatedMaxDistance,
// as relationships are: the query is what someone does ("goes
// climbing"), shorter than the sentence a note says it in.
func (r Recall) NotesAbout(ctx context.Context, userID int64, query string, limit int, now time.Time, found []hearth.GraphNote) []hearth.GraphNote {
	if r.GraphNotes == nil {
		return found
	}
	r.MaxDistance = r.relatedDistance()
	return mixNearest(ctx, r, userID, query, limit, found, func(n hearth.GraphNote) int64 { return n.ID },
		func(vec []float32, maxD float64, limit int) ([]hearth.GraphNote, error) {
			return r.GraphNotes.SimilarGraphNotes(ctx, userID, r.Model, vec, maxD, limit, now)
		})
}

// relatedDistance is RelatedMaxDistance, 0.75 when unset.
func (r Recall) relatedDistance() float64 {
	if r.RelatedMaxDistance > 0 {
		return r.RelatedMaxDistance
	}
	return 0.75
}

// mixNearest appends to found (the text matches) the rows nearest to
// query by meaning that are not among them yet, up to limit (default 10).
// It embeds the query only when there is room left, an embedder, and time
// in the turn's model budget; it records the call like any model call.
// Retrieval by meaning is a bonus: when embedding or the vector search
// fails, the text matches answer alone.
func mixNearest[T any](ctx context.Context, r Recall, userID int64, query string, limit int, found []T, id func(T) int64, near func(vec []float32, maxD float64, limit int) ([]T, error)) []T {
	if query == "" || r.Embedder == nil {
		return found
	}
	if limit <= 0 {
		limit = 10
	}
	if len(found) >= limit {
		return found
	}
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = time.Second
	}
	mt := hybrid.MeterOf(ctx)
	if mt != nil {
		left, ok := mt.TimeLeft(timeout)
		if !ok {
			return found
		}
		timeout = left
	}
	if timeout <= 0 {
		return found
	}
	ectx, cancel := context.WithTimeout(llm.WithStage(ctx, "embed"), timeout)
	defer cancel()
	vecs, used, err := r.Embedder.Embed(ectx, []string{query})
	if mt != nil && used.Calls > 0 {
		mt.Record("embed", r.Model, used, err)
	}
	if err != nil || len(vecs) != 1 {
		return found
	}
	maxD := r.MaxDistance
	if maxD <= 0 {
		maxD = 0.6
	}
	nearest, err := near(vecs[0], maxD, limit)
	if err != nil {
		return found
	}
	seen := map[int64]bool{}
	for _, x := range found {
		seen[id(x)] = true
	}
	for _, x := range nearest {
		if len(found) >= limit {
			break
		}
		if !seen[id(x)] {
			found = append(found, x)
		}
	}
	return found
}

// MemorySource is how the context stage finds memories: the store's text
// search, or Recall over it.
type MemorySource interface {
	FindMemories(context.Context, hearth.MemoryFilter) ([]hearth.Memory, error)
}

// NoteSource is how the context stage finds notes: the store's word
// search, or Recall over it.
type NoteSource interface {
	FindNotes(context.Context, hearth.NoteFilter) ([]hearth.Note, error)
}

// RelatedSource is how the context stage finds relationships, and the
// notes on people and things, by meaning: Recall, when embeddings are on.
type RelatedSource interface {
	RelatedTo(ctx context.Context, userID int64, query string, limit int, now time.Time) []hearth.Relationship
	NotesAbout(ctx context.Context, userID int64, query string, limit int, now time.Time, found []hearth.GraphNote) []hearth.GraphNote
}
