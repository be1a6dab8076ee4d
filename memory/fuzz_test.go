package memory_test

import (
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth/memory"
)

// FuzzParsers: the offline readers of facts, questions, corrections,
// coordinates and walking tables never panic, and what they return holds
// together.
func FuzzParsers(f *testing.F) {
	for _, s := range []string{
		"Jon is my brother", "my brother's email is jon@example.com", "I worked at Initech from 2015 to 2019",
		"Who works at Acme?", "Which of Emma's friends live within 2 km of her school?", "actually it's the 16th",
		"12 Oak Street (51.5033, -0.1196)", "6:400,9:800,12:1200,*:1500", "Lily is Emma's friend", "(", "-1.5 , 2.5", "when is my sister's birthday?",
	} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		if st, ok := memory.ReadStatement(s); ok && st.Name == "" && !st.Self {
			t.Errorf("ReadStatement(%q) about no one: %+v", s, st)
		}
		if q, ok := memory.ReadQuestion(s, now); ok && q.Kind == 0 {
			t.Errorf("ReadQuestion(%q) of no kind", s)
		}
		from, to, _, ok := memory.Validity(s, now)
		if ok && !from.IsZero() && !to.IsZero() && to.Before(from) {
			t.Errorf("Validity(%q) ends before it starts: %v %v", s, from, to)
		}
		if v, ok := memory.Correction(s); ok {
			memory.Correct("John's birthday is March 15th", "", v, now)
		}
		if _, c, ok := memory.Coordinates(s); ok && !c.Valid() {
			t.Errorf("Coordinates(%q) = %v, not on Earth", s, c)
		}
		if phrase, rel, ok := memory.KinIn(s); ok && (!strings.Contains(s, phrase) || !strings.Contains(strings.ToLower(phrase), rel) || !memory.RelationWord(rel)) {
			t.Errorf("KinIn(%q) = %q, %q: not a relation said in it", s, phrase, rel)
		}
		if table, err := memory.ParseWalking(s); err == nil {
			for _, age := range []int{-1, 0, 5, 100} {
				if table.For(age) <= 0 {
					t.Errorf("ParseWalking(%q).For(%d) <= 0", s, age)
				}
			}
			_ = table.String()
		}
	})
}
