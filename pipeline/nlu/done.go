package nlu

import (
	"slices"

	"github.com/hearthbot/hearth/pipeline/nlu/internal/features"
)

// DoneQuestion reports a question about what the user has got done: "what
// did I finish today?", "which tasks have I completed this week?", "what
// did I get done yesterday?", "what did I do today?". It is answered from
// the tasks completed in the span it names (today without one), not from
// the open ones. "Do" and "done" alone ("what did I do last summer?") are
// such a question only with a day or a week, said as today, yesterday,
// this week or so far: otherwise they ask about one's life.
func DoneQuestion(text string) bool {
	var buf [features.MaxTokens]string
	tokens, _ := features.Tokens(buf[:0], text)
	return doneQuestion(tokens)
}

// doneVerbs complete a question about what was got done; the bool says
// the verb needs a day or a week with it ("do", "done").
var doneVerbs = map[string]bool{
	"finish": false, "finished": false, "complete": false, "completed": false,
	"accomplish": false, "accomplished": false, "tick": false, "ticked": false,
	"check": false, "checked": false, "cross": false, "crossed": false,
	"get": false, "got": false, "do": true, "done": true,
}

func doneQuestion(tokens []string) bool {
	if len(tokens) < 4 {
		return false
	}
	i := 0
	switch tokens[0] {
	case "what", "which":
		i = 1
		if slices.Contains([]string{"tasks", "things", "reminders", "todos"}, tokens[i]) {
			i++
		}
	default:
		return false
	}
	if i+2 >= len(tokens) || tokens[i] != "did" && tokens[i] != "have" || tokens[i+1] != "i" && tokens[i+1] != "we" {
		return false
	}
	i += 2
	if tokens[i] == "already" || tokens[i] == "actually" {
		i++
	}
	if i < len(tokens) && (tokens[i] == "manage" || tokens[i] == "managed") && i+2 < len(tokens) && tokens[i+1] == "to" {
		i += 2
	}
	if i >= len(tokens) {
		return false
	}
	needsDay, ok := doneVerbs[tokens[i]]
	switch {
	case !ok:
		return false
	case tokens[i] == "get" || tokens[i] == "got":
		// "get done", "got done", not "what did I get for Sam?"
		if i+1 >= len(tokens) || tokens[i+1] != "done" && tokens[i+1] != "finished" {
			return false
		}
	case tokens[i] == "tick" || tokens[i] == "ticked" || tokens[i] == "check" || tokens[i] == "checked" || tokens[i] == "cross" || tokens[i] == "crossed":
		if i+1 >= len(tokens) || tokens[i+1] != "off" {
			return false
		}
	}
	if !needsDay {
		return true
	}
	rest := tokens[i+1:]
	return slices.Contains(rest, "today") || slices.Contains(rest, "yesterday") || slices.Contains(rest, "week") ||
		slices.Contains(rest, "tonight") || slices.Contains(rest, "morning") || slices.Contains(rest, "far")
}
