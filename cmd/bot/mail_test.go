package main

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/integrations/smtp/smtptest"
	"github.com/hearthbot/hearth/pipeline/llm/llmtest"
)

// TestSMTPScenarios sends approved email through a fake SMTP server, set
// up with HEARTH_SMTP_URL and HEARTH_SMTP_FROM as a user would.
func TestSMTPScenarios(t *testing.T) {
	t.Parallel()
	fake := smtptest.NewServer(t, smtptest.StartTLS)
	base, app, _ := startAppWith(t, func(c *Config) {
		c.SMTPURL, c.SMTPFrom, c.SMTPTLS = fake.URL, "Hearth <home@example.com>", &tls.Config{RootCAs: fake.RootCAs}
	})

	t.Run("approve sends exactly one message, whatever the double clicks", func(t *testing.T) {
		c := newChatter(t, base, app, "Ines", "UTC")
		r := c.say("Email sarah@example.com that I'll be late")
		mustContain(t, r, "Shall I send it?")
		if len(fake.Messages()) != 0 {
			t.Fatal("sent before approval")
		}
		done := c.click(r, "Approve")
		mustContain(t, done, "sent your email")
		if strings.Contains(done.Text, "outbox") {
			t.Fatalf("reply %q talks of the outbox after an SMTP send", done.Text)
		}
		if code, body := c.clickStatus(r, "Approve"); code != 202 || body["duplicate"] != true {
			t.Fatalf("second click: %d %v; want an acknowledged duplicate", code, body)
		}
		msgs := fake.WaitMessages(t, 1)
		if len(msgs) != 1 || msgs[0].To[0] != "sarah@example.com" || !strings.Contains(string(msgs[0].Data), "late") {
			t.Fatalf("%d messages (%+v); want exactly one to sarah", len(msgs), msgs)
		}
		sent, _ := app.Store.FindEmails(context.Background(), c.contact().User.ID, hearth.EmailSent, 10)
		if len(sent) != 1 || sent[0].Via != hearth.ViaSMTP || sent[0].MessageID == "" {
			t.Fatalf("sent %+v; want one, via smtp, with its Message-ID", sent)
		}
	})

	t.Run("a refused send offers Try again, which sends it once", func(t *testing.T) {
		c := newChatter(t, base, app, "Rosa", "UTC")
		before := len(fake.Messages())
		r := c.say("Email sam@example.com that the boiler is fixed")
		fake.RefuseNext()
		failed := c.click(r, "Approve")
		mustContain(t, failed, "didn't go through", "try again", "won't go out twice")
		if n := len(fake.Messages()); n != before {
			t.Fatalf("%d messages after the refusal", n-before)
		}
		done := c.click(failed, "Try again")
		mustContain(t, done, "sent your email")
		if code, body := c.clickStatus(failed, "Try again"); code != 202 || body["duplicate"] != true {
			t.Fatalf("second click of Try again: %d %v; want an acknowledged duplicate", code, body)
		}
		c.say("thanks") // a later turn: anything the second click did is behind it
		msgs := fake.WaitMessages(t, before+1)[before:]
		if len(msgs) != 1 || msgs[0].To[0] != "sam@example.com" || !strings.Contains(string(msgs[0].Data), "boiler") {
			t.Fatalf("%d new messages (%+v); want exactly the approved one", len(msgs), msgs)
		}
	})

	t.Run("edit then approve sends the edited body, once", func(t *testing.T) {
		c := newChatter(t, base, app, "Olga", "UTC")
		before := len(fake.Messages())
		r := c.say("Email tom@example.com that the meeting moved to Tuesday at 3pm")
		c.click(r, "Edit")
		redraft := c.say("say Thursday instead")
		mustContain(t, redraft, "Thursday at 3pm", "Shall I send it?")
		c.click(redraft, "Approve")
		if code, _ := c.clickStatus(r, "Approve"); code == 202 {
			mustContain(t, c.reply("reply to approving the replaced draft"), "already")
		}
		msgs := fake.WaitMessages(t, before+1)[before:]
		if len(msgs) != 1 || msgs[0].To[0] != "tom@example.com" {
			t.Fatalf("%d new messages; want exactly one to tom", len(msgs))
		}
		data := string(msgs[0].Data)
		if !strings.Contains(data, "Thursday at 3pm") || strings.Contains(data, "Tuesday") {
			t.Fatalf("the message is not the edited draft:\n%s", data)
		}
	})

	t.Run("a change typed under the draft, without Edit, changes it", func(t *testing.T) {
		c := newChatter(t, base, app, "Quinn", "UTC")
		before := len(fake.Messages())
		c.say("Email tom@example.com that the meeting moved to Tuesday at 3pm")
		mustContain(t, c.say("say Thursday instead"), "Thursday at 3pm", "Shall I send it?")
		redraft := c.say("change the subject to Meeting moved")
		mustContain(t, redraft, "I changed the subject to “Meeting moved”", "Subject: Meeting moved", "Thursday at 3pm")
		mustContain(t, c.say("make it shorter"), "I can't make that change on my own")
		mustContain(t, c.say("thanks, it's fine"), "left the draft as it was")
		c.click(redraft, "Approve")
		msgs := fake.WaitMessages(t, before+1)[before:]
		if data := string(msgs[0].Data); len(msgs) != 1 || !strings.Contains(data, "Thursday at 3pm") || !strings.Contains(data, "Subject: Meeting moved") || strings.Contains(data, "it's fine") {
			t.Fatalf("%d new messages (%+v); want exactly the changed draft", len(msgs), msgs)
		}
	})

	t.Run("a name is sent to the address Hearth remembers for it", func(t *testing.T) {
		c := newChatter(t, base, app, "Pia", "UTC")
		before := len(fake.Messages())
		c.say("Remember that Sarah's email is sarah.k@example.com")
		r := c.say("Email Sarah that I'm running late")
		mustContain(t, r, "Sarah <sarah.k@example.com>", "Hi Sarah,")
		// Asked for, the draft waiting is listed (it was the calendar).
		mustContain(t, c.say("show my drafts"), "You have one draft: to Sarah <sarah.k@example.com>")
		c.click(r, "Approve")
		msgs := fake.WaitMessages(t, before+1)[before:]
		if len(msgs) != 1 || msgs[0].To[0] != "sarah.k@example.com" {
			t.Fatalf("new messages %+v; want one to sarah.k@example.com", msgs)
		}
	})

	t.Run("a name with no known address is asked for, never mailed to", func(t *testing.T) {
		c := newChatter(t, base, app, "Quin", "UTC")
		before := len(fake.Messages())
		r := c.say("Email Bob that the game is off")
		mustContain(t, r, "don't have an email address for Bob")
		if len(r.Buttons) != 0 || len(fake.Messages()) != before {
			t.Fatalf("asked %+v and sent %d; want a question and nothing sent", r.Buttons, len(fake.Messages())-before)
		}
		draft := c.say("bob@example.com")
		mustContain(t, draft, "bob@example.com", "the game is off")
		c.click(draft, "Approve")
		msgs := fake.WaitMessages(t, before+1)[before:]
		if len(msgs) != 1 || msgs[0].To[0] != "bob@example.com" {
			t.Fatalf("new messages %+v; want one to bob@example.com", msgs)
		}
	})
}

// TestModelEditsDraft: with a model configured, Edit's instruction is the
// model's to apply; approval sends exactly the rewritten draft.
func TestModelEditsDraft(t *testing.T) {
	t.Parallel()
	b := newBrain(t)
	const happier = "Hi Sarah,\n\nI'm running a little late, but I can't wait to see you!\n\n— Max"
	b.set(func(c llmtest.Call) (llmtest.Answer, bool) {
		if !strings.HasPrefix(c.System, "You edit an email draft") {
			return llmtest.Answer{}, false
		}
		if !strings.Contains(c.User, `<data label="email body">`) || !strings.Contains(c.User, "The user's instruction: make it sound happier") {
			return llmtest.Answer{Status: 500}, true
		}
		ans, _ := json.Marshal(map[string]any{"changed": true, "subject": "Running late", "body": happier, "what": "made it sound happier"})
		return llmtest.Answer{Text: string(ans)}, true
	})
	base, app, _ := startModelApp(t, b, nil)
	c := newChatter(t, base, app, "Max", "UTC")
	r := c.say("Email sarah@example.com that I'll be late")
	c.click(r, "Edit")
	redraft := c.say("make it sound happier")
	mustContain(t, redraft, "made it sound happier", "can't wait to see you")
	c.click(redraft, "Approve")
	sent, _ := app.Store.FindEmails(context.Background(), c.contact().User.ID, hearth.EmailSent, 10)
	if len(sent) != 1 || sent[0].Body != happier || sent[0].Subject != "Running late" || sent[0].To[0] != "sarah@example.com" {
		t.Fatalf("sent %+v; want exactly the model's draft, to sarah@example.com", sent)
	}
}
