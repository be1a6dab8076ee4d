package nlu

import (
	"regexp"
	"slices"
	"strings"

	"github.com/hearthbot/hearth/pipeline/nlu/internal/features"
)

// What a question asks of the user's own things: their day or week, all of
// one domain's things, what is due.

// myTime reports a question about one's own day or week: "how's my day
// looking?", "show me my week", "what's my weekend like?".
func myTime(tokens []string) bool {
	switch tokens[0] {
	case "how", "hows", "what", "whats", "show", "tell", "give":
	default:
		return false
	}
	for i := 1; i+1 < len(tokens); i++ {
		if tokens[i] == "my" && slices.Contains([]string{"day", "week", "weekend", "morning", "afternoon", "evening", "schedule", "agenda"}, tokens[i+1]) {
			return true
		}
	}
	return false
}

// agendaQuestion reports a question about one's own time in general
// ("what do I have tomorrow?", "how does my week look?", "what's on
// Friday?", "what does my day look like?") rather than about meetings
// or the calendar by name, which only events answer.
func agendaQuestion(tokens []string) bool {
	general := false
	for i, t := range tokens {
		switch t {
		case "calendar", "meeting", "meetings", "event", "events", "appointment", "appointments", "call", "calls", "free", "available", "busy":
			return false
		case "look", "looking", "looks", "agenda", "plans", "schedule", "planned":
			general = true
		case "have", "got":
			general = general || i > 0 && (tokens[i-1] == "i" || tokens[i-1] == "ive")
		case "on":
			general = general || i > 0 && (tokens[i-1] == "whats" || tokens[i-1] == "is")
		}
	}
	return general
}

// agendaOn reports a question for what is on or happening then: "what's
// on this week?", "anything on Friday?", "what's happening tomorrow?",
// "is there anything on tonight?". What follows "on" must not be a thing
// of the user's ("what's on my shopping list?") or a topic ("what's
// happening with the boiler?") or the television's, unless it is "my
// plate"; the caller checks a time is named.
func agendaOn(tokens []string) bool {
	i := 0
	switch {
	case len(tokens) > 1 && tokens[0] == "what" && tokens[1] == "is":
		i = 2
	case tokens[0] == "whats" || tokens[0] == "anything":
		i = 1
	case len(tokens) > 2 && tokens[0] == "is" && tokens[1] == "there" && tokens[2] == "anything":
		i = 3
	case len(tokens) > 1 && tokens[0] == "is" && tokens[1] == "anything":
		i = 2
	default:
		return false
	}
	if i+1 >= len(tokens) || tokens[i] != "on" && tokens[i] != "happening" {
		return false
	}
	if i+2 < len(tokens) && tokens[i+1] == "my" && tokens[i+2] == "plate" {
		return true // "what's on my plate this week?" is the idiom for all of it
	}
	switch tokens[i+1] {
	case "my", "the", "our", "your", "his", "her", "their", "with", "about", "at", "in", "to", "tv", "telly", "television":
		return false
	}
	return true
}

// onTelly reports a question about what is on the television: "what's
// on TV tonight?", "anything good on telly?".
func onTelly(tokens []string) bool {
	for i := 1; i < len(tokens); i++ {
		if tokens[i-1] == "on" && slices.Contains([]string{"tv", "telly", "television", "netflix"}, tokens[i]) {
			return true
		}
	}
	return false
}

// allOf are the plural nouns a short question asks all of one domain's
// things by: "my lists", "my drafts".
var allOf = map[string]Domain{"lists": Keep, "notes": Keep, "drafts": Email, "outbox": Email}

// askedForAll reports a short question or "show …" that asks for all of
// one domain's things ("what notes do I have?", "show my drafts", "any
// drafts waiting?"), and the domain.
func askedForAll(tokens []string, question bool) (Domain, bool) {
	if len(tokens) > 6 || !question && !slices.Contains([]string{"show", "list", "read"}, tokens[0]) {
		return "", false
	}
	for _, t := range tokens {
		if d, ok := allOf[t]; ok {
			return d, true
		}
	}
	return "", false
}

// dueQuestion reports a question asking what is due ("what's due this
// month?", "anything due by Friday?", "is anything due next week?"), not
// about a due date ("what's my due date?", which is memory).
func dueQuestion(tokens []string) bool {
	switch tokens[0] {
	case "what", "whats", "anything", "is", "which":
	default:
		return false
	}
	i := slices.Index(tokens, "due")
	return i > 0 && i <= 3 && (i+1 == len(tokens) || tokens[i+1] != "date")
}

// packQuestion reports a question about what is left to pack ("what's
// left to pack?", "what do I still need to pack?"): the packing list's.
func packQuestion(tokens []string) bool {
	switch tokens[0] {
	case "what", "whats", "anything", "is":
	default:
		return false
	}
	return slices.Contains(tokens, "pack")
}

// leftQuestion reports a bare question for what is still to do: "what's
// left?", "anything left?", "what else is left?". What is left to pack,
// or on a list, names it (packQuestion, the list's words).
func leftQuestion(tokens []string) bool {
	if len(tokens) < 2 || len(tokens) > 4 || tokens[len(tokens)-1] != "left" {
		return false
	}
	switch tokens[0] {
	case "whats", "what", "anything", "is":
	default:
		return false
	}
	for _, t := range tokens[1 : len(tokens)-1] {
		if t != "is" && t != "else" && t != "anything" && t != "still" {
			return false
		}
	}
	return true
}

// reOnIt reads a question for what is on the thing just spoken of:
// "what's on it?", "what's in there now?", "and what else is on it?".
var reOnIt = regexp.MustCompile(`(?i)^\s*(?:so\s+|and\s+|ok\s+|okay\s+)?what(?:'s|’s|s|\s+is|\s+else\s+is)\s+(?:on|in)\s+(?:it|that|there|this)(?:\s+(?:now|so\s+far|again))?\s*[?.!]*\s*$`)

// OnIt reports a question for what is on the list just spoken of ("what's
// on it?" right after "I added sunscreen to your packing list"): the
// caller finds which list that is.
func OnIt(text string) bool {
	return reOnIt.MatchString(text)
}

// reSent reads a question about mail already sent: "what emails have I
// sent?", "what emails did I send?", "did Sam get my email?", "have I
// emailed the landlord?".
var reSent = regexp.MustCompile(`(?i)\b(?:sent|emailed|mailed)\b|\bdid\s+(?:i|we)\s+(?:send|email|mail)\b|\bdid\b.+\b(?:get|receive|see)\s+(?:my|the|our)\s+(?:e-?mail|message|mail)\b`)

// SentQuestion reports whether a question about mail asks of mail already
// sent, which the sent mail answers, not the drafts.
func SentQuestion(text string) bool {
	return reSent.MatchString(text)
}

// BirthdaysAsked reports a question for the birthdays or anniversaries
// coming up, rather than for one person's: "what birthdays are coming
// up?", "any birthdays this month?", "whose birthday is next?", "is it
// anyone's birthday this week?", "upcoming anniversaries". what is
// "birthday", "anniversary", or "" for both; next is set when only the
// next one is asked for.
func BirthdaysAsked(text string) (what string, next, ok bool) {
	var buf [features.MaxTokens]string
	tokens, question := features.Tokens(buf[:0], text)
	return birthdaysAsked(tokens, question)
}

func birthdaysAsked(tokens []string, question bool) (what string, next, ok bool) {
	if len(tokens) < 2 || len(tokens) > 10 {
		return "", false, false
	}
	switch tokens[0] {
	case "list", "show", "upcoming", "any", "next":
	default:
		if !question {
			return "", false, false
		}
	}
	for i, t := range tokens {
		switch t {
		case "remind", "reminder", "reminders", "mute", "unmute", "stop", "turn", "party", "parties", "present", "presents", "gift", "gifts", "card", "cards", "cake",
			"get", "buy", "give", "plan", "celebrate", "wish", "send":
			// Settings for birthday reminders, or a plan for a birthday.
			return "", false, false
		case "birthdays", "bdays", "anniversaries", "birthday", "bday", "anniversary":
			if what == "" && i > 0 {
				what, next, ok = yearlyAsked(tokens, i)
			}
		}
	}
	return what, next, ok
}

// yearlyAsked reads the birthday or anniversary word at tokens[i] of a
// question: plural, it asks for all of them; singular, it asks whose it
// is ("whose birthday is next?") or whether anyone's is near ("is it
// anyone's birthday this week?", "who has a birthday coming up?") — a
// name before it ("when is Ben's next birthday?") asks for one.
func yearlyAsked(tokens []string, i int) (what string, next, ok bool) {
	what = "birthday"
	if strings.HasPrefix(tokens[i], "anniversar") {
		what = "anniversary"
	}
	nextAt := func(j int) bool { return j < len(tokens) && tokens[j] == "next" }
	if strings.HasSuffix(tokens[i], "s") {
		return what, nextAt(i-1) && (i < 2 || tokens[i-2] != "my"), true
	}
	anyone := func(t string) bool {
		return slices.Contains([]string{"who", "whos", "whose", "anyone", "anyones", "anybody", "anybodys", "someone", "someones", "somebody", "somebodys"}, t)
	}
	before := tokens[:i]
	if nextAt(i - 1) {
		before = tokens[:i-1]
	}
	switch {
	case slices.Contains(before, "whose"):
		return what, true, true
	case nextAt(i-1) && (len(before) == 0 || before[len(before)-1] == "the" || anyone(before[len(before)-1])):
		return what, true, true
	case slices.ContainsFunc(before, anyone) && slices.ContainsFunc(tokens[i+1:], func(t string) bool {
		return t == "coming" || t == "soon" || t == "upcoming" || t == "this" || t == "next" || t == "today" || t == "tomorrow"
	}):
		return what, nextAt(i+1) && i+2 == len(tokens), true
	}
	return "", false, false
}
