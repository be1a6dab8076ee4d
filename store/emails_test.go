package store_test

import (
	"reflect"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/store/storetest"
)

func subjects(es []hearth.Email) []string {
	return titles(es, func(e hearth.Email) string { return e.Subject })
}

func TestEmails(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)

	t.Run("drafts are created once and sent once", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		draft, err := b.st.CreateDraft(b.ctx, "turn:6:0", hearth.Email{UserID: b.alice, To: []string{" sam@example.com "},
			Subject: "Dinner", Body: "Friday at 8?", InReplyTo: 77, Status: hearth.EmailSent})
		if err != nil {
			t.Fatal(err)
		}
		if draft.Status != hearth.EmailDraft || !draft.SentAt.IsZero() || !reflect.DeepEqual(draft.To, []string{"sam@example.com"}) || draft.InReplyTo != 77 {
			t.Fatalf("draft = %+v; want a draft (status ignored) to sam, in reply to 77", draft)
		}
		again, err := b.st.CreateDraft(b.ctx, "turn:6:0", hearth.Email{UserID: b.alice, To: []string{"x@example.com"}, Subject: "x"})
		if err != nil || !reflect.DeepEqual(again, draft) {
			t.Fatalf("second create = %+v, %v; want %+v", again, err, draft)
		}

		sent, err := b.st.SendEmail(b.ctx, b.alice, draft.ID)
		if err != nil {
			t.Fatal(err)
		}
		if sent.Status != hearth.EmailSent || sent.SentAt.IsZero() || sent.Body != draft.Body || sent.Via != hearth.ViaOutbox {
			t.Fatalf("sent = %+v; want status sent with a time", sent)
		}
		resent, err := b.st.SendEmail(b.ctx, b.alice, draft.ID)
		if err != nil || !reflect.DeepEqual(resent, sent) {
			t.Fatalf("second send = %+v, %v; want %+v unchanged", resent, err, sent)
		}

		_, err = b.st.SendEmail(b.ctx, b.bob, draft.ID)
		wantNotFound(t, "send by another user", err)
		_, err = b.st.DeleteDraft(b.ctx, b.alice, draft.ID)
		wantInvalid(t, err)
		if got, _ := b.st.FindEmails(b.ctx, b.alice, hearth.EmailSent, 0); len(got) != 1 || !reflect.DeepEqual(got[0], sent) {
			t.Fatalf("after refusing to delete a sent email: %+v; want %+v", got, sent)
		}
	})

	t.Run("a transmission is claimed once, finished once, and never retried blindly", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		draft, err := b.st.CreateDraft(b.ctx, "", hearth.Email{UserID: b.alice, To: []string{"sam@example.com"}, Subject: "Hi"})
		if err != nil {
			t.Fatal(err)
		}
		if draft.Via != hearth.ViaOutbox {
			t.Fatalf("a draft in the store goes via %q; want the outbox", draft.Via)
		}
		_, _, err = b.st.ClaimSend(b.ctx, b.bob, draft.ID)
		wantNotFound(t, "claim by another user", err)
		if _, claimed, err := b.st.ClaimSend(b.ctx, b.alice, draft.ID); err != nil || !claimed {
			t.Fatalf("first claim: %v, %v", claimed, err)
		}
		// Refused by the server: released, and the next attempt may claim.
		if err := b.st.ReleaseSend(b.ctx, b.alice, draft.ID); err != nil {
			t.Fatal(err)
		}
		if _, claimed, err := b.st.ClaimSend(b.ctx, b.alice, draft.ID); err != nil || !claimed {
			t.Fatalf("claim after release: %v, %v", claimed, err)
		}
		// A second claim while the first is unfinished: it may have gone.
		_, _, err = b.st.ClaimSend(b.ctx, b.alice, draft.ID)
		wantInvalid(t, err)
		sent, err := b.st.FinishSend(b.ctx, b.alice, draft.ID, hearth.ViaSMTP, "abc@example.com")
		if err != nil || sent.Status != hearth.EmailSent || sent.Via != hearth.ViaSMTP || sent.MessageID != "abc@example.com" || sent.SentAt.IsZero() {
			t.Fatalf("finish = %+v, %v", sent, err)
		}
		again, err := b.st.FinishSend(b.ctx, b.alice, draft.ID, hearth.ViaSMTP, "other@example.com")
		if err != nil || !reflect.DeepEqual(again, sent) {
			t.Fatalf("second finish = %+v, %v; want %+v", again, err, sent)
		}
		if e, claimed, err := b.st.ClaimSend(b.ctx, b.alice, draft.ID); err != nil || claimed || !reflect.DeepEqual(e, sent) {
			t.Fatalf("claim of a sent email = %+v, %v, %v; want it unclaimed and unchanged", e, claimed, err)
		}
	})

	t.Run("deleted drafts cannot be sent, and come back", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		draft, err := b.st.CreateDraft(b.ctx, "", hearth.Email{UserID: b.alice, To: []string{"sam@example.com"}, Subject: "Oops"})
		if err != nil {
			t.Fatal(err)
		}
		_, err = b.st.DeleteDraft(b.ctx, b.bob, draft.ID)
		wantNotFound(t, "delete by another user", err)
		deleted, err := b.st.DeleteDraft(b.ctx, b.alice, draft.ID)
		if err != nil || !reflect.DeepEqual(deleted, draft) {
			t.Fatalf("delete = %+v, %v; want %+v", deleted, err, draft)
		}
		_, err = b.st.SendEmail(b.ctx, b.alice, draft.ID)
		wantNotFound(t, "send a deleted draft", err)
		_, err = b.st.DeleteDraft(b.ctx, b.alice, draft.ID)
		wantNotFound(t, "delete twice", err)
		if got, _ := b.st.FindEmails(b.ctx, b.alice, "", 0); len(got) != 0 {
			t.Fatalf("deleted draft still found: %v", subjects(got))
		}
		wantNotFound(t, "restore by another user", b.st.RestoreDraft(b.ctx, b.bob, draft.ID))
		if err := b.st.RestoreDraft(b.ctx, b.alice, draft.ID); err != nil {
			t.Fatal(err)
		}
		if got, _ := b.st.FindEmails(b.ctx, b.alice, hearth.EmailDraft, 0); len(got) != 1 || !reflect.DeepEqual(got[0], draft) {
			t.Fatalf("restored = %+v; want %+v", got, draft)
		}
	})

	t.Run("bad input is refused and nothing is written", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		for _, e := range []hearth.Email{
			{UserID: b.alice, To: nil, Subject: "Nobody"},
			{UserID: b.alice, To: []string{" "}, Subject: "Blank"},
			{UserID: b.alice, To: []string{"sam@example.com"}},
			{To: []string{"sam@example.com"}, Subject: "No user"},
		} {
			_, err := b.st.CreateDraft(b.ctx, "", e)
			wantInvalid(t, err)
		}
		if n := count(t, b, "emails", b.alice); n != 0 {
			t.Fatalf("%d emails written; want 0", n)
		}
		_, err := b.st.FindEmails(b.ctx, b.alice, "archived", 0)
		wantInvalid(t, err)
	})

	t.Run("find by status, newest first", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		ids := map[string]int64{}
		for _, s := range []string{"one", "two", "three", "four"} {
			e, err := b.st.CreateDraft(b.ctx, "", hearth.Email{UserID: b.alice, To: []string{"sam@example.com"}, Subject: s})
			if err != nil {
				t.Fatal(err)
			}
			ids[s] = e.ID
		}
		// Sent in another order than created: sent mail is listed by when
		// it was sent.
		for _, s := range []string{"three", "one"} {
			if _, err := b.st.SendEmail(b.ctx, b.alice, ids[s]); err != nil {
				t.Fatal(err)
			}
		}
		for _, tc := range []struct {
			status hearth.EmailStatus
			limit  int
			want   []string
		}{
			{hearth.EmailDraft, 0, []string{"four", "two"}},
			{hearth.EmailSent, 0, []string{"one", "three"}},
			{"", 0, []string{"one", "three", "four", "two"}},
			{"", 1, []string{"one"}},
		} {
			got, err := b.st.FindEmails(b.ctx, b.alice, tc.status, tc.limit)
			if err != nil {
				t.Fatal(err)
			}
			if names := subjects(got); !reflect.DeepEqual(names, tc.want) {
				t.Errorf("status %q limit %d: got %q; want %q", tc.status, tc.limit, names, tc.want)
			}
		}
		if got, _ := b.st.FindEmails(b.ctx, b.bob, "", 0); len(got) != 0 {
			t.Fatalf("bob sees alice's mail: %v", subjects(got))
		}
	})
}

func TestMailStyles(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	b := users(t, st)
	got, err := b.st.MailStyle(b.ctx, b.alice)
	if err != nil || got != (hearth.MailStyle{UserID: b.alice}) {
		t.Fatalf("unknown style = %+v, %v; want the zero style", got, err)
	}
	set, err := b.st.SetMailStyle(b.ctx, hearth.MailStyle{UserID: b.alice, Greeting: "Hey {name},", SignOff: "Cheers,", Length: 60, Formality: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.st.SetMailStyle(b.ctx, hearth.MailStyle{UserID: b.alice, Formality: 9}); err == nil {
		t.Fatal("formality 9 accepted")
	}
	got, err = b.st.MailStyle(b.ctx, b.alice)
	if err != nil || got != set {
		t.Fatalf("style = %+v, %v; want %+v", got, err, set)
	}
	if other, _ := b.st.MailStyle(b.ctx, b.bob); other.Greeting != "" {
		t.Fatalf("bob sees alice's style: %+v", other)
	}
}
