package nlu

import (
	"slices"
	"strings"

	"github.com/hearthbot/hearth/pipeline/nlu/internal/features"
)

// botContext is what the previous bot turn leaves open.
type botContext struct {
	known   bool     // the conversation is known (recent is not nil)
	open    bool     // the last turn is the bot's and asks something or offers options
	options []string // offered choices: buttons, or the lines of a numbered list
}

// lastBotTurn looks at the most recent turn. Only a bot turn that is the
// very last one can be answered: once the user has said something else,
// a "yes" no longer refers to it. A nil recent means the conversation is
// unknown (a labelled row without context); an empty one means it has no
// turns yet, so there is nothing to answer.
func lastBotTurn(recent []Turn) botContext {
	if recent == nil {
		return botContext{}
	}
	if len(recent) == 0 {
		return botContext{known: true}
	}
	t := recent[len(recent)-1]
	ctx := botContext{known: true}
	if !t.FromBot {
		return ctx
	}
	ctx.options = t.Options
	if len(ctx.options) == 0 {
		ctx.options = listItems(t.Text)
	}
	ctx.open = len(ctx.options) > 0 || strings.Contains(t.Text, "?")
	return ctx
}

// listItems returns the items of a numbered or bulleted list in text
// ("1. Sarah Lee", "- Work calendar"), so a reply can pick one by
// number or by name.
func listItems(text string) []string {
	var items []string
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "- "), strings.HasPrefix(line, "* "), strings.HasPrefix(line, "• "):
			_, item, _ := strings.Cut(line, " ")
			items = append(items, strings.TrimSpace(item))
		case len(line) > 2 && line[0] >= '1' && line[0] <= '9' && (line[1] == '.' || line[1] == ')'):
			items = append(items, strings.TrimSpace(line[2:]))
		}
	}
	if len(items) < 2 {
		return nil
	}
	return items
}

// answer is the kind of short answer a message is.
type answer int

const (
	notAnswer answer = iota
	yesAnswer
	noAnswer
	maybeAnswer
	pickAnswer
	moreAnswer
)

// answers maps whole short messages (normalised tokens joined by spaces)
// to their kind. It is deliberately a closed list: anything longer is left
// to the model, so "no, remind me Friday instead" stays a request.
var answers = func() map[string]answer {
	m := map[string]answer{}
	add := func(k answer, phrases string) {
		for _, p := range strings.Split(phrases, "|") {
			m[p] = k
		}
	}
	add(yesAnswer, "yes|yeah|yep|yup|yea|ya|sure|ok|okay|k|kk|alright|all right|absolutely|definitely|of course|certainly|please|yes please|sure thing|ok sure|okay sure|sounds good|go ahead|do it|please do|go for it|that works|works for me|perfect|confirm|confirmed|correct|right|exactly|indeed|yes do it|yes go ahead|sure go ahead|ok go ahead|ok do it|fine|thats right|thats it|thats fine|yes thats right|agreed|approve|approved|send it|book it|yes thanks|ok thanks|okay thanks|yes thank you|great do it")
	add(noAnswer, "no|nope|nah|no thanks|no thank you|not really|not now|never mind|nevermind|dont|please dont|dont do that|no way|cancel|cancel that|cancel it|stop|skip|skip it|not today|no dont|wrong|thats wrong|incorrect|neither|none|none of them|nah thanks")
	add(maybeAnswer, "maybe|perhaps|possibly|probably|not sure|im not sure|i dont know|dunno|idk|no idea|maybe later|later|let me think|hmm|either|either one|either is fine|i guess|depends|it depends")
	add(moreAnswer, "tell me more|more|more please|more details|more info|go on|continue|keep going|what else|anything else|details|and|and then|why|how so|like what|explain|elaborate")
	add(pickAnswer, "that one|this one|the one|that|this|both|all|all of them|any|any of them|the other|the other one|the first|the second|the third|the last|first|second|third|last|the first one|the second one|the third one|the fourth one|the last one|first one|second one|third one|last one|the top one|the bottom one|the earlier one|the later one|the first option|the second option|the third option|the last option|option 0|number 0|choice 0|0|the 0|the 0st|the 0nd|the 0rd|the 0th|0st|0nd|0rd|0th|the 0st one|the 0nd one|the 0rd one|the 0th one|0 please|the first one please|the second one please")
	return m
}()

// answerKind classifies a short message as an answer, ignoring a
// trailing "please"/"thanks" only where the list says so. Messages of
// more than six tokens are never short answers.
func answerKind(tokens []string) answer {
	if len(tokens) > 6 {
		return notAnswer
	}
	var b strings.Builder
	for i, t := range tokens {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t)
	}
	return answers[b.String()]
}

// ordinals are the words that pick the n-th option (1-based).
var ordinals = map[string]int{
	"first": 1, "1st": 1, "one": 1, "second": 2, "2nd": 2, "two": 2,
	"third": 3, "3rd": 3, "three": 3, "fourth": 4, "4th": 4, "four": 4,
	"fifth": 5, "5th": 5, "five": 5, "top": 1,
}

// pickOption returns the 1-based option a reply picks ("the first one",
// "2", "option 3", "the last one", or an option's own words), or 0.
// n is the number of options offered (0 if unknown); "last" needs it.
func pickOption(text string, tokens []string, options []string) int {
	if len(tokens) > 6 {
		return 0
	}
	n := len(options)
	for i, t := range tokens {
		if t == "last" || t == "bottom" {
			return n // 0 when the count is unknown
		}
		if k, ok := ordinals[t]; ok {
			// "one" alone is a number only in "option one"/"number one".
			if t == "one" && (i == 0 || (tokens[i-1] != "option" && tokens[i-1] != "number" && tokens[i-1] != "choice")) && len(tokens) > 1 {
				continue
			}
			if n == 0 || k <= n {
				return k
			}
		}
		if t == "0" {
			// Digits were folded into "0" by the tokenizer; read the
			// number from the text itself.
			if k := firstNumber(text); k > 0 && (n == 0 || k <= n) {
				return k
			}
		}
	}
	return pickByText(tokens, options)
}

// QuestionHeads are the words a question starts with ("what's on
// Wednesday?", "can you …"), as the classifier tokenises them ("what's" is
// "whats") and as they start lower-cased text.
var QuestionHeads = []string{"what", "whats", "when", "whens", "where", "wheres", "who", "whos", "how", "hows", "why", "which",
	"is", "are", "do", "does", "did", "can", "could", "will", "would", "should", "am"}

// pickByText returns the 1-based option that the reply names by one of
// its own words, or 0. "family" picks "Family calendar" out of "Work
// calendar" and "Family calendar"; "calendar", shared by both, picks
// nothing, and neither does a word that two options share.
func pickByText(tokens []string, options []string) int {
	if len(options) == 0 || len(tokens) > 6 {
		return 0
	}
	switch tokens[0] {
	case "forget", "delete", "remove", "erase", "cancel", "drop", "move", "reschedule", "push", "postpone", "rename":
		// "Forget my favorite color" after a list of what Hearth knows
		// asks to forget it; it does not pick the line that says it.
		return 0
	}
	if slices.Contains(QuestionHeads, tokens[0]) {
		// "What's on Wednesday?" after "Which one should I move?" with
		// Wednesday's among the options is a question of its own.
		return 0
	}
	opt := make([][]string, len(options))
	for i, o := range options {
		opt[i], _ = features.Tokens(nil, o)
	}
	best, bestHits, tie := 0, 0, false
	for i := range options {
		hits := 0
		for _, t := range tokens {
			if len(t) < 3 || stopword(t) || !slices.Contains(opt[i], t) {
				continue
			}
			shared := 0
			for _, o := range opt {
				if slices.Contains(o, t) {
					shared++
				}
			}
			if shared == 1 {
				hits++
			}
		}
		switch {
		case hits == 0:
		case hits > bestHits:
			best, bestHits, tie = i+1, hits, false
		case hits == bestHits:
			tie = true
		}
	}
	if tie {
		return 0
	}
	// The message must be mostly the option's words: "the dentist one"
	// picks "Dentist (Tue)", "remind me hourly to stand up" is a new
	// request that only shares "remind" with "Remind me in an hour".
	content := 0
	for _, t := range tokens {
		if len(t) >= 3 && !stopword(t) {
			content++
		}
	}
	if bestHits*2 < content {
		return 0
	}
	return best
}

func stopword(t string) bool {
	switch t {
	case "the", "one", "and", "that", "this", "please", "with", "for", "option":
		return true
	}
	return false
}

// firstNumber returns the first run of digits in s as an int (capped),
// or 0.
func firstNumber(s string) int {
	n, in := 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' {
			in = true
			if n < 1000 {
				n = n*10 + int(c-'0')
			}
		} else if in {
			break
		}
	}
	return n
}
