package hearth

// Embeddable is a memory or a note whose embedding is missing or was made
// by another model.
type Embeddable struct {
	// Kind is "memory", "note", "relationship" or "graph_note" (a note
	// on a node of the memory graph).
	Kind   string
	ID     int64
	UserID int64
	// Text is what is embedded: a memory's subject and content, a note's
	// title, body and checklist, a relationship's embed_text, a graph
	// note's body.
	Text string
}
