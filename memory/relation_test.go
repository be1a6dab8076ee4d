package memory_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/memory"
)

// say renders a relation compactly for the table: "me → Priya: manager
// 0/0 stated".
func say(r memory.Relation) string {
	end := func(p memory.Party) string {
		if p.Self {
			return "me"
		}
		if p.Kind != "" {
			return p.Name + "[" + string(p.Kind) + "]"
		}
		return p.Name
	}
	s := fmt.Sprintf("%s → %s: %s %d/%d", end(r.From), end(r.To), r.Label, r.Attitude, r.Proximity)
	if r.Hedged {
		s += " hedged"
	}
	if r.Ended {
		s += " ended"
	}
	if r.Description != "" {
		s += " (" + r.Description + ")"
	}
	return s
}

func TestReadRelation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want string // "" when nothing is read
	}{
		// Roles: To is From's role; modifiers set the scales.
		{"Lily is Emma's best friend", "Emma → Lily: friend 5/5"},
		{"Lily is Emma’s friend.", "Emma → Lily: friend 4/0"},
		{"Priya is my manager", "me → Priya: manager 0/0"},
		{"Sam is my close friend", "me → Sam: friend 5/4"},
		{"Emma's best friend is Lily", "Emma → Lily: friend 5/5"},
		{"my manager is Priya", "me → Priya: manager 0/0"},
		{"Priya isn't my manager anymore", "me → Priya: manager 0/0 ended"},
		{"Priya is no longer my manager", "me → Priya: manager 0/0 ended"},
		{"I think Lily is Emma's best friend", "Emma → Lily: friend 5/5 hedged"},
		{"Tom is my new neighbour", "me → Tom: neighbour 0/2"},
		// Two people together.
		{"Bob and I aren't close anymore", "me → Bob:  3/2 ended"},
		{"Bob and I aren't friends anymore", "me → Bob: friend 0/0 ended"},
		{"Emma and Lily are best friends", "Emma → Lily: friend 5/5"},
		{"I and Bob are close", "me → Bob:  5/4"},
		// Verbs: to concepts, organisations, people.
		{"Emma loves dinosaurs", "Emma → dinosaurs[concept]: loves 5/0"},
		{"Emma really likes drawing", "Emma → drawing[concept]: likes 5/0"},
		{"Bob is into rock climbing", "Bob → rock climbing[concept]: into 4/0"},
		{"Bob is passionate about sailing", "Bob → sailing[concept]: passionate about 5/4"},
		{"Bob doesn't like jazz", "Bob → jazz[concept]: likes 2/0"},
		{"Bob hates mornings", "Bob → mornings[concept]: hates 1/0"},
		{"Bob is no longer into chess", "Bob → chess[concept]: into 4/0 ended"},
		{"Bob doesn't play chess anymore", "Bob → chess[concept]: plays 4/4 ended"},
		{"I volunteer at the food bank", "me → food bank[organisation]: volunteers at 4/4"},
		{"I'm a member of the chess club", "me → chess club[organisation]: member of 4/4"},
		{"my brother plays the piano", "my brother → piano[concept]: plays 4/4"},
		{"Emma seems to love horses", "Emma → horses[concept]: loves 5/0 hedged"},
		{"I know Priya from college", "me → Priya: knows 0/0 (Known from college.)"},
		{"I barely know Priya", "me → Priya: knows 0/2"},
		{"I know Sam very well", "me → Sam: knows 0/4"},
		{"Emma is close to Lily", "Emma → Lily: close to 5/4"},
		{"Emma is friends with Noah", "Emma → Noah: friend 4/0"},
		{"Emma gets along with Noah", "Emma → Noah: gets along with 4/0"},
		{"Emma adores Lily", "Emma → Lily: loves 5/0"},
		// Not relationships.
		{"John's birthday is March 15th", ""},
		{"I love it", ""},
		{"Emma loves to swim and run", ""},
		{"the weather is into the cold", ""},
		{"I know", ""},
		{"Bob and I are", ""},
		{"Priya is my", ""},
		{"I am my friend", ""},
		{"remind me to call mom", ""},
		{"I closed on my house", ""},
		{"dinosaurs love Emma", ""},
		{"I like my coffee black", ""},
		{"I hate Mondays", ""},
		{"Emma loves March", ""},
		{"I do yoga on Tuesdays", "me → yoga[concept]: does 4/4"},
		{"I volunteer at the food bank every Saturday", "me → food bank[organisation]: volunteers at 4/4"},
		{"Bob plays tennis with Sam", "Bob → tennis[concept]: plays 4/4"},
		// Where, not what: the statement reader's (AttributeRelation).
		{"Jon studies at MIT", ""},
		{"Emma plays in the band", ""},
	}
	for _, tt := range tests {
		r, ok := memory.ReadRelation(tt.text)
		got := ""
		if ok {
			got = say(r)
		}
		if got != tt.want {
			t.Errorf("%q:\n got %q\nwant %q", tt.text, got, tt.want)
		}
	}
}

// TestAttributeRelation: an employer, a school or a home statement also
// tells a relationship with the organisation or the place (not a street
// address), in the past tense when it is over; the other attributes tell
// none.
func TestAttributeRelation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		fact string
		past bool
		want string // "" when none
	}{
		{"Jon works at Acme", false, "Jon → Acme[organisation]: works at 0/4"},
		{"my sister Ana works for Globex Corp.", false, "Ana → Globex Corp[organisation]: works at 0/4"},
		{"I worked at Initech", true, "me → Initech[organisation]: worked at 0/4"},
		{"Emma goes to Lincoln Elementary School", false, "Emma → Lincoln Elementary School[organisation]: studies at 0/4"},
		{"Jon studies at MIT", false, "Jon → MIT[organisation]: studies at 0/4"},
		{"I studied at Leeds University", true, "me → Leeds University[organisation]: studied at 0/4"},
		{"Grandma lives in Leeds", false, "Grandma → Leeds[place]: lives in 0/4"},
		{"We lived at 12 Oak Street", true, ""},
		{"Sarah's email is sarah@example.com", false, ""},
		{"Jon is my brother", false, ""},
	}
	for _, tt := range tests {
		st, ok := memory.ReadStatement(tt.fact)
		if !ok {
			t.Errorf("%q: not read as a statement", tt.fact)
			continue
		}
		got := ""
		if r, ok := memory.AttributeRelation(st, tt.past); ok {
			got = say(r)
		}
		if got != tt.want {
			t.Errorf("%q:\n got %q\nwant %q", tt.fact, got, tt.want)
		}
	}
}

// TestRelationConfidence: a stated relation is sure, a hedged one less.
func TestRelationConfidence(t *testing.T) {
	t.Parallel()
	stated, _ := memory.ReadRelation("Priya is my manager")
	hedged, _ := memory.ReadRelation("apparently Priya is my manager")
	if stated.Confidence() <= hedged.Confidence() || hedged.Confidence() <= 0 || stated.Confidence() > 1 {
		t.Errorf("confidence stated %v, hedged %v", stated.Confidence(), hedged.Confidence())
	}
}

// FuzzReadRelation: the reader never panics; what it reads has two
// different ends, each the user or a non-empty name, scales within 0–5,
// valid kinds, and UTF-8 names from UTF-8 input.
func FuzzReadRelation(f *testing.F) {
	for _, s := range []string{"Lily is Emma's best friend", "Priya is my manager", "I know Priya from college",
		"Bob and I aren't close anymore", "Emma loves dinosaurs", "I volunteer at the food bank", "my manager is Priya",
		"I think Emma is into horses", "Bob doesn't play chess anymore", "I and me are friends", "'s is my friend",
		"Émile is Zoë's best friend", "I know  from ", "and and and are friends"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, ok := memory.ReadRelation(s)
		if !ok {
			return
		}
		for _, p := range []memory.Party{r.From, r.To} {
			if !p.Self && strings.TrimSpace(p.Name) == "" {
				t.Errorf("%q: an end without a name: %+v", s, r)
			}
			if p.Kind != "" && !p.Kind.Valid() {
				t.Errorf("%q: kind %q", s, p.Kind)
			}
			if utf8.ValidString(s) && !utf8.ValidString(p.Name) {
				t.Errorf("%q: name %q not UTF-8", s, p.Name)
			}
		}
		if r.From == r.To || r.From.Self && r.To.Self {
			t.Errorf("%q: one end twice: %+v", s, r)
		}
		if r.Attitude < 0 || r.Attitude > 5 || r.Proximity < 0 || r.Proximity > 5 {
			t.Errorf("%q: scales %d/%d", s, r.Attitude, r.Proximity)
		}
		if r.From.Kind != "" && r.From.Kind != hearth.EntityPerson {
			t.Errorf("%q: a thing as the subject: %+v", s, r)
		}
	})
}

func TestToldRole(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]bool{
		"Sam is my brother":              true,
		"my manager is Priya":            true,
		"Lily is Emma's best friend":     true,
		"Ben is my husband.":             true,
		"Is Sam my brother?":             false,
		"Sam is my brother?":             false,
		"I love pizza":                   false,
		"Emma loves dinosaurs":           false,
		"this is my house":               false,
		"I think Sam might be my friend": false,
		"Priya isn't my manager anymore": false,
	} {
		if got := memory.ToldRole(text); got != want {
			t.Errorf("ToldRole(%q) = %v; want %v", text, got, want)
		}
	}
}
