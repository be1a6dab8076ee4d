package plan

import (
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/stage"
)

// TestBeforeBirthday: an errand before or for someone's birthday is due
// the day before the next one a fact tells, one on it that day ("her
// birthday" is of the person named before it); a reminder some time
// before it goes off then; with no fact, or no one named, the errand has
// no date and the reminder asks when it is.
func TestBeforeBirthday(t *testing.T) {
	t.Parallel()
	z := mustZone(t, "America/New_York")
	day := func(y int, m time.Month, d, h int) time.Time { return time.Date(y, m, d, h, 0, 0, 0, z) }
	facts := []hearth.Memory{
		{ID: 1, Content: "Mum's birthday is March 3rd", About: "Mum"},
		{ID: 2, Content: "Sam's birthday is the 14th of March", About: "Sam"},
		{ID: 3, Content: "Our anniversary is June 9", About: ""},
		{ID: 4, Content: "Ben's birthday is March 10", About: "Ben"},
	}
	c := stage.Context{Now: day(2026, 3, 10, 9), Location: z, Memories: facts}
	for _, tt := range []struct {
		text   string
		due    time.Time
		allDay bool
	}{
		// March 3rd has passed: next year's, the day before.
		{"remind me to buy flowers before Mum's birthday", day(2027, 3, 2, 0), true},
		{"remind me to get a present for my mum's birthday", day(2027, 3, 2, 0), true},
		{"remind me to order a cake for Sam's birthday", day(2026, 3, 13, 0), true},
		{"buy candles before Sam's birthday", day(2026, 3, 13, 0), true},
		{"remind me to book a table for our anniversary", day(2026, 6, 8, 0), true},
		// Today's: today.
		{"remind me to call the florist before Ben's birthday", day(2026, 3, 10, 0), true},
		{"remind me the day before Sam's birthday", day(2026, 3, 13, 9), false},
		{"remind me a week before our anniversary", day(2026, 6, 2, 9), false},
		// On the day, and whose "her" and "his" say.
		{"remind me to call Sam on his birthday", day(2026, 3, 14, 0), true},
		{"Remind me to call Mum on her birthday", day(2027, 3, 3, 0), true},
		{"remind me to call my mum on her birthday", day(2027, 3, 3, 0), true},
		{"buy Sam a present before his birthday", day(2026, 3, 13, 0), true},
		{"remind me to send a card on Ben's birthday", day(2026, 3, 10, 0), true},
		// Nobody's, or no fact: no date.
		{"remind me to call Lee on her birthday", time.Time{}, false},
		{"remind me to water the plants on her birthday", time.Time{}, false},
		{"remind me to call Sam about her mum's birthday", time.Time{}, false},
		{"remind me to buy balloons for the birthday", time.Time{}, false},
		{"remind me to buy flowers before Lee's birthday", time.Time{}, false},
	} {
		p := planText(t, tt.text, c)
		a := decode[action.TaskCreateArgs](t, p.only(t, action.TaskCreate))
		if !a.Due.Equal(tt.due) || a.AllDay != tt.allDay {
			t.Errorf("%q: %q due %v (all day %v); want due %v (all day %v)", tt.text, a.Title, a.Due.In(z), a.AllDay, tt.due, tt.allDay)
		}
	}
	for _, text := range []string{"remind me a week before Lee's birthday", "remind me the day before my birthday"} {
		p := planText(t, text, c)
		if len(p.actions) != 0 || len(p.errs) != 1 || !strings.Contains(p.errs[0].Error(), "I couldn't find when") {
			t.Errorf("%q: planned %v, errors %v; want it asked when the birthday is", text, kindsOf(p.actions), p.errs)
		}
	}
}

// TestBirthdayToldBefore: a reminder ahead of nothing named ("remind me a
// week before") right after a birthday or an anniversary was told is one
// ahead of it; after anything else it asks what it is before.
func TestBirthdayToldBefore(t *testing.T) {
	t.Parallel()
	z := mustZone(t, "America/New_York")
	day := func(y int, m time.Month, d, h int) time.Time { return time.Date(y, m, d, h, 0, 0, 0, z) }
	facts := []hearth.Memory{{ID: 3, Content: "Our anniversary is June 9"}, {ID: 2, Content: "Sam's birthday is the 14th of March", About: "Sam"}}
	said := func(texts ...string) []hearth.Message {
		var out []hearth.Message
		for i, text := range texts {
			from := hearth.FromUser
			if i%2 == 1 {
				from = hearth.FromBot
			}
			out = append(out, hearth.Message{From: from, Text: text})
		}
		return out
	}
	for _, tt := range []struct {
		recent []hearth.Message
		text   string
		due    time.Time
	}{
		{said("Our anniversary is June 9", "Got it.", "remind me a week before"), "remind me a week before", day(2026, 6, 2, 9)},
		{said("remember that Sam's birthday is the 14th of March", "Got it.", "remind me the day before it"), "remind me the day before it", day(2026, 3, 13, 9)},
	} {
		c := stage.Context{Now: day(2026, 3, 10, 9), Location: z, Memories: facts, Recent: tt.recent}
		p := planText(t, tt.text, c)
		a := decode[action.TaskCreateArgs](t, p.only(t, action.TaskCreate))
		if !a.Due.Equal(tt.due) {
			t.Errorf("%q after %q: %q due %v; want %v", tt.text, tt.recent[0].Text, a.Title, a.Due.In(z), tt.due)
		}
	}
	c := stage.Context{Now: day(2026, 3, 10, 9), Location: z, Memories: facts, Recent: said("I like tea", "Noted.", "remind me a week before")}
	if p := planText(t, "remind me a week before", c); len(p.actions) != 0 || len(p.errs) != 1 {
		t.Errorf("after no birthday: planned %v, errors %v; want it asked what it is before", kindsOf(p.actions), p.errs)
	}
}
