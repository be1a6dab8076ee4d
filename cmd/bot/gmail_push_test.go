package main

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/integrations/google"
	"github.com/hearthbot/hearth/pipeline/pipelinetest"
)

func TestGmailPushScenario(t *testing.T) {
	t.Parallel()
	const topic = "projects/hearth-test/topics/gmail"
	base, app, fake := startGoogleApp(t, func(c *Config) { c.GmailTopic = topic })
	const ann = "ann@example.com"
	c := newChatter(t, base, app, "Ann", "UTC")
	c.say("stop my briefings")
	connectGmail(t, c, fake, ann)
	uid := c.contact().User.ID
	ctx := context.Background()
	// Connecting Gmail polls the mailbox and watches it on the topic.
	pipelinetest.WaitForJobs(t, app.River, "the mailbox watched", func() bool {
		got, _ := fake.GmailWatch(ann)
		return got == topic
	})
	url := app.Google.GmailPushURL()
	if !strings.HasPrefix(url, base+"/webhooks/google/gmail?token=") {
		t.Fatalf("push URL %q", url)
	}
	post := func(url string, body []byte) int {
		res, err := http.Post(url, "application/json", bytes.NewReader(body))
		if err != nil {
			t.Error(err)
			return 0
		}
		res.Body.Close()
		return res.StatusCode
	}
	polls := func() int {
		res, err := app.River.JobList(ctx, river.NewJobListParams().Kinds("google_mail_poll").First(1000))
		if err != nil {
			t.Fatal(err)
		}
		return len(res.Jobs)
	}

	// New mail and a burst of 20 pushes while the first poll's history
	// call is held: one or two polls, and the mail is found once.
	history := func() int { return fake.Count("GET /gmail/v1/users/me/history") }
	// The leader's first sweep polls every mailbox: it and the polls
	// before it end first, so only the pushes' polls are counted (here
	// and after the forged push).
	waitFirstRun(t, app, "the first sweep and the polls before the pushes", google.MailSweepArgs{}.Kind(), google.MailPollArgs{}.Kind())
	before := history()
	fake.Deliver(ann, "", "From: Bob <bob@example.org>\r\nTo: "+ann+"\r\nSubject: Pushed\r\nMessage-ID: <p1@example.org>\r\n\r\nHello\r\n")
	release := fake.Hold("GET /gmail/v1/users/me/history")
	defer release()
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if s := post(url, fake.GmailPush(ann)); s != http.StatusNoContent {
				t.Errorf("push answered %d, want 204", s)
			}
		})
	}
	wg.Wait()
	release()
	pipelinetest.WaitForJobs(t, app.River, "the pushed mail polled", func() bool {
		got, _ := app.Store.FindInbox(ctx, hearth.InboxFilter{UserID: uid, From: "bob@example.org"})
		return len(got) == 1
	})
	n := history() - before
	t.Logf("20 pushes cost %d users.history calls", n)
	if n < 1 || n > 2 {
		res, _ := app.River.JobList(ctx, river.NewJobListParams().Kinds("google_mail_poll", "google_mail_sweep").First(1000))
		for _, j := range res.Jobs {
			t.Logf("job %d %s %s %s created %v attempted %v", j.ID, j.Kind, j.EncodedArgs, j.State, j.CreatedAt, j.AttemptedAt)
		}
		t.Fatalf("20 pushes cost %d history calls, want 1 or 2", n)
	}
	mustContain(t, c.say("any important email?"), "Nothing important") // Bob is no one Hearth knows

	// A forged token: 403, and no poll enqueued.
	jobs := polls()
	if s := post(base+"/webhooks/google/gmail?token=forged", fake.GmailPush(ann)); s != http.StatusForbidden {
		t.Fatalf("forged push answered %d, want 403", s)
	}
	if got := polls(); got != jobs {
		t.Fatalf("a forged push enqueued %d polls", got-jobs)
	}
	if got, _ := app.Store.FindInbox(ctx, hearth.InboxFilter{UserID: uid}); len(got) != 1 {
		t.Fatalf("inbox %d messages, want the pushed one once", len(got))
	}

	mustContain(t, c.say("google status"), "Gmail: last checked", "new mail pushed at once (watch until", "Contacts:")

	// Disconnecting stops the watch and forgets the inbox copy.
	mustContain(t, c.say("disconnect google"), "Disconnected")
	if got, _ := fake.GmailWatch(ann); got != "" || fake.Count("POST /gmail/v1/users/me/stop") != 1 {
		t.Fatalf("after disconnect: watched on %q, %d users.stop calls", got, fake.Count("POST /gmail/v1/users/me/stop"))
	}
	if got, _ := app.Store.FindInbox(ctx, hearth.InboxFilter{UserID: uid}); len(got) != 0 {
		t.Fatalf("inbox %d messages after disconnect", len(got))
	}
}

// TestGmailPushSignedTokenWired: with HEARTH_GMAIL_PUSH_AUDIENCE and
// HEARTH_GMAIL_PUSH_SERVICE_ACCOUNT, the served push endpoint wants
// Pub/Sub's signed token, checked against the certificates of the Google
// that HEARTH_GOOGLE_ENDPOINT names.
func TestGmailPushSignedTokenWired(t *testing.T) {
	t.Parallel()
	const audience, account = "https://hearth.example/gmail-push", "push@hearth-test.iam.gserviceaccount.com"
	_, app, fake := startGoogleApp(t, func(c *Config) {
		c.GmailTopic = "projects/hearth-test/topics/gmail"
		c.GmailPushAudience, c.GmailPushServiceAccount = audience, account
	})
	post := func(authorization string) int {
		req, err := http.NewRequest(http.MethodPost, app.Google.GmailPushURL(), bytes.NewReader(fake.GmailPush("nobody@example.com")))
		if err != nil {
			t.Fatal(err)
		}
		if authorization != "" {
			req.Header.Set("Authorization", authorization)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	claims := func(aud string) map[string]any {
		return map[string]any{"iss": "https://accounts.google.com", "aud": aud, "email": account, "email_verified": true,
			"iat": time.Now().Unix(), "exp": time.Now().Add(time.Hour).Unix()}
	}
	for _, tc := range []struct {
		name, authorization string
		want                int
	}{
		{"no token", "", http.StatusForbidden},
		{"another audience", "Bearer " + fake.IDToken(claims("https://elsewhere.example")), http.StatusForbidden},
		{"valid", "Bearer " + fake.IDToken(claims(audience)), http.StatusNoContent},
	} {
		if got := post(tc.authorization); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}
