package plan

import (
	"testing"
	"time"

	"github.com/hearthbot/hearth/memory"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/stage/stagetest"
)

// TestMoveHoldsFromThen checks a home's validity as told: a move holds
// from the day told, or from the year said, open-ended; a stay "in 2015"
// holds for that year only.
func TestMoveHoldsFromThen(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	year := func(y int) time.Time { return time.Date(y, 1, 1, 0, 0, 0, 0, c.Location) }
	tests := []struct {
		text     string
		from, to time.Time // zero to: open-ended
	}{
		{"remember that I moved to Munich", c.Now, time.Time{}},
		{"remember that I moved to Hamburg in 2015", year(2015), time.Time{}},
		{"remember that I lived in Hamburg in 2015", year(2015), year(2016)},
	}
	for _, tt := range tests {
		p := planText(t, tt.text, c)
		m := decode[action.MemoryStoreArgs](t, p.only(t, action.MemoryStore))
		if m.Attribute != memory.AttrHome || !m.ValidFrom.Equal(tt.from) || !m.ValidTo.Equal(tt.to) {
			t.Errorf("%q: home %q from %v to %v; want from %v to %v", tt.text, m.Value, m.ValidFrom, m.ValidTo, tt.from, tt.to)
		}
	}
}

// TestFactWithoutLead: the words that lead into a fact ("actually",
// "also") are no word of it, so it replaces what it corrects.
func TestFactWithoutLead(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	for text, want := range map[string]string{
		"actually Ben's birthday is March 5": "Ben's birthday is March 5",
		"oh, my locker is 12":                "My locker is 12",
	} {
		if m := decode[action.MemoryStoreArgs](t, planText(t, text, c).only(t, action.MemoryStore)); m.Content != want {
			t.Errorf("%q: kept %q; want %q", text, m.Content, want)
		}
	}
}
