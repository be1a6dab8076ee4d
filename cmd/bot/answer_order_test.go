package main

import (
	"context"
	"testing"

	"github.com/hearthbot/hearth"
)

// TestYesAnswersTheLatestQuestion: with an email waiting for approval, a
// newer question with its own button takes the "yes" (it approved the
// email); once nothing newer asks, "no" answers the approval again.
func TestYesAnswersTheLatestQuestion(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Yan", "UTC")
	c.say("Sam's email is sam@example.com")
	if d := c.say("email Sam that I'll be late"); len(d.Buttons) == 0 {
		t.Fatalf("no approval asked: %+v", d)
	}
	mustContain(t, c.say("we're out of coffee"), "Shall I add coffee")
	mustContain(t, c.say("yes"), "coffee")
	drafts := func() int {
		t.Helper()
		ds, err := app.Store.FindEmails(context.Background(), c.contact().User.ID, hearth.EmailDraft, 10)
		if err != nil {
			t.Fatal(err)
		}
		return len(ds)
	}
	if n := drafts(); n != 1 {
		t.Fatalf("%d drafts after the yes to the list; want the email still waiting", n)
	}
	mustContain(t, c.say("no"), "cancelled")
	if n := drafts(); n != 0 {
		t.Fatalf("%d drafts after no; want the email cancelled", n)
	}
}
