package smtp_test

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"mime"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/integrations/smtp"
	"github.com/hearthbot/hearth/integrations/smtp/smtptest"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

type testBundle struct {
	st     *store.Store
	fake   *smtptest.Server
	mailer *smtp.Mailer
	user   int64
}

func setup(t *testing.T, mode smtptest.Mode) *testBundle {
	t.Helper()
	st, _ := storetest.Open(t)
	fake := smtptest.NewServer(t, mode)
	m, err := smtp.New(smtp.Config{URL: fake.URL, From: "Zoë Hearth <zoe@example.com>", TLS: &tls.Config{RootCAs: fake.RootCAs}, Timeout: 10 * time.Second}, st)
	if err != nil {
		t.Fatal(err)
	}
	c, err := st.SignIn(context.Background(), hearth.ChannelWebchat, "zoe", "Zoë", "zoe", "UTC")
	if err != nil {
		t.Fatal(err)
	}
	return &testBundle{st: st, fake: fake, mailer: m, user: c.User.ID}
}

func (b *testBundle) draft(t *testing.T, to ...string) hearth.Email {
	t.Helper()
	d, err := b.mailer.CreateDraft(context.Background(), "", hearth.Email{UserID: b.user, To: to, Subject: "Café à 5 — ça va? ✓", Body: "Hi Sarah,\n\nSee you at the café at five. Ünïcödé body.\n\n— Zoë"})
	if err != nil {
		t.Fatal(err)
	}
	if d.Via != hearth.ViaSMTP {
		t.Fatalf("draft via %q; want smtp", d.Via)
	}
	return d
}

func TestSendOnceOverTLS(t *testing.T) {
	t.Parallel()
	for _, mode := range []struct {
		name string
		mode smtptest.Mode
	}{{"starttls", smtptest.StartTLS}, {"implicit tls", smtptest.ImplicitTLS}} {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			b := setup(t, mode.mode)
			ctx := context.Background()
			d := b.draft(t, "Sarah Kim <sarah@example.com>")
			sent, err := b.mailer.SendEmail(ctx, b.user, d.ID)
			if err != nil {
				t.Fatal(err)
			}
			if sent.Status != hearth.EmailSent || sent.Via != hearth.ViaSMTP || sent.MessageID == "" {
				t.Fatalf("sent = %+v", sent)
			}
			again, err := b.mailer.SendEmail(ctx, b.user, d.ID)
			if err != nil || again.SentAt != sent.SentAt {
				t.Fatalf("second send = %+v, %v", again, err)
			}
			msgs := b.fake.Messages()
			if len(msgs) != 1 {
				t.Fatalf("%d messages; want exactly 1", len(msgs))
			}
			got := msgs[0]
			if !got.TLS || got.User != smtptest.Username || got.From != "zoe@example.com" || len(got.To) != 1 || got.To[0] != "sarah@example.com" {
				t.Fatalf("envelope %+v; want over TLS, authenticated, zoe → sarah", got)
			}
			checkMessage(t, got.Data, sent)
		})
	}
}

// checkMessage parses the message as RFC 5322: headers ASCII only, with
// the UTF-8 ones as MIME words that decode back to what was written.
func checkMessage(t *testing.T, data []byte, sent hearth.Email) {
	t.Helper()
	head, _, _ := strings.Cut(string(data), "\r\n\r\n")
	for _, r := range head {
		if r > 127 {
			t.Fatalf("raw 8-bit byte in the headers:\n%s", head)
		}
	}
	msg, err := mail.ReadMessage(strings.NewReader(string(data)))
	if err != nil {
		t.Fatalf("not RFC 5322: %v\n%s", err, data)
	}
	dec := new(mime.WordDecoder)
	subject, err := dec.DecodeHeader(msg.Header.Get("Subject"))
	if err != nil || subject != "Café à 5 — ça va? ✓" {
		t.Fatalf("subject %q (%v)", subject, err)
	}
	from, err := msg.Header.AddressList("From")
	if err != nil || len(from) != 1 || from[0].Name != "Zoë Hearth" || from[0].Address != "zoe@example.com" {
		t.Fatalf("from %+v (%v)", from, err)
	}
	to, err := msg.Header.AddressList("To")
	if err != nil || len(to) != 1 || to[0].Address != "sarah@example.com" {
		t.Fatalf("to %+v (%v)", to, err)
	}
	if id := msg.Header.Get("Message-Id"); id != "<"+sent.MessageID+">" {
		t.Fatalf("Message-ID %q; want <%s>", id, sent.MessageID)
	}
	if _, err := msg.Header.Date(); err != nil {
		t.Fatalf("date: %v", err)
	}
	if ct := msg.Header.Get("Content-Type"); !strings.Contains(strings.ToLower(ct), "text/plain") || !strings.Contains(strings.ToLower(ct), "utf-8") {
		t.Fatalf("content type %q", ct)
	}
	body, _ := io.ReadAll(msg.Body)
	if !strings.Contains(string(body), "caf=C3=A9") && !strings.Contains(string(body), "café") {
		t.Fatalf("body %q does not carry the text", body)
	}
}

func TestSendRefusedOrUncertain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	t.Run("a server without STARTTLS gets nothing", func(t *testing.T) {
		t.Parallel()
		b := setup(t, smtptest.Plaintext)
		d := b.draft(t, "sarah@example.com")
		_, err := b.mailer.SendEmail(ctx, b.user, d.ID)
		if !errors.Is(err, hearth.ErrUnavailable) {
			t.Fatalf("err = %v; want unavailable", err)
		}
		if n := len(b.fake.Messages()); n != 0 {
			t.Fatalf("%d messages over plain text", n)
		}
		if drafts, _ := b.st.FindEmails(ctx, b.user, hearth.EmailDraft, 0); len(drafts) != 1 {
			t.Fatal("the draft is gone")
		}
	})

	t.Run("a refusal releases the draft and the retry sends once", func(t *testing.T) {
		t.Parallel()
		b := setup(t, smtptest.StartTLS)
		d := b.draft(t, "sarah@example.com")
		b.fake.RefuseNext()
		if _, err := b.mailer.SendEmail(ctx, b.user, d.ID); !errors.Is(err, hearth.ErrUnavailable) {
			t.Fatalf("refused send: %v; want unavailable", err)
		}
		if _, err := b.mailer.SendEmail(ctx, b.user, d.ID); err != nil {
			t.Fatalf("retry: %v", err)
		}
		if n := len(b.fake.Messages()); n != 1 {
			t.Fatalf("%d messages; want 1", n)
		}
	})

	t.Run("a name that is not an address is refused before dialling", func(t *testing.T) {
		t.Parallel()
		b := setup(t, smtptest.StartTLS)
		d := b.draft(t, "Sarah")
		_, err := b.mailer.SendEmail(ctx, b.user, d.ID)
		if !errors.Is(err, hearth.ErrInvalid) || !strings.Contains(hearth.ErrorMessage(err), "email address for Sarah") {
			t.Fatalf("err = %v; want invalid, naming Sarah", err)
		}
		// Released: it could be sent once the address is fixed.
		if _, claimed, err := b.st.ClaimSend(ctx, b.user, d.ID); err != nil || !claimed {
			t.Fatalf("claim after the refusal: %v, %v", claimed, err)
		}
	})

	t.Run("a send interrupted by a crash is never repeated", func(t *testing.T) {
		t.Parallel()
		b := setup(t, smtptest.StartTLS)
		d := b.draft(t, "sarah@example.com")
		// The process claimed it and died mid-conversation.
		if _, _, err := b.st.ClaimSend(ctx, b.user, d.ID); err != nil {
			t.Fatal(err)
		}
		_, err := b.mailer.SendEmail(ctx, b.user, d.ID)
		if !errors.Is(err, hearth.ErrInvalid) || !strings.Contains(hearth.ErrorMessage(err), "check your sent mail") {
			t.Fatalf("err = %v; want an honest refusal", err)
		}
		if n := len(b.fake.Messages()); n != 0 {
			t.Fatalf("%d messages; the uncertain send was repeated", n)
		}
	})
}

// engineBundle is the approval engine over the SMTP provider, with one
// email awaiting approval.
type engineBundle struct {
	e      *action.Engine
	userID int64
	rec    action.Record
}

func setupEngine(t *testing.T, b *testBundle) engineBundle {
	t.Helper()
	ctx := context.Background()
	e := action.NewEngine(b.st, &action.Executor{Tasks: b.st, Calendar: b.st, Notes: b.st, Mail: b.mailer, Memories: b.st}, nil)
	workers := river.NewWorkers()
	river.AddWorker(workers, action.NewWorker(e))
	client, err := river.NewClient(riverpgxv5.New(b.st.Pool()), &river.Config{Workers: workers, TestOnly: true, SkipUnknownJobCheck: true})
	if err != nil {
		t.Fatal(err)
	}
	e.Client = client
	r, err := pipeline.NewInbox(b.st, client, nil).Accept(ctx, hearth.Inbound{
		Channel: hearth.ChannelWebchat, ExternalID: "m1", ConversationKey: "zoe", UserKey: "zoe",
		UserName: "Zoë", Timezone: "UTC", Kind: hearth.KindMessage, Text: "email sarah",
	})
	if err != nil {
		t.Fatal(err)
	}
	send, err := action.New(action.EmailSend, action.EmailArgs{To: []string{"sarah@example.com"}, Subject: "Late", Body: "I'll be late."})
	if err != nil {
		t.Fatal(err)
	}
	recs, err := e.Run(ctx, action.Turn{EventID: r.EventID, ConversationID: r.ConversationID, UserID: r.UserID}, []action.Action{send})
	if err != nil || len(recs) != 1 || recs[0].State != action.StateAwaitingApproval {
		t.Fatalf("run: %+v, %v", recs, err)
	}
	return engineBundle{e: e, userID: r.UserID, rec: recs[0]}
}

// TestRetryAfterRefusal: a send the server refused can be tried again,
// with the approved payload, once per "Try again", whatever the clicks;
// a send whose fate is unknown cannot.
func TestRetryAfterRefusal(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t.Run("refused, then tried again: exactly one message", func(t *testing.T) {
		t.Parallel()
		b := setup(t, smtptest.StartTLS)
		eb := setupEngine(t, b)
		b.fake.RefuseNext()
		ap, rec, err := eb.e.Decide(ctx, eb.rec.ApprovalID, eb.userID, true)
		if err != nil || rec.State != action.StateFailed || ap.State != action.ApprovalFailed || !ap.Retryable || ap.Retries != 0 {
			t.Fatalf("refused send: %+v %+v %v; want a failed, retryable approval", ap, rec, err)
		}
		if n := len(b.fake.Messages()); n != 0 {
			t.Fatalf("%d messages after the refusal", n)
		}
		// "Try again" clicked five times at once: one try, one message.
		var wg sync.WaitGroup
		var mu sync.Mutex
		wins, refused := 0, 0
		for range 5 {
			wg.Go(func() {
				_, rec, err := eb.e.Retry(ctx, ap.ID, eb.userID, 1)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil && rec.State == action.StateDone:
					wins++
				case errors.Is(err, action.ErrNotRetryable):
					refused++
				}
			})
		}
		wg.Wait()
		if wins != 1 || refused != 4 {
			t.Fatalf("%d tries went through, %d refused; want 1 and 4", wins, refused)
		}
		// The same button later, a forged next one, another user: nothing.
		for _, try := range []int{1, 2} {
			if _, _, err := eb.e.Retry(ctx, ap.ID, eb.userID, try); !errors.Is(err, action.ErrNotRetryable) {
				t.Fatalf("try %d after success: %v; want ErrNotRetryable", try, err)
			}
		}
		if _, _, err := eb.e.Retry(ctx, ap.ID, eb.userID+1000, 2); !errors.Is(err, action.ErrNotYours) {
			t.Fatalf("another user's try: %v", err)
		}
		// The backstop job of the try finds it done.
		if err := action.NewWorker(eb.e).Work(ctx, &river.Job[action.ActionArgs]{Args: action.ActionArgs{ActionID: eb.rec.ID, Try: 1}}); err != nil {
			t.Fatal(err)
		}
		msgs := b.fake.Messages()
		if len(msgs) != 1 || !strings.Contains(string(msgs[0].Data), "I'll be late.") || msgs[0].To[0] != "sarah@example.com" {
			t.Fatalf("%d messages; want exactly the approved one", len(msgs))
		}
	})
	t.Run("refused twice: each try has its own button", func(t *testing.T) {
		t.Parallel()
		b := setup(t, smtptest.StartTLS)
		eb := setupEngine(t, b)
		b.fake.RefuseNext()
		b.fake.RefuseNext()
		ap, _, err := eb.e.Decide(ctx, eb.rec.ApprovalID, eb.userID, true)
		if err != nil || !ap.Retryable {
			t.Fatalf("decide: %+v %v", ap, err)
		}
		ap, rec, err := eb.e.Retry(ctx, ap.ID, eb.userID, 1)
		if err != nil || rec.State != action.StateFailed || !ap.Retryable || ap.Retries != 1 {
			t.Fatalf("first try again, refused: %+v %+v %v", ap, rec, err)
		}
		if _, _, err := eb.e.Retry(ctx, ap.ID, eb.userID, 1); !errors.Is(err, action.ErrNotRetryable) {
			t.Fatalf("the first try's button again: %v", err)
		}
		if _, rec, err := eb.e.Retry(ctx, ap.ID, eb.userID, 2); err != nil || rec.State != action.StateDone {
			t.Fatalf("second try again: %+v %v", rec, err)
		}
		if n := len(b.fake.Messages()); n != 1 {
			t.Fatalf("%d messages; want 1", n)
		}
	})
	t.Run("a send whose fate is unknown is never tried again", func(t *testing.T) {
		t.Parallel()
		b := setup(t, smtptest.StartTLS)
		eb := setupEngine(t, b)
		d, err := b.st.CreateDraft(ctx, eb.rec.Key(), hearth.Email{UserID: eb.userID, To: []string{"sarah@example.com"}, Subject: "Late", Body: "I'll be late."})
		if err != nil {
			t.Fatal(err)
		}
		// A process claimed the send and died mid-conversation.
		if _, _, err := b.st.ClaimSend(ctx, eb.userID, d.ID); err != nil {
			t.Fatal(err)
		}
		ap, rec, err := eb.e.Decide(ctx, eb.rec.ApprovalID, eb.userID, true)
		if err != nil || rec.State != action.StateFailed || ap.Retryable || !strings.Contains(rec.Error, "sent mail") {
			t.Fatalf("uncertain send: %+v %+v %v; want failed, not retryable, saying to check", ap, rec, err)
		}
		if _, _, err := eb.e.Retry(ctx, ap.ID, eb.userID, 1); !errors.Is(err, action.ErrNotRetryable) {
			t.Fatalf("try again of an uncertain send: %v", err)
		}
		if n := len(b.fake.Messages()); n != 0 {
			t.Fatalf("%d messages; the uncertain send was repeated", n)
		}
	})
}

// TestApprovedOnceWhateverTheClicks drives the approval engine: many
// Approve clicks at once, then the backstop job a restart would run,
// transmit exactly one message.
func TestApprovedOnceWhateverTheClicks(t *testing.T) {
	t.Parallel()
	b := setup(t, smtptest.ImplicitTLS)
	ctx := context.Background()
	eb := setupEngine(t, b)
	e, r, recs := eb.e, struct{ UserID int64 }{eb.userID}, []action.Record{eb.rec}
	if n := len(b.fake.Messages()); n != 0 {
		t.Fatalf("%d messages before approval", n)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := 0
	for range 5 {
		wg.Go(func() {
			_, rec, err := e.Decide(ctx, recs[0].ApprovalID, r.UserID, true)
			if err == nil && rec.State == action.StateDone {
				mu.Lock()
				wins++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if wins != 1 {
		t.Fatalf("%d clicks won; want 1", wins)
	}
	// After a restart the backstop job runs, and finds it done.
	job := &river.Job[action.ActionArgs]{Args: action.ActionArgs{ActionID: recs[0].ID}}
	if err := action.NewWorker(e).Work(ctx, job); err != nil {
		t.Fatal(err)
	}
	msgs := b.fake.Messages()
	if len(msgs) != 1 || !strings.Contains(string(msgs[0].Data), "I'll be late.") {
		t.Fatalf("%d messages; want exactly the approved one", len(msgs))
	}
}
