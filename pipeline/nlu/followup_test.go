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
