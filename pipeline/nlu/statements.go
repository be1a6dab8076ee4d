package nlu

import (
	"slices"
	"strings"
)

// Statements the user makes of their own life that the model reads as
// questions or as nothing to do: an event they have, a trip.

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
