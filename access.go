package hearth

// Tier is how sensitive something is, and, in an access grant, the most
// sensitive tier a viewer may see: something of tier t is visible through
// a grant of tier g when t >= g. Lower is more private.
type Tier int

// The visibility tiers.
const (
	// TierPrivate is medical and financial.
	TierPrivate Tier = 1
	// TierPersonal is birthdays, preferences and contact details.
	TierPersonal Tier = 2
	// TierEvents is events and milestones: calendar events are this tier.
	TierEvents Tier = 3
	// TierBasic is name and relationship only.
	TierBasic Tier = 4
)

// DefaultFamilyTier is what family members see of each other when one
// joins: events and milestones.
const DefaultFamilyTier = TierEvents

// Valid reports whether t is one of the four tiers.
func (t Tier) Valid() bool { return t >= TierPrivate && t <= TierBasic }
