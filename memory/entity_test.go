package memory_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/hearthbot/hearth/memory"
)

func TestReadStatement(t *testing.T) {
	t.Parallel()
	tests := []struct {
		fact string
		want memory.Statement
		ok   bool
	}{
		{"Jon is my brother", memory.Statement{Name: "Jon", Kind: "person", Relation: "brother", Aliases: []string{"my brother"}, Attribute: "relation", Value: "brother"}, true},
		{"My daughter's name is Emma", memory.Statement{Name: "Emma", Kind: "person", Relation: "daughter", Aliases: []string{"my daughter"}, Attribute: "relation", Value: "daughter"}, true},
		{"Sarah Kim is my colleague", memory.Statement{Name: "Sarah Kim", Kind: "person", Relation: "colleague", Attribute: "relation", Value: "colleague"}, true},
		{"Sarah's email is sarah@example.com", memory.Statement{Name: "Sarah", Kind: "person", Attribute: "email", Value: "sarah@example.com"}, true},
		{"my brother's phone number is 555 0100", memory.Statement{Name: "my brother", Kind: "person", Relation: "brother", Aliases: []string{"my brother"}, Attribute: "phone", Value: "555 0100"}, true},
		{"My email address is me@example.org", memory.Statement{Self: true, Attribute: "email", Value: "me@example.org"}, true},
		{"Jon works at Acme", memory.Statement{Name: "Jon", Kind: "person", Attribute: "employer", Value: "Acme"}, true},
		{"my sister Ana works for Globex Corp.", memory.Statement{Name: "Ana", Kind: "person", Relation: "sister", Aliases: []string{"my sister"}, Attribute: "employer", Value: "Globex Corp"}, true},
		{"I worked at Initech", memory.Statement{Self: true, Attribute: "employer", Value: "Initech"}, true},
		{"Emma goes to Lincoln Elementary School", memory.Statement{Name: "Emma", Kind: "person", Attribute: "school", Value: "Lincoln Elementary School"}, true},
		{"Jon studies at MIT", memory.Statement{Name: "Jon", Kind: "person", Attribute: "school", Value: "MIT"}, true},
		{"We lived at 12 Oak Street", memory.Statement{Self: true, Attribute: "home", Value: "12 Oak Street"}, true},
		{"Grandma lives in Leeds", memory.Statement{Name: "Grandma", Kind: "person", Attribute: "home", Value: "Leeds"}, true},
		{"Lea moved to Paris", memory.Statement{Name: "Lea", Kind: "person", Attribute: "home", Value: "Paris", Began: true}, true},
		{"my sister just moved back to Lyon", memory.Statement{Name: "my sister", Kind: "person", Relation: "sister", Aliases: []string{"my sister"}, Attribute: "home", Value: "Lyon", Began: true}, true},
		{"we moved on", memory.Statement{}, false},
		{"Emma was born", memory.Statement{Name: "Emma", Kind: "person", Attribute: "born"}, true},
		{"I just closed on my house", memory.Statement{}, false},
		{"John's birthday is March 15th", memory.Statement{}, false},
		{"the meeting is my problem", memory.Statement{}, false},
	}
	for _, tt := range tests {
		got, ok := memory.ReadStatement(tt.fact)
		if ok != tt.ok || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ReadStatement(%q) = %+v, %v; want %+v, %v", tt.fact, got, ok, tt.want, tt.ok)
		}
	}
}

func TestValidity(t *testing.T) {
	t.Parallel()
	z, _ := time.LoadLocation("Europe/Berlin")
	now := time.Date(2026, 11, 25, 10, 0, 0, 0, z)
	d := func(y int, m time.Month) time.Time { return time.Date(y, m, 1, 0, 0, 0, 0, z) }
	tests := []struct {
		fact     string
		from, to time.Time
		rest     string
		ok       bool
	}{
		{"Jon worked at Acme from 2001 to 2009", d(2001, 1), d(2010, 1), "Jon worked at Acme", true},
		{"I have lived in Berlin since March", d(2026, 3), time.Time{}, "I have lived in Berlin", true},
		{"Jon works at Acme since 2019", d(2019, 1), time.Time{}, "Jon works at Acme", true},
		{"we lived at 12 Oak Street in 2015", d(2015, 1), d(2016, 1), "we lived at 12 Oak Street", true},
		{"Jon works at Acme", time.Time{}, time.Time{}, "Jon works at Acme", false},
		// Begun in a month already past this year (told in November):
		// this September, and still so.
		{"Mia started at Lindenschule in September", d(2026, 9), time.Time{}, "Mia started at Lindenschule", true},
		{"we went to Spain in December", d(2025, 12), d(2026, 1), "we went to Spain", true},
		{"Mia starts at Lindenschule in December", d(2026, 12), d(2027, 1), "Mia starts at Lindenschule", true},
	}
	for _, tt := range tests {
		from, to, rest, ok := memory.Validity(tt.fact, now)
		if !from.Equal(tt.from) || !to.Equal(tt.to) || rest != tt.rest || ok != tt.ok {
			t.Errorf("Validity(%q) = %v, %v, %q, %v; want %v, %v, %q, %v", tt.fact, from, to, rest, ok, tt.from, tt.to, tt.rest, tt.ok)
		}
	}
}

func TestCorrection(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		said, fact, old, want string
	}{
		{"actually it's the 16th", "John's birthday is March 15th", "", "John's birthday is March 16th"},
		{"Actually, it's the 2nd", "The school play is on April 1st", "", "The school play is on April 2nd"},
		{"no, it's 555 0199", "My phone number is 555 0100", "555 0100", "My phone number is 555 0199"},
		{"sorry, I meant March 20", "John's birthday is March 15th", "", "John's birthday is March 20"},
		{"actually it's blue", "Emma's favourite colour is green", "", "Emma's favourite colour is blue"},
		// No "is": the last word, or the last name, is the value.
		{"actually it's amoxicillin", "I'm allergic to penicillin", "", "I'm allergic to amoxicillin"},
		{"no, I meant Boston", "I live in New York", "", "I live in Boston"},
		{"sorry, it's 4", "I parked on level 3", "", "I parked on level 4"},
		{"actually it's the pool", "Mia swims at the gym", "", "Mia swims at the pool"},
	}
	for _, tt := range tests {
		v, ok := memory.Correction(tt.said)
		if !ok {
			t.Errorf("Correction(%q) not read", tt.said)
			continue
		}
		if got, ok := memory.Correct(tt.fact, tt.old, v, now); !ok || got != tt.want {
			t.Errorf("Correct(%q, %q) = %q, %v; want %q", tt.fact, v, got, ok, tt.want)
		}
	}
	for _, s := range []string{"it's raining", "actually I like it", "make a note"} {
		if v, ok := memory.Correction(s); ok {
			t.Errorf("Correction(%q) = %q", s, v)
		}
	}
}

func TestPlaces(t *testing.T) {
	t.Parallel()
	rest, c, ok := memory.Coordinates("12 Oak Street (51.5033, -0.1196)")
	if !ok || rest != "12 Oak Street" || c.Lat != 51.5033 || c.Lon != -0.1196 {
		t.Errorf("Coordinates = %q, %v, %v", rest, c, ok)
	}
	if _, _, ok := memory.Coordinates("12 Oak Street"); ok {
		t.Error("coordinates in a plain address")
	}
	if _, _, ok := memory.Coordinates("95.1, 10.2"); ok {
		t.Error("a latitude beyond the pole")
	}
	q, _ := memory.ReadQuestion("Which of Emma's friends live within walking distance of her school?", time.Now())
	if q.Place != "school" || q.Metres != 0 {
		t.Errorf("walking question %+v", q)
	}
	q, _ = memory.ReadQuestion("Who of Emma's friends lives within 2 km of her home?", time.Now())
	if q.Place != "home" || q.Metres != 2000 {
		t.Errorf("2 km question %+v", q)
	}
	table, err := memory.ParseWalking("6:400,9:800,12:1200,*:1500")
	if err != nil {
		t.Fatal(err)
	}
	for age, want := range map[int]float64{3: 400, 6: 400, 7: 800, 9: 800, 12: 1200, 13: 1500, 40: 1500, -1: 1500} {
		if got := table.For(age); got != want {
			t.Errorf("For(%d) = %v; want %v", age, got, want)
		}
	}
	for _, bad := range []string{"", "6:400", "6:400,*:x", "9:800,6:400,*:1", "*:1,6:400", "a:1,*:2"} {
		if _, err := memory.ParseWalking(bad); err == nil {
			t.Errorf("ParseWalking(%q) accepted", bad)
		}
	}
	if got := table.String(); got != "up to 6 years 400 m, 7–9 800 m, 10–12 1.2 km, older 1.5 km" {
		t.Errorf("table says %q", got)
	}
	if memory.Metres(345) != "350 m" || memory.Metres(1234) != "1.2 km" {
		t.Errorf("Metres: %q %q", memory.Metres(345), memory.Metres(1234))
	}
	if s, ok := memory.ReadStatement("Lily is Emma's friend"); !ok || s.Name != "Lily" || s.Attribute != memory.AttrFriendOf || s.Value != "Emma" {
		t.Errorf("friend statement %+v", s)
	}
}
