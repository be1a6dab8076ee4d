package plan

import (
	"regexp"
	"strings"
	"time"

	"github.com/hearthbot/hearth/memory"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// reAddress finds an email address in a message.
var reAddress = regexp.MustCompile(`[A-Za-z0-9._%+'-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}`)

// EmailAddress returns the first email address in text, if any.
func EmailAddress(text string) (string, bool) {
	a := reAddress.FindString(text)
	return a, a != ""
}

// Fill completes the action a question waits for with the user's answer
// in words, and reports false when the message is not such an answer
// (then it is an ordinary message):
//
//   - an email address for Fill.Name: Hearth remembers it as that
//     person's email and addresses the waiting email to it;
//   - when something was true ("from 2001 to 2009", "until 2019"): the
//     waiting fact gets that validity.
//
// The rest of a request (FillRequest) is read by Continue.
func Fill(f stage.Fill, text string, now time.Time) ([]action.Action, bool, error) {
	switch f.Want {
	case stage.FillEmail:
		addr, ok := EmailAddress(text)
		// An answer is the address, perhaps with a few words ("it's …",
		// "her address is …"); a message that says more is a new request.
		if !ok || len(strings.Fields(strings.Replace(text, addr, "", 1))) > 4 {
			return nil, false, nil
		}
		mail, err := action.Decode[action.EmailArgs](action.Action{Kind: f.Kind, Payload: f.Payload})
		if err != nil {
			return nil, false, err
		}
		mail.To = []string{NameAddress(f.Name, addr)}
		remember, err := rememberEmail(f.Name, addr)
		if err != nil {
			return nil, false, err
		}
		send, err := action.New(f.Kind, mail)
		if err != nil {
			return nil, false, err
		}
		return []action.Action{remember, send}, true, nil
	case stage.FillWhen:
		from, to, rest, ok := memory.Validity(text, now)
		if !ok || len(strings.Fields(rest)) > 3 {
			return nil, false, nil
		}
		fact, err := action.Decode[action.MemoryStoreArgs](action.Action{Kind: f.Kind, Payload: f.Payload})
		if err != nil {
			return nil, false, err
		}
		fact.ValidFrom, fact.ValidTo = from, to
		a, err := action.New(f.Kind, fact)
		if err != nil {
			return nil, false, err
		}
		return []action.Action{a}, true, nil
	}
	return nil, false, nil
}

// notAnswers begin a message that does not finish the request asked
// about, though it follows "What should I remind you about?": a change
// of mind, a question, or a whole new request.
var notAnswers = []string{"never mind", "nevermind", "nvm", "nothing", "no", "nope", "cancel", "forget it", "stop", "don't", "dont",
	"what", "what's", "whats", "when", "when's", "where", "where's", "who", "who's", "how", "how's", "why", "which", "can you", "could you", "show", "list",
	"remind", "add", "email", "send", "draft", "schedule", "set", "create", "put", "delete", "undo", "make", "start", "begin",
	"cancel", "move", "remember", "forget", "tick", "mark", "show", "rename", "reschedule", "postpone", "remove", "find", "search"}

// joins are the words that may begin an answer and join it to the
// request themselves ("email Sam" + "about the party").
var joins = []string{"to", "about", "that", "saying", "regarding", "re", "asking", "to ask", "to say"}

// Continue completes the request a FillRequest question waits for with
// the user's answer ("remind me tomorrow" and "call the bank" →
// "remind me tomorrow to call the bank"), and reports false when the
// message is no such answer: then it is a message of its own.
func Continue(f stage.Fill, text string) (string, bool) {
	text = strings.TrimSpace(text)
	if f.Tail != "" {
		// "Add socks to it" answers "What should go on it?" as "socks"
		// does: the request's own verb and "it" are the question's.
		verb := strings.Fields(f.Request + " x")[0]
		if m := reToIt.FindStringSubmatchIndex(text); m != nil && strings.EqualFold(verb, text[m[2]:m[3]]) {
			text = text[m[4]:m[5]]
		} else if rest := words.TrimPrefixFold(text, verb+" "); rest != text && !words.ContainsWord(words.ASCIILower(rest), "to") && !words.ContainsWord(words.ASCIILower(rest), "on") {
			// "Add eggs and milk" answers it too; "add eggs to the
			// shopping list" says where itself.
			text = rest
		}
	}
	lc := words.StripPoliteness(words.ASCIILower(text))
	if f.Want != stage.FillRequest || f.Request == "" || lc == "" || strings.HasSuffix(lc, "?") || words.StartsWithWords(lc, notAnswers...) {
		return "", false
	}
	if subj := memory.Subject(text); subj != "" && (strings.Contains(subj, "'s ") || words.StartsWithWords(subj, "my", "our")) {
		// "Sam's number is 0151 …" after "What's the task?": something
		// told, to be remembered, not the task.
		return "", false
	}
	whole := f.Request + " " + f.Join + " " + text
	if f.Join == "" || words.StartsWithWords(lc, joins...) {
		whole = f.Request + " " + text
	}
	if f.Tail != "" {
		whole += " " + f.Tail
	}
	return whole, true
}

// reToIt reads an answer that repeats the request around what it adds:
// "add socks to it", "put sunscreen on the list".
var reToIt = regexp.MustCompile(`(?i)^\s*(?:please\s+)?(\w+)\s+(.+?)\s+(?:to|on|onto)\s+(?:it|that|this|the list|that list|this list)\s*[.!]*$`)

// askRest asks for the rest of a request with question; the answer, in
// words, is read with the request (Continue).
func askRest(p stage.Plan, question, request, join string) (stage.Plan, error) {
	request = strings.TrimSpace(request)
	if strings.HasSuffix(words.ASCIILower(request), " "+join) {
		join = "" // "remind me to": the answer follows
	}
	p.Question = &stage.Question{Text: question, Fill: &stage.Fill{Want: stage.FillRequest, Request: request, Join: join}}
	return p, nil
}
