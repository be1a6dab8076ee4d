package hearth

import "time"

// MemoryCategory groups what Hearth remembers.
type MemoryCategory string

// Memory categories.
const (
	MemoryPersonal  MemoryCategory = "personal"
	MemoryWork      MemoryCategory = "work"
	MemoryKnowledge MemoryCategory = "knowledge"
)

// Memory is a fact Hearth remembers ("John's birthday is March 15th"),
// about someone or something, over time: ValidFrom and ValidTo say when it
// was true (zero: open-ended), and a correction ends the old fact's
// validity and links its successor instead of overwriting it.
type Memory struct {
	ID int64 `json:"id"`
	// UserID is who told it, and its owner unless FamilyID is set.
	UserID int64 `json:"user_id"`
	// FamilyID is set when the fact belongs to the family as a whole:
	// every current member sees it.
	FamilyID int64          `json:"family_id,omitempty"`
	Content  string         `json:"content"`
	About    string         `json:"about,omitempty"`
	Category MemoryCategory `json:"category"`
	// Tier is how sensitive the fact is; zero when stored means
	// TierPersonal.
	Tier      Tier      `json:"tier,omitempty"`
	ValidFrom time.Time `json:"valid_from,omitzero"`
	ValidTo   time.Time `json:"valid_to,omitzero"`
	// ToldIn is the inbound event (the message) the fact was told in, when
	// it came from a chat; set by the code that stores it, never by a
	// planner or a model.
	ToldIn int64 `json:"told_in,omitempty"`
	// EntityID is the entity the fact is about, when Hearth knows it.
	EntityID int64 `json:"entity_id,omitempty"`
	// Attribute, when set, makes the fact one value of an attribute of
	// its entity over time (AttrEmail, AttrEmployer, …): a new value
	// closes the old one. Value is that value ("sarah@example.com").
	Attribute string `json:"attribute,omitempty"`
	Value     string `json:"value,omitempty"`
	// Place is where an address is, when Hearth knows (a geocoder, or
	// coordinates given in chat).
	Place *Coordinates `json:"place,omitempty"`
	// Distance is how far Place is, in metres, from the point a proximity
	// read asked about (MemoryFilter.Near); zero otherwise.
	Distance float64 `json:"distance,omitempty"`
	// Forgotten holds what only a forgotten fact carries, so that undo can
	// put it back exactly (ForgetMemory deletes the row for real).
	Forgotten *ForgottenFact `json:"forgotten,omitempty"`
	// SupersededBy is the fact that corrected this one, if any.
	SupersededBy int64     `json:"superseded_by,omitempty"`
	CreatedAt    time.Time `json:"created_at,omitzero"`
	UpdatedAt    time.Time `json:"updated_at,omitzero"`
}

// Coordinates are a point on Earth, in degrees (WGS 84).
type Coordinates struct {
	Lat float64 `json:"lat"`
	Lon float64 `json:"lon"`
}

// Valid reports whether c is a point on Earth.
func (c Coordinates) Valid() bool {
	return c.Lat >= -90 && c.Lat <= 90 && c.Lon >= -180 && c.Lon <= 180
}

// ForgottenFact is the rest of a deleted fact's row: enough to restore it
// as it was, with its shares and the corrections that pointed at it. Its
// embedding is not kept; the background job computes it again.
type ForgottenFact struct {
	SourceKey     string    `json:"source_key,omitempty"`
	Importance    int       `json:"importance"`
	Tags          []string  `json:"tags,omitempty"`
	Source        string    `json:"source"`
	LearnedAt     time.Time `json:"learned_at"`
	InvalidatedAt time.Time `json:"invalidated_at,omitzero"`
	SharedWith    []int64   `json:"shared_with,omitempty"`
	// Supersedes are the facts this one corrected.
	Supersedes []int64 `json:"supersedes,omitempty"`
	// Relationships are those the fact created (forgotten with it).
	Relationships []Relationship `json:"relationships,omitempty"`
	// Notes are every note that was on those relationships, expired ones
	// included, as they were (deleted with them).
	Notes []GraphNote `json:"notes,omitempty"`
	// Reopened are the relationships the fact's statement had closed,
	// which forgetting it opened again, each with the end it had given.
	Reopened []RelationshipEnd `json:"reopened,omitempty"`
	// ReopenedValues are the values of the same attribute the fact, a
	// current value, had closed ("Jon works at Initech" closed Acme), or
	// the values the fact ended ("Jon no longer works at Acme"), which
	// forgetting it made current again, with the ends they had.
	ReopenedValues []FactEnd `json:"reopened_values,omitempty"`
	// EntityRelation is what the fact, a relation ("Lea is my sister"),
	// had made its entity to the user, and EntityAlias the alias that
	// said so ("my sister"): forgetting the fact takes both back (the
	// relation becomes the one still told, or none).
	EntityRelation string `json:"entity_relation,omitempty"`
	EntityAlias    string `json:"entity_alias,omitempty"`
}

// FactEnd is when a fact stopped being true and when Hearth learned so
// (zero for a value that ended, and was not wrong): what undo of a
// forget gives back to a value the forget made current.
type FactEnd struct {
	ID            int64     `json:"id"`
	ValidTo       time.Time `json:"valid_to"`
	InvalidatedAt time.Time `json:"invalidated_at"`
}

// RelationshipEnd is when a relationship stopped holding: what undo of a
// forget gives back to a relationship the forget opened again.
type RelationshipEnd struct {
	ID      int64     `json:"id"`
	ValidTo time.Time `json:"valid_to"`
}

// MemoryFilter selects the memories a user may see: their own, their
// family's, and other members' as their grants allow. Query is full-text
// search over content and about (plain words must all be there, each as a
// word's beginning: "expire" finds "expires"; web-search syntax is read
// as such); About matches the subject loosely.
type MemoryFilter struct {
	// UserID is the viewer.
	UserID int64
	Query  string
	About  string
	// AsOf, when set, asks what was true at that instant (corrected facts
	// included, for the time they were held true); zero asks what is true
	// now.
	AsOf time.Time
	// Until, after AsOf, widens the instant to a span: the facts true at
	// some time in [AsOf, Until) ("who worked at Acme in 2019?").
	Until time.Time
	// Ever keeps every fact that was ever held true, corrected and ended
	// ones included ("who worked at Acme?" asked in the past tense).
	Ever bool
	// ToldBy, when set, keeps the facts that user told Hearth (their own,
	// and those they gave to the family): "what do you remember about me?".
	ToldBy int64
	// EntityID keeps the facts about that entity.
	EntityID int64
	// Attribute keeps the values of that attribute; Value, with it,
	// matches the value loosely ("Acme" finds "Acme Corp").
	Attribute string
	Value     string
	// Near, when set, keeps the facts with a place and measures each
	// one's distance from it (earthdistance), nearest first.
	Near  *Coordinates
	Limit int
}
