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

// Statement is what a fact says about someone or something, read offline:
// who it is about (an entity by name, or the user), what they are to the
// user, and one attribute's value.
type Statement struct {
	// Name is the entity as the user named it ("Jon", "Sarah Kim",
	// "Grandma"); empty when Self.
	Name string
	// Self is true when the fact is about the user ("my email is …",
	// "I worked at Acme …", "we lived at …").
	Self bool
	Kind hearth.EntityKind
	// Relation is what the entity is to the user ("brother").
	Relation string
	// Aliases are the other names the statement gives ("my brother").
	Aliases []string
	// Attribute and Value: one value of an attribute over time
	// (hearth.AttrEmail, "sarah@example.com"). Both empty for a statement
	// of relation alone ("Jon is my brother").
	Attribute, Value string
	// Began is true when the statement tells a change that holds from
	// now ("Lea moved to Paris"), not a standing fact ("Lea lives in
	// Paris"), whose start is unknown.
	Began bool
}

// relations are the words for what someone is to the user. The kin words
// among them ("brother", "mom") name one person, so "my brother" becomes
// an alias; "friend" or "colleague" do not.
var relations = map[string]bool{
	"mother": true, "mom": true, "mum": true, "father": true, "dad": true, "wife": true, "husband": true,
	"partner": true, "grandma": true, "grandpa": true, "grandmother": true, "grandfather": true, "boss": true,
	"brother": false, "sister": false, "daughter": false, "son": false, "friend": false, "best friend": true,
	"colleague": false, "coworker": false, "co-worker": false, "manager": true, "aunt": false, "uncle": false,
	"cousin": false, "niece": false, "nephew": false, "neighbour": false, "neighbor": false, "doctor": true,
	"dentist": true, "teacher": false, "landlord": true, "girlfriend": true, "boyfriend": true, "kid": false,
	"child": false, "stepson": false, "stepdaughter": false, "mother-in-law": true, "father-in-law": true,
	"roommate": false, "flatmate": false, "vet": true, "accountant": true, "lawyer": true, "babysitter": true,
}

// RelationWord reports whether word says what someone is to the user
// ("son", "boss", "neighbour"): "my son …" tells of someone else.
func RelationWord(word string) bool {
	_, ok := relations[strings.ToLower(word)]
	return ok
}

// attributeWords maps what people call an attribute to its name.
var attributeWords = map[string]string{
	"email": hearth.AttrEmail, "e-mail": hearth.AttrEmail, "email address": hearth.AttrEmail, "e-mail address": hearth.AttrEmail,
	"phone": hearth.AttrPhone, "phone number": hearth.AttrPhone, "mobile": hearth.AttrPhone, "mobile number": hearth.AttrPhone,
	"cell": hearth.AttrPhone, "cell number": hearth.AttrPhone, "number": hearth.AttrPhone, "telephone number": hearth.AttrPhone,
	"employer": hearth.AttrEmployer, "school": hearth.AttrSchool, "address": AttrHome, "home address": AttrHome, "home": AttrHome,
	"work address": AttrWork, "office address": AttrWork, "school address": AttrSchoolAddress,
}

// Location labels are attributes too: an address, with validity.
const (
	AttrHome          = "home"
	AttrWork          = "work"
	AttrSchoolAddress = "school address"
)

func alternation(m map[string]bool) string {
	var ks []string
	for k := range m {
		ks = append(ks, regexp.QuoteMeta(k))
	}
	// Longest first, so "best friend" wins over "friend".
	for i := range ks {
		for j := i + 1; j < len(ks); j++ {
			if len(ks[j]) > len(ks[i]) {
				ks[i], ks[j] = ks[j], ks[i]
			}
		}
	}
	return strings.Join(ks, "|")
}

var (
	relAlt  = alternation(relations)
	attrAlt = func() string {
		m := map[string]bool{}
		for k := range attributeWords {
			m[k] = true
		}
		return alternation(m)
	}()
	// A name: capitalised words ("Jon", "Sarah Kim", "Dr. Lee").
	name = `[A-Z][\p{L}.'’-]*(?:\s+[A-Z][\p{L}.'’-]*){0,3}`
	// Whom a statement is about: "Jon", "my brother", "my brother Jon",
	// "I", "we".
	subject = `(?i:(my|our)\s+(` + relAlt + `)\s+)?(` + name + `)|(?i:(my|our)\s+(` + relAlt + `))|(?i:(i|we))`
	poss    = `(?:'s|’s|')`

	reRelation   = regexp.MustCompile(`^(` + name + `)\s+(?i:is|was)\s+(?i:(?:my|our)\s+(` + relAlt + `))$`)
	reRelationMy = regexp.MustCompile(`^(?i:(?:my|our)\s+(` + relAlt + `)(?:` + poss + `\s+name)?\s+is\s+(?:called\s+|named\s+)?)(` + name + `)$`)
	reAttrOf     = regexp.MustCompile(`^(?:` + subject + `)` + poss + `\s+(?i:(` + attrAlt + `))\s+(?i:is\s+at|was\s+at|is|was|:)\s*(.+)$`)
	reMyAttr     = regexp.MustCompile(`^(?i:(?:my|our)\s+(` + attrAlt + `)\s+(?:is|was|:)\s*)(.+)$`)
	reWorks      = regexp.MustCompile(`^(?:` + subject + `)\s+(?i:works|worked|work|is working|was working|has worked|have worked|has been working|have been working|started|started working)\s+(?i:at|for)\s+(.+)$`)
	reSchool     = regexp.MustCompile(`^(?:` + subject + `)\s+(?i:goes|went|go|is going|attends|attended|is at|was at)\s+(?i:to\s+)?(.+?\s(?i:school|academy|college|university|elementary|primary|high|kindergarten|nursery|preschool|daycare))$`)
	reStudies    = regexp.MustCompile(`^(?:` + subject + `)\s+(?i:studies|studied|study|is studying|was studying|has studied|have studied)\s+(?i:at)\s+(.+)$`)
	reLives      = regexp.MustCompile(`^(?:` + subject + `)\s+(?:(?i:lives|lived|live|have lived|has lived|used to live|now lives|now live)\s+(?i:at|on|in)|(?i:moved|has moved|have moved|just moved|recently moved|finally moved|relocated|has relocated|have relocated)\s+(?i:back\s+)?(?i:to))\s+(.+)$`)
	reMoved      = regexp.MustCompile(`(?i)\b(?:moved|relocated)\s+(?:back\s+)?to\b`)
	reBorn       = regexp.MustCompile(`^(?:` + subject + `)\s+(?i:was|were)\s+born\b`)
)

// ReadStatement reads what a fact says about an entity or the user, or
// reports false. Dates and spans of time should be taken out first (see
// Validity): "Jon worked at Acme from 2001 to 2009" is read as "Jon
// worked at Acme".
func ReadStatement(fact string) (Statement, bool) {
	fact = strings.TrimRight(strings.TrimSpace(fact), ".!")
	if g := reRelation.FindStringSubmatch(fact); g != nil {
		return relationStatement(g[1], g[2]), true
	}
	if g := reRelationMy.FindStringSubmatch(fact); g != nil {
		return relationStatement(g[2], g[1]), true
	}
	if g := reFriendOf.FindStringSubmatch(fact); g != nil {
		return Statement{Name: g[1], Kind: hearth.EntityPerson, Attribute: AttrFriendOf, Value: g[2]}, true
	}
	if g := reMyAttr.FindStringSubmatch(fact); g != nil {
		return Statement{Self: true, Attribute: attributeWords[strings.ToLower(g[1])], Value: value(g[2])}, value(g[2]) != ""
	}
	type rule struct {
		re   *regexp.Regexp
		attr string
	}
	for _, r := range []rule{{reAttrOf, ""}, {reWorks, hearth.AttrEmployer}, {reSchool, hearth.AttrSchool}, {reStudies, hearth.AttrSchool}, {reLives, AttrHome}} {
		g := r.re.FindStringSubmatch(fact)
		if g == nil {
			continue
		}
		s := subjectOf(g[1:7])
		attr, v := r.attr, g[len(g)-1]
		if attr == "" {
			attr = attributeWords[strings.ToLower(g[7])]
		}
		s.Attribute, s.Value = attr, value(v)
		s.Began = attr == AttrHome && reMoved.MatchString(fact)
		if s.Value == "" || s.Name == "" && !s.Self || attr == AttrHome && !aPlace(s.Value) {
			return Statement{}, false
		}
		return s, true
	}
	if g := reBorn.FindStringSubmatch(fact); g != nil {
		s := subjectOf(g[1:7])
		s.Attribute = hearth.AttrBorn
		return s, s.Name != "" || s.Self
	}
	return Statement{}, false
}

// notPlaces are what one "lives in" that is no place: "I live in the
// moment", "we live in hope".
var notPlaces = []string{"the moment", "the present", "the past", "the future", "the now", "the real world", "a dream", "a bubble", "a fantasy", "a world"}

// aPlace reports whether v, where someone lives, reads as a place: a
// name ("Berlin"), an address ("12 Oak Street"), or a home ("a flat by
// the river", "the old mill"), not "fear of spiders".
func aPlace(v string) bool {
	f := strings.Fields(v)
	if len(f) == 0 {
		return false
	}
	c := f[0][0]
	lc := strings.ToLower(v)
	switch {
	case c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	case slices.ContainsFunc(notPlaces, func(p string) bool { return lc == p || strings.HasPrefix(lc, p+" ") }):
		return false
	}
	switch strings.ToLower(f[0]) {
	case "a", "an", "the", "my", "our", "his", "her", "their":
		return true
	}
	return false
}

func relationStatement(who, rel string) Statement {
	rel = strings.ToLower(rel)
	s := Statement{Name: who, Kind: hearth.EntityPerson, Relation: rel, Attribute: hearth.AttrRelation, Value: rel}
	if relations[rel] || isKin(rel) {
		s.Aliases = []string{"my " + rel}
	}
	return s
}

func isKin(rel string) bool {
	switch rel {
	case "brother", "sister", "daughter", "son":
		return true
	}
	return false
}

// subjectOf reads the six groups of the subject pattern: my+relation+name,
// my+relation, I/we.
func subjectOf(g []string) Statement {
	switch {
	case g[2] != "":
		s := Statement{Name: g[2], Kind: hearth.EntityPerson}
		if g[1] != "" {
			s.Relation = strings.ToLower(g[1])
			s.Aliases = []string{"my " + s.Relation}
		}
		if strings.EqualFold(s.Name, "I") || strings.EqualFold(s.Name, "We") {
			return Statement{Self: true}
		}
		return s
	case g[4] != "":
		rel := strings.ToLower(g[4])
		return Statement{Name: "my " + rel, Kind: hearth.EntityPerson, Relation: rel, Aliases: []string{"my " + rel}}
	case g[5] != "":
		return Statement{Self: true}
	}
	return Statement{}
}

// value tidies an attribute's value: no trailing punctuation, no
// "the" in front of a company.
func value(v string) string {
	v = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(v), ".!,;"))
	return v
}

// Validity reads when a fact was true from a span of time in it ("from
// 2001 to 2009", "since March", "until 2019", "in 2015"), resolved in
// now's zone, and returns the fact without that span. A "since" that
// would be in the future means the last such time ("since March" in
// November is this March). ok is false when the fact names no span.
func Validity(fact string, now time.Time) (from, to time.Time, rest string, ok bool) {
	for _, m := range timex.Find(fact, now, timex.Options{}) {
		if m.Grain < timex.Day {
			continue
		}
		switch m.Kind {
		case timex.Interval:
			from, to = m.From, m.To
		case timex.Value:
			// "in 2015", "on 3 May 2015": the period it names; "started
			// at Acme in May": from then on.
			from = m.Value
			to = grainEnd(m.Value, m.Grain)
			if began(fact) {
				to = time.Time{}
			}
		default:
			continue
		}
		switch {
		case !from.IsZero() && from.After(now) && to.IsZero():
			from = from.AddDate(-1, 0, 0)
		case !from.IsZero() && from.After(now) && Historical(fact) && !reYear.MatchString(m.Text):
			// "We went to Spain in August", told in November: last
			// August, not the next.
			from, to = from.AddDate(-1, 0, 0), to.AddDate(-1, 0, 0)
		}
		rest = strings.Join(strings.Fields(fact[:m.Start]+" "+fact[m.End:]), " ")
		return from, to, rest, true
	}
	return time.Time{}, time.Time{}, fact, false
}

func grainEnd(t time.Time, g timex.Grain) time.Time {
	switch g {
	case timex.Year:
		return t.AddDate(1, 0, 0)
	case timex.Quarter:
		return t.AddDate(0, 3, 0)
	case timex.Month:
		return t.AddDate(0, 1, 0)
	case timex.Week:
		return t.AddDate(0, 0, 7)
	}
	return t.AddDate(0, 0, 1)
}

// reYear finds a year said in full.
var reYear = regexp.MustCompile(`\b\d{4}\b`)

// began reports a fact that tells when something began and goes on
// ("Mia started at Lindenschule in September", "I joined Acme in May").
func began(fact string) bool {
	lc := words.ASCIILower(fact)
	for _, w := range []string{"started", "began", "joined", "moved in", "moved to", "got married", "have been", "has been"} {
		if words.ContainsWord(lc, w) {
			return true
		}
	}
	return false
}

// Historical reports whether a fact tells of something in the past that
// ended, for which a time matters ("I worked at Acme", "we lived in
// Leeds"), as opposed to a standing fact ("I work at Acme").
func Historical(fact string) bool {
	lc := words.ASCIILower(fact)
	for _, w := range []string{"worked", "lived", "used to", "went to", "attended", "was at", "studied"} {
		if words.ContainsWord(lc, w) {
			return true
		}
	}
	return false
}

// reCorrection reads a correction by pronoun of what the user just told:
// "actually it's the 16th", "no, it's 555 0199", "sorry, I meant
// Thursday".
var reCorrection = regexp.MustCompile(`(?i)^\s*(?:(?:actually|no|nope|sorry|oops|correction|wait)[,.!:]?\s+)+(?:it's|it is|it was|that's|that is|that was|that should be|it should be|i meant|i mean)\s+(.+?)\s*[.!]*\s*$`)

// Correction reports whether text corrects the last thing the user told
// by a pronoun, and the new value. "Make it 7pm" is left to the
// planners of events and tasks.
func Correction(text string) (string, bool) {
	g := reCorrection.FindStringSubmatch(text)
	if g == nil {
		return "", false
	}
	v := strings.TrimSpace(g[1])
	return v, v != ""
}

var (
	reDayOnly  = regexp.MustCompile(`(?i)^(?:the\s+)?(\d{1,2})(st|nd|rd|th)?$`)
	reDayInDay = regexp.MustCompile(`(?i)\b(\d{1,2})(st|nd|rd|th)?\b`)
)

// Correct writes a fact again with a new value said by itself ("the
// 16th" in "John's birthday is March 15th" → "John's birthday is March
// 16th"; "555 0199" in "my phone number is 555 0100" → "my phone number is
// 555 0199"). old is the attribute value the fact states, if known. It
// reports false when it cannot tell what the value replaces.
func Correct(fact, old, value string, now time.Time) (string, bool) {
	value = strings.TrimSpace(value)
	if old != "" && strings.Contains(fact, old) {
		return strings.Replace(fact, old, value, 1), true
	}
	spans := timex.Find(fact, now, timex.Options{})
	if g := reDayOnly.FindStringSubmatch(value); g != nil && len(spans) > 0 {
		sp := spans[len(spans)-1]
		day := reDayInDay.FindStringSubmatchIndex(sp.Text)
		if day != nil {
			suffix := g[2]
			if suffix == "" && day[4] >= 0 {
				suffix = ordinal(g[1])
			}
			text := sp.Text[:day[0]] + g[1] + suffix + sp.Text[day[1]:]
			return fact[:sp.Start] + text + fact[sp.End:], true
		}
	}
	if len(spans) > 0 && len(timex.Find(value, now, timex.Options{})) > 0 {
		sp := spans[len(spans)-1]
		return fact[:sp.Start] + strings.TrimPrefix(value, "the ") + fact[sp.End:], true
	}
	lc := words.ASCIILower(fact)
	for _, verb := range []string{" is ", " are ", " was ", " were "} {
		if i := strings.Index(lc, verb); i > 0 {
			return fact[:i+len(verb)] + value, true
		}
	}
	// No value said as such ("I'm allergic to penicillin", "I live in
	// New York"): the fact's last word, or its last name, is what a short
	// correction replaces ("amoxicillin", "Boston").
	f := strings.Fields(strings.TrimRight(strings.TrimSpace(fact), ".!"))
	if len(f) < 3 || len(strings.Fields(value)) > 3 || !startsUpper(f[len(f)-1]) && len(words.MatchWords(f[len(f)-1])) == 0 {
		return "", false
	}
	n := len(f) - 1
	for n > 1 && startsUpper(f[n]) && startsUpper(f[n-1]) {
		n--
	}
	if a := strings.ToLower(f[n-1]); a == "the" || a == "a" || a == "an" || a == "my" {
		// "to the gym" + "the pool": "to the pool".
		for _, art := range []string{"the ", "a ", "an ", "my "} {
			value = strings.TrimPrefix(value, art)
		}
	}
	return strings.Join(append(f[:n:n], value), " "), true
}

func ordinal(n string) string {
	if strings.HasSuffix(n, "11") || strings.HasSuffix(n, "12") || strings.HasSuffix(n, "13") {
		return "th"
	}
	switch n[len(n)-1] {
	case '1':
		return "st"
	case '2':
		return "nd"
	case '3':
		return "rd"
	}
	return "th"
}
