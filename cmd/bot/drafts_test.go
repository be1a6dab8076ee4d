package main

import (
	"context"
	"strings"
	"testing"

	"github.com/hearthbot/hearth"
)

// TestDiscardDraft: a saved draft is deleted in words, by its recipient
// or as "the draft" (which asks which when there are several), and
// "undo" brings it back; said right under a draft waiting for approval,
// "delete that draft" is its Cancel.
func TestDiscardDraft(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Wren", "UTC")
	uid := c.contact().User.ID
	drafts := func() []hearth.Email {
		t.Helper()
		ds, err := app.Store.FindEmails(context.Background(), uid, hearth.EmailDraft, 10)
		if err != nil {
			t.Fatal(err)
		}
		return ds
	}
	mustContain(t, c.say("Draft an email to sam@example.com saying I'll bring the cake"), "saved a draft")
	mustContain(t, c.say("Draft an email to dana@example.org saying the rota changed"), "saved a draft")

	mustContain(t, c.say("delete the draft to Sam"), "deleted the draft to sam@example.com")
	if ds := drafts(); len(ds) != 1 || ds[0].To[0] != "dana@example.org" {
		t.Fatalf("drafts %+v after deleting Sam's; want Dana's alone", ds)
	}
	mustContain(t, c.say("undo"), "is back")
	if ds := drafts(); len(ds) != 2 {
		t.Fatalf("%d drafts after the undo; want both", len(ds))
	}

	q := c.say("delete the draft")
	mustContain(t, q, "Which draft should I delete?")
	var dana string
	for _, b := range q.Buttons {
		if strings.HasPrefix(b.Label, "To dana@example.org") {
			dana = b.Label
		}
	}
	if len(q.Buttons) != 2 || dana == "" {
		t.Fatalf("buttons %v; want one for each draft", q.Buttons)
	}
	mustContain(t, c.click(q, dana), "deleted the draft to dana@example.org")
	if ds := drafts(); len(ds) != 1 || ds[0].To[0] != "sam@example.com" {
		t.Fatalf("drafts %+v after picking Dana's; want Sam's alone", ds)
	}

	mustContain(t, c.say("delete the draft to Quentin"), "I couldn't find a draft to Quentin")

	// "Delete it" right after a draft was saved: that draft.
	mustContain(t, c.say("Draft an email to kim@example.com saying see you soon"), "saved a draft")
	mustContain(t, c.say("delete it"), "deleted the draft to kim@example.com")
	if ds := drafts(); len(ds) != 1 || ds[0].To[0] != "sam@example.com" {
		t.Fatalf("drafts %+v after \"delete it\"; want Sam's alone", ds)
	}

	// Under a draft waiting for approval: its Cancel, nothing sent.
	r := c.say("Email tom@example.com that I'm on my way")
	mustContain(t, r, "Here's the draft to tom@example.com")
	mustContain(t, c.say("delete that draft"), "cancelled that", "Nothing was sent")
	if code, _ := c.clickStatus(r, "Approve"); code == 202 {
		mustContain(t, c.reply("reply to approving a cancelled draft"), "already")
	}
	if sent, _ := app.Store.FindEmails(context.Background(), uid, hearth.EmailSent, 10); len(sent) != 0 {
		t.Fatalf("sent %+v; want nothing sent", sent)
	}
	if ds := drafts(); len(ds) != 1 || ds[0].To[0] != "sam@example.com" {
		t.Fatalf("drafts %+v after cancelling Tom's; want Sam's alone", ds)
	}
}

// TestSendSavedDraft: "send the draft to Sam" sends the saved draft as it
// is, once approved (no second copy made); cancelled, it stays saved.
func TestSendSavedDraft(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Iris", "UTC")
	uid := c.contact().User.ID
	emails := func(status hearth.EmailStatus) []hearth.Email {
		t.Helper()
		es, err := app.Store.FindEmails(context.Background(), uid, status, 10)
		if err != nil {
			t.Fatal(err)
		}
		return es
	}
	c.say("Draft an email to sam@example.com saying the boiler is fixed")
	saved := emails(hearth.EmailDraft)
	if len(saved) != 1 {
		t.Fatalf("drafts %+v; want the one saved", saved)
	}

	r := c.say("send that draft")
	mustContain(t, r, "Here's the draft to sam@example.com", "The boiler is fixed")
	mustContain(t, c.click(r, "Cancel"), "cancelled")
	if ds := emails(hearth.EmailDraft); len(ds) != 1 || ds[0].ID != saved[0].ID {
		t.Fatalf("drafts %+v after the cancel; want the saved one still there", ds)
	}

	// Not said to be a draft, an email with a saved one to Sam is that one.
	r = c.say("send the email to Sam")
	mustContain(t, r, "Here's the draft to sam@example.com", "The boiler is fixed")
	mustContain(t, c.click(r, "Cancel"), "cancelled")

	r = c.say("send the draft to Sam")
	mustContain(t, r, "Here's the draft to sam@example.com")
	c.click(r, "Approve")
	sent := emails(hearth.EmailSent)
	if len(sent) != 1 || sent[0].ID != saved[0].ID {
		t.Fatalf("sent %+v; want the saved draft itself", sent)
	}
	if ds := emails(hearth.EmailDraft); len(ds) != 0 {
		t.Fatalf("drafts %+v after sending; want none", ds)
	}
	mustContain(t, c.say("send the draft"), "I couldn't find any drafts")
	// With none saved, it is a new email.
	mustContain(t, c.say("send the email to Sam"), "What should the email to Sam say?")
}
