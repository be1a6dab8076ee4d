package nlu

import (
	"testing"
	"time"
)

// A conversation's first message has nothing to answer: answer-like words
// are chat there. Only rows whose context is unknown (nil) read them as
// replies.
func TestNewConversationIsNotAFollowup(t *testing.T) {
	c := newTestClassifier(t)
	ref := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	for _, text := range []string{"yes", "Hey, how's it going?", "ok", "the first one"} {
		if got := c.Classify(text, []Turn{}, ref).Intent; got == Followup {
			t.Errorf("%q as a conversation's first message = %s; want not followup", text, got)
		}
	}
	if got := c.Classify("yes", nil, ref).Intent; got != Followup {
		t.Errorf("%q with unknown context = %s; want followup", "yes", got)
	}
}

func TestQuestionWordsAreNotPeople(t *testing.T) {
	c := newTestClassifier(t)
	ref := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	for text, want := range map[string]string{
		"What's my sister's name?":    "my sister",
		"Where's Emma's school?":      "Emma",
		"When's John's birthday?":     "John",
		"Who's coming to Sam's party": "Sam",
	} {
		got := c.Classify(text, []Turn{}, ref).Slots.People
		if len(got) == 0 || got[0] != want {
			t.Errorf("people of %q = %q; want %q first", text, got, want)
		}
	}
}
