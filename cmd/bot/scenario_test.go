package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/adapters/webchat"
	"github.com/hearthbot/hearth/pipeline/pipelinetest"
)

// chatter talks to a running Hearth through the web chat API, as a script
// or the page would.
type chatter struct {
	t      *testing.T
	base   string
	user   string
	cursor string
	app    *App
	// lastID is the newest message id seen: an answered prompt comes back
	// with its old id (edited), a reply has a new one.
	lastID int64
}

func newChatter(t *testing.T, base string, app *App, user, tz string) *chatter {
	t.Helper()
	c := &chatter{t: t, base: base, user: user, cursor: "0", app: app}
	if code, body := c.post("/api/webchat/users", map[string]any{"user": user, "tz": tz}); code != 200 {
		t.Fatalf("sign in %s: %d %v", user, code, body)
	}
	return c
}

func (c *chatter) post(path string, body any) (int, map[string]any) {
	c.t.Helper()
	b, _ := json.Marshal(body)
	res, err := http.Post(c.base+path, "application/json", strings.NewReader(string(b)))
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	json.NewDecoder(res.Body).Decode(&out) //nolint:errcheck // checked by callers through the status
	return res.StatusCode, out
}

// say sends text and returns the bot's reply to it.
func (c *chatter) say(text string) webchat.Message {
	c.t.Helper()
	if code, body := c.post("/api/webchat/messages", map[string]any{"user": c.user, "text": text}); code != 202 {
		c.t.Fatalf("say %q: %d %v", text, code, body)
	}
	return c.reply("reply to " + text)
}

// click presses a button of a bot message and returns the reply.
func (c *chatter) click(m webchat.Message, label string) webchat.Message {
	c.t.Helper()
	code, body := c.clickStatus(m, label)
	if code != 202 {
		c.t.Fatalf("click %q: %d %v", label, code, body)
	}
	return c.reply("reply to the " + label + " click")
}

func (c *chatter) clickStatus(m webchat.Message, label string) (int, map[string]any) {
	c.t.Helper()
	for _, b := range m.Buttons {
		if b.Label == label {
			return c.post("/api/webchat/buttons", map[string]any{"user": c.user, "message_id": m.ID, "button_id": b.ID})
		}
	}
	c.t.Fatalf("message %q has no button %q (buttons %v)", m.Text, label, m.Buttons)
	return 0, nil
}

// reply waits for the next new bot message.
func (c *chatter) reply(what string) webchat.Message {
	c.t.Helper()
	var got webchat.Message
	// The web chat's live streams are woken when a reply commits.
	wake, stop := c.app.Hub.Subscribe(c.contact().ConversationID)
	defer stop()
	pipelinetest.Wait(c.t, wake, what, func() bool {
		res, err := http.Get(c.base + "/api/webchat/messages?" + url.Values{"user": {c.user}, "after": {c.cursor}}.Encode())
		if err != nil {
			c.t.Fatal(err)
		}
		var page struct {
			Messages []webchat.Message `json:"messages"`
			Cursor   string            `json:"cursor"`
		}
		json.NewDecoder(res.Body).Decode(&page) //nolint:errcheck // an empty page just waits for the next job
		res.Body.Close()
		for _, m := range page.Messages {
			c.cursor = fmt.Sprint(m.Seq)
			fresh := m.ID > c.lastID
			c.lastID = max(c.lastID, m.ID)
			if m.From == hearth.FromBot && fresh {
				got = m
				return true
			}
		}
		return false
	})
	return got
}

// catchUp reads, without waiting, what is already in the conversation
// (a reminder the scheduler fired just now), so the next reply read is the
// answer to what is said next.
func (c *chatter) catchUp() {
	c.t.Helper()
	res, err := http.Get(c.base + "/api/webchat/messages?" + url.Values{"user": {c.user}, "after": {c.cursor}}.Encode())
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	var page struct {
		Messages []webchat.Message `json:"messages"`
	}
	if err := json.NewDecoder(res.Body).Decode(&page); err != nil {
		c.t.Fatal(err)
	}
	for _, m := range page.Messages {
		c.cursor = fmt.Sprint(m.Seq)
		c.lastID = max(c.lastID, m.ID)
	}
}

func (c *chatter) contact() hearth.Contact {
	c.t.Helper()
	key := strings.ToLower(c.user)
	ct, err := c.app.Store.FindContact(context.Background(), hearth.ChannelWebchat, key, key)
	if err != nil {
		c.t.Fatal(err)
	}
	return ct
}

func (c *chatter) actions() int {
	c.t.Helper()
	var n int
	if err := c.app.Store.Pool().QueryRow(context.Background(), "SELECT count(*) FROM actions WHERE conversation_id = $1", c.contact().ConversationID).Scan(&n); err != nil {
		c.t.Fatal(err)
	}
	return n
}

func (c *chatter) tasks() []hearth.Task {
	c.t.Helper()
	ts, err := c.app.Store.FindTasks(context.Background(), hearth.TaskFilter{UserID: c.contact().User.ID, IncludeUndated: true})
	if err != nil {
		c.t.Fatal(err)
	}
	return ts
}

func mustContain(t *testing.T, m webchat.Message, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(strings.ToLower(m.Text), strings.ToLower(p)) {
			t.Fatalf("reply %q does not mention %q", m.Text, p)
		}
	}
}

func TestScenarios(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	ny, _ := time.LoadLocation("America/New_York")

	t.Run("small talk is a chat reply and no action", func(t *testing.T) {
		c := newChatter(t, base, app, "Ann", "America/New_York")
		r := c.say("Hey, how's it going?")
		if r.Text == "" || len(r.Buttons) != 0 || c.actions() != 0 {
			t.Fatalf("reply %+v, %d actions", r, c.actions())
		}
	})

	t.Run("a reminder becomes a task due tomorrow at 5pm in the user's zone", func(t *testing.T) {
		c := newChatter(t, base, app, "Bea", "America/New_York")
		before := time.Now().In(ny)
		r := c.say("Remind me to call mom tomorrow at 5pm")
		ts := c.tasks()
		if len(ts) != 1 || ts[0].Title != "Call mom" {
			t.Fatalf("tasks %+v after %q", ts, r.Text)
		}
		want := time.Date(before.Year(), before.Month(), before.Day()+1, 17, 0, 0, 0, ny)
		if !ts[0].Due.Equal(want) {
			t.Fatalf("due %v; want %v", ts[0].Due.In(ny), want)
		}
		mustContain(t, r, "call mom")

		undone := c.say("undo")
		if len(c.tasks()) != 0 {
			t.Fatalf("after undo (%q) tasks remain: %+v", undone.Text, c.tasks())
		}
		mustContain(t, undone, "Call mom")
	})

	t.Run("a reminder without what it is about asks, and the answer makes it", func(t *testing.T) {
		c := newChatter(t, base, app, "Bo", "America/New_York")
		before := time.Now().In(ny)
		mustContain(t, c.say("Remind me tomorrow"), "What should I remind you about?")
		if ts := c.tasks(); len(ts) != 0 {
			t.Fatalf("a task before its title: %+v", ts)
		}
		mustContain(t, c.say("call the plumber"), "Call the plumber")
		ts := c.tasks()
		if len(ts) != 1 || ts[0].Title != "Call the plumber" || !ts[0].AllDay ||
			!ts[0].Due.Equal(time.Date(before.Year(), before.Month(), before.Day()+1, 0, 0, 0, 0, ny)) {
			t.Fatalf("tasks %+v", ts)
		}
		// A change of mind is not a title.
		mustContain(t, c.say("remind me"), "What should I remind you about?")
		c.say("never mind")
		if n := len(c.tasks()); n != 1 {
			t.Fatalf("%d tasks after never mind", n)
		}
		// Everything at once is not done: which one is asked.
		mustContain(t, c.say("delete all my tasks"), "one at a time")
		if n := len(c.tasks()); n != 1 {
			t.Fatalf("%d tasks after delete all", n)
		}
		// Nor is a question, which is answered as itself.
		mustContain(t, c.say("remind me"), "What should I remind you about?")
		mustContain(t, c.say("what's due tomorrow?"), "Call the plumber")
		if n := len(c.tasks()); n != 1 {
			t.Fatalf("%d tasks after a question", n)
		}
		// "Every hour" cannot be kept: one reminder is offered, and "yes"
		// takes it.
		offer := c.say("remind me to stretch every hour")
		mustContain(t, offer, "more often than once a day")
		if len(offer.Buttons) != 1 || offer.Buttons[0].Label != "Remind me in an hour" {
			t.Fatalf("offer %+v", offer)
		}
		mustContain(t, c.say("yes"), "Stretch")
		if n := len(c.tasks()); n != 2 {
			t.Fatalf("%d tasks after taking the offer", n)
		}
		// "Email Sam" asks what it should say; the answer is the email.
		c.say("Sam's email is sam@example.com")
		mustContain(t, c.say("email Sam"), "What should the email to Sam say?")
		draft := c.say("I'll be late tonight")
		mustContain(t, draft, "sam@example.com", "I'll be late tonight.")
		if len(draft.Buttons) == 0 {
			t.Fatalf("the email did not ask before sending: %+v", draft)
		}
	})

	t.Run("when is something: the calendar, the tasks, or memory, whichever has it", func(t *testing.T) {
		c := newChatter(t, base, app, "Cy", "Europe/Berlin")
		c.say("schedule a haircut in three weeks at 10am")
		c.say("remind me to renew the car insurance next Friday")
		c.say("remember that my anniversary is June 4")
		mustContain(t, c.say("when is my haircut?"), "Haircut is on ", "at 10:00 AM")
		mustContain(t, c.say("when is the car insurance due?"), "“Renew the car insurance” is due on ")
		mustContain(t, c.say("when is my anniversary?"), "June 4")
		mustContain(t, c.say("when is my dentist?"), "I don't see “dentist” on your calendar or in your tasks")
	})

	t.Run("feeling overwhelmed gets a discussion of pending tasks, no action", func(t *testing.T) {
		c := newChatter(t, base, app, "Cal", "Europe/Berlin")
		c.say("Remind me to file the taxes tomorrow")
		c.say("Remind me to book the dentist next week")
		n := c.actions()
		r := c.say("I'm overwhelmed, help me figure out what to focus on")
		mustContain(t, r, "file the taxes", "book the dentist")
		if c.actions() != n {
			t.Fatal("a discussion must not act")
		}
	})

	t.Run("big news stores a memory and adds the dinner on Saturday at 19:00", func(t *testing.T) {
		c := newChatter(t, base, app, "Dee", "Europe/Berlin")
		c.say("I just closed on my house! Add it to my calendar for celebration dinner Saturday")
		ct := c.contact()
		mems, err := app.Store.FindMemories(context.Background(), hearth.MemoryFilter{UserID: ct.User.ID})
		if err != nil || len(mems) != 1 || !strings.Contains(strings.ToLower(mems[0].Content), "house") {
			t.Fatalf("memories %+v, %v", mems, err)
		}
		berlin, _ := time.LoadLocation("Europe/Berlin")
		now := time.Now().In(berlin)
		evs, err := app.Store.FindEvents(context.Background(), hearth.CalendarEventFilter{UserID: ct.User.ID, From: now.AddDate(0, 0, -1), To: now.AddDate(0, 0, 8)})
		if err != nil || len(evs) != 1 {
			t.Fatalf("events %+v, %v", evs, err)
		}
		start := evs[0].Start.In(berlin)
		if start.Weekday() != time.Saturday || start.Hour() != 19 || start.Minute() != 0 {
			t.Fatalf("dinner at %v; want Saturday 19:00", start)
		}
	})

	t.Run("a remembered birthday is recalled", func(t *testing.T) {
		c := newChatter(t, base, app, "Eve", "UTC")
		c.say("Remember that John's birthday is March 15th")
		r := c.say("When is John's birthday?")
		mustContain(t, r, "March 15th")
	})

	t.Run("a remembered fact is recalled by a question in other words", func(t *testing.T) {
		c := newChatter(t, base, app, "Lou", "UTC")
		c.say("Remember that my sister's name is Anna")
		mustContain(t, c.say("What's my sister's name?"), "Anna")

		// Forgetting one's own fact, named, is done at once, with undo.
		gone := c.say("Forget that my sister's name is Anna")
		mems, _ := app.Store.FindMemories(context.Background(), hearth.MemoryFilter{UserID: c.contact().User.ID})
		if len(mems) != 0 || len(gone.Buttons) != 0 {
			t.Fatalf("after forgetting (%q, %v): %+v", gone.Text, gone.Buttons, mems)
		}
	})

	t.Run("a note can be just a body", func(t *testing.T) {
		c := newChatter(t, base, app, "Max", "UTC")
		r := c.say("Make a note: the wifi password is on the fridge")
		notes, err := app.Store.FindNotes(context.Background(), hearth.NoteFilter{UserID: c.contact().User.ID})
		if err != nil || len(notes) != 1 || !strings.Contains(notes[0].Body+notes[0].Title, "wifi password") {
			t.Fatalf("notes %+v, %v after %q", notes, err, r.Text)
		}
	})

	t.Run("an email waits for approval and is sent exactly once", func(t *testing.T) {
		c := newChatter(t, base, app, "Fay", "UTC")
		c.say("Remember that Sarah's email is sarah@example.com")
		r := c.say("Email Sarah that I'll be late")
		if len(r.Buttons) < 2 {
			t.Fatalf("no Approve/Cancel on %+v", r)
		}
		uid := c.contact().User.ID
		drafts, _ := app.Store.FindEmails(context.Background(), uid, hearth.EmailDraft, 10)
		if len(drafts) != 1 || !strings.Contains(strings.Join(drafts[0].To, ","), "Sarah") {
			t.Fatalf("drafts %+v", drafts)
		}

		other := newChatter(t, base, app, "Mallory", "UTC")
		if code, _ := other.clickStatus(r, "Approve"); code == 202 {
			other.reply("reply to a foreign click")
		}
		if sent, _ := app.Store.FindEmails(context.Background(), uid, hearth.EmailSent, 10); len(sent) != 0 {
			t.Fatal("another user's click sent the email")
		}

		mustContain(t, r, "nothing will leave this machine")
		done := c.click(r, "Approve")
		// The built-in outbox transmits nothing, and the reply says so.
		mustContain(t, done, "outbox", "nothing left this machine")
		if strings.Contains(done.Text, "sent your email") {
			t.Fatalf("the outbox claims to have sent: %q", done.Text)
		}
		if code, body := c.clickStatus(r, "Approve"); code != 202 || body["duplicate"] != true {
			t.Fatalf("second click: %d %v; want an acknowledged duplicate", code, body)
		}
		sent, _ := app.Store.FindEmails(context.Background(), uid, hearth.EmailSent, 10)
		if len(sent) != 1 {
			t.Fatalf("sent %d emails after %q; want exactly 1", len(sent), done.Text)
		}
		// Asked after, the mail sent answers, not the drafts.
		mustContain(t, c.say("what emails have I sent?"), "You sent one email", "did not leave this machine")
		if code, _ := c.clickStatus(r, "Cancel"); code != 202 {
			t.Fatalf("cancel after approve: %d", code)
		}
		late := c.reply("reply to a late cancel")
		mustContain(t, late, "already")
	})

	t.Run("connecting Google where it is not set up says why", func(t *testing.T) {
		c := newChatter(t, base, app, "Gwen", "UTC")
		mustContain(t, c.say("connect google"), "Google isn't set up on this Hearth", "HEARTH_GOOGLE_CLIENT_ID")
		mustContain(t, c.say("connect gmail"), "Google isn't set up on this Hearth")
	})

	t.Run("an email draft can be edited before it is approved", func(t *testing.T) {
		c := newChatter(t, base, app, "Jo", "UTC")
		r := c.say("Email sarah@example.com that I'll be late on Tuesday")
		ask := c.click(r, "Edit")
		mustContain(t, ask, "how should I change it")
		// An instruction changes the draft; it does not become the body.
		redraft := c.say("say Friday instead")
		mustContain(t, redraft, "changed Tuesday to Friday", "I'll be late on Friday")
		if strings.Contains(redraft.Text, "say Friday instead") {
			t.Fatalf("the instruction became the body: %q", redraft.Text)
		}
		// What the rules cannot do, the user writes.
		ask = c.click(redraft, "Edit")
		mustContain(t, c.say("make it sound happier"), "What should the email say")
		final := c.say("Running 15 minutes late, start without me.")
		mustContain(t, final, "Running 15 minutes late")
		c.click(final, "Approve")
		sent, _ := app.Store.FindEmails(context.Background(), c.contact().User.ID, hearth.EmailSent, 10)
		if len(sent) != 1 || sent[0].Body != "Running 15 minutes late, start without me." {
			t.Fatalf("sent %+v; want exactly the edited body", sent)
		}
		for _, old := range []webchat.Message{r, redraft} {
			if code, _ := c.clickStatus(old, "Approve"); code == 202 {
				mustContain(t, c.reply("reply to approving a replaced draft"), "already")
			}
		}
		if sent, _ := app.Store.FindEmails(context.Background(), c.contact().User.ID, hearth.EmailSent, 10); len(sent) != 1 {
			t.Fatalf("a replaced draft was sent too: %d sent", len(sent))
		}
		if drafts, _ := app.Store.FindEmails(context.Background(), c.contact().User.ID, hearth.EmailDraft, 10); len(drafts) != 0 {
			t.Fatalf("replaced drafts are left in the outbox: %+v", drafts)
		}
	})

	t.Run("a more formal draft uses the user's style, and approval sends exactly it", func(t *testing.T) {
		c := newChatter(t, base, app, "Lea", "UTC")
		uid := c.contact().User.ID
		if _, err := app.Store.SetMailStyle(context.Background(), hearth.MailStyle{UserID: uid, Greeting: "Hello {name},", SignOff: "Best,"}); err != nil {
			t.Fatal(err)
		}
		c.say("Remember that Sarah's email is sarah@example.com")
		r := c.say("Email Sarah that I'll be late")
		mustContain(t, r, "Hello Sarah,", "Best,")
		c.click(r, "Edit")
		formal := c.say("more formal please")
		mustContain(t, formal, "Dear Sarah,", "I will be late", "Kind regards,")
		c.click(formal, "Approve")
		sent, _ := app.Store.FindEmails(context.Background(), uid, hearth.EmailSent, 10)
		if len(sent) != 1 || !strings.HasPrefix(sent[0].Body, "Dear Sarah,") || !strings.Contains(sent[0].Body, "Kind regards,") {
			t.Fatalf("sent %+v; want the formal draft", sent)
		}
	})

	t.Run("an email to a name shared by two people asks which one", func(t *testing.T) {
		c := newChatter(t, base, app, "Kit", "UTC")
		c.say("Remember that Sarah Kim is my dentist")
		c.say("Remember that Sarah Kim's email is kim@example.com")
		c.say("Remember that Sarah Lopez's email is lopez@example.com")
		q := c.say("Email Sarah that I'll be late")
		kim, lopez := "Sarah Kim <kim@example.com>", "Sarah Lopez <lopez@example.com>"
		if len(q.Buttons) != 2 || q.Buttons[0].Label != kim || q.Buttons[1].Label != lopez {
			t.Fatalf("asked %q with %+v; want Which Sarah? [%s] [%s]", q.Text, q.Buttons, kim, lopez)
		}
		mustContain(t, q, "Which Sarah")
		draft := c.click(q, lopez)
		c.click(draft, "Approve")
		sent, _ := app.Store.FindEmails(context.Background(), c.contact().User.ID, hearth.EmailSent, 10)
		if len(sent) != 1 || len(sent[0].To) != 1 || sent[0].To[0] != lopez {
			t.Fatalf("sent %+v; want one email to Sarah Lopez", sent)
		}
	})

	t.Run("an email to someone without a known address asks for it, once", func(t *testing.T) {
		c := newChatter(t, base, app, "Uma", "UTC")
		q := c.say("Email Priya that the meeting moved to 3pm")
		mustContain(t, q, "email address for Priya")
		if n := c.actions(); n != 0 {
			t.Fatalf("%d actions before the address is known", n)
		}
		draft := c.say("priya@example.com")
		mustContain(t, draft, "Priya <priya@example.com>")
		c.click(draft, "Approve")
		sent, _ := app.Store.FindEmails(context.Background(), c.contact().User.ID, hearth.EmailSent, 10)
		if len(sent) != 1 || sent[0].To[0] != "Priya <priya@example.com>" {
			t.Fatalf("sent %+v", sent)
		}
		// Remembered: the next email to Priya needs no question.
		again := c.say("Email Priya that I'm on my way")
		if len(again.Buttons) < 2 {
			t.Fatalf("asked again: %+v", again)
		}
	})

	t.Run("a code from /link joins a second chat to the same person", func(t *testing.T) {
		laptop := newChatter(t, base, app, "Nia", "Europe/Paris")
		laptop.say("Remind me to renew the passport tomorrow")
		codeReply := laptop.say("/link")
		code := ""
		for _, f := range strings.Fields(codeReply.Text) {
			if c := hearth.NormaliseCode(strings.Trim(f, ".,")); c != "" && strings.Contains(f, "-") {
				code = strings.Trim(f, ".,")
			}
		}
		if code == "" {
			t.Fatalf("no code in %q", codeReply.Text)
		}
		phone := newChatter(t, base, app, "Nia phone", "Europe/Paris")
		mustContain(t, phone.say(strings.ToLower(code)), "Linked")
		mustContain(t, phone.say("What do I need to do?"), "renew the passport")
		mustContain(t, phone.say(code), "isn't valid")
		if phone.contact().User.ID != laptop.contact().User.ID {
			t.Fatal("the two chats are still two users")
		}
	})

	t.Run("yes answers the bot's question", func(t *testing.T) {
		c := newChatter(t, base, app, "Gil", "UTC")
		c.say("Remember that Tom's email is tom@example.com")
		r := c.say("Email Tom that the meeting moved to 3pm")
		if len(r.Buttons) < 2 {
			t.Fatalf("no approval asked: %+v", r)
		}
		c.say("yes")
		sent, _ := app.Store.FindEmails(context.Background(), c.contact().User.ID, hearth.EmailSent, 10)
		if len(sent) != 1 {
			t.Fatalf("yes did not approve: %d sent", len(sent))
		}
	})

	t.Run("calendar questions answer with the data", func(t *testing.T) {
		c := newChatter(t, base, app, "Hal", "UTC")
		empty := c.say("What's on my calendar tomorrow?")
		if c.actions() != 0 || empty.Text == "" {
			t.Fatalf("empty calendar: %q", empty.Text)
		}
		c.say("Add dentist appointment tomorrow at 9am to my calendar")
		full := c.say("What's on my calendar tomorrow?")
		mustContain(t, full, "dentist")
	})

	t.Run("saying it is done completes the open task it names, and only that", func(t *testing.T) {
		c := newChatter(t, base, app, "Rowan", "UTC")
		c.say("Remind me to pay the rent on Friday")
		if ts := c.tasks(); len(ts) != 1 || ts[0].Status != hearth.TaskOpen {
			t.Fatalf("tasks %+v", ts)
		}
		lunch := c.say("I paid for lunch")
		if ts := c.tasks(); len(ts) != 1 || ts[0].Status != hearth.TaskOpen {
			t.Fatalf("after %q (%q): tasks %+v; want the rent still open", "I paid for lunch", lunch.Text, ts)
		}
		r := c.say("I paid the rent")
		if ts := c.tasks(); len(ts) != 1 || ts[0].Status != hearth.TaskDone {
			t.Fatalf("after %q: tasks %+v; want the rent done", r.Text, ts)
		}
		mustContain(t, r, "rent")
	})

	t.Run("moving a task changes when it is due, it makes no new task", func(t *testing.T) {
		c := newChatter(t, base, app, "Uli", "UTC")
		c.say("Remind me to pay the rent on Friday")
		r := c.say("Move the rent task to Saturday")
		ts := c.tasks()
		if len(ts) != 1 || ts[0].Due.Weekday() != time.Saturday || !ts[0].AllDay {
			t.Fatalf("after %q: tasks %+v; want the rent due on Saturday", r.Text, ts)
		}
	})

	t.Run("a note is found by what it says", func(t *testing.T) {
		c := newChatter(t, base, app, "Sage", "UTC")
		c.say("Make a note: the boiler was serviced in May, next check in November")
		c.say("Add milk to my shopping list")
		r := c.say("What did I write about the boiler?")
		mustContain(t, r, "serviced in May")
	})

	t.Run("what was written is found as a note or as a remembered fact", func(t *testing.T) {
		c := newChatter(t, base, app, "Noor", "UTC")
		// "note: …" is remembered as a fact, without the "note:".
		mustContain(t, c.say("note: the shed key is under the blue pot"), "shed key is under the blue pot")
		c.say("take a note: call the plumber about the leak")
		r := c.say("What did I write about the shed?")
		mustContain(t, r, "under the blue pot")
		if strings.Contains(strings.ToLower(r.Text), "note:") {
			t.Fatalf("the fact kept its 'note:' prefix: %q", r.Text)
		}
		// Asked like a fact, written as a note.
		mustContain(t, c.say("What did I write about the plumber?"), "plumber about the leak")
		// However the note is asked for, it says what followed.
		mustContain(t, c.say("add a note saying renew the parking permit"), "saved a note", "renew the parking permit")
		mustContain(t, c.say("write a note: bring snacks on friday"), "saved a note", "bring snacks on friday")
	})

	t.Run("moving an event to a time keeps its date", func(t *testing.T) {
		c := newChatter(t, base, app, "Tam", "UTC")
		c.say("Add dentist appointment tomorrow at 10am to my calendar")
		r := c.say("Move my dentist appointment tomorrow to 4pm")
		now := time.Now().UTC()
		evs, err := app.Store.FindEvents(context.Background(), hearth.CalendarEventFilter{UserID: c.contact().User.ID, From: now.AddDate(0, 0, -1), To: now.AddDate(0, 0, 3)})
		if err != nil || len(evs) != 1 {
			t.Fatalf("events %+v, %v", evs, err)
		}
		want := time.Date(now.Year(), now.Month(), now.Day()+1, 16, 0, 0, 0, time.UTC)
		if !evs[0].Start.Equal(want) {
			t.Fatalf("after %q the event starts %v; want %v", r.Text, evs[0].Start.UTC(), want)
		}
		// Without the date, the event is found all the same, wherever the
		// new time falls.
		r = c.say("Push the dentist appointment to 3pm")
		evs, err = app.Store.FindEvents(context.Background(), hearth.CalendarEventFilter{UserID: c.contact().User.ID, From: now.AddDate(0, 0, -1), To: now.AddDate(0, 0, 3)})
		if err != nil || len(evs) != 1 {
			t.Fatalf("events %+v, %v", evs, err)
		}
		want = time.Date(now.Year(), now.Month(), now.Day()+1, 15, 0, 0, 0, time.UTC)
		if !evs[0].Start.Equal(want) {
			t.Fatalf("after %q the event starts %v; want %v", r.Text, evs[0].Start.UTC(), want)
		}
	})

	t.Run("an ambiguous request asks which one, and the answer acts", func(t *testing.T) {
		c := newChatter(t, base, app, "Ivy", "UTC")
		c.say("Remind me to call mom tomorrow")
		c.say("Remind me to call dad tomorrow")
		c.say("Remind me to call grandma tomorrow")
		q := c.say("I finished the call")
		if len(q.Buttons) != 3 {
			t.Fatalf("no options offered: %+v", q)
		}
		picked := c.say("the first one")
		open := 0
		for _, task := range c.tasks() {
			if task.Status == hearth.TaskOpen {
				open++
			}
		}
		if open != 2 {
			t.Fatalf("after %q: %d open tasks; want one of three completed", picked.Text, open)
		}
		// Asked again, only the open two are offered; a click picks one.
		q2 := c.say("I finished the call")
		if len(q2.Buttons) != 2 || q2.Buttons[0].Label == q.Buttons[0].Label {
			t.Fatalf("options after one was completed: %+v", q2.Buttons)
		}
		c.click(q2, q2.Buttons[0].Label)
		open = 0
		for _, task := range c.tasks() {
			if task.Status == hearth.TaskOpen {
				open++
			}
		}
		if open != 1 {
			t.Fatalf("%d tasks open after clicking an option; want 1", open)
		}
	})
}

// Every turn leaves a trace, and `bot turns tail` shows it.
func TestTurnsTail(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Tess", "UTC")
	c.say("Hey, how's it going?")
	c.say("Remind me to call mom tomorrow at 5pm")
	var out strings.Builder
	if err := TurnsTail(context.Background(), app.Config, 5, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("turns tail printed %d lines; want 2:\n%s", len(lines), out.String())
	}
	for _, want := range []string{"intent=chat", "model_calls=0 tokens=0/0", "total="} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("first trace %q lacks %q", lines[0], want)
		}
	}
	for _, want := range []string{"intent=request_action[task]", "task.create:done", "action="} {
		if !strings.Contains(lines[1], want) {
			t.Errorf("second trace %q lacks %q", lines[1], want)
		}
	}
	if _, err := tailCount([]string{"-n", "0"}); err == nil {
		t.Error("tail -n 0 must be refused")
	}
}
