package nlu

import (
	"slices"

	"github.com/hearthbot/hearth/pipeline/nlu/internal/features"
)

// NextUp reports a question for the one thing coming next, whichever it
// is, an event or a task: "what's next?", "what's up next?", "what do I
// have next?", "what's coming up next today?". A question that names what
// ("my next meeting", "next on my list") or a span ("what do I have next
// week?") is another.
func NextUp(text string) bool {
	var buf [features.MaxTokens]string
	tokens, _ := features.Tokens(buf[:0], text)
	return nextUp(tokens)
}

// nextUpForms are the questions NextUp reads, less a trailing "today" or
// "now", as tokens.
var nextUpForms = [][]string{
	{"whats", "next"}, {"what", "is", "next"}, {"whats", "up", "next"}, {"what", "is", "up", "next"},
	{"what", "do", "i", "have", "next"}, {"what", "have", "i", "got", "next"}, {"what", "am", "i", "doing", "next"},
	{"whats", "coming", "up", "next"}, {"what", "comes", "next"}, {"whats", "on", "next"},
}

func nextUp(tokens []string) bool {
	for len(tokens) > 0 && slices.Contains([]string{"so", "and", "ok", "okay", "then"}, tokens[0]) {
		tokens = tokens[1:]
	}
	if n := len(tokens); n > 2 && (tokens[n-1] == "today" || tokens[n-1] == "now") {
		tokens = tokens[:n-1]
	}
	return slices.ContainsFunc(nextUpForms, func(f []string) bool { return slices.Equal(f, tokens) })
}
