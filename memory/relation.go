package memory

import (
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/nlu/timex"
	"github.com/hearthbot/hearth/pipeline/words"
)

// Relationships read from what people say, offline and by grammar: a
// statement is a noun phrase for each end (the user, "my manager", a
// name, a thing) and a verb phrase or a role between them, and the words
// around them (best, close, love, barely, anymore) set the attitude and
// proximity and whether the relation ended. The relation name follows
// from the ends' node types (hearth.ScaleOf); the typed label is kept.

// Party is one end of a relationship as a statement names it.
type Party struct {
	// Name is the name as said ("Priya", "my manager", "food bank");
	// empty for the user.
	Name string
	// Self is true for the user ("I", "me", "we").
	Self bool
	// Kind is what the end is when the words say it (a concept for
	// "dinosaurs", an organisation for "the food bank"); empty: a
	// person, or whatever Hearth already knows it as.
	Kind hearth.EntityKind
	// Relation is what the end is to the user, when said ("my manager").
	Relation string
}

// Relation is a relationship a statement tells: From → To with a label,
// the attitude and proximity its words say (0: not said, the default 3),
// and whether it was said directly or only hedged ("I think …", "seems
// to"), in which case it is a candidate for the user to confirm.
type Relation struct {
	From, To            Party
	Label               string
	Attitude, Proximity int
	// Description is what the statement adds ("Known from college").
	Description string
	// Hedged is true for indirect wording: the relation is inferred, not
	// stated.
	Hedged bool
	// Ended is true when the statement says the relation no longer holds
	// ("Bob and I aren't friends anymore", "Priya isn't my manager").
	Ended bool
	// Implied is true when the attitude and proximity come from the role
	// word alone ("friend"), not from words about it ("close friend"):
	// telling the role again says nothing new of how close they are.
	Implied bool
}

// Confidence is how sure Hearth is of r: what the user stated directly
// is 0.9, what it only inferred from hedged words 0.6.
func (r Relation) Confidence() float64 {
	if r.Hedged {
		return 0.6
	}
	return 0.9
}

// roles are what someone can be to someone else, with the attitude and
// proximity the word itself says (0: not said). The kin and household
// words of the entity reader are roles too.
var roles = func() map[string][2]int {
	m := map[string][2]int{}
	for r := range relations {
		m[r] = [2]int{0, 0}
	}
	for r, v := range map[string][2]int{
		"friend": {4, 0}, "best friend": {5, 5}, "buddy": {4, 0}, "pal": {4, 0}, "classmate": {0, 0}, "mentor": {4, 0},
		"coach": {0, 0}, "client": {0, 0}, "acquaintance": {0, 2}, "enemy": {1, 0}, "rival": {2, 0}, "godmother": {0, 0},
		"godfather": {0, 0}, "teammate": {0, 0}, "student": {0, 0}, "tutor": {0, 0}, "employee": {0, 0}, "mother": {0, 5},
		"father": {0, 5}, "mom": {0, 5}, "mum": {0, 5}, "dad": {0, 5}, "wife": {5, 5}, "husband": {5, 5}, "partner": {5, 5},
		"daughter": {0, 5}, "son": {0, 5}, "sister": {0, 4}, "brother": {0, 4},
	} {
		m[r] = v
	}
	return m
}()

// modifiers are the words before a role that say how close it is.
var modifiers = map[string][2]int{
	"best": {5, 5}, "closest": {5, 5}, "close": {5, 4}, "good": {4, 4}, "dear": {5, 4}, "old": {0, 4},
	"oldest": {0, 5}, "new": {0, 2}, "distant": {0, 2}, "casual": {0, 2},
}

// verb is a verb phrase between a person and what they relate to.
type verb struct {
	label string
	att   int
	prox  int
	// obj is the kind of a lowercase object ("dinosaurs" a concept, "the
	// food bank" an organisation); a person for the verbs between people.
	obj hearth.EntityKind
}

// verbs are the verb phrases, each in the forms people say it (the third
// person and the others); copular ones ("into", "close to") follow "is"
// or "are", which the grammar reads apart.
var verbs = func() map[string]verb {
	m := map[string]verb{}
	add := func(v verb, forms ...string) {
		for _, f := range forms {
			m[f] = v
		}
	}
	c, o, p := hearth.EntityConcept, hearth.EntityOrganisation, hearth.EntityPerson
	add(verb{"loves", 5, 0, c}, "love", "loves", "adore", "adores")
	add(verb{"passionate about", 5, 4, c}, "passionate about", "obsessed with", "crazy about", "mad about", "nuts about")
	add(verb{"likes", 4, 0, c}, "like", "likes", "enjoy", "enjoys", "fancy", "fancies")
	add(verb{"into", 4, 0, c}, "into", "keen on", "a fan of", "fond of")
	add(verb{"interested in", 4, 0, c}, "interested in", "curious about")
	add(verb{"dislikes", 2, 0, c}, "dislike", "dislikes")
	add(verb{"hates", 1, 0, c}, "hate", "hates", "detest", "detests", "loathe", "loathes", "can't stand", "cannot stand")
	add(verb{"plays", 4, 4, c}, "play", "plays", "practise", "practises", "practice", "practices")
	add(verb{"does", 4, 4, c}, "do", "does")
	add(verb{"studies", 4, 4, c}, "study", "studies", "learn", "learns")
	add(verb{"teaches", 4, 5, c}, "teach", "teaches", "coach", "coaches")
	add(verb{"good at", 4, 4, c}, "good at")
	add(verb{"expert in", 4, 5, c}, "an expert in", "an expert on", "expert in")
	add(verb{"volunteers at", 4, 4, o}, "volunteer at", "volunteers at", "volunteer for", "volunteers for", "help out at", "helps out at")
	add(verb{"member of", 4, 4, o}, "a member of", "member of", "belong to", "belongs to")
	add(verb{"supports", 4, 3, o}, "support", "supports", "root for", "roots for")
	add(verb{"close to", 5, 4, p}, "close to")
	add(verb{"friend", 4, 0, p}, "friends with")
	add(verb{"best friend", 5, 5, p}, "best friends with")
	add(verb{"friend", 5, 4, p}, "close friends with", "good friends with")
	add(verb{"gets along with", 4, 0, p}, "get along with", "gets along with", "get on with", "gets on with")
	add(verb{"knows", 0, 0, p}, "know", "knows")
	return m
}()

// copular are the verb phrases that follow "is", "are" or "am".
var copular = map[string]bool{"passionate about": true, "into": true, "interested in": true, "good at": true, "expert in": true,
	"member of": true, "close to": true, "friend": true, "best friend": true}

const (
	neg   = `(?:doesn't|does\s+not|don't|do\s+not|isn't|is\s+not|aren't|are\s+not|am\s+not|'m\s+not|no\s+longer|not|never)`
	cop   = `(?:is|are|am|'s|'re|'m)`
	adv   = `(?:really|absolutely|totally|still|also|just|truly|kind\s+of|sort\s+of|barely|hardly|only\s+just|seems\s+to|seem\s+to|seemed\s+to|probably|definitely)`
	tails = `(?:\s+(?:anymore|any\s+more|any\s+longer|a\s+lot|so\s+much|very\s+much|too|as\s+well))*`
	ended = `(?i:\s+(?:anymore|any\s+more|any\s+longer))`
)

var (
	roleAlt = func() string {
		m := map[string]bool{}
		for r := range roles {
			m[r] = true
		}
		return alternation(m)
	}()
	modAlt = func() string {
		m := map[string]bool{}
		for r := range modifiers {
			m[r] = true
		}
		return alternation(m)
	}()
	verbAlt = func() string {
		m := map[string]bool{}
		for v := range verbs {
			m[strings.ReplaceAll(v, " ", `\s+`)] = true
		}
		// alternation quotes its keys; the spaces are patterns here.
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		sortLongestFirst(ks)
		return strings.Join(ks, "|")
	}()
	possNP = `(?:my|our|` + name + poss + `)`

	// "I'm into", "we're friends": the copula apart from the subject.
	reContraction = regexp.MustCompile(`(?i)\b(I|we|they|you)'(m|re)\b`)
	reHedge       = regexp.MustCompile(`(?i)^(?:i\s+think|i\s+believe|i\s+guess|i\s+suppose|i\s+heard|i'm\s+told|apparently|maybe|probably|perhaps|it\s+seems|i\s+gather)(?:\s+that)?[,\s]+`)
	// "Lily is Emma's best friend", "Priya is my manager", "Priya isn't
	// my manager anymore".
	reRoleOf = regexp.MustCompile(`^(.+?)\s+(?i:(?:is|'s)(\s+(?:not|no\s+longer))?|(isn't))\s+(` + possNP + `)\s+(?i:(?:(` + modAlt + `)\s+)?(` + roleAlt + `))(` + ended + `)?$`)
	// "Emma's best friend is Lily", "my manager is Priya".
	reRoleIs = regexp.MustCompile(`^(` + possNP + `)\s+(?i:(?:(` + modAlt + `)\s+)?(` + roleAlt + `))\s+(?i:is)\s+(` + name + `)$`)
	// "Bob and I aren't close anymore", "Emma and Lily are best friends".
	reMutual = regexp.MustCompile(`^(.+?)\s+(?i:and)\s+(.+?)\s+(?i:(?:are|'re)(\s+(?:not|no\s+longer))?|(aren't))\s+(?i:(?:(` + modAlt + `)\s+)?(close|friends|` + roleAlt + `s?))(` + ended + `)?$`)
	// "Emma loves dinosaurs", "I volunteer at the food bank", "I barely
	// know Priya", "Bob is no longer into chess".
	reVerb = regexp.MustCompile(`^(.+?)\s+(?i:(` + cop + `)\s+)?(?i:(` + neg + `)\s+)?(?i:(` + adv + `)\s+)?(?i:(` + verbAlt + `))\s+(.+?)((?i:` + tails + `))$`)
	// What may follow a thing: when, where, why.
	reObjectTail = regexp.MustCompile(`(?i)\s+(?:on|every|each|at|in|since|because|when|with|for|during|after|before|most|twice|once)\b`)
	// What follows the object of "know": "well", "from college".
	reKnowTail = regexp.MustCompile(`(?i)^(.+?)\s+(?:(very\s+well|well)|(?:from|through|via)\s+(.+))$`)
)

func sortLongestFirst(ks []string) {
	for i := range ks {
		for j := i + 1; j < len(ks); j++ {
			if len(ks[j]) > len(ks[i]) || len(ks[j]) == len(ks[i]) && ks[j] < ks[i] {
				ks[i], ks[j] = ks[j], ks[i]
			}
		}
	}
}

// ToldRole reports whether text tells, plainly, what someone is to the
// user or to someone else ("Sam is my brother", "my manager is Priya",
// "Lily is Emma's best friend"): a role between people, not a question,
// not hedged, not a liking ("I love pizza").
func ToldRole(text string) bool {
	t := strings.TrimSpace(text)
	if t == "" || strings.Contains(t, "?") {
		return false
	}
	r, ok := ReadRelation(t)
	_, role := roles[r.Label]
	return ok && role && !r.Hedged && !r.Ended && r.To.Kind == "" && r.To.Name != ""
}

// ReadRelation reads the relationship a statement tells, or reports
// false. Dates should be taken out first (see Validity).
func ReadRelation(fact string) (Relation, bool) {
	fact = strings.Join(strings.Fields(strings.TrimRight(strings.TrimSpace(fact), ".!")), " ")
	fact = strings.NewReplacer("’", "'").Replace(fact)
	fact = reContraction.ReplaceAllStringFunc(fact, func(c string) string {
		subj, rest, _ := strings.Cut(c, "'")
		if strings.EqualFold(rest, "m") {
			return subj + " am"
		}
		return subj + " are"
	})
	var hedged bool
	if loc := reHedge.FindStringIndex(fact); loc != nil {
		hedged, fact = true, fact[loc[1]:]
	}
	r, ok := readRelation(fact)
	if !ok || r.From == r.To || r.From.Self && r.To.Self {
		return Relation{}, false
	}
	r.Hedged = r.Hedged || hedged
	return r, true
}

func readRelation(fact string) (Relation, bool) {
	if g := reRoleOf.FindStringSubmatch(fact); g != nil {
		to, ok := party(g[1], true)
		from, ok2 := possessor(g[4])
		if !ok || !ok2 {
			return Relation{}, false
		}
		return endRole(roleRelation(from, to, g[5], g[6]), g[2] != "" || g[3] != "" || g[7] != ""), true
	}
	if g := reRoleIs.FindStringSubmatch(fact); g != nil {
		from, ok := possessor(g[1])
		to, ok2 := party(g[4], true)
		if !ok || !ok2 {
			return Relation{}, false
		}
		return roleRelation(from, to, g[2], g[3]), true
	}
	if g := reMutual.FindStringSubmatch(fact); g != nil {
		a, ok := party(g[1], true)
		b, ok2 := party(g[2], true)
		if !ok || !ok2 || a.Kind != "" || b.Kind != "" {
			return Relation{}, false
		}
		if b.Self {
			a, b = b, a // the user's side first: "Bob and I" is me → Bob
		}
		negated := g[3] != "" || g[4] != "" || g[7] != ""
		role := strings.ToLower(g[6])
		if role == "close" {
			r := Relation{From: a, To: b, Attitude: 5, Proximity: 4}
			if negated {
				// Not close (any more): still known, no longer close.
				r.Attitude, r.Proximity, r.Ended = 3, 2, true
			}
			return r, true
		}
		if _, ok := roles[role]; !ok {
			role = strings.TrimSuffix(role, "s")
		}
		return endRole(roleRelation(a, b, g[5], role), negated), true
	}
	if g := reVerb.FindStringSubmatch(fact); g != nil {
		return verbRelation(g)
	}
	return Relation{}, false
}

// roleRelation is "To is From's [mod] role".
func roleRelation(from, to Party, mod, role string) Relation {
	role, mod = strings.ToLower(role), strings.ToLower(mod)
	v := roles[role]
	if m, ok := modifiers[mod]; ok {
		v[0], v[1] = max(v[0], m[0]), max(v[1], m[1])
	}
	label := role
	if role == "best friend" || mod == "best" && role == "friend" {
		label = "friend"
	}
	if from.Self && to.Relation == "" && to.Name != "" {
		to.Relation = label
	}
	_, said := modifiers[mod]
	return Relation{From: from, To: to, Label: label, Attitude: v[0], Proximity: v[1], Implied: !said && role != "best friend"}
}

// endRole marks a role that no longer holds: it closes the relationship
// of that label, and says nothing of how close the two are now.
func endRole(r Relation, ended bool) Relation {
	if ended {
		r.Ended, r.Attitude, r.Proximity = true, 0, 0
	}
	return r
}

// verbRelation reads the groups of reVerb: subject, copula, negation,
// adverb, verb, object, tail words.
func verbRelation(g []string) (Relation, bool) {
	v, ok := verbs[strings.ToLower(strings.Join(strings.Fields(g[5]), " "))]
	if !ok {
		return Relation{}, false
	}
	negw := strings.ToLower(strings.Join(strings.Fields(g[3]), " "))
	copNeg := strings.HasPrefix(negw, "is") || strings.HasPrefix(negw, "are") || strings.HasPrefix(negw, "am")
	if copular[v.label] != (g[2] != "" || copNeg) {
		// "Emma is loves …", "Emma into …": not a sentence this reads.
		return Relation{}, false
	}
	from, ok := party(g[1], true)
	if !ok || from.Kind != "" {
		return Relation{}, false
	}
	obj, tail := g[6], strings.ToLower(g[7])
	r := Relation{From: from, Label: v.label, Attitude: v.att, Proximity: v.prox}
	if v.label == "knows" {
		if t := reKnowTail.FindStringSubmatch(obj); t != nil {
			obj = t[1]
			if t[2] != "" {
				r.Proximity = 4
			} else {
				r.Description = "Known from " + strings.TrimSpace(t[3]) + "."
			}
		}
	}
	if v.obj != hearth.EntityPerson {
		// "yoga on Tuesdays", "the food bank every Saturday": the thing,
		// without when or where.
		if loc := reObjectTail.FindStringIndex(obj); loc != nil && loc[0] > 0 {
			obj = obj[:loc[0]]
		}
	}
	to, ok := party(obj, v.obj == hearth.EntityPerson)
	if !ok || v.obj == hearth.EntityPerson && to.Kind != "" {
		return Relation{}, false
	}
	if to.Kind != "" || to.Name != "" && !to.Self && to.Relation == "" && !startsUpper(to.Name) {
		to.Kind = v.obj
	}
	r.To = to
	advw := strings.ToLower(strings.Join(strings.Fields(g[4]), " "))
	switch {
	case advw == "barely" || advw == "hardly" || advw == "only just":
		r.Proximity = 2
	case strings.Contains(advw, "seem"):
		r.Hedged = true
	case (advw == "really" || advw == "absolutely" || advw == "truly") && r.Attitude >= 4:
		r.Attitude = 5
	case strings.Contains(advw, "kind of") || strings.Contains(advw, "sort of"):
		r.Attitude = min(r.Attitude, 4)
	}
	r.Ended = strings.Contains(tail, "any") || negw == "no longer"
	if copNeg {
		negw = "not"
	}
	if negw != "" {
		switch {
		case r.Ended:
		case r.Attitude >= 4 && v.obj != hearth.EntityPerson:
			// "doesn't like", "isn't into": a dislike, said plainly.
			r.Attitude, r.Proximity = 2, 0
		default:
			r.Ended = true
		}
	}
	return r, true
}

// possessor reads "my", "our", "Emma's".
func possessor(s string) (Party, bool) {
	switch strings.ToLower(s) {
	case "my", "our":
		return Party{Self: true}, true
	}
	base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(s, "'s"), "’s"), "'")
	return party(base, true)
}

// notNames are words that are never an end of a relationship.
var notNames = map[string]bool{"it": true, "that": true, "this": true, "these": true, "those": true, "he": true, "she": true,
	"they": true, "him": true, "her": true, "them": true, "you": true, "someone": true, "somebody": true, "something": true,
	"everyone": true, "everybody": true, "nobody": true, "nothing": true, "there": true, "what": true, "who": true, "which": true,
	"to": true, "going": true, "a": true, "an": true, "the": true, "not": true, "so": true, "very": true, "how": true, "when": true,
	"if": true, "his": true, "their": true, "its": true, "your": true, "one": true, "all": true, "some": true, "any": true,
	// "I like my coffee black": a possession, not a thing of its own (a
	// role, "my manager", is read before).
	"my": true, "our": true,
	// "Jon studies at MIT": where, not what; the statement reader reads
	// it as a school (AttributeRelation).
	"at": true, "in": true, "on": true, "for": true, "from": true, "with": true}

var (
	reNameOnly = regexp.MustCompile(`^` + name + `$`)
	reMyRole   = regexp.MustCompile(`(?i)^(?:my|our)\s+(` + roleAlt + `)(?:\s+(` + name + `))?$`)
	reThing    = regexp.MustCompile(`^(?i:(the|a|an)\s+)?([\p{Ll}][\p{Ll}\-']*(?:\s+[\p{L}][\p{L}\-']*){0,3})$`)
)

// party reads a noun phrase as an end: the user, "my manager" ("my
// brother Jon"), a name, or, unless a person is required, a thing
// ("dinosaurs", "the food bank").
func party(s string, person bool) (Party, bool) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "i", "me", "we", "us", "myself":
		return Party{Self: true}, true
	}
	if g := reMyRole.FindStringSubmatch(s); g != nil {
		rel := strings.ToLower(g[1])
		if g[2] != "" {
			return Party{Name: g[2], Relation: rel}, true
		}
		return Party{Name: "my " + rel, Relation: rel}, true
	}
	if reNameOnly.MatchString(s) && !notNames[strings.ToLower(strings.Fields(s)[0])] {
		if len(timex.Find(s, timeReference, timex.Options{})) > 0 {
			return Party{}, false // "Mondays", "March": a time, not a name
		}
		return Party{Name: s}, true
	}
	g := reThing.FindStringSubmatch(s)
	if g == nil || notNames[strings.ToLower(strings.Fields(g[2])[0])] || words.ContainsWord(strings.ToLower(g[2]), "and") {
		return Party{}, false
	}
	if person {
		// A person is named, or is someone's role; a lowercase phrase is
		// a thing, read as one where the verb allows.
		return Party{Name: g[2], Kind: hearth.EntityConcept}, true
	}
	k := hearth.EntityConcept
	if strings.EqualFold(g[1], "the") {
		k = hearth.EntityOrganisation
	}
	return Party{Name: g[2], Kind: k}, true
}

// timeReference is the instant names are checked against for being a
// time ("Mondays"); which instant does not matter.
var timeReference = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

func startsUpper(s string) bool {
	return s != "" && s[0] >= 'A' && s[0] <= 'Z'
}

// attributeLabel is the relationship an attribute's value stands in to
// its entity, now and in the past, and what the value is: an employer is
// where the person works, a school where they study, a home the place
// they live in.
type attributeLabel struct {
	now, past string
	kind      hearth.EntityKind
}

var attributeLabels = map[string]attributeLabel{
	hearth.AttrEmployer: {hearth.LabelWorksAt, hearth.LabelWorkedAt, hearth.EntityOrganisation},
	hearth.AttrSchool:   {hearth.LabelStudiesAt, hearth.LabelStudiedAt, hearth.EntityOrganisation},
	AttrHome:            {hearth.LabelLivesIn, hearth.LabelLivedIn, hearth.EntityPlace},
}

// AttributeRelation is the relationship a statement of an employer, a
// school or a home also tells ("Jon works at Acme": Jon → Acme, works at; "I
// worked at Initech": the user → Initech, worked at, past true), beside
// the attribute's value, which questions like "who works at Acme?" read.
// A home is a place ("Grandma lives in Leeds": Grandma → Leeds, lives
// in), but a street address is not a node: the home attribute, placed by
// the geocoder, keeps it. Told plainly, it is stated; the organisation or
// place is where they work, study or live, so they are involved with it
// (proximity 4). ok is false for the other attributes.
func AttributeRelation(st Statement, past bool) (Relation, bool) {
	l, ok := attributeLabels[st.Attribute]
	if !ok || st.Value == "" || !st.Self && st.Name == "" || l.kind == hearth.EntityPlace && strings.ContainsAny(st.Value, "0123456789") {
		return Relation{}, false
	}
	label := l.now
	if past {
		label = l.past
	}
	from := Party{Self: st.Self, Name: st.Name, Relation: st.Relation}
	if st.Self {
		from.Name = ""
	}
	return Relation{From: from, To: Party{Name: st.Value, Kind: l.kind}, Label: label, Proximity: 4}, true
}

// ToldBirth reports whether text tells, plainly, when or where someone
// was born ("Anna was born in 1990", "my son was born on May 3rd"): news
// to remember, like ToldRole, not a question.
func ToldBirth(text string) bool {
	t := strings.TrimRight(strings.TrimSpace(text), ".!")
	return t != "" && !strings.Contains(t, "?") && reBorn.MatchString(t)
}

// ToldHome reports whether text tells, plainly, where someone lives or
// works ("I live in Berlin", "Jon lives on Elm Street", "I work at
// Acme"): news to remember, like ToldRole. Working from home, or
// somewhere for a day ("I work at home today"), is not an employer.
func ToldHome(text string) bool {
	t := strings.TrimRight(strings.TrimSpace(text), ".!")
	if t == "" || strings.Contains(t, "?") {
		return false
	}
	if g := reLives.FindStringSubmatch(t); g != nil {
		return aPlace(value(g[len(g)-1]))
	}
	g := reWorks.FindStringSubmatch(t)
	if g == nil {
		return false
	}
	at := strings.Fields(strings.ToLower(g[len(g)-1]))
	return len(at) > 0 && at[0] != "home" && !slices.ContainsFunc(at, func(w string) bool {
		return w == "today" || w == "tomorrow" || w == "tonight" || w == "weekend" || w == "moment"
	})
}
