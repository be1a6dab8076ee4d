package hearth

import (
	"fmt"
	"strings"
	"time"
)

// The memory graph: entities are its nodes, relationships its typed and
// directed edges, graph notes short-lived remarks on either, storylines
// and themes the threads that recur. Relation names and word scales come
// from the design table (MEMORY-GRAPH.md).

// NodeType is the type of a node for the relation names and word scales:
// a person, a concept, or any other entity (organisation, place, thing).
type NodeType string

// Node types.
const (
	NodePerson  NodeType = "person"
	NodeConcept NodeType = "concept"
	NodeEntity  NodeType = "entity"
)

// NodeTypeOf is the node type of an entity of kind k.
func NodeTypeOf(k EntityKind) NodeType {
	switch k {
	case EntityPerson:
		return NodePerson
	case EntityConcept:
		return NodeConcept
	}
	return NodeEntity
}

// RelationScale is the relation name of a pair of node types and the
// five words of its attitude and proximity scales (1 to 5).
type RelationScale struct {
	Relation  string
	Attitude  [5]string
	Proximity [5]string
}

// relationScales is the design table, keyed by the pair as written there.
var relationScales = map[[2]NodeType]RelationScale{
	{NodePerson, NodePerson}: {"has_relationship_with",
		[5]string{"hostile", "unfriendly", "neutral", "friendly", "close"},
		[5]string{"stranger", "acquaintance", "familiar", "known-well", "intimate-knowledge"}},
	{NodePerson, NodeConcept}: {"engages_with",
		[5]string{"dislikes", "skeptical", "neutral", "interested", "passionate"},
		[5]string{"unfamiliar", "aware", "understands", "experienced", "expert"}},
	{NodePerson, NodeEntity}: {"associated_with",
		[5]string{"negative-view", "unfavorable", "neutral", "favorable", "strongly-positive"},
		[5]string{"distant", "aware-of", "familiar-with", "involved-with", "deeply-connected"}},
	{NodeConcept, NodeConcept}: {"relates_to",
		[5]string{"contradicts", "conflicts", "independent", "complementary", "integral"},
		[5]string{"loosely-related", "somewhat-related", "related", "closely-related", "inseparable"}},
	{NodeConcept, NodeEntity}: {"involves",
		[5]string{"peripheral", "minor", "relevant", "important", "central"},
		[5]string{"tangential", "mentioned", "involved", "key-component", "essential"}},
	{NodeEntity, NodeEntity}: {"connected_to",
		[5]string{"adversarial", "competing", "independent", "cooperative", "integrated"},
		[5]string{"distantly-connected", "indirectly-connected", "connected", "closely-linked", "tightly-coupled"}},
}

// ScaleOf is the relation name and word scales for an edge from a node of
// type from to one of type to. The table names each unordered pair once
// (person → concept, not concept → person); the reverse direction uses
// the same row.
func ScaleOf(from, to NodeType) RelationScale {
	if s, ok := relationScales[[2]NodeType{from, to}]; ok {
		return s
	}
	return relationScales[[2]NodeType{to, from}]
}

// Labels of the relationships an employer, a school or a home statement
// tells beside the attribute ("Jon works at Acme", "Grandma lives in
// Leeds"), now and in the past.
const (
	LabelWorksAt   = "works at"
	LabelWorkedAt  = "worked at"
	LabelStudiesAt = "studies at"
	LabelStudiedAt = "studied at"
	LabelLivesIn   = "lives in"
	LabelLivedIn   = "lived in"
)

// SoleLabel reports whether a relationship labelled label is one that its
// From end holds with one node at a time, as the employer, school and
// home attributes keep one value at a time: a new one ends the one it
// replaces ("Jon works at Initech" after "Jon works at Acme").
func SoleLabel(label string) bool {
	switch strings.ToLower(strings.TrimSpace(label)) {
	case LabelWorksAt, LabelStudiesAt, LabelLivesIn:
		return true
	}
	return false
}

// RelationshipState is whether a relationship was confirmed by a user.
type RelationshipState string

// Relationship states: inferred relationships start as candidates.
const (
	RelationshipCandidate RelationshipState = "candidate"
	RelationshipConfirmed RelationshipState = "confirmed"
)

// Relationship defaults (MEMORY-GRAPH.md).
const (
	DefaultAttitude   = 3
	DefaultProximity  = 3
	DefaultConfidence = 0.8
	// RelationshipNotesInEmbedding is how many characters of a
	// relationship's notes enter its embedding text.
	RelationshipNotesInEmbedding = 1000
)

// Relationship is a typed, directed edge between two entities: "Emma →
// Lily: friend", "me → Acme: worked at". It is owned like a fact and
// read through the same permission predicate, with its own tier.
type Relationship struct {
	ID       int64 `json:"id"`
	UserID   int64 `json:"user_id"`
	FamilyID int64 `json:"family_id,omitempty"`
	Tier     Tier  `json:"tier,omitempty"`
	FromID   int64 `json:"from_id"`
	ToID     int64 `json:"to_id"`
	// FromName, ToName, FromKind and ToKind are filled on reads.
	FromName string     `json:"from_name,omitempty"`
	ToName   string     `json:"to_name,omitempty"`
	FromKind EntityKind `json:"from_kind,omitempty"`
	ToKind   EntityKind `json:"to_kind,omitempty"`
	// Label is the typed label ("friend", "manager", "daughter"), kept
	// beside the relation name, which follows from the node types.
	Label       string `json:"label,omitempty"`
	Description string `json:"description,omitempty"`
	// Attitude and Proximity are 1 to 5; zero when saving means 3.
	Attitude  int `json:"attitude"`
	Proximity int `json:"proximity"`
	// Confidence is 0 to 1; zero when saving means 0.8.
	Confidence float64           `json:"confidence"`
	State      RelationshipState `json:"state"`
	// ValidFrom and ValidTo bound when it held; zero is open-ended.
	ValidFrom time.Time `json:"valid_from,omitzero"`
	ValidTo   time.Time `json:"valid_to,omitzero"`
	// FactID is the fact that stated it, when it was told in chat:
	// forgetting that fact forgets the relationship.
	FactID int64 `json:"fact_id,omitempty"`
	// ClosedBy is the fact whose statement closed it, when one did:
	// forgetting that fact opens it again.
	ClosedBy int64 `json:"closed_by,omitempty"`
	// Notes are the live notes on the relationship, filled on reads.
	Notes     []GraphNote `json:"notes,omitempty"`
	UpdatedAt time.Time   `json:"updated_at,omitzero"`
}

// Scale is the relation name and word scales of r's pair of nodes.
func (r Relationship) Scale() RelationScale {
	return ScaleOf(NodeTypeOf(r.FromKind), NodeTypeOf(r.ToKind))
}

// AttitudeWord is the word for r's attitude on its pair's scale.
func (r Relationship) AttitudeWord() string { return word(r.Scale().Attitude, r.Attitude) }

// ProximityWord is the word for r's proximity on its pair's scale.
func (r Relationship) ProximityWord() string { return word(r.Scale().Proximity, r.Proximity) }

func word(scale [5]string, n int) string {
	if n < 1 || n > 5 {
		n = 3
	}
	return scale[n-1]
}

// EmbedText is what r's one embedding is made from: description,
// relation name and label, the attitude and proximity words, and up to
// RelationshipNotesInEmbedding characters of notes (the bodies given,
// oldest first).
func RelationshipEmbedText(r Relationship, notes []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s", r.FromName, r.Scale().Relation, r.ToName)
	if r.Label != "" {
		fmt.Fprintf(&b, " (%s)", r.Label)
	}
	fmt.Fprintf(&b, "; attitude: %s; proximity: %s", r.AttitudeWord(), r.ProximityWord())
	if r.Description != "" {
		b.WriteString("\n" + r.Description)
	}
	if n := strings.Join(notes, "\n"); n != "" {
		if rs := []rune(n); len(rs) > RelationshipNotesInEmbedding {
			n = string(rs[:RelationshipNotesInEmbedding])
		}
		b.WriteString("\nNotes: " + n)
	}
	return b.String()
}

// Lifetime is how long a graph note lives.
type Lifetime string

// Lifetimes; a note without one lives a month.
const (
	LifetimeWeek    Lifetime = "week"
	LifetimeMonth   Lifetime = "month"
	LifetimeYear    Lifetime = "year"
	LifetimeForever Lifetime = "forever"
)

// Valid reports whether l is a lifetime (the empty one means a month).
func (l Lifetime) Valid() bool {
	switch l {
	case "", LifetimeWeek, LifetimeMonth, LifetimeYear, LifetimeForever:
		return true
	}
	return false
}

// ExpiresAt is when a note added at now with lifetime l expires; zero for
// forever. A week is 7 days, a month and a year calendar ones.
func (l Lifetime) ExpiresAt(now time.Time) time.Time {
	switch l {
	case LifetimeWeek:
		return now.AddDate(0, 0, 7)
	case LifetimeYear:
		return now.AddDate(1, 0, 0)
	case LifetimeForever:
		return time.Time{}
	}
	return now.AddDate(0, 1, 0)
}

// GraphNote is a remark on a node or a relationship that lives for a
// while: "Bob is stressed about the move" (a week), "Emma is into
// dinosaurs this year" (a year). Who added it and the message it came
// from are set by the code that stores it, never by a planner or a model.
type GraphNote struct {
	ID int64 `json:"id"`
	// AddedBy is the user who told it; it owns the note.
	AddedBy  int64 `json:"added_by"`
	FamilyID int64 `json:"family_id,omitempty"`
	Tier     Tier  `json:"tier,omitempty"`
	// EntityID or RelationshipID is what it is about (exactly one).
	EntityID       int64 `json:"entity_id,omitempty"`
	RelationshipID int64 `json:"relationship_id,omitempty"`
	// About names the node or relationship, filled on reads.
	About    string   `json:"about,omitempty"`
	Body     string   `json:"body"`
	Lifetime Lifetime `json:"lifetime"`
	// ExpiresAt is zero for a note kept forever.
	ExpiresAt time.Time `json:"expires_at,omitzero"`
	// SourceEventID is the inbound message it was told in, if any.
	SourceEventID int64     `json:"source_event_id,omitempty"`
	CreatedAt     time.Time `json:"created_at,omitzero"`
}

// Mention is one source mentioning a node, for the mention counters.
type Mention struct {
	EntityID int64
	// Source identifies the source (an inbound message, an import row):
	// the same source counts once.
	Source string
	// At is when the source said it; its day is counted in the node
	// owner's zone.
	At time.Time
}

// Storyline is a node mentioned across several days, promoted to a thread
// worth following ("the house move", "Emma's piano lessons").
type Storyline struct {
	ID       int64  `json:"id"`
	UserID   int64  `json:"user_id"`
	FamilyID int64  `json:"family_id,omitempty"`
	Tier     Tier   `json:"tier,omitempty"`
	EntityID int64  `json:"entity_id"`
	Title    string `json:"title"`
	// ThemeID is the theme it was grouped into, if any.
	ThemeID    int64     `json:"theme_id,omitempty"`
	ThemeTitle string    `json:"theme_title,omitempty"`
	Days       int       `json:"days"`
	Sources    int       `json:"sources"`
	FirstAt    time.Time `json:"first_at,omitzero"`
	LastAt     time.Time `json:"last_at,omitzero"`
}

// StorylineGraph is what the weekly grouping reads for one time zone: its
// users' storylines and the links between their nodes (a relationship
// either way, or at least two sources mentioning both).
type StorylineGraph struct {
	Storylines []Storyline
	// Links are pairs of entity ids of storylines of one owner.
	Links [][2]int64
}

// ThemeGroup is one theme of one owner: its stable key (the smallest
// entity id in it), its title and the entities of its storylines.
type ThemeGroup struct {
	UserID    int64
	Key       int64
	Title     string
	EntityIDs []int64
}

// GraphNoteFilter selects the live notes a viewer may see.
type GraphNoteFilter struct {
	// UserID is the viewer.
	UserID int64
	// EntityID or RelationshipID is what the notes are about; neither:
	// every note the viewer may see.
	EntityID, RelationshipID int64
	// OnNodes keeps only notes on people and things, not on
	// relationships (those come with their relationship).
	OnNodes bool
	// Query keeps the notes whose words match every word of it
	// (full-text, English stemming: "bouldering" finds "boulders").
	Query string
	// Now is the clock expiry is read against; zero means the database's.
	Now   time.Time
	Limit int
}

// RelationshipFilter selects the relationships a viewer may see.
type RelationshipFilter struct {
	// UserID is the viewer.
	UserID int64
	// EntityID keeps the edges touching that entity (either end).
	EntityID int64
	// FromID and ToID keep the edges from or to an entity.
	FromID, ToID int64
	// ID selects one relationship.
	ID int64
	// Query keeps the relationships whose text (names, relation, label,
	// words, description, notes) matches every word of it (full-text).
	Query string
	// Now is the clock for the validity span and the live notes filled
	// in; zero means the database's.
	Now   time.Time
	Limit int
}

// StorylineFilter selects the storylines a viewer may see.
type StorylineFilter struct {
	// UserID is the viewer.
	UserID int64
	// Name matches the storyline's title or its theme's, loosely ("the
	// move" finds "house move").
	Name string
	// Since keeps those mentioned since then.
	Since time.Time
	Limit int
}

// RelationshipChange is what recording one statement about a relationship
// changed, so it can be taken back exactly ("undo"): the relationships it
// created, those whose validity it closed, and those it moved from
// candidate to confirmed.
type RelationshipChange struct {
	Created   []int64 `json:"created,omitempty"`
	Closed    []int64 `json:"closed,omitempty"`
	Confirmed []int64 `json:"confirmed,omitempty"`
}

// Empty reports whether c changed nothing.
func (c RelationshipChange) Empty() bool {
	return len(c.Created) == 0 && len(c.Closed) == 0 && len(c.Confirmed) == 0
}

// GraphShare counts what giving a node's part of the graph to the family
// (or taking it back) changed: the node and the other ends of its
// relationships, its relationships, and the notes on them.
type GraphShare struct {
	Entities      int `json:"entities"`
	Relationships int `json:"relationships"`
	Notes         int `json:"notes"`
}

// Consolidation is a relationship whose description is to be rewritten
// from its live notes: the relationship, its notes (oldest first),
// Source, which notes they are (written with the new description, so the
// same notes are not consolidated twice), and DescribedFrom, which notes
// its description was last written from (the write is conditional on it).
type Consolidation struct {
	Relationship  Relationship
	Notes         []GraphNote
	Source        string
	DescribedFrom string
}
