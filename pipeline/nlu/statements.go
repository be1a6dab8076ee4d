package nlu

import (
	"slices"
	"strings"

	"github.com/hearthbot/hearth/pipeline/nlu/internal/features"
)

// Statements the user makes of their own life that the model reads as
// questions or as nothing to do: an event they have, a trip, someone's
// age.

// eventStatement reports whether tokens say the user has something on
// ("I have a …", "I've got …", "we have …"), as opposed to asking.
func eventStatement(tokens []string) bool {
	if len(tokens) < 3 {
		return false
	}
	switch {
	case (tokens[0] == "i" || tokens[0] == "we") && (tokens[1] == "have" || tokens[1] == "got"):
		return true
	case (tokens[0] == "ive" || tokens[0] == "weve") && tokens[1] == "got":
		return true
	}
	return false
}

// datedStatement reports a statement that something is on at a time of
// day: "Mia's school play is on Friday at 6pm", "the recital is at 7pm
// tomorrow". A question ("what's on Friday?", "is the play at 6?") is
// not one.
func datedStatement(tokens []string) bool {
	if len(tokens) < 4 {
		return false
	}
	switch tokens[0] {
	case "what", "whats", "when", "whens", "is", "are", "does", "do", "did", "anything", "where", "wheres", "who", "whos", "how", "hows", "which", "can", "could", "will", "show", "tell", "remind":
		return false
	}
	told, clock := false, false
	for i := 1; i+1 < len(tokens); i++ {
		switch {
		case (tokens[i] == "is" || tokens[i] == "are") && slices.Contains([]string{"on", "at", "this", "next", "tomorrow", "today", "tonight"}, tokens[i+1]):
			told = true
		case tokens[i] == "at" && tokens[i+1] == "0":
			clock = true
		}
	}
	return told && clock
}

// travelStatement reports news of a trip: "I'm flying to Rome", "we're
// driving to grandma's", "I'm off to Leeds", "we're going to Paris" (a
// place by its name: "I'm going to call mum" is no trip).
func travelStatement(tokens []string, text string) bool {
	i := 0
	switch {
	case len(tokens) > 2 && (tokens[0] == "im" || tokens[0] == "were"):
		i = 1
	case len(tokens) > 3 && (tokens[0] == "i" && tokens[1] == "am" || tokens[0] == "we" && tokens[1] == "are"):
		i = 2
	default:
		return false
	}
	if i+1 >= len(tokens) || tokens[i+1] != "to" && tokens[i+1] != "for" {
		return false
	}
	switch tokens[i] {
	case "flying", "driving", "travelling", "traveling", "heading", "off", "leaving":
		return true
	case "going":
		_, place, ok := strings.Cut(text, " to ")
		return ok && place != "" && place[0] >= 'A' && place[0] <= 'Z'
	}
	return false
}

// ageTold reports someone's age told: "Mia is 7", "my son is 12 years
// old", "Leo just turned 5". Whose it is is a name (capitalised in text)
// or "my …"; "it is 5" and "the meeting is at 5" are not ages.
func ageTold(tokens []string, text string) bool {
	i := slices.IndexFunc(tokens, func(t string) bool { return t == "is" || t == "turned" })
	if i < 1 || i > 3 || i+1 >= len(tokens) || tokens[i+1] != "0" {
		return false
	}
	switch rest := tokens[i+2:]; {
	case len(rest) == 0, len(rest) == 1 && (rest[0] == "now" || rest[0] == "today"):
	case len(rest) >= 2 && rest[0] == "years" && rest[1] == "old" && len(rest) <= 3:
	default:
		return false
	}
	if tokens[0] == "my" || tokens[0] == "our" {
		return true
	}
	first := strings.TrimSpace(text)
	return first != "" && first[0] >= 'A' && first[0] <= 'Z' && !strings.HasPrefix(first, "I ") &&
		!slices.Contains([]string{"it", "its", "this", "that", "he", "she", "they", "what", "whats", "when", "the"}, tokens[0])
}

// pastNews reports news of something the user did: "I painted the fence",
// "we just cleaned the car", "I parked on level 2". It asks for no task;
// the context stage still finds the open task it completes, if any ("I
// paid the rent"). "I wanted to …", "I forgot to …" say what is wanted;
// "I finished …" is the task planner's to read.
func pastNews(tokens []string) bool {
	if len(tokens) < 3 || tokens[0] != "i" && tokens[0] != "we" {
		return false
	}
	i := 1
	if tokens[i] == "just" || tokens[i] == "already" || tokens[i] == "finally" {
		i++
	}
	v := tokens[i]
	if i+1 >= len(tokens) || tokens[i+1] == "to" {
		return false
	}
	switch v {
	case "wanted", "needed", "forgot", "planned", "decided", "meant", "hoped", "tried", "started", "promised", "agreed", "offered", "asked",
		"finished", "completed", "did": // "I finished the report" names the task it completes
		return false
	case "paid", "bought", "went", "took", "made", "got", "sent", "put", "gave", "wrote", "sold", "met", "ran", "drove", "swept":
		return true
	}
	return len(v) > 4 && strings.HasSuffix(v, "ed")
}

// AwayTold reports news of days off said in the words of work or
// holidays (see awayTold): the calendar keeps the days it covers.
func AwayTold(text string) bool {
	var buf [features.MaxTokens]string
	tokens, _ := features.Tokens(buf[:0], text)
	return awayTold(tokens)
}

// awayTold reports news of days off said in the words of work or
// holidays: "I'm out of the office from December 20 to January 3", "we're
// on holiday next week", "I'll be on leave until the 14th". With a date
// (the caller's check) it is for the calendar, as a trip is; "I'm away
// next week" or "out of the house until 6" is news (awayUntil).
func awayTold(tokens []string) bool {
	switch rest := beingSaid(tokens); {
	case len(rest) >= 3 && rest[0] == "out" && rest[1] == "of" && (rest[2] == "office" || rest[2] == "the" && len(rest) >= 4 && rest[3] == "office"):
		return true
	case len(rest) >= 2 && rest[0] == "on" && slices.Contains([]string{"holiday", "holidays", "vacation", "leave", "annual", "parental", "maternity", "paternity", "sick"}, rest[1]):
		return true
	case len(rest) >= 2 && rest[0] == "off" && rest[1] == "work":
		return true
	}
	return false
}
