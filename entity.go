package hearth

import "time"

// EntityKind is what an entity is.
type EntityKind string

// Entity kinds.
const (
	EntityPerson       EntityKind = "person"
	EntityOrganisation EntityKind = "organisation"
	EntityPlace        EntityKind = "place"
	EntityPet          EntityKind = "pet"
	EntityProject      EntityKind = "project"
	EntityEvent        EntityKind = "event"
	EntityConcept      EntityKind = "concept"
)

// Valid reports whether k is one of the entity kinds.
func (k EntityKind) Valid() bool {
	switch k {
	case EntityPerson, EntityOrganisation, EntityPlace, EntityPet, EntityProject, EntityEvent, EntityConcept:
		return true
	}
	return false
}

// Entity is someone or something Hearth knows about: a person, an
// organisation, a place, a pet, a project, an event or a concept. It is
// owned like a fact (by the user who told Hearth, or their family), has a
// canonical name and the other names its owner calls it by ("Jon", "my
// brother", "Grandma"), the owner's relation to it (daughter, colleague),
// and, for a family member, the Hearth user it is. Its attributes (phone,
// email, employer, school) are facts over time about it (Memory.EntityID
// and Memory.Attribute).
type Entity struct {
	ID       int64      `json:"id"`
	UserID   int64      `json:"user_id"`
	FamilyID int64      `json:"family_id,omitempty"`
	Kind     EntityKind `json:"kind"`
	Name     string     `json:"name"`
	Aliases  []string   `json:"aliases,omitempty"`
	// Relation is what the entity is to its owner ("daughter",
	// "colleague"), empty when unknown.
	Relation string `json:"relation,omitempty"`
	// MemberID is the Hearth user the entity is, for a family member.
	MemberID int64 `json:"member_id,omitempty"`
	// Tier says who may see that the entity exists; zero when stored
	// means TierBasic.
	Tier      Tier      `json:"tier,omitempty"`
	CreatedAt time.Time `json:"created_at,omitzero"`
}

// EntityFilter selects the entities a viewer may see.
type EntityFilter struct {
	// UserID is the viewer.
	UserID int64
	// Name matches the canonical name or an alias, loosely (trigram):
	// "Jon" finds "John", "my brother" finds the entity so called.
	Name string
	// Relation keeps the entities with that relation to their owner.
	Relation string
	ID       int64
	Limit    int
}

// Well-known attributes of an entity. Any other word is allowed too.
const (
	AttrEmail    = "email"
	AttrPhone    = "phone"
	AttrEmployer = "employer"
	AttrSchool   = "school"
	AttrBorn     = "born"
	AttrRelation = "relation"
)
