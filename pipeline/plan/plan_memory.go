package plan

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/memory"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// planMemory plans what Hearth remembers: "remember that John's birthday
// is March 15th" and plain statements of fact ("I just closed on my
// house!") become memory.store; "forget that …" becomes memory.forget of
// the best matching memory. Questions plan nothing: the responder answers
// them from Context.Memories.
func planMemory(_ context.Context, in stage.PlanInput) (stage.Plan, error) {
	text, whole := ownText(in, nlu.Memory)
	if strings.TrimSpace(text) == "" {
		return stage.Plan{}, nil
	}
	if in.Understanding.Intent != nlu.RequestAction {
		return stage.Plan{Understood: "look up what I know about that"}, nil
	}
	if ref, ok := ForgetRequest(text); ok {
		if IsPronoun(ref) && in.Context.LastFact.ID != 0 {
			// "Forget that": what the user just told, at once, with undo.
			last := in.Context.LastFact
			p := stage.Plan{Understood: "forget that " + prose.LowerFirst(last.Content)}
			a, err := action.New(action.MemoryForget, action.MemoryRefArgs{ID: last.ID, Content: last.Content})
			if err != nil {
				return plannedErr(p, err)
			}
			p.Actions = []action.Action{a}
			return p, nil
		}
		return planForget(in, ref)
	}
	if v, ok := memory.Correction(text); ok {
		return planCorrection(in, v)
	}
	fact := in.Understanding.Slots.Fact
	if fact == "" || !whole && !strings.Contains(strings.ToLower(text), strings.ToLower(fact)) {
		fact = FactOf(text)
	}
	fact = prose.UpperFirst(words.TidySlot(withoutLead(fact)))
	if restated, ok := memory.NewValue(fact); ok {
		// "Tom got a new number: …" is Tom's number, which closes the
		// one Hearth had.
		fact = prose.UpperFirst(restated)
	}
	p := stage.Plan{Understood: "remember something"}
	if fact == "" || IsPronoun(fact) {
		return p, needDetails("what to remember")
	}
	p.Understood = "remember that " + prose.LowerFirst(fact)
	args := action.MemoryStoreArgs{
		Content:  fact,
		About:    aboutOf(fact, in.Understanding.Slots.People),
		Category: memoryCategory(fact),
	}
	var sure bool
	args.Tier, sure = memory.Tier(fact)
	related := relationFact(in, fact, &args)
	// A fact about a person or thing ("Jon is my brother", "Sarah's email
	// is …", "I worked at Acme from 2001 to 2009") is also one value of
	// one of its attributes over time: a new value closes the old one.
	if entityFact(in, fact, &args) {
		if args.Attribute != hearth.AttrBorn && !args.Ends && args.ValidFrom.IsZero() && args.ValidTo.IsZero() && memory.Historical(fact) {
			// It ended, but when? One question; the answer fills it in.
			return askWhen(p, args)
		}
		a, err := action.New(action.MemoryStore, args)
		if err != nil {
			return plannedErr(p, err)
		}
		p.Actions = []action.Action{a}
		return p, nil
	}
	// A relationship ("Priya is my manager", "Emma loves dinosaurs") is
	// a fact with its relationship, undone together; it corrects nothing
	// by its subject, as a changed relationship closes the old one.
	if related && sure || related && !in.Context.InFamily {
		if r := args.Relationship; args.About == "" && !r.From.Self {
			args.About = r.From.Name
		}
		a, err := action.New(action.MemoryStore, args)
		if err != nil {
			return plannedErr(p, err)
		}
		p.Actions = []action.Action{a}
		return p, nil
	}
	// A fact about the same subject as one the user told before corrects
	// it ("John's birthday is March 16th" after "… March 15th"): the old
	// one is closed, not left beside the new (see store.UpdateMemory).
	if old, ok := corrects(in, fact); ok && !related {
		p.Understood = "correct what I knew: " + prose.LowerFirst(fact)
		content := fact
		if v, ok := memory.ChangedValue(fact); ok {
			// "Tom's number changed to …": what was known, with the new
			// value ("Tom's phone number is …").
			if c, ok := memory.Correct(old.Content, old.Value, v, factNow(in)); ok {
				content = c
			}
		}
		a, err := action.New(action.MemoryUpdate, action.MemoryUpdateArgs{ID: old.ID, Content: content})
		if err != nil {
			return plannedErr(p, err)
		}
		p.Actions = []action.Action{a}
		return p, nil
	}
	if !sure && in.Context.InFamily {
		// Its words do not say how private it is, and that decides what
		// the family sees: the user picks, with buttons. (Alone, the
		// safe middle, personal, changes nothing for anyone.)
		return askTier(p, args)
	}
	a, err := action.New(action.MemoryStore, args)
	if err != nil {
		return plannedErr(p, err)
	}
	p.Actions = []action.Action{a}
	return p, nil
}

// tierChoices are the buttons of the question asked when a fact's words
// do not say how private it is, the safe middle first.
var tierChoices = []struct {
	label string
	tier  hearth.Tier
}{
	{"Personal", hearth.TierPersonal},
	{"Private (only me)", hearth.TierPrivate},
	{"An event or milestone", hearth.TierEvents},
	{"Basic (names, relations)", hearth.TierBasic},
}

// askTier asks how private a fact is; each button stores it at its tier.
func askTier(p stage.Plan, args action.MemoryStoreArgs) (stage.Plan, error) {
	q := &stage.Question{Text: "I'll remember that. How private is it? Family members see only what their access allows."}
	for _, c := range tierChoices {
		pick := args
		pick.Tier = c.tier
		a, err := action.New(action.MemoryStore, pick)
		if err != nil {
			return plannedErr(p, err)
		}
		q.Options = append(q.Options, stage.Option{Label: c.label, Actions: []action.Action{a}})
	}
	p.Question = q
	return p, nil
}

// entityFact fills in the entity, attribute, value and validity of a fact
// that states something about a person or thing, and reports whether it
// does. Validity said in words ("from 2001 to 2009", "since March") is
// read by timex, the one date language.
func entityFact(in stage.PlanInput, fact string, args *action.MemoryStoreArgs) bool {
	now := factNow(in)
	from, to, rest, dated := memory.Validity(fact, now)
	st, ok := memory.ReadStatement(rest)
	ends := false
	if !ok {
		// "Ben no longer works at Acme": the value it ends.
		if st, ends = memory.ReadEnding(rest); !ends {
			return false
		}
	}
	e := &action.EntityArgs{Name: st.Name, Kind: st.Kind, Relation: st.Relation, Aliases: st.Aliases}
	if st.Self {
		e.Name, e.Self = selfName(in.User), true
		args.About = "" // about the user, not what the classifier took for a name
	} else if lc := strings.ToLower(fact); args.About == "" || strings.Index(lc, strings.ToLower(st.Name)) < strings.Index(lc, strings.ToLower(args.About)) && strings.Contains(lc, strings.ToLower(st.Name)) {
		// The statement's subject when it comes first: "Jon works at
		// Initech" is about Jon, whichever names the classifier saw.
		args.About = st.Name
	}
	// "Ben is my brother", when Ben is in the family: the entity is Ben.
	for _, m := range in.Context.FamilyMembers {
		if !st.Self && (strings.EqualFold(m.Name, st.Name) || strings.EqualFold(strings.Fields(m.Name + " x")[0], st.Name)) {
			e.MemberID = m.UserID
			break
		}
	}
	args.Entity, args.Attribute, args.Value, args.Ends = e, st.Attribute, st.Value, ends
	switch {
	case st.Attribute == hearth.AttrBorn && dated:
		args.Value = from.Format(time.DateOnly)
	case st.Attribute == hearth.AttrBorn:
		args.Attribute = "" // born, but when is not said: a plain fact about them
	case dated && st.Began:
		// "I moved to Hamburg in 2015": home from then on, not for 2015
		// alone.
		args.ValidFrom = from
	case dated:
		args.ValidFrom, args.ValidTo = from, to
		// "from 2001 to 2009" is over: the relation held, it does not now.
	case st.Began:
		// "I moved to Munich": home from now on, not always; where they
		// lived in 2020 is the home before.
		args.ValidFrom = now
	}
	if args.Relationship == nil {
		// "Jon works at Acme" is also Jon → Acme, with the fact's
		// validity: one statement, recorded and undone as one.
		// An ending ends the relation that holds now.
		past := !ends && (!args.ValidTo.IsZero() || memory.Historical(fact))
		if r, ok := memory.AttributeRelation(st, past); ok {
			if ends {
				// Closed, with nothing in its place.
				r.Ended, r.Attitude, r.Proximity = true, 0, 0
			}
			args.Relationship = relationArgs(in, r)
		}
	}
	if memory.Addressed(args.Attribute) {
		// "12 Oak Street (51.50, -0.12)": coordinates given in chat place
		// it; otherwise the geocoder is asked, if there is one.
		if rest, c, ok := memory.Coordinates(args.Value); ok {
			args.Value, args.Place = rest, &c
		} else {
			args.Locate = true
		}
	}
	if st.Attribute == hearth.AttrRelation || st.Relation != "" && st.Attribute == "" {
		args.Tier = hearth.TierBasic
	}
	return true
}

// relationFact reads the relationship a fact states between people and
// things, by grammar (memory.ReadRelation), into args.Relationship, and
// reports whether it does. What the user states directly is confirmed;
// what their words only hedge is a candidate they confirm later.
func relationFact(in stage.PlanInput, fact string, args *action.MemoryStoreArgs) bool {
	now := factNow(in)
	_, _, rest, _ := memory.Validity(fact, now)
	r, ok := memory.ReadRelation(rest)
	if !ok {
		return false
	}
	if r.Implied && holds(in, r) {
		// "Bob is my friend" after "Bob and I are close friends": the role
		// again, not a change of how close they are.
		r.Attitude, r.Proximity = 0, 0
	}
	args.Relationship = relationArgs(in, r)
	if r.From.Self && r.To.Kind == "" && args.Entity == nil {
		// "Priya is my manager": the relation to the user is Priya's.
		args.Tier = hearth.TierBasic
	}
	return true
}

// relationArgs is the payload of a relationship a statement tells: the
// user's end is their own entity; what they state directly is confirmed.
func relationArgs(in stage.PlanInput, r memory.Relation) *action.RelationshipArgs {
	end := func(p memory.Party) action.EndArgs {
		if p.Self {
			return action.EndArgs{Name: selfName(in.User), Self: true}
		}
		return action.EndArgs{Name: p.Name, Kind: p.Kind}
	}
	return &action.RelationshipArgs{From: end(r.From), To: end(r.To), Label: r.Label, Attitude: r.Attitude,
		Proximity: r.Proximity, Description: r.Description, Confirmed: !r.Hedged, Ended: r.Ended}
}

// holds reports whether the context knows r's relationship (its two ends
// and label) as one that holds now.
func holds(in stage.PlanInput, r memory.Relation) bool {
	name := func(p memory.Party) string {
		if p.Self {
			return selfName(in.User)
		}
		return p.Name
	}
	from, to := name(r.From), name(r.To)
	for _, x := range in.Context.Relationships {
		if strings.EqualFold(x.Label, r.Label) && strings.EqualFold(x.FromName, from) && strings.EqualFold(x.ToName, to) {
			return true
		}
	}
	return false
}

// factNow is the instant facts are read against: the turn's, in the
// user's zone, or the clock's when the context has none.
func factNow(in stage.PlanInput) time.Time {
	if in.Context.Now.IsZero() {
		return time.Now()
	}
	return stage.UserNow(in.Context)
}

// selfName is the name of the entity that is the user: their own name.
func selfName(u hearth.User) string {
	if n := strings.TrimSpace(u.DisplayName); n != "" {
		return n
	}
	return "me"
}

// askWhen asks when a historical fact was true ("I worked at Acme" —
// when?). The answer, in words, fills in its validity; the button keeps
// it without a time.
func askWhen(p stage.Plan, args action.MemoryStoreArgs) (stage.Plan, error) {
	undated, err := action.New(action.MemoryStore, args)
	if err != nil {
		return plannedErr(p, err)
	}
	f, err := stage.NewFill(stage.FillWhen, "", action.MemoryStore, args)
	if err != nil {
		return plannedErr(p, err)
	}
	p.Question = &stage.Question{
		Text:    "When was that? Say it like “from 2001 to 2009” or “until 2019”, or keep it without a date.",
		Options: []stage.Option{{Label: "Keep it without a date", Actions: []action.Action{undated}}},
		Fill:    f,
	}
	return p, nil
}

// ForgetsLast reports whether text asks to forget what the user just
// told ("forget that", "forget it").
func ForgetsLast(text string) bool {
	ref, ok := ForgetRequest(text)
	return ok && IsPronoun(ref)
}

// planCorrection corrects the fact the user told last with a value said
// by itself ("actually it's the 16th"): the old fact is closed and the
// new one holds from now (memory.update), or, for an attribute's value,
// the new value closes the old (memory.store).
func planCorrection(in stage.PlanInput, value string) (stage.Plan, error) {
	p := stage.Plan{Understood: "correct what you just told me"}
	last := in.Context.LastFact
	if last.ID == 0 {
		return p, needDetails("what to correct: tell me the whole fact again")
	}
	now := factNow(in)
	content, ok := memory.Correct(last.Content, last.Value, value, now)
	if !ok {
		return p, needDetails("what %q corrects in %q", value, last.Content)
	}
	content = prose.UpperFirst(content)
	p.Understood = "correct it: " + prose.LowerFirst(content)
	var a action.Action
	var err error
	if last.Attribute != "" && last.Value != "" && last.EntityID != 0 {
		args := action.MemoryStoreArgs{Content: content, About: last.About, Category: last.Category, Tier: last.Tier,
			Entity: &action.EntityArgs{Name: last.About}, Attribute: last.Attribute, Value: strings.TrimSpace(value)}
		if last.About == "" {
			args.Entity = &action.EntityArgs{Name: selfName(in.User), Self: true}
		}
		a, err = action.New(action.MemoryStore, args)
	} else {
		a, err = action.New(action.MemoryUpdate, action.MemoryUpdateArgs{ID: last.ID, Content: content})
	}
	if err != nil {
		return plannedErr(p, err)
	}
	p.Actions = []action.Action{a}
	return p, nil
}

// corrects finds the user's own current fact that a new fact about the
// same subject replaces.
func corrects(in stage.PlanInput, fact string) (hearth.Memory, bool) {
	subj := memory.Subject(fact)
	if subj == "" {
		return hearth.Memory{}, false
	}
	for _, m := range in.Context.Memories {
		if m.UserID == in.User.ID && m.FamilyID == 0 && memory.SameSubject(memory.Subject(m.Content), subj) && !strings.EqualFold(m.Content, fact) {
			return m, true
		}
	}
	return hearth.Memory{}, false
}

// FactOf reads what to remember out of a clause: what follows "remember
// that" and the like, or the clause itself when it states something.
func FactOf(text string) string {
	if rest, _, ok := words.AfterAny(text, "remember that ", "don't forget that ", "dont forget that ", "do not forget that ", "keep in mind that ", "note that ", "note: ", "make a mental note that ", "for future reference ", "for the record ", "fyi ", "just so you know ", "remember ", "keep in mind "); ok {
		return rest
	}
	if startsWithCommand(words.ASCIILower(strings.TrimSpace(text))) {
		return ""
	}
	return text
}

// withoutLead is a fact without the words that lead into it: "Actually,
// Ben's birthday is March 5" is "Ben's birthday is March 5", which
// replaces the birthday told before; "also Tom loves jazz" is "Tom loves
// jazz".
func withoutLead(fact string) string {
	fact = strings.TrimSpace(fact)
	lc := words.ASCIILower(fact)
	return fact[len(lc)-len(words.StripPoliteness(lc)):]
}

// ForgetRequest recognises "forget that …", "forget about …", "delete
// the memory about …" and returns what to forget. "Don't forget that …"
// is the opposite and is not one.
func ForgetRequest(text string) (string, bool) {
	lc := words.StripPoliteness(words.ASCIILower(strings.TrimSpace(text)))
	if strings.Contains(lc, "don't forget") || strings.Contains(lc, "dont forget") || strings.Contains(lc, "do not forget") {
		return "", false
	}
	rest, _, ok := words.AfterAny(text, "forget that ", "forget about ", "forget what i said about ", "forget ", "stop remembering ", "delete the memory about ", "delete the memory that ", "delete the memory ", "remove the memory about ", "remove the memory ", "don't remember ")
	if !ok {
		return "", false
	}
	return words.TidySlot(rest), true
}

// planForget forgets the memory that best matches ref.
func planForget(in stage.PlanInput, ref string) (stage.Plan, error) {
	p := stage.Plan{Understood: "forget something"}
	if ref == "" || IsPronoun(ref) {
		return p, needDetails("what to forget")
	}
	p.Understood = "forget that " + prose.LowerFirst(ref)
	var texts []string
	for _, m := range in.Context.Memories {
		texts = append(texts, m.About+" "+m.Content)
	}
	hits := words.BestMatches(ref, texts)
	if len(hits) == 0 {
		return p, needDetails("what to forget: I couldn't find anything remembered matching “%s”", ref)
	}
	var labels []string
	var acts []action.Action
	for _, i := range hits {
		m := in.Context.Memories[i]
		a, err := action.New(action.MemoryForget, action.MemoryRefArgs{ID: m.ID, Content: m.Content})
		if err != nil {
			return plannedErr(p, err)
		}
		acts = append(acts, a)
		labels = append(labels, m.Content)
	}
	return actOrAsk(p, "Which one should I forget?", labels, acts), nil
}

// aboutOf says whom or what a fact is about: the first person the
// classifier found in the fact, else its possessive subject ("Max's vet
// is Dr. Lee" → "Max").
func aboutOf(fact string, people []string) string {
	lc := strings.ToLower(fact)
	best, at := "", len(lc)+1
	for _, p := range people {
		// "my sister" in "my sister's name": only the start must be a word
		// boundary, the possessive may follow.
		if i := strings.Index(lc, strings.ToLower(p)); i >= 0 && i < at && (i == 0 || !words.IsWordChar(lc[i-1])) {
			best, at = p, i
		}
	}
	if best != "" {
		// "My daughter Mia is allergic …" is about Mia: a name right
		// after the relation that introduces it.
		if words.StartsWithAny(strings.ToLower(best), "my ", "our ") {
			if next := strings.Fields(fact[at+len(best):]); len(next) > 0 && isName(next[0]) {
				return strings.TrimRight(next[0], ",.")
			}
		}
		return best
	}
	f := strings.Fields(fact)
	for _, w := range f {
		if base, ok := strings.CutSuffix(w, "'s"); ok && base != "" && base[0] >= 'A' && base[0] <= 'Z' {
			return base
		}
	}
	// "Tom is a pilot", "Sarah Kim works as a vet": the name it opens
	// with (one the classifier does not find at a sentence's start).
	for i := 1; i <= 2 && i < len(f) && isName(f[i-1]); i++ {
		if slices.Contains([]string{"is", "was", "works", "worked"}, f[i]) {
			return strings.Join(f[:i], " ")
		}
	}
	return ""
}

// isName reports a word written as a name: capitalised, not "I" or a
// word that opens a clause.
func isName(w string) bool {
	w = strings.TrimRight(w, ",.")
	return len(w) > 1 && w[0] >= 'A' && w[0] <= 'Z' && !strings.Contains(w, "'") && !slices.Contains([]string{"I", "Is", "Has", "Was", "And", "The"}, w)
}

// workCues make a fact a work one; everything else is personal, because
// that is what most of what people tell an assistant is.
var workCues = []string{"work", "colleague", "coworker", "co-worker", "boss", "manager", "project", "client", "customer", "office", "deadline", "team", "meeting", "job", "sprint", "standup", "quarterly", "company"}

func memoryCategory(fact string) hearth.MemoryCategory {
	lc := words.ASCIILower(fact)
	for _, c := range workCues {
		if words.ContainsWord(lc, c) {
			return hearth.MemoryWork
		}
	}
	return hearth.MemoryPersonal
}
