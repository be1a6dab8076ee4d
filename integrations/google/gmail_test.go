package google_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/integrations/builtin"
	"github.com/hearthbot/hearth/integrations/google"
)

// connectWith goes through consent asking for scopes.
func (b *testBundle) connectWith(t *testing.T, scopes ...string) {
	t.Helper()
	res, err := http.Get(b.g.ConnectURL(b.user.ID, scopes...))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("callback: %d %s", res.StatusCode, body)
	}
}

func (b *testBundle) mail() *google.Mail {
	return b.g.Mail(b.st, builtin.New(b.st).Mail)
}

func TestGmailDraftEditApproveSendsOnce(t *testing.T) {
	t.Parallel()
	b := setup(t, "Europe/London")
	b.connectWith(t, google.GmailScopes...)
	m, ctx := b.mail(), context.Background()
	first, err := m.CreateDraft(ctx, "turn1:0", hearth.Email{UserID: b.user.ID, To: []string{"Zoë Brontë <zoe@example.org>"}, Subject: "Café on Thursday ☕", Body: "Hi Zoë,\n\nThursday at ten?\n\nBest,\nAnn"})
	if err != nil {
		t.Fatal(err)
	}
	if first.Via != hearth.ViaGmail {
		t.Fatalf("draft via %q, want gmail", first.Via)
	}
	// The same key again (a retried action) makes no second Gmail draft.
	if again, err := m.CreateDraft(ctx, "turn1:0", hearth.Email{UserID: b.user.ID, To: []string{"zoe@example.org"}, Subject: "x", Body: "x"}); err != nil || again.ID != first.ID {
		t.Fatalf("retried create: %+v %v", again, err)
	}
	ds := b.fake.Drafts(email)
	if len(ds) != 1 || ds[0].Subject != "Café on Thursday ☕" || !strings.Contains(ds[0].Body, "Thursday at ten?") {
		t.Fatalf("gmail drafts %+v", ds)
	}
	// Edit: the approval for the first draft is cancelled (its draft
	// discarded) and the edited one drafted for a new approval.
	if _, err := m.DeleteDraft(ctx, b.user.ID, first.ID); err != nil {
		t.Fatal(err)
	}
	edited, err := m.CreateDraft(ctx, "turn2:0", hearth.Email{UserID: b.user.ID, To: []string{"Zoë Brontë <zoe@example.org>"}, Subject: "Café on Thursday ☕", Body: "Hi Zoë,\n\nFriday at ten?\n\nBest,\nAnn"})
	if err != nil {
		t.Fatal(err)
	}
	if ds := b.fake.Drafts(email); len(ds) != 1 || !strings.Contains(ds[0].Body, "Friday at ten?") {
		t.Fatalf("after the edit, gmail drafts %+v", ds)
	}
	// The edit updated the Gmail draft: one drafts.create, one drafts.update.
	if c, u := b.fake.Count("POST /gmail/v1/users/me/drafts"), b.fake.Count("PUT /gmail/v1/users/me/drafts/{id}"); c != 1 || u != 1 {
		t.Fatalf("drafts.create %d, drafts.update %d; want 1 and 1", c, u)
	}
	// The discard job finds the Gmail draft adopted and leaves it.
	if err := m.Discard(ctx, b.user.ID, first.ID); err != nil || len(b.fake.Drafts(email)) != 1 {
		t.Fatalf("discard after the edit: %v, %d drafts", err, len(b.fake.Drafts(email)))
	}
	// Approve, clicked twice at once, then retried after a "restart".
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range 3 {
		wg.Go(func() { _, errs[i] = m.SendEmail(ctx, b.user.ID, edited.ID) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	restarted := b.mail()
	sent, err := restarted.SendEmail(ctx, b.user.ID, edited.ID)
	if err != nil {
		t.Fatal(err)
	}
	if sent.Status != hearth.EmailSent || sent.Via != hearth.ViaGmail || sent.MessageID == "" {
		t.Fatalf("sent %+v", sent)
	}
	out := b.fake.Sent(email)
	if len(out) != 1 {
		t.Fatalf("%d messages sent, want exactly 1", len(out))
	}
	if !strings.Contains(out[0].Body, "Friday at ten?") || strings.Contains(out[0].Body, "Thursday") {
		t.Fatalf("sent body %q, want the edited one", out[0].Body)
	}
	if got := strings.Trim(out[0].Header.Get("Message-Id"), "<>"); got != sent.MessageID {
		t.Fatalf("Message-ID %q, recorded %q", got, sent.MessageID)
	}
	if len(b.fake.Drafts(email)) != 0 {
		t.Fatal("a Gmail draft is left after sending")
	}
	// UTF-8 headers are MIME words, and decode back.
	if raw := string(out[0].Raw); !strings.Contains(raw, "=?utf-8?") || strings.Contains(strings.SplitN(raw, "\r\n\r\n", 2)[0], "☕") {
		t.Fatalf("headers not encoded:\n%s", raw)
	}
	if out[0].Subject != "Café on Thursday ☕" {
		t.Fatalf("subject %q", out[0].Subject)
	}
	to, err := out[0].Header.AddressList("To")
	if err != nil || len(to) != 1 || to[0].Name != "Zoë Brontë" || to[0].Address != "zoe@example.org" {
		t.Fatalf("To %v %v", to, err)
	}
}

func TestGmailSendAfterCrashFindsTheSentMessage(t *testing.T) {
	t.Parallel()
	b := setup(t, "UTC")
	b.connectWith(t, google.GmailScopes...)
	m, ctx := b.mail(), context.Background()
	d, err := m.CreateDraft(ctx, "k:0", hearth.Email{UserID: b.user.ID, To: []string{"bob@example.org"}, Subject: "Hello", Body: "Hi"})
	if err != nil {
		t.Fatal(err)
	}
	// Gmail sent it, and the answer was lost (the process died): Gmail's
	// drafts.send then answers 500 to every retry of the transport.
	ds := b.fake.Drafts(email)
	b.fake.Fail(http.MethodPost, "/gmail/v1/users/me/drafts/send", http.StatusInternalServerError, 4)
	if _, err := m.SendEmail(ctx, b.user.ID, d.ID); !errors.Is(err, hearth.ErrUnavailable) {
		t.Fatalf("send during an outage: %v, want unavailable", err)
	}
	if len(b.fake.Sent(email)) != 0 || len(b.fake.Drafts(email)) != 1 || ds[0].ID != b.fake.Drafts(email)[0].ID {
		t.Fatal("the outage changed the draft")
	}
	// A send whose answer was lost: Gmail sent the draft, Hearth never
	// heard. The retry must record it, not send another.
	b.fake.SendDraft(email, ds[0].ID)
	sent, err := b.mail().SendEmail(ctx, b.user.ID, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	if sent.Status != hearth.EmailSent || len(b.fake.Sent(email)) != 1 {
		t.Fatalf("sent %+v, %d in Gmail", sent, len(b.fake.Sent(email)))
	}
}

func TestGmailReplyThreads(t *testing.T) {
	t.Parallel()
	b := setup(t, "UTC")
	b.connectWith(t, google.GmailScopes...)
	m, ctx := b.mail(), context.Background()
	if _, err := m.Poll(ctx, b.user.ID); err != nil { // the starting point
		t.Fatal(err)
	}
	b.fake.Deliver(email, "thread-sarah", "From: Sarah Lee <sarah@example.org>\r\nTo: "+email+"\r\nSubject: Dinner?\r\n"+
		"Message-ID: <s2@example.org>\r\nReferences: <s1@example.org>\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\n\r\nAre we still on for dinner?\r\n")
	got, err := m.Poll(ctx, b.user.ID)
	if err != nil || len(got) != 1 {
		t.Fatalf("poll: %+v %v", got, err)
	}
	last, err := b.st.FindInbox(ctx, hearth.InboxFilter{UserID: b.user.ID, From: "sarah", Limit: 1})
	if err != nil || len(last) != 1 {
		t.Fatalf("Sarah's last email: %+v %v", last, err)
	}
	d, err := m.CreateDraft(ctx, "r:0", hearth.Email{UserID: b.user.ID, To: []string{last[0].From}, Body: "sounds good", InReplyTo: last[0].ID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.SendEmail(ctx, b.user.ID, d.ID); err != nil {
		t.Fatal(err)
	}
	out := b.fake.Sent(email)
	if len(out) != 1 {
		t.Fatalf("%d sent", len(out))
	}
	h := out[0].Header
	if out[0].ThreadID != "thread-sarah" || h.Get("In-Reply-To") != "<s2@example.org>" ||
		h.Get("References") != "<s1@example.org> <s2@example.org>" || out[0].Subject != "Re: Dinner?" {
		t.Fatalf("reply: thread %q, In-Reply-To %q, References %q, Subject %q", out[0].ThreadID, h.Get("In-Reply-To"), h.Get("References"), out[0].Subject)
	}
}

func TestGmailWithoutScopeFallsBack(t *testing.T) {
	t.Parallel()
	b := setup(t, "UTC")
	b.connect(t) // calendar only
	m, ctx := b.mail(), context.Background()
	d, err := m.CreateDraft(ctx, "k:0", hearth.Email{UserID: b.user.ID, To: []string{"bob@example.org"}, Subject: "Hello", Body: "Hi"})
	if err != nil {
		t.Fatal(err)
	}
	sent, err := m.SendEmail(ctx, b.user.ID, d.ID)
	if err != nil || sent.Via != hearth.ViaOutbox {
		t.Fatalf("sent %+v %v, want the outbox", sent, err)
	}
	if b.fake.Count("POST /gmail/v1/users/me/drafts") != 0 || len(b.fake.Sent(email)) != 0 {
		t.Fatal("Gmail was used without its scope")
	}
}

func TestMessageIsRFC5322(t *testing.T) {
	t.Parallel()
	e := hearth.Email{ID: 7, To: []string{"José <jose@example.org>"}, Subject: "Ça va?\r\nBcc: evil@example.org", Body: "Línea uno\nline two =3D\n" + strings.Repeat("long ", 40)}
	raw, err := google.Message("ann@example.com", e, nil, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if msg.Header.Get("Bcc") != "" {
		t.Fatal("a header was injected through the subject")
	}
	subj, _ := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if subj != "Ça va? Bcc: evil@example.org" {
		t.Fatalf("subject %q", subj)
	}
	if _, err := google.Message("ann@example.com", hearth.Email{To: []string{"Sarah"}, Body: "x"}, nil, time.Now()); !errors.Is(err, hearth.ErrInvalid) {
		t.Fatalf("a name for an address: %v", err)
	}
}

func FuzzMessage(f *testing.F) {
	f.Add("Hello", "Hi there\nBye", "Zoë <zoe@example.org>")
	f.Add("Ünïcödé ☕ subject that is rather long indeed and keeps going on and on", "=\r\n.\r\n", "a@b.c")
	f.Fuzz(func(t *testing.T, subject, body, to string) {
		raw, err := google.Message("ann@example.com", hearth.Email{ID: 1, To: []string{to}, Subject: subject, Body: body}, nil, time.Unix(0, 0))
		if err != nil {
			return // not an address: refused
		}
		msg, err := mail.ReadMessage(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("not RFC 5322: %v\n%q", err, raw)
		}
		if len(msg.Header["Subject"]) != 1 || len(msg.Header["To"]) != 1 {
			t.Fatalf("headers %v", msg.Header)
		}
		if _, err := msg.Header.AddressList("To"); err != nil {
			t.Fatalf("To does not parse: %v", err)
		}
	})
}

func TestGmailCancelDeletesTheGmailDraft(t *testing.T) {
	t.Parallel()
	b := setup(t, "UTC")
	b.connectWith(t, google.GmailScopes...)
	m, ctx := b.mail(), context.Background()
	d, err := m.CreateDraft(ctx, "c:0", hearth.Email{UserID: b.user.ID, To: []string{"bob@example.org"}, Subject: "Hi", Body: "Hi"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.DeleteDraft(ctx, b.user.ID, d.ID); err != nil {
		t.Fatal(err)
	}
	if b.jobs(t, google.GmailDiscardArgs{}.Kind()) != 1 {
		t.Fatal("no discard job")
	}
	if err := m.Discard(ctx, b.user.ID, d.ID); err != nil {
		t.Fatal(err)
	}
	if ds := b.fake.Drafts(email); len(ds) != 0 {
		t.Fatalf("the cancelled draft is still in Gmail: %+v", ds)
	}
	if err := m.Discard(ctx, b.user.ID, d.ID); err != nil { // a retried job
		t.Fatal(err)
	}
}

// TestGmailRestoreDraft undoes a discard: brought back before the
// discard job runs, the draft keeps its Gmail draft (the job leaves it);
// after, it is made a Gmail draft again, and sending it goes through
// Gmail.
func TestGmailRestoreDraft(t *testing.T) {
	t.Parallel()
	b := setup(t, "UTC")
	b.connectWith(t, google.GmailScopes...)
	m, ctx := b.mail(), context.Background()
	d, err := m.CreateDraft(ctx, "r:0", hearth.Email{UserID: b.user.ID, To: []string{"bob@example.org"}, Subject: "Rota", Body: "Swap Tuesday?"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.DeleteDraft(ctx, b.user.ID, d.ID); err != nil {
		t.Fatal(err)
	}
	if err := m.RestoreDraft(ctx, b.user.ID, d.ID); err != nil {
		t.Fatal(err)
	}
	if err := m.Discard(ctx, b.user.ID, d.ID); err != nil { // the job, after the undo
		t.Fatal(err)
	}
	if ds := b.fake.Drafts(email); len(ds) != 1 || ds[0].Subject != "Rota" {
		t.Fatalf("gmail drafts after an undo within the window: %+v", ds)
	}

	// Discarded in Gmail before the undo.
	if _, err := m.DeleteDraft(ctx, b.user.ID, d.ID); err != nil {
		t.Fatal(err)
	}
	if err := m.Discard(ctx, b.user.ID, d.ID); err != nil {
		t.Fatal(err)
	}
	if ds := b.fake.Drafts(email); len(ds) != 0 {
		t.Fatalf("gmail drafts after the discard job: %+v", ds)
	}
	if err := m.RestoreDraft(ctx, b.user.ID, d.ID); err != nil {
		t.Fatal(err)
	}
	if ds := b.fake.Drafts(email); len(ds) != 1 || ds[0].Subject != "Rota" || !strings.Contains(ds[0].Body, "Swap Tuesday?") {
		t.Fatalf("gmail drafts after a late undo: %+v", ds)
	}
	sent, err := m.SendEmail(ctx, b.user.ID, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	if sent.Via != hearth.ViaGmail || len(b.fake.Sent(email)) != 1 {
		t.Fatalf("sent %+v, %d through Gmail; want the restored draft sent through Gmail", sent, len(b.fake.Sent(email)))
	}
}
