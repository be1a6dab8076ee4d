package google_test

import (
	"context"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/integrations/google"
)

func raw(from, subject, msgID, body string) string {
	return "From: " + from + "\r\nTo: " + email + "\r\nSubject: " + subject + "\r\nMessage-ID: <" + msgID + ">\r\n\r\n" + body + "\r\n"
}

func TestGmailPollPicksUpNewMailOnce(t *testing.T) {
	t.Parallel()
	b := setup(t, "UTC")
	b.connectWith(t, google.GmailScopes...)
	m, ctx := b.mail(), context.Background()
	b.fake.Deliver(email, "", raw("Old <old@example.org>", "Before", "o@x", "old news"))
	first, err := m.Poll(ctx, b.user.ID) // the first poll reads the latest inbox
	if err != nil || len(first) != 1 || first[0].Subject != "Before" {
		t.Fatalf("first poll %+v %v", first, err)
	}
	from, _ := b.st.GmailHistory(ctx, b.user.ID)
	b.fake.Deliver(email, "", raw("Bob Stone <bob@example.org>", "Lunch =?utf-8?q?caf=C3=A9?=", "b1@x", "Noon?"))
	b.fake.AddSent(email, raw(email, "Mine", "s1@x", "not inbox")) // sent mail is not new mail
	got, err := m.Poll(ctx, b.user.ID)
	if err != nil || len(got) != 1 {
		t.Fatalf("poll: %+v %v", got, err)
	}
	if g := got[0]; g.From != "bob@example.org" || g.FromName != "Bob Stone" || g.Subject != "Lunch café" || !g.Unread || g.MessageID != "<b1@x>" {
		t.Fatalf("message %+v", g)
	}
	if to, _ := b.st.GmailHistory(ctx, b.user.ID); to == from {
		t.Fatal("the history id did not move on")
	}
	// Polled again, and again with the history forgotten: nothing new.
	for range 2 {
		again, err := m.Poll(ctx, b.user.ID)
		if err != nil || len(again) != 0 {
			t.Fatalf("again: %+v %v", again, err)
		}
		b.fake.ExpireHistory(email)
	}
	all, _ := b.st.FindInbox(ctx, hearth.InboxFilter{UserID: b.user.ID})
	if len(all) != 2 {
		t.Fatalf("inbox %d messages, want 2", len(all))
	}
	if n := b.fake.Count("GET /gmail/v1/users/me/history"); n < 2 {
		t.Fatalf("history polled %d times", n)
	}
}

func TestStyleOf(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		bodies []string
		want   hearth.MailStyle
	}{
		{"casual", []string{"Hey Tom,\n\nSee you at 6!\n\nCheers,\nAnn", "Hey Mia,\nthanks for that.\nCheers,\nAnn\n\nOn Mon, Mia wrote:\n> Hi,\n> Best regards,"},
			hearth.MailStyle{Greeting: "Hey {name},", SignOff: "Cheers,", Length: 8, Formality: 2}},
		{"formal", []string{"Dear Mr Smith,\n\nPlease find the report attached.\n\nKind regards,\nAnn Lee", "Dear Ms Jones,\nThank you.\nKind regards,\nAnn Lee"},
			hearth.MailStyle{Greeting: "Dear {name},", SignOff: "Kind regards,", Length: 12, Formality: 4}},
		{"no greeting", []string{"ok\nAnn"}, hearth.MailStyle{Length: 2, Formality: 3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := google.StyleOf(c.bodies); got != c.want {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestGmailLearnsStyleWeekly(t *testing.T) {
	t.Parallel()
	b := setup(t, "UTC")
	b.connectWith(t, google.GmailScopes...)
	m, ctx := b.mail(), context.Background()
	b.fake.AddSent(email, raw(email, "a", "s1@x", "Hi Tom,\r\n\r\nSee you there.\r\n\r\nBest,\r\nAnn"))
	b.fake.AddSent(email, raw(email, "b", "s2@x", "Hi Mia,\r\nThanks!\r\nBest,\r\nAnn"))
	if did, err := m.RefreshStyle(ctx, b.user.ID); err != nil || !did {
		t.Fatalf("first refresh: %v %v", did, err)
	}
	st, _ := b.st.MailStyle(ctx, b.user.ID)
	if st.Greeting != "Hi {name}," || st.SignOff != "Best," {
		t.Fatalf("style %+v", st)
	}
	if did, _ := m.RefreshStyle(ctx, b.user.ID); did {
		t.Fatal("refreshed again within the week")
	}
	b.clock.Add(google.StyleEvery + time.Hour)
	b.fake.AddSent(email, raw(email, "c", "s3@x", "Dear Ada,\r\nOK.\r\nKind regards,\r\nAnn"))
	b.fake.AddSent(email, raw(email, "d", "s4@x", "Dear Bo,\r\nOK.\r\nKind regards,\r\nAnn"))
	b.fake.AddSent(email, raw(email, "e", "s5@x", "Dear Cy,\r\nOK.\r\nKind regards,\r\nAnn"))
	if did, err := m.RefreshStyle(ctx, b.user.ID); err != nil || !did {
		t.Fatalf("weekly refresh: %v %v", did, err)
	}
	if st, _ := b.st.MailStyle(ctx, b.user.ID); st.Greeting != "Dear {name}," || st.SignOff != "Kind regards," {
		t.Fatalf("style after a week %+v", st)
	}
}
