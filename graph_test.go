package hearth_test

import (
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
)

// TestRelationScales is the design table (MEMORY-GRAPH.md), row by row:
// every ordered pair of node types gets its relation name and its five
// attitude and five proximity words, the reverse pairs the same row.
func TestRelationScales(t *testing.T) {
	t.Parallel()
	rows := []struct {
		from, to  hearth.NodeType
		relation  string
		attitude  string
		proximity string
	}{
		{hearth.NodePerson, hearth.NodePerson, "has_relationship_with", "hostile, unfriendly, neutral, friendly, close", "stranger, acquaintance, familiar, known-well, intimate-knowledge"},
		{hearth.NodePerson, hearth.NodeConcept, "engages_with", "dislikes, skeptical, neutral, interested, passionate", "unfamiliar, aware, understands, experienced, expert"},
		{hearth.NodePerson, hearth.NodeEntity, "associated_with", "negative-view, unfavorable, neutral, favorable, strongly-positive", "distant, aware-of, familiar-with, involved-with, deeply-connected"},
		{hearth.NodeConcept, hearth.NodeConcept, "relates_to", "contradicts, conflicts, independent, complementary, integral", "loosely-related, somewhat-related, related, closely-related, inseparable"},
		{hearth.NodeConcept, hearth.NodeEntity, "involves", "peripheral, minor, relevant, important, central", "tangential, mentioned, involved, key-component, essential"},
		{hearth.NodeEntity, hearth.NodeEntity, "connected_to", "adversarial, competing, independent, cooperative, integrated", "distantly-connected, indirectly-connected, connected, closely-linked, tightly-coupled"},
	}
	kinds := map[hearth.NodeType][]hearth.EntityKind{
		hearth.NodePerson:  {hearth.EntityPerson},
		hearth.NodeConcept: {hearth.EntityConcept},
		hearth.NodeEntity:  {hearth.EntityOrganisation, hearth.EntityPlace, hearth.EntityPet, hearth.EntityProject, hearth.EntityEvent},
	}
	for _, row := range rows {
		for _, dir := range [][2]hearth.NodeType{{row.from, row.to}, {row.to, row.from}} {
			for _, fk := range kinds[dir[0]] {
				for _, tk := range kinds[dir[1]] {
					for n := 1; n <= 5; n++ {
						r := hearth.Relationship{FromKind: fk, ToKind: tk, Attitude: n, Proximity: n, FromName: "A", ToName: "B"}
						wantA := strings.Split(row.attitude, ", ")[n-1]
						wantP := strings.Split(row.proximity, ", ")[n-1]
						if r.Scale().Relation != row.relation || r.AttitudeWord() != wantA || r.ProximityWord() != wantP {
							t.Errorf("%s → %s at %d: %s %s %s, want %s %s %s", fk, tk, n,
								r.Scale().Relation, r.AttitudeWord(), r.ProximityWord(), row.relation, wantA, wantP)
						}
						text := hearth.RelationshipEmbedText(r, nil)
						for _, w := range []string{row.relation, wantA, wantP} {
							if !strings.Contains(text, w) {
								t.Errorf("embedding text %q lacks %q", text, w)
							}
						}
					}
				}
			}
		}
	}
	// Out of range falls back to the middle word.
	if w := (hearth.Relationship{FromKind: hearth.EntityPerson, ToKind: hearth.EntityPerson}).AttitudeWord(); w != "neutral" {
		t.Errorf("zero attitude: %q", w)
	}
}

// TestRelationshipEmbedTextNotes keeps 1,000 characters of notes.
func TestRelationshipEmbedTextNotes(t *testing.T) {
	t.Parallel()
	r := hearth.Relationship{FromName: "A", ToName: "B", FromKind: hearth.EntityPerson, ToKind: hearth.EntityPerson, Description: "d"}
	text := hearth.RelationshipEmbedText(r, []string{strings.Repeat("é", 900), strings.Repeat("x", 900)})
	notes := text[strings.Index(text, "Notes: ")+len("Notes: "):]
	if n := len([]rune(notes)); n != hearth.RelationshipNotesInEmbedding {
		t.Errorf("%d characters of notes", n)
	}
}

// TestLifetimeExpiry maps each lifetime onto its expiry.
func TestLifetimeExpiry(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 31, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		l    hearth.Lifetime
		want time.Time
	}{
		{hearth.LifetimeWeek, now.AddDate(0, 0, 7)},
		{"", now.AddDate(0, 1, 0)},
		{hearth.LifetimeMonth, now.AddDate(0, 1, 0)},
		{hearth.LifetimeYear, now.AddDate(1, 0, 0)},
		{hearth.LifetimeForever, time.Time{}},
	} {
		if got := c.l.ExpiresAt(now); !got.Equal(c.want) {
			t.Errorf("%q: %s, want %s", c.l, got, c.want)
		}
		if !c.l.Valid() {
			t.Errorf("%q invalid", c.l)
		}
	}
	if hearth.Lifetime("decade").Valid() {
		t.Error("decade is valid")
	}
}

// TestSoleLabel: employers, schools and homes are held one at a time, as their
// attributes are; every other label may be held with many.
func TestSoleLabel(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		label string
		want  bool
	}{
		{hearth.LabelWorksAt, true},
		{" Works At ", true},
		{hearth.LabelStudiesAt, true},
		{hearth.LabelWorkedAt, false},
		{hearth.LabelStudiedAt, false},
		{hearth.LabelLivesIn, true},
		{hearth.LabelLivedIn, false},
		{"friend", false},
		{"volunteers at", false},
		{"", false},
	} {
		if got := hearth.SoleLabel(tt.label); got != tt.want {
			t.Errorf("SoleLabel(%q) = %v, want %v", tt.label, got, tt.want)
		}
	}
}
