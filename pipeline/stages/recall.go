package stages

import (
	"context"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/llm"
	"github.com/hearthbot/hearth/store"
)

// Recall finds memories by full text and trigram (Text) and, for a query,
// also by meaning: the query is embedded and the nearest embedded memories
// are mixed in after the text matches. Both searches are the store's
// permission-aware queries; nothing is filtered afterwards. Without an
// Embedder, use Text alone: there are never fake vectors.
type Recall struct {
	// Text is the full-text and trigram search (the store's FindMemories).
	Text interface {
		FindMemories(context.Context, hearth.MemoryFilter) ([]hearth.Memory, error)
	}
	// Similar is the vector search (the store's SimilarMemories).
	Similar interface {
		SimilarMemories(ctx context.Context, userID int64, model string, vec []float32, about string, maxDistance float64, limit int) ([]hearth.Memory, error)
	}
	// Embedder embeds the query; nil means text search only.
	Embedder llm.Embedder
	// Model names the embedding model and dimension, as the background job
	// stored it.
	Model string
	// MaxDistance is the farthest cosine distance mixed in. Defaults to 0.6.
	MaxDistance float64
	// Timeout bounds embedding the query when the turn has no deadline.
	// Defaults to 1s.
	Timeout time.Duration
}

// FindMemories returns the text matches, then the nearest by meaning not
// already among them, up to the filter's limit. A search narrowed to a
// subject (About) stays narrowed in the vector search too.
func (r Recall) FindMemories(ctx context.Context, f hearth.MemoryFilter) ([]hearth.Memory, error) {
	found, err := r.Text.FindMemories(ctx, f)
	if err != nil || f.Query == "" || r.Embedder == nil {
		return found, err
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 10
	}
	if len(found) >= limit {
		return found, nil
	}
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = time.Second
	}
	mt := meterOf(ctx)
	if mt != nil {
		if mt.offline != "" {
			return found, nil
		}
		timeout = min(timeout, time.Until(mt.deadline))
	}
	if timeout <= 0 {
		return found, nil
	}
	ectx, cancel := context.WithTimeout(llm.WithStage(ctx, "embed"), timeout)
	defer cancel()
	vecs, used, err := r.Embedder.Embed(ectx, []string{f.Query})
	if mt != nil && used.Calls > 0 {
		u := store.Usage{UserID: mt.userID, EventID: mt.eventID, Day: mt.day, Stage: "embed", Model: r.Model,
			Calls: used.Calls, InputTokens: used.InputTokens, Latency: used.Latency}
		if err != nil {
			u.Error = llm.Reason(err)
		}
		mt.mu.Lock()
		mt.usage = append(mt.usage, u)
		mt.calls = append(mt.calls, store.TraceModel{Stage: "embed", Model: r.Model, Calls: used.Calls, InputTokens: used.InputTokens, LatencyMS: used.Latency.Milliseconds(), Error: u.Error})
		mt.mu.Unlock()
	}
	if err != nil || len(vecs) != 1 {
		return found, nil //nolint:nilerr // retrieval by meaning is a bonus; text search answered
	}
	maxD := r.MaxDistance
	if maxD <= 0 {
		maxD = 0.6
	}
	near, err := r.Similar.SimilarMemories(ctx, f.UserID, r.Model, vecs[0], f.About, maxD, limit)
	if err != nil {
		return found, nil //nolint:nilerr // as above: a failed vector search leaves the text matches
	}
	seen := map[int64]bool{}
	for _, m := range found {
		seen[m.ID] = true
	}
	for _, m := range near {
		if len(found) >= limit {
			break
		}
		if !seen[m.ID] {
			found = append(found, m)
		}
	}
	return found, nil
}

// MemorySource is how the context stage finds memories: the store's text
// search, or Recall over it.
type MemorySource interface {
	FindMemories(context.Context, hearth.MemoryFilter) ([]hearth.Memory, error)
}
