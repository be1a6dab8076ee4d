package plan

import (
	"regexp"
	"strings"
	"time"

	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/memory"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu/timex"
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
//     waiting fact gets that validity;
//   - what a task is ("call the bank", "to water the plants at 6"): the
//     waiting task gets that title, and the time the answer gives when
//     the request gave none.
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
	case stage.FillTitle:
		return fillTitle(f, text, now)
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

// notTitles begin a message that is not what a task is, though it
// follows "What should I remind you about?": a change of mind, or a new
// question.
var notTitles = []string{"never mind", "nevermind", "nvm", "nothing", "no", "nope", "cancel", "forget it", "stop", "don't", "dont",
	"what", "whats", "when", "where", "who", "how", "why", "which", "can you", "could you", "show", "list"}

// fillTitle completes a task waiting for its title with the answer: its
// words less their time, which the task takes when it has none yet.
func fillTitle(f stage.Fill, text string, now time.Time) ([]action.Action, bool, error) {
	lc := words.StripPoliteness(words.ASCIILower(strings.TrimSpace(text)))
	if lc == "" || strings.HasSuffix(lc, "?") || len(strings.Fields(lc)) > 12 || words.StartsWithAny(lc, notTitles...) {
		return nil, false, nil
	}
	task, err := action.Decode[action.TaskCreateArgs](action.Action{Kind: f.Kind, Payload: f.Payload})
	if err != nil {
		return nil, false, err
	}
	c := stage.Context{Now: now, Location: now.Location()}
	title := taskTitleOf(text) // "remind me to call the bank" answers too
	if title == "" {
		title = strings.TrimSpace(text)[len(strings.TrimSpace(text))-len(lc):]
	}
	if m, ok := timex.Parse(text, now, timex.Options{}); ok && task.Due.IsZero() {
		task.Due, task.AllDay = dueOf(&m, c)
	}
	title = words.TidySlot(words.TrimWordsLeft(words.TidySlot(stripTimeWords(title, c)), "to", "about", "that i need to", "that i have to"))
	if title == "" || isPronoun(title) || emptyTitle[words.ASCIILower(title)] {
		return nil, false, nil
	}
	task.Title = prose.UpperFirst(title)
	a, err := action.New(f.Kind, task)
	if err != nil {
		return nil, false, err
	}
	return []action.Action{a}, true, nil
}
