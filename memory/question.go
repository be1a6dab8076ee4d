package memory

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// QuestionKind is what a question about people and things asks.
type QuestionKind int

// The questions about people and things answered from entities and their
// attributes over time.
const (
	// WhoHas: "who works at Acme?", "who went to Lincoln High?" —
	// everyone whose Attribute matched Value (during the span, if said).
	WhoHas QuestionKind = iota + 1
	// WhoWithMe: "who did I work with in 2019?" — everyone whose employer
	// was the user's own then, and anyone who was their colleague then.
	WhoWithMe
	// ValueOf: "where does Jon work?", "where did Emma live in 2015?" —
	// Name's Attribute (then); with Value, "does Jon work at Acme?",
	// whether it is (or was) that.
	ValueOf
	// LivedWhenBorn: "where did we live when Emma was born?" — the user's
	// home at Name's birth date.
	LivedWhenBorn
	// WhoIsMy: "who is my dentist?", "who are my colleagues?" — the
	// entities with Relation; "is Sam my brother?" asks whether Name is
	// one of them.
	WhoIsMy
	// WithinWalking: "which of Emma's friends live within walking
	// distance of her school?" — Name's friends whose home is within the
	// walking distance for Name's age (or Metres, when said) of Name's
	// Place (school, home).
	WithinWalking
)

// Question is a question about people and things, read offline.
type Question struct {
	Kind      QuestionKind
	Attribute string
	Value     string
	Name      string
	Relation  string
	// From and To bound the span it asks about ("in 2019"); zero: now.
	From, To time.Time
	// Place is the attribute whose location a proximity question measures
	// from ("school", "home"); Metres the distance it names, if any.
	Place  string
	Metres float64
	// Past is true when it asks in the past tense without a span ("who
	// worked at Acme?"): any time counts.
	Past bool
	// Self is true when a ValueOf question asks about the user ("where
	// do I live?"); Name is then empty.
	Self bool
}

var (
	verbAttr = map[string]string{
		"works": "employer", "worked": "employer", "work": "employer", "is working": "employer", "was working": "employer",
		"goes": "school", "went": "school", "go": "school",
		"lives": AttrHome, "lived": AttrHome, "live": AttrHome,
	}
	reWhoHas      = regexp.MustCompile(`(?i)^\s*who\s+(works|worked|is working|was working|goes|went|lives|lived|live|work|go)\s+(?:at|for|to|in|on)\s+(.+?)\s*\??\s*$`)
	reWhoWithMe   = regexp.MustCompile(`(?i)^\s*who\s+(?:did|do|have)\s+(?:i|we)\s+(?:work|worked)\s+with\b.*$`)
	reValueOf     = regexp.MustCompile(`(?i)^\s*where\s+(?:does|did|do|has)\s+(.+?)\s+(work|live|go\s+to\s+school|study)\b\s*\??\s*$`)
	reBornHome    = regexp.MustCompile(`(?i)^\s*where\s+did\s+(?:we|i)\s+live\s+when\s+(.+?)\s+was\s+born\s*\??\s*$`)
	reWhoIsMy     = regexp.MustCompile(`(?i)^\s*who\s+(?:is|are|was|were)\s+(?:my|our)\s+(.+?)\s*\??\s*$`)
	reIsMy        = regexp.MustCompile(`(?i)^\s*(?:is|isn't|was)\s+(.+?)\s+(?:my|our)\s+(.+?)\s*\?\s*$`)
	reWithin      = regexp.MustCompile(`(?i)^\s*(?:which|who)\s+(?:of\s+)?(.+?)(?:'s|’s)\s+(?:friends|classmates|buddies)\s+(?:lives?|is|are)\s+(?:within\s+)?(walking\s+distance|(\d+(?:\.\d+)?)\s*(m|km|metres|meters|kilometres|kilometers))\s+(?:of|from)\s+(?:her|his|their|.+?(?:'s|’s))\s+(school|home|house)\s*\??\s*$`)
	valueOfVerbTo = map[string]string{"work": "employer", "live": AttrHome, "go to school": "school", "study": "school"}
	// reHolds asks whether a value holds, or held: "does Lea work at
	// Globex?", "did Sam use to live in Leeds?", "does Mia still go to
	// Lincoln Elementary?".
	reHolds = regexp.MustCompile(`(?i)^\s*(does|do|did)\s+(.+?)\s+(?:still\s+)?(work|live|go|study|use\s+to\s+work|use\s+to\s+live|use\s+to\s+go)\s+(?:at|for|in|on|to)\s+(.+?)\s*(?:any\s?more|still|now)?\s*\?\s*$`)
	// reStillAt asks whether someone is still where they work: "is Lea
	// still at Globex?".
	reStillAt = regexp.MustCompile(`(?i)^\s*is\s+(.+?)\s+still\s+(?:at|with)\s+(.+?)\s*\?\s*$`)
	holdsVerb = map[string]string{"work": "employer", "live": AttrHome, "go": "school", "study": "school"}
)

// ReadQuestion reads a question about people and things, or reports
// false. A span of time in it ("in 2019") is resolved in now's zone.
func ReadQuestion(text string, now time.Time) (Question, bool) {
	// Every question read here begins "who", "where" or "which", or asks
	// "is … my …?": a text with none of them is not one, and skips the
	// patterns and the time parse below (most messages, and a turn asks
	// up to three times).
	lower := strings.ToLower(strings.TrimSpace(text))
	isMy := (strings.HasPrefix(lower, "is ") || strings.HasPrefix(lower, "isn't ") || strings.HasPrefix(lower, "was ") ||
		strings.HasPrefix(lower, "does ") || strings.HasPrefix(lower, "do ") || strings.HasPrefix(lower, "did ")) && strings.HasSuffix(lower, "?")
	if !isMy && !strings.Contains(lower, "who") && !strings.Contains(lower, "where") && !strings.Contains(lower, "which") {
		return Question{}, false
	}
	if g := reWithin.FindStringSubmatch(text); g != nil {
		q := Question{Kind: WithinWalking, Name: trimName(g[1]), Place: strings.ToLower(g[5])}
		if q.Place == "house" {
			q.Place = AttrHome
		}
		if g[3] != "" {
			q.Metres, _ = strconv.ParseFloat(g[3], 64)
			if strings.HasPrefix(strings.ToLower(g[4]), "k") {
				q.Metres *= 1000
			}
		}
		return q, true
	}
	if g := reBornHome.FindStringSubmatch(text); g != nil {
		return Question{Kind: LivedWhenBorn, Name: trimName(g[1]), Attribute: AttrHome}, true
	}
	from, to, rest, dated := Validity(text, now)
	q := Question{From: from, To: to}
	if dated && to.IsZero() {
		q.To = now
	}
	switch {
	case reWhoWithMe.MatchString(rest):
		q.Kind, q.Attribute = WhoWithMe, "employer"
		q.Past = !dated && strings.Contains(strings.ToLower(rest), "did")
	case reWhoHas.MatchString(rest):
		g := reWhoHas.FindStringSubmatch(rest)
		verb := strings.ToLower(g[1])
		q.Kind, q.Attribute, q.Value = WhoHas, verbAttr[verb], strings.TrimSpace(g[2])
		q.Past = !dated && (verb == "worked" || verb == "went" || verb == "lived" || verb == "was working")
	case reValueOf.MatchString(rest):
		// "Where do I live?" asks the user's own: the home they told
		// last, whatever its words ("I moved to Munich").
		g := reValueOf.FindStringSubmatch(rest)
		q.Kind, q.Name = ValueOf, trimName(g[1])
		if selfWords[strings.ToLower(q.Name)] {
			q.Name, q.Self = "", true
		}
		q.Attribute = valueOfVerbTo[strings.Join(strings.Fields(strings.ToLower(g[2])), " ")]
		q.Past = !dated && strings.HasPrefix(strings.ToLower(strings.TrimSpace(rest)), "where did")
	case reHolds.MatchString(rest) || reStillAt.MatchString(rest):
		// "Does Lea work at Globex?": Name's Attribute, and whether it is
		// (or, "did …", was) Value.
		q.Kind, q.Attribute = ValueOf, "employer"
		if g := reHolds.FindStringSubmatch(rest); g != nil {
			verb := strings.Fields(strings.ToLower(g[3]))
			q.Name, q.Value = trimName(g[2]), strings.TrimSpace(g[4])
			q.Attribute = holdsVerb[verb[len(verb)-1]]
			q.Past = !dated && (strings.EqualFold(g[1], "did") || verb[0] == "use")
		} else {
			g := reStillAt.FindStringSubmatch(rest)
			q.Name, q.Value = trimName(g[1]), strings.TrimSpace(g[2])
		}
		if selfWords[strings.ToLower(q.Name)] {
			q.Name, q.Self = "", true
		}
	case (reWhoIsMy.MatchString(rest) || reIsMy.MatchString(rest)) && !dated:
		var rel string
		if g := reWhoIsMy.FindStringSubmatch(rest); g != nil {
			rel = g[1]
		} else {
			// "Is Sam my brother?": whether Name is one of them.
			g := reIsMy.FindStringSubmatch(rest)
			q.Name, rel = trimName(g[1]), g[2]
		}
		rel = strings.ToLower(rel)
		if _, ok := relations[rel]; !ok {
			rel = strings.TrimSuffix(rel, "s")
			if _, ok := relations[rel]; !ok {
				return Question{}, false
			}
		}
		q.Kind, q.Relation = WhoIsMy, rel
	default:
		return Question{}, false
	}
	if q.Kind != WhoIsMy && q.Kind != WhoWithMe && q.Value == "" && q.Name == "" && !q.Self {
		return Question{}, false
	}
	return q, true
}

// selfWords name the user in a question, not someone by name.
var selfWords = map[string]bool{"i": true, "we": true, "me": true, "us": true}

// trimName takes a possessive and "my" off a name in a question.
func trimName(n string) string {
	n = strings.TrimSpace(n)
	n = strings.TrimSuffix(strings.TrimSuffix(n, "'s"), "’s")
	return n
}
