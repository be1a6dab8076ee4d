package respond

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/memory"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// attributeVerbs say an attribute's relation in words: one person now,
// several now, in the past.
var attributeVerbs = map[string][3]string{
	hearth.AttrEmployer: {"works at", "work at", "worked at"},
	hearth.AttrSchool:   {"goes to", "go to", "went to"},
	memory.AttrHome:     {"lives at", "live at", "lived at"},
}

// townVerbs say a home that is a town, not a street address: "lives in
// Paris".
var townVerbs = [3]string{"lives in", "live in", "lived in"}

// answerPeople answers a question about people and things from the facts
// and entities the context stage read for it (memory.ReadQuestion), saying
// when each value held when Hearth knows.
func (r *TemplateResponder) answerPeople(in stage.RespondInput, q memory.Question) string {
	c := in.Context
	z := stage.UserZone(c)
	verbs, ok := attributeVerbs[q.Attribute]
	if !ok {
		verbs = [3]string{"has " + q.Attribute, "have " + q.Attribute, "had " + q.Attribute}
	}
	past := q.Past || !q.To.IsZero() && q.To.Before(c.Now)
	when := spanLabel(q.From, q.To)
	lead := ""
	if when != "" {
		lead = when + ", "
	}
	switch q.Kind {
	case memory.WhoHas:
		var names, seen []string
		ms := slices.Clone(c.Memories)
		slices.SortStableFunc(ms, func(a, b hearth.Memory) int { return strings.Compare(a.About, b.About) })
		for _, m := range ms {
			if n := m.About; n != "" && !slices.Contains(seen, n) {
				seen = append(seen, n)
				names = append(names, markdown.Escape(n)+validityNote(m, z))
			}
		}
		if len(names) == 0 {
			then := ""
			if when != "" {
				then = " " + orNow(when)
			}
			return "I don't know anyone who " + pick(verbs, 1, past) + " " + markdown.Escape(q.Value) + then + ". Tell me, like “Jon works at " + markdown.Escape(q.Value) + "”."
		}
		verb := pick(verbs, len(names), past)
		return prose.UpperFirst(lead + prose.List(names) + " " + verb + " " + markdown.Escape(q.Value) + ".")
	case memory.WhoWithMe:
		if len(c.Entities) == 0 || !slices.ContainsFunc(c.Memories, func(m hearth.Memory) bool { return m.EntityID == c.Entities[0].ID }) {
			return "I don't know where you worked " + orNow(when) + ". Tell me, like “I worked at Acme from 2015 to 2019”."
		}
		me := c.Entities[0].ID
		var places, people []string
		for _, m := range c.Memories {
			switch {
			case m.EntityID == me:
				places = append(places, markdown.Escape(m.Value))
			case m.About != "" && !slices.Contains(people, markdown.Escape(m.About)):
				people = append(people, markdown.Escape(m.About))
			}
		}
		head := prose.UpperFirst(lead + "you were at " + prose.List(places))
		if len(people) == 0 {
			return head + "; I don't know anyone else who was there then."
		}
		return head + ", with " + prose.List(people) + "."
	case memory.ValueOf:
		if q.Self && (len(c.Entities) == 0 || len(c.Memories) == 0) {
			return "I don't know where you " + strings.Fields(verbs[1])[0] + " " + orNow(when) + " — tell me, like “I " + verbs[1] + " …”."
		}
		if len(c.Entities) == 0 {
			return "I don't know who " + markdown.Escape(q.Name) + " is yet."
		}
		who, n := markdown.Escape(c.Entities[0].Name), 1
		if q.Self {
			who, n = "you", 2 // "you live in", as "they live in"
		}
		if q.Value != "" {
			return answerHolds(q, c, who, n, verbs, past, z)
		}
		if len(c.Memories) == 0 {
			return "I don't know where " + who + " " + strings.Fields(pick(verbs, n, past))[0] + " " + orNow(when) + "."
		}
		var vals []string
		for _, m := range c.Memories {
			vals = append(vals, markdown.Escape(m.Value)+validityNote(m, z))
		}
		if q.Attribute == memory.AttrHome && !strings.ContainsAny(c.Memories[0].Value, "0123456789") {
			// A town, not a street address: "lives in Paris".
			verbs = townVerbs
		}
		return prose.UpperFirst(lead + who + " " + pick(verbs, n, past) + " " + prose.List(vals) + ".")
	case memory.LivedWhenBorn:
		if len(c.Entities) == 0 || len(c.Memories) == 0 {
			return "I don't know when " + markdown.Escape(q.Name) + " was born. Tell me, like “" + markdown.Escape(q.Name) + " was born on 3 May 2015”."
		}
		born := c.Memories[0]
		day, err := time.Parse(time.DateOnly, born.Value)
		if err != nil {
			return "I don't know when " + markdown.Escape(born.About) + " was born."
		}
		on := day.Format("2 January 2006")
		if len(c.Memories) == 1 {
			return markdown.Escape(c.Entities[0].Name) + " was born on " + on + ", but I don't know where you lived then. Tell me, like “we lived at 12 Oak Street from 2010 to 2016”."
		}
		return "When " + markdown.Escape(c.Entities[0].Name) + " was born (" + on + "), you lived at " + markdown.Escape(c.Memories[1].Value) + "."
	case memory.WithinWalking:
		return answerProximity(c.Proximity, q)
	case memory.WhoIsMy:
		var names []string
		for _, e := range c.Entities {
			if q.Name != "" && strings.EqualFold(e.Name, q.Name) {
				return "Yes — " + markdown.Escape(e.Name) + " is your " + q.Relation + "."
			}
			names = append(names, markdown.Escape(e.Name))
		}
		var yours string
		switch len(names) {
		case 0:
			return "You haven't told me who your " + q.Relation + " is. Tell me, like “Sarah Kim is my " + q.Relation + "”."
		case 1:
			yours = "Your " + q.Relation + " is " + names[0] + "."
		default:
			yours = "Your " + q.Relation + "s: " + prose.List(names) + "."
		}
		if q.Name != "" {
			return "Not that you've told me. " + yours
		}
		return yours
	}
	return r.noMemory(in)
}

func pick(verbs [3]string, n int, past bool) string {
	switch {
	case past:
		return verbs[2]
	case n == 1:
		return verbs[0]
	}
	return verbs[1]
}

func orNow(when string) string {
	if when == "" {
		return "now"
	}
	return strings.ToLower(when[:1]) + when[1:]
}

// spanLabel names the span a question asks about: "In 2019", "Between
// March 2019 and June 2020", "" for none.
func spanLabel(from, to time.Time) string {
	switch {
	case from.IsZero() && to.IsZero():
		return ""
	case from.YearDay() == 1 && to.YearDay() == 1 && to.Year() == from.Year()+1 && from.Hour() == 0:
		return "In " + from.Format("2006")
	case from.Day() == 1 && to.Day() == 1 && to.Equal(from.AddDate(0, 1, 0)):
		return "In " + from.Format("January 2006")
	case from.IsZero():
		return "Before " + to.Format("2 January 2006")
	}
	return "Between " + from.Format("2 January 2006") + " and " + to.AddDate(0, 0, -1).Format("2 January 2006")
}

// validityNote says when a value held, when Hearth knows: " (2015 to
// 2019)", " (since March 2026)", "".
// answerHolds answers whether who's attribute is (past: was) q.Value:
// "Yes — Lea works at Globex (since …)", "No — Lea worked at Globex
// until …", "Not that I know: Lea works at Initech", from the values read
// (every one, ended ones too, or those of the span asked about).
func answerHolds(q memory.Question, c stage.Context, who string, n int, verbs [3]string, past bool, z *time.Location) string {
	if q.Attribute == memory.AttrHome && !strings.ContainsAny(q.Value, "0123456789") {
		verbs = townVerbs
	}
	want := words.MatchWords(q.Value)
	var same, other []hearth.Memory
	for _, m := range c.Memories {
		have := words.MatchWords(m.Value)
		held := m.ValidTo.IsZero() || m.ValidTo.After(c.Now)
		switch {
		case len(want) > 0 && words.AllIn(want, have):
			same = append(same, m)
		case held || past:
			other = append(other, m)
		}
	}
	values := func(ms []hearth.Memory) string {
		var vals []string
		for _, m := range ms {
			vals = append(vals, markdown.Escape(m.Value)+validityNote(m, z))
		}
		return prose.List(vals)
	}
	for _, m := range same {
		if past || m.ValidTo.IsZero() || m.ValidTo.After(c.Now) {
			return "Yes — " + who + " " + pick(verbs, n, past) + " " + values([]hearth.Memory{m}) + "."
		}
	}
	if len(same) > 0 {
		// It ended: what held until when, and what holds now, if known.
		s := "No — " + who + " " + verbs[2] + " " + values(same[:1])
		if len(other) > 0 {
			s += "; now " + who + " " + pick(verbs, n, false) + " " + values(other)
		}
		return s + "."
	}
	if len(other) > 0 {
		return "Not that I know: " + who + " " + pick(verbs, n, past) + " " + values(other) + "."
	}
	return "I don't know where " + who + " " + strings.Fields(pick(verbs, n, past))[0] + " " + orNow("") + "."
}

func validityNote(m hearth.Memory, z *time.Location) string {
	from, to := m.ValidFrom.In(z), m.ValidTo.In(z)
	day := func(t time.Time) string {
		switch {
		case t.YearDay() == 1 && t.Hour() == 0:
			return t.Format("2006")
		case t.Day() == 1 && t.Hour() == 0:
			return t.Format("January 2006")
		}
		return t.Format("2 January 2006")
	}
	switch {
	case m.ValidFrom.IsZero() && m.ValidTo.IsZero():
		return ""
	case m.ValidTo.IsZero():
		return " (since " + day(from) + ")"
	case m.ValidFrom.IsZero():
		return " (until " + day(to) + ")"
	}
	// Validity ends where the next period begins: "to 2010-01-01" is
	// "to 2009".
	end := to.Add(-time.Second)
	if to.YearDay() == 1 && from.YearDay() == 1 {
		return " (" + from.Format("2006") + " to " + end.Format("2006") + ")"
	}
	return " (" + day(from) + " to " + day(to) + ")"
}

// answerProximity says which friends live within the distance, stating
// the distance used and why (the walking table and the child's age), and
// why it cannot judge when a place has no location.
func answerProximity(p *stage.Proximity, q memory.Question) string {
	if p == nil || p.Of == "" {
		return "I don't know who " + markdown.Escape(q.Name) + " is yet."
	}
	place := markdown.Escape(prose.Possessive(p.Of)) + " " + p.Place
	if p.From.ID == 0 {
		return "I don't know where " + place + " is. Tell me, like “" + markdown.Escape(prose.Possessive(p.Of)) + " " + p.Place + " is at 1 School Road”."
	}
	if !p.Located {
		if !p.Geocoding {
			return "I can't judge distance: no geocoder is set up (HEARTH_GEOCODER), and I have no coordinates for " + place + " (" + markdown.Escape(p.From.Value) +
				"). Give them in chat, like “" + markdown.Escape(prose.Possessive(p.Of)) + " " + p.Place + " is at " + markdown.Escape(p.From.Value) + " (51.5007, -0.1246)”."
		}
		return "I couldn't find " + place + " (" + markdown.Escape(p.From.Value) + ") on the map, so I can't judge distance. Give its coordinates in chat, like “(51.5007, -0.1246)”."
	}
	var rule string
	switch {
	case p.Said:
		rule = "Within " + memory.Metres(p.Limit) + " of " + place + " (" + markdown.Escape(p.From.Value) + ")"
	case p.Age >= 0:
		rule = markdown.Escape(p.Of) + " is " + strconv.Itoa(p.Age) + ", so I count up to " + memory.Metres(p.Limit) + " as walking distance from " + place +
			" (" + markdown.Escape(p.From.Value) + "; by age: " + p.Table + ")"
	default:
		rule = "I don't know " + markdown.Escape(prose.Possessive(p.Of)) + " age, so I count up to " + memory.Metres(p.Limit) + " as walking distance from " + place +
			" (" + markdown.Escape(p.From.Value) + "; by age: " + p.Table + ")"
	}
	var in, out []string
	for _, h := range p.Homes {
		w := markdown.Escape(h.About) + " (" + memory.Metres(h.Distance) + ")"
		if h.Distance <= p.Limit {
			in = append(in, w)
		} else {
			out = append(out, w)
		}
	}
	lines := []string{rule + "."}
	switch len(in) {
	case 0:
		lines = append(lines, "None of the friends of "+markdown.Escape(p.Of)+" whose home I know lives that close.")
	case 1:
		lines = append(lines, in[0]+" lives within it.")
	default:
		lines = append(lines, prose.List(in)+" live within it.")
	}
	if len(out) > 0 {
		lines = append(lines, "Further: "+prose.List(out)+".")
	}
	if len(p.Unplaced) > 0 {
		why := "I have no location for their home"
		if !p.Geocoding {
			why += " (no geocoder is set up, and no coordinates were given)"
		}
		lines = append(lines, "I can't tell for "+prose.List(markdown.EscapeAll(p.Unplaced))+": "+why+".")
	}
	return strings.Join(lines, " ")
}
