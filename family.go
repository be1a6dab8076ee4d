package hearth

// Family is the family a user belongs to, as that user sees it.
type Family struct {
	ID   int64
	Name string
	// Members are the other members, in the order they joined.
	Members []FamilyMember
}

// FamilyMember is another member of the reader's family.
type FamilyMember struct {
	UserID int64
	Name   string
	// Sees is the reader's grant to this member: the most sensitive tier
	// of the reader's data they see (0: none).
	Sees Tier
	// Shows is this member's grant to the reader: the most sensitive tier
	// of their data the reader sees (0: none).
	Shows Tier
}

// FamilyInvite is a one-time code that admits its typist to a family.
type FamilyInvite struct {
	// Code is shown as "ABCD-EFGH".
	Code   string
	Family Family
	// Started is true when asking for the invitation started the family.
	Started bool
}

// FamilyEvent is a family member's calendar event that the viewer may see.
type FamilyEvent struct {
	// Member is the owner's display name.
	Member string
	// MemberZone is the owner's IANA zone ("" when unknown): the zone
	// whose midnights bound their all-day events.
	MemberZone string
	CalendarEvent
}
