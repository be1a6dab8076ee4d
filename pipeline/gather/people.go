package gather

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/memory"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/plan"
	"github.com/hearthbot/hearth/pipeline/stage"
)

// MemoryQuestion rewrites the understanding of a question about people
// and things ("who works at Acme?", "who did I work with in 2019?",
// "where did we live when Emma was born?") into a question to memory,
// whatever the intent stage took it for: only memory can answer it.
func MemoryQuestion(u stage.Understanding, text string, now time.Time) stage.Understanding {
	_, asked := memory.ReadQuestion(text, now)
	if who, ok := memory.AskedAbout(text); ok && who != "" {
		asked = true // "tell me about Bob": only memory knows Bob
	}
	if _, ok := memory.AskedWhoKnown(text); ok {
		asked = true // "who do I know who is into climbing?"
	}
	if _, ok := memory.GiftFor(text); ok {
		asked = true // "what should I get Sam for his birthday?": what Sam likes
	}
	if !asked {
		return u
	}
	u.Intent, u.Domains, u.RequiresAction = nlu.AskInfo, []nlu.Domain{nlu.Memory}, false
	return u
}

// MemoryEdit rewrites the understanding of "forget that" and "actually
// it's the 16th" (a correction by pronoun) into a request to memory: the
// intent stage cannot know that "that" is the fact just told.
//
// "Remember that Ben is my husband" is a request too, whatever the
// classifier's doubt about a statement that reads like an answer, and so
// is telling who someone is ("Sam is my brother", which it takes for
// chat or a question), and so is when or where someone was born ("Anna
// was born in 1990"), where they live ("I live in Berlin") or that they
// no longer work somewhere ("Ben no longer works at Acme"): told like the
// news "we just adopted a beagle", it is remembered like it.
func MemoryEdit(u stage.Understanding, text string) stage.Understanding {
	lc := strings.ToLower(strings.TrimSpace(text))
	remember := u.Intent == nlu.AskInfo && strings.HasPrefix(lc, "remember that ") && !strings.HasSuffix(lc, "?")
	if !plan.ForgetsLast(text) && !isCorrection(text) && !remember && !memory.ToldRole(text) && !memory.ToldBirth(text) && !memory.ToldHome(text) && !memory.ToldEnding(text) {
		return u
	}
	u.Intent, u.Domains, u.RequiresAction, u.OutOfScope = nlu.RequestAction, []nlu.Domain{nlu.Memory}, true, false
	return u
}

func isCorrection(text string) bool {
	_, ok := memory.Correction(text)
	return ok
}

// relations reads what a question about people and things needs, every
// read through the permission predicate: the facts of the attribute asked
// about (then), and the entities named. Facts about the user themself are
// those of their own entity (relation "self", member the user).
func (s Sources) relations(ctx context.Context, c *stage.Context, uid int64, q memory.Question) error {
	span := func(f hearth.MemoryFilter) hearth.MemoryFilter {
		f.UserID, f.Limit = uid, 50
		switch {
		case !q.From.IsZero() || !q.To.IsZero():
			f.AsOf, f.Until = q.From, q.To
			if f.AsOf.IsZero() {
				f.AsOf = time.Unix(0, 0)
			}
		case q.Past:
			f.Ever = true
		}
		return f
	}
	find := func(f hearth.MemoryFilter) ([]hearth.Memory, error) {
		ms, err := s.Memories.FindMemories(ctx, f)
		if err != nil {
			return nil, fmt.Errorf("context: people: %w", err)
		}
		return ms, nil
	}
	named := func(name string) (hearth.Entity, bool, error) {
		if s.Entities == nil {
			return hearth.Entity{}, false, nil
		}
		es, err := s.Entities.FindEntities(ctx, hearth.EntityFilter{UserID: uid, Name: name, Limit: 1})
		if err != nil || len(es) == 0 {
			return hearth.Entity{}, false, err
		}
		return es[0], true, nil
	}
	self := func() (hearth.Entity, bool, error) {
		if s.Entities == nil {
			return hearth.Entity{}, false, nil
		}
		es, err := s.Entities.FindEntities(ctx, hearth.EntityFilter{UserID: uid, Relation: "self", Limit: 50})
		if err != nil {
			return hearth.Entity{}, false, err
		}
		for _, e := range es {
			if e.MemberID == uid && e.UserID == uid {
				return e, true, nil
			}
		}
		return hearth.Entity{}, false, nil
	}
	switch q.Kind {
	case memory.WhoHas:
		ms, err := find(span(hearth.MemoryFilter{Attribute: q.Attribute, Value: q.Value}))
		c.Memories = ms
		return err
	case memory.WhoWithMe:
		me, ok, err := self()
		if err != nil || !ok {
			return err
		}
		c.Entities = []hearth.Entity{me}
		mine, err := find(span(hearth.MemoryFilter{EntityID: me.ID, Attribute: hearth.AttrEmployer}))
		if err != nil {
			return err
		}
		c.Memories = mine
		for _, m := range mine {
			others, err := find(span(hearth.MemoryFilter{Attribute: hearth.AttrEmployer, Value: m.Value}))
			if err != nil {
				return err
			}
			for _, o := range others {
				if o.EntityID != me.ID {
					c.Memories = append(c.Memories, o)
				}
			}
		}
		colleagues, err := find(span(hearth.MemoryFilter{Attribute: hearth.AttrRelation, Value: "colleague"}))
		c.Memories = append(c.Memories, colleagues...)
		return err
	case memory.ValueOf:
		e, ok, err := named(q.Name)
		if q.Self {
			e, ok, err = self()
		}
		if err != nil || !ok {
			return err
		}
		c.Entities = []hearth.Entity{e}
		f := span(hearth.MemoryFilter{EntityID: e.ID, Attribute: q.Attribute})
		if q.Value != "" && f.AsOf.IsZero() {
			// "Is Lea still at Globex?": no, if that value ended.
			f.Ever = true
		}
		c.Memories, err = find(f)
		return err
	case memory.LivedWhenBorn:
		e, ok, err := named(q.Name)
		if err != nil || !ok {
			return err
		}
		c.Entities = []hearth.Entity{e}
		born, err := find(hearth.MemoryFilter{UserID: uid, EntityID: e.ID, Attribute: hearth.AttrBorn, Ever: true, Limit: 1})
		if err != nil || len(born) == 0 {
			return err
		}
		c.Memories = born
		day, err := time.ParseInLocation(time.DateOnly, born[0].Value, c.Location)
		if err != nil {
			return nil // a birth told without a date: no home to look up
		}
		me, ok, err := self()
		if err != nil || !ok {
			return err
		}
		c.Entities = append(c.Entities, me)
		homes, err := find(hearth.MemoryFilter{UserID: uid, EntityID: me.ID, Attribute: memory.AttrHome, AsOf: day.Add(12 * time.Hour), Limit: 5})
		c.Memories = append(c.Memories, homes...)
		return err
	case memory.WhoIsMy:
		if s.Entities == nil {
			return nil
		}
		es, err := s.Entities.FindEntities(ctx, hearth.EntityFilter{UserID: uid, Relation: q.Relation, Limit: 50})
		if err != nil {
			return fmt.Errorf("context: people: %w", err)
		}
		for _, e := range es {
			if e.UserID == uid {
				c.Entities = append(c.Entities, e)
			}
		}
	}
	return nil
}

// proximity reads what a question about distance needs: the person, the
// place it is measured from (their school's or home's current value and
// location), their age, and their friends' current homes with distances
// (earthdistance, in the store's permission-checked read).
func (s Sources) proximity(ctx context.Context, c *stage.Context, uid int64, q memory.Question, now time.Time) error {
	p := &stage.Proximity{Place: q.Place, Age: -1, Geocoding: s.Geocoding, Table: s.Walking.String()}
	c.Proximity = p
	if s.Entities == nil {
		return nil
	}
	es, err := s.Entities.FindEntities(ctx, hearth.EntityFilter{UserID: uid, Name: q.Name, Limit: 1})
	if err != nil || len(es) == 0 {
		return err
	}
	e := es[0]
	p.Of = e.Name
	find := func(f hearth.MemoryFilter) ([]hearth.Memory, error) {
		f.UserID = uid
		ms, err := s.Memories.FindMemories(ctx, f)
		if err != nil {
			return nil, fmt.Errorf("context: proximity: %w", err)
		}
		return ms, nil
	}
	// Where from: the place's current value, one with a location first.
	attrs := []string{q.Place}
	if q.Place == hearth.AttrSchool {
		attrs = append(attrs, memory.AttrSchoolAddress)
	}
	for _, a := range attrs {
		ms, err := find(hearth.MemoryFilter{EntityID: e.ID, Attribute: a, Limit: 5})
		if err != nil {
			return err
		}
		for _, m := range ms {
			if p.From.ID == 0 || !p.Located && m.Place != nil {
				p.From, p.Located = m, m.Place != nil
			}
		}
	}
	if born, err := find(hearth.MemoryFilter{EntityID: e.ID, Attribute: hearth.AttrBorn, Ever: true, Limit: 1}); err != nil {
		return err
	} else if len(born) == 1 {
		if d, err := time.ParseInLocation(time.DateOnly, born[0].Value, now.Location()); err == nil {
			p.Age = memory.Age(d, now)
		}
	}
	p.Limit, p.Said = q.Metres, q.Metres > 0
	if !p.Said {
		p.Limit = s.Walking.For(p.Age)
	}
	friends, err := find(hearth.MemoryFilter{Attribute: memory.AttrFriendOf, Value: e.Name, Limit: 100})
	if err != nil {
		return err
	}
	for _, f := range friends {
		if f.EntityID == 0 || slices.ContainsFunc(p.Homes, func(h hearth.Memory) bool { return h.EntityID == f.EntityID }) {
			continue
		}
		var homes []hearth.Memory
		if p.Located {
			if homes, err = find(hearth.MemoryFilter{EntityID: f.EntityID, Attribute: memory.AttrHome, Near: p.From.Place, Limit: 1}); err != nil {
				return err
			}
		}
		if len(homes) == 0 {
			p.Unplaced = append(p.Unplaced, f.About)
			continue
		}
		p.Homes = append(p.Homes, homes[0])
	}
	slices.SortStableFunc(p.Homes, func(a, b hearth.Memory) int { return cmp.Compare(a.Distance, b.Distance) })
	return nil
}

// entityMemories adds, for a question about someone by name or relation
// ("who is Anna?", "tell me about my sister"), the person Hearth knows by
// it and every fact stored about them: "my sister's name is Anna" is
// about Anna by its entity, whatever its words begin with.
func (s Sources) entityMemories(ctx context.Context, c *stage.Context, uid int64, who string) error {
	if s.Entities == nil {
		return nil
	}
	es, err := s.Entities.FindEntities(ctx, hearth.EntityFilter{UserID: uid, Name: who, Limit: 1})
	if err != nil {
		return fmt.Errorf("context: who %s is: %w", who, err)
	}
	if rel, ok := strings.CutPrefix(strings.ToLower(who), "my "); ok && len(es) == 0 {
		// "My nephew" is no alias when one may have several: the one
		// nephew Hearth knows, then.
		e, ok, err := s.kin(ctx, uid, rel)
		if err != nil || !ok {
			return err
		}
		es = []hearth.Entity{e}
	}
	if len(es) != 1 {
		return nil
	}
	return s.factsOf(ctx, c, uid, es[0])
}

// kinMemories adds, for a question that names someone by what they are
// to the user ("when is my sister's birthday?", "what's my dad's
// number?"), the one person Hearth knows so and every fact stored about
// them: "Julia's birthday is March 3rd" shares no word with "sister".
// Nothing when Hearth knows no one so, or several.
func (s Sources) kinMemories(ctx context.Context, c *stage.Context, uid int64, text string) error {
	_, rel, ok := memory.KinIn(text)
	if !ok || s.Entities == nil {
		return nil
	}
	e, ok, err := s.kin(ctx, uid, rel)
	if err != nil || !ok {
		return err
	}
	if err := s.factsOf(ctx, c, uid, e); err != nil {
		return err
	}
	// A fact of no attribute ("Julia's birthday is March 3rd") is about
	// her by its subject alone.
	ms, err := s.Memories.FindMemories(ctx, hearth.MemoryFilter{UserID: uid, About: e.Name, Limit: 50})
	if err != nil {
		return fmt.Errorf("context: facts about %s: %w", e.Name, err)
	}
	addMemories(c, ms)
	return nil
}

// kin is the one person the user told Hearth is their rel ("sister"):
// not found when none is, or several are. Someone a family member told
// of is their sister, not the user's.
func (s Sources) kin(ctx context.Context, uid int64, rel string) (hearth.Entity, bool, error) {
	es, err := s.Entities.FindEntities(ctx, hearth.EntityFilter{UserID: uid, Relation: rel, Limit: 10})
	if err != nil {
		return hearth.Entity{}, false, fmt.Errorf("context: who my %s is: %w", rel, err)
	}
	es = slices.DeleteFunc(es, func(e hearth.Entity) bool { return e.UserID != uid })
	if len(es) != 1 {
		return hearth.Entity{}, false, nil
	}
	return es[0], true, nil
}

// factsOf adds e and every fact stored about it (by its entity, whatever
// the fact's words) to the context.
func (s Sources) factsOf(ctx context.Context, c *stage.Context, uid int64, e hearth.Entity) error {
	if !slices.ContainsFunc(c.Entities, func(x hearth.Entity) bool { return x.ID == e.ID }) {
		c.Entities = append(c.Entities, e)
	}
	ms, err := s.Memories.FindMemories(ctx, hearth.MemoryFilter{UserID: uid, EntityID: e.ID, Limit: 50})
	if err != nil {
		return fmt.Errorf("context: facts about %s: %w", e.Name, err)
	}
	addMemories(c, ms)
	return nil
}

// addMemories adds to the context the facts of ms it does not hold yet.
func addMemories(c *stage.Context, ms []hearth.Memory) {
	for _, m := range ms {
		if !slices.ContainsFunc(c.Memories, func(x hearth.Memory) bool { return x.ID == m.ID }) {
			c.Memories = append(c.Memories, m)
		}
	}
}
