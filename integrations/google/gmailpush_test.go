package google_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/integrations/google"
)

const topic = "projects/hearth-test/topics/gmail"

func withTopic(c *google.Config) { c.GmailTopic = topic }

// push posts a Pub/Sub delivery to url and returns the status.
func push(t *testing.T, url string, body []byte) int {
	t.Helper()
	res, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

func TestGmailPush(t *testing.T) {
	t.Parallel()
	b := setup(t, "UTC", withTopic)
	b.connectWith(t, google.GmailScopes...)
	m, ctx := b.mail(), context.Background()
	url := b.g.GmailPushURL()
	if !strings.HasPrefix(url, b.hook.URL+google.GmailPushPath+"?token=") {
		t.Fatalf("push URL %q", url)
	}
	// Connecting Gmail enqueued the first poll; its job watches the
	// mailbox on the topic.
	if n := b.jobs(t, "google_mail_poll"); n != 1 {
		t.Fatalf("%d mail polls after connecting, want 1", n)
	}
	if _, err := m.Poll(ctx, b.user.ID); err != nil {
		t.Fatal(err)
	}
	if err := m.Watch(ctx, b.user.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := b.fake.GmailWatch(email); got != topic {
		t.Fatalf("watched on %q, want %q", got, topic)
	}
	polls := b.jobs(t, "google_mail_poll")

	// A forged, missing or old-style token: 403, nothing enqueued.
	b.fake.Deliver(email, "", raw("Bob <bob@example.org>", "Lunch?", "p1@x", "Noon?"))
	body := b.fake.GmailPush(email)
	for _, bad := range []string{b.hook.URL + google.GmailPushPath, b.hook.URL + google.GmailPushPath + "?token=forged", url + "x"} {
		if s := push(t, bad, body); s != http.StatusForbidden {
			t.Fatalf("push to %q: %d, want 403", bad, s)
		}
	}
	// Malformed bodies: 400 with a reason, nothing enqueued.
	for _, bad := range []string{"", "{", `{"message":{}}`, `{"message":{"data":"%%%"}}`,
		`{"message":{"data":"` + base64.StdEncoding.EncodeToString([]byte(`{"emailAddress":"nobody","historyId":"5"}`)) + `"}}`,
		`{"message":{"data":"` + base64.StdEncoding.EncodeToString([]byte(`{"emailAddress":"a@b.c","historyId":"x"}`)) + `"}}`} {
		if s := push(t, url, []byte(bad)); s != http.StatusBadRequest {
			t.Fatalf("push of %q: %d, want 400", bad, s)
		}
	}
	// A mailbox Hearth does not know: acknowledged, nothing enqueued.
	if s := push(t, url, b.fake.GmailPush("stranger@example.org")); s != http.StatusNoContent {
		t.Fatalf("push for a stranger: %d, want 204", s)
	}
	if n := b.jobs(t, "google_mail_poll"); n != polls {
		t.Fatalf("%d mail polls after refused pushes, want %d", n, polls)
	}

	// A burst of 20 pushes before the next poll begins: one more poll.
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if s := push(t, url, body); s != http.StatusNoContent {
				t.Errorf("push: %d, want 204", s)
			}
		})
	}
	wg.Wait()
	if n := b.jobs(t, "google_mail_poll"); n != polls+1 {
		t.Fatalf("%d mail polls after 20 pushes, want %d", n, polls+1)
	}
	// The periodic sweep meanwhile asks for the same poll.
	if err := m.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	if n := b.jobs(t, "google_mail_poll"); n != polls+1 {
		t.Fatalf("%d mail polls after the sweep, want %d", n, polls+1)
	}
	// The poll finds the new mail, once.
	got, err := m.Poll(ctx, b.user.ID)
	if err != nil || len(got) != 1 || got[0].Subject != "Lunch?" {
		t.Fatalf("poll after the push: %+v %v", got, err)
	}
	if again, err := m.Poll(ctx, b.user.ID); err != nil || len(again) != 0 {
		t.Fatalf("poll again: %+v %v", again, err)
	}
	// A push after that poll began asks for the poll after it.
	if s := push(t, url, body); s != http.StatusNoContent {
		t.Fatalf("push: %d", s)
	}
	if n := b.jobs(t, "google_mail_poll"); n != polls+2 {
		t.Fatalf("%d mail polls after a push following a poll, want %d", n, polls+2)
	}
}

func TestGmailWatchRenewedAndStopped(t *testing.T) {
	t.Parallel()
	b := setup(t, "UTC", withTopic)
	b.connectWith(t, google.GmailScopes...)
	m, ctx := b.mail(), context.Background()
	const watch = "POST /gmail/v1/users/me/watch"
	if err := m.Watch(ctx, b.user.ID); err != nil {
		t.Fatal(err)
	}
	// Not due: the poll every interval leaves it.
	b.clock.Add(5 * 24 * time.Hour)
	if err := m.Watch(ctx, b.user.ID); err != nil || b.fake.Count(watch) != 1 {
		t.Fatalf("watch on day 5: %v, %d watch calls, want 1", err, b.fake.Count(watch))
	}
	// Within a day of its 7-day expiry: renewed.
	b.clock.Add(36 * time.Hour)
	if err := m.Watch(ctx, b.user.ID); err != nil || b.fake.Count(watch) != 2 {
		t.Fatalf("watch on day 6.5: %v, %d watch calls, want 2", err, b.fake.Count(watch))
	}
	box, err := b.st.GmailMailbox(ctx, b.user.ID)
	if err != nil || box.WatchExpiresAt.Before(time.Now().Add(6*24*time.Hour)) {
		t.Fatalf("stored watch %+v %v", box, err)
	}

	// Disconnecting stops the watch and forgets the inbox copy and where
	// history continues.
	b.fake.Deliver(email, "", raw("Bob <bob@example.org>", "Hello", "h1@x", "Hi"))
	if got, err := m.Poll(ctx, b.user.ID); err != nil || len(got) != 1 {
		t.Fatalf("poll: %+v %v", got, err)
	}
	if _, err := b.g.Disconnect(ctx, b.user.ID); err != nil {
		t.Fatal(err)
	}
	if n := b.fake.Count("POST /gmail/v1/users/me/stop"); n != 1 {
		t.Fatalf("users.stop called %d times, want 1", n)
	}
	if got, _ := b.fake.GmailWatch(email); got != "" {
		t.Fatalf("still watched on %q", got)
	}
	if inbox, err := b.st.FindInbox(ctx, hearth.InboxFilter{UserID: b.user.ID}); err != nil || len(inbox) != 0 {
		t.Fatalf("inbox after disconnect: %d messages, %v", len(inbox), err)
	}
	if box, err := b.st.GmailMailbox(ctx, b.user.ID); err != nil || box.HistoryID != "" || !box.WatchExpiresAt.IsZero() {
		t.Fatalf("mailbox after disconnect %+v %v", box, err)
	}
	// A late push for the disconnected mailbox is acknowledged, and
	// nothing is enqueued.
	polls := b.jobs(t, "google_mail_poll")
	if s := push(t, b.g.GmailPushURL(), b.fake.GmailPush(email)); s != http.StatusNoContent {
		t.Fatalf("late push: %d", s)
	}
	if n := b.jobs(t, "google_mail_poll"); n != polls {
		t.Fatalf("late push enqueued %d polls", n-polls)
	}
}

func TestGmailPushOff(t *testing.T) {
	t.Parallel()
	b := setup(t, "UTC")
	b.connectWith(t, google.GmailScopes...)
	if u := b.g.GmailPushURL(); u != "" {
		t.Fatalf("push URL %q without a topic", u)
	}
	if err := b.mail().Watch(context.Background(), b.user.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := b.g.Disconnect(context.Background(), b.user.ID); err != nil {
		t.Fatal(err)
	}
	if w, s := b.fake.Count("POST /gmail/v1/users/me/watch"), b.fake.Count("POST /gmail/v1/users/me/stop"); w != 0 || s != 0 {
		t.Fatalf("without a topic: %d watch, %d stop calls", w, s)
	}
	for _, bad := range []string{"topic", "projects//topics/x", "projects/p/topics/", "projects/p/subscriptions/s"} {
		if _, err := google.New(google.Config{ClientID: "x", ClientSecret: "y", Keys: mustKeys(t), Store: b.st, GmailTopic: bad}); err == nil ||
			!strings.Contains(err.Error(), "HEARTH_GMAIL_PUBSUB_TOPIC") {
			t.Fatalf("topic %q: %v", bad, err)
		}
	}
}

func FuzzParsePush(f *testing.F) {
	data := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	for _, s := range []string{
		`{"message":{"data":"` + data(`{"emailAddress":"user@example.com","historyId":"9876543210"}`) + `","messageId":"1"},"subscription":"s"}`,
		`{"message":{"data":"` + data(`{"emailAddress":"user@example.com","historyId":12}`) + `"}}`,
		`{"message":{"data":"` + data(`{"emailAddress":"Ann <a@b.c>","historyId":"1"}`) + `"}}`,
		`{"message":{"data":"` + data(`[]`) + `"}}`,
		`{"message":null}`, `null`, ``, `{"message":{"data":"-_-_"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		n, err := google.ParsePush(body)
		if err != nil {
			if n != (google.PushNotice{}) {
				t.Fatalf("an error with a notice: %+v", n)
			}
			return
		}
		if n.HistoryID == 0 || !strings.Contains(n.EmailAddress, "@") || strings.ContainsAny(n.EmailAddress, "<> \r\n") {
			t.Fatalf("accepted %+v", n)
		}
	})
}

func mustKeys(t *testing.T) *google.Keys {
	t.Helper()
	k, err := google.NewKeys(bytes.Repeat([]byte{9}, 32))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestGmailPollOneAtATime: while a poll of a mailbox runs, another is
// hearth.ErrConflict (its job snoozes and runs after); a crashed one is
// taken over once stale; a failed one lets the next begin.
func TestGmailPollOneAtATime(t *testing.T) {
	t.Parallel()
	b := setup(t, "UTC")
	b.connectWith(t, google.GmailScopes...)
	m, ctx := b.mail(), context.Background()
	running, err := b.st.BeginGmailPoll(ctx, b.user.ID, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Poll(ctx, b.user.ID); !errors.Is(err, hearth.ErrConflict) {
		t.Fatalf("a poll beside a running one: %v; want ErrConflict", err)
	}
	// Stale after no time at all: taken over, counted.
	if box, err := b.st.BeginGmailPoll(ctx, b.user.ID, 0); err != nil || box.PollsBegun != running.PollsBegun+1 {
		t.Fatalf("taking over a stale poll: %+v %v", box, err)
	}
	if err := b.st.EndGmailPoll(ctx, b.user.ID); err != nil {
		t.Fatal(err)
	}
	// A poll that fails ends itself.
	b.fake.Fail("GET", "/gmail/v1/users/me/profile", 400, 1)
	if _, err := m.Poll(ctx, b.user.ID); err == nil {
		t.Fatal("the profile's refusal did not fail the poll")
	}
	b.fake.Deliver(email, "", raw("Bob <bob@example.org>", "Hello", "h1@x", "Hi"))
	if got, err := m.Poll(ctx, b.user.ID); err != nil || len(got) != 1 {
		t.Fatalf("the poll after a failed one: %+v %v", got, err)
	}
}

// TestGmailWatchStoppedOnReconnectAnotherAccount: connecting another
// Google account in place of one watched stops the old account's watch
// (users.stop as the old account) instead of letting it push for a week;
// an old account whose grant Google already refused is not stopped, and
// the user, connecting as we speak, is not told to reconnect.
func TestGmailWatchStoppedOnReconnectAnotherAccount(t *testing.T) {
	t.Parallel()
	b := setup(t, "UTC", withTopic)
	b.connectWith(t, google.GmailScopes...)
	m, ctx := b.mail(), context.Background()
	if err := m.Watch(ctx, b.user.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := b.fake.GmailWatch(email); got != topic {
		t.Fatalf("first account watched on %q", got)
	}

	const second, third = "second@example.com", "third@example.com"
	b.fake.SetConsent(second)
	b.connectWith(t, google.GmailScopes...)
	if got, _ := b.fake.GmailWatch(email); got != "" {
		t.Fatalf("the replaced account is still watched on %q", got)
	}
	if n := b.fake.Count("POST /gmail/v1/users/me/stop"); n != 1 {
		t.Fatalf("users.stop called %d times, want 1", n)
	}
	if a, err := b.st.GoogleAccount(ctx, b.user.ID); err != nil || a.Email != second || !a.RevokedAt.IsZero() {
		t.Fatalf("account after reconnecting: %+v %v", a, err)
	}
	// The new account is watched by its own poll, and a late push for
	// the old one finds no mailbox.
	if err := m.Watch(ctx, b.user.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := b.fake.GmailWatch(second); got != topic {
		t.Fatalf("new account watched on %q", got)
	}
	polls := b.jobs(t, "google_mail_poll")
	if s := push(t, b.g.GmailPushURL(), b.fake.GmailPush(email)); s != http.StatusNoContent || b.jobs(t, "google_mail_poll") != polls {
		t.Fatalf("a late push for the replaced account: %d, %d polls enqueued", s, b.jobs(t, "google_mail_poll")-polls)
	}

	// The second account's grant is refused at Google before the user
	// connects a third: users.stop is refused (401, then the refresh),
	// and nothing is marked and no notice sent.
	b.fake.RevokeGrant(second)
	b.fake.SetConsent(third)
	refreshes := b.fake.Count("refresh")
	b.connectWith(t, google.GmailScopes...)
	if n := b.fake.Count("refresh"); n != refreshes+1 {
		t.Fatalf("%d refreshes for the replaced account, want 1", n-refreshes)
	}
	if a, err := b.st.GoogleAccount(ctx, b.user.ID); err != nil || a.Email != third || !a.RevokedAt.IsZero() {
		t.Fatalf("account after the third: %+v %v", a, err)
	}
	if n := b.jobs(t, "deliver"); n != 0 {
		t.Fatalf("%d messages to the user while connecting, want none", n)
	}
}
