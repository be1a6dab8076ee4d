package main

import (
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	calendar "google.golang.org/api/calendar/v3"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/integrations/google"
	"github.com/hearthbot/hearth/integrations/google/googletest"
	"github.com/hearthbot/hearth/pipeline/pipelinetest"
	"github.com/hearthbot/hearth/scheduler"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// startGoogleApp runs Hearth with Google pointed at a fake Google, and the
// public URL at the server itself (so the fake's pushes reach it).
func startGoogleApp(t *testing.T, opts ...func(*Config)) (string, *App, *googletest.Server) {
	t.Helper()
	fake := googletest.New(t)
	base, app, _ := startAppWith(t, func(c *Config) {
		c.GoogleClientID, c.GoogleClientSecret = googletest.ClientID, googletest.ClientSecret
		c.GoogleEndpoint = fake.URL // no trailing slash: both forms work
		c.EncryptionKey = base64.StdEncoding.EncodeToString([]byte("0123456789abcdef0123456789abcdef"))
		c.PublicURL = "http://" + c.HTTPAddr
		c.GooglePollInterval = time.Hour
		for _, o := range opts {
			o(c)
		}
	})
	if app.Google == nil {
		t.Fatal("google is off")
	}
	return base, app, fake
}

var reLink = regexp.MustCompile(`https?://\S+`)

// connectGoogle says "connect google", opens the link (the fake consents
// and redirects to the callback) and waits for the first sync and watch.
func connectGoogle(t *testing.T, c *chatter, fake *googletest.Server, email string) {
	t.Helper()
	fake.SetConsent(email)
	r := c.say("connect google")
	link := reLink.FindString(r.Text)
	if link == "" {
		t.Fatalf("no link in %q", r.Text)
	}
	res, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), email) {
		t.Fatalf("callback %d %s", res.StatusCode, body)
	}
	uid := c.contact().User.ID
	pipelinetest.WaitForJobs(t, c.app.River, "the first sync and watch", func() bool {
		cals, err := c.app.Store.GoogleCalendars(context.Background(), uid)
		return err == nil && len(cals) == 1 && !cals[0].SyncedAt.IsZero() && cals[0].ChannelID != ""
	})
}

func TestGoogleCalendarScenario(t *testing.T) {
	t.Parallel()
	base, app, fake := startGoogleApp(t)
	ann := newChatter(t, base, app, "Ann", "Europe/Berlin")
	ann.say("stop my briefings")
	berlin, _ := time.LoadLocation("Europe/Berlin")

	mustContain(t, ann.say("google status"), "isn't connected")
	connectGoogle(t, ann, fake, "ann@example.com")
	mustContain(t, ann.say("google status"), "connected as ann@example.com", "primary", "push notifications until", "new events go here")

	// An event made in the chat lands in Google, at the user's wall time.
	mustContain(t, ann.say("Add dentist tomorrow at 3pm to my calendar"), "entist")
	evs := fake.Events("ann@example.com", "primary")
	if len(evs) != 1 {
		t.Fatalf("google has %d events", len(evs))
	}
	start, _ := time.Parse(time.RFC3339, evs[0].Start.DateTime)
	if start.In(berlin).Hour() != 15 || evs[0].Start.TimeZone != "Europe/Berlin" {
		t.Fatalf("dentist at %s (%s)", start.In(berlin), evs[0].Start.TimeZone)
	}

	// An overlap is said, with options; "right after" lands after it.
	ask := ann.say("Add call with Bo tomorrow at 3:30pm")
	mustContain(t, ask, "overlaps", "entist")
	ann.click(ask, "Right after, at 4:00 PM")
	var call *calendar.Event
	for _, ev := range fake.Events("ann@example.com", "primary") {
		if strings.Contains(ev.Summary, "Bo") {
			call = ev
		}
	}
	if call == nil {
		t.Fatal("the call is not in Google")
	}
	if st, _ := time.Parse(time.RFC3339, call.Start.DateTime); st.In(berlin).Hour() != 16 {
		t.Fatalf("call at %s", st.In(berlin))
	}

	// A person named in the title is not invited (no approval, no
	// attendee); an invitation waits for Approve, then goes out.
	lunch := ann.say("Schedule lunch with Marco tomorrow at noon")
	if len(lunch.Buttons) != 0 {
		t.Fatalf("lunch with Marco asks: %q %v", lunch.Text, lunch.Buttons)
	}
	invite := ann.say("Invite sam@example.com to a design review tomorrow at 5pm")
	mustContain(t, invite, "sam@example.com")
	ann.click(invite, "Approve")
	var invited, marco bool
	for _, ev := range fake.Events("ann@example.com", "primary") {
		switch {
		case strings.Contains(ev.Summary, "Marco"):
			marco = len(ev.Attendees) == 0
		case len(ev.Attendees) == 1 && ev.Attendees[0].Email == "sam@example.com":
			invited = true
		}
	}
	if !marco || !invited {
		t.Fatalf("lunch without attendees %v, review with sam %v: %+v", marco, invited, fake.Events("ann@example.com", "primary"))
	}

	// An attendee named without an address is invited at the address
	// memory holds.
	ann.say("Remember that Priya's email is priya@example.com")
	ask = ann.say("Invite Priya to a planning session the day after tomorrow at 10am")
	ann.click(ask, "Approve")
	var priya bool
	for _, ev := range fake.Events("ann@example.com", "primary") {
		if strings.Contains(ev.Summary, "lanning") && len(ev.Attendees) == 1 && ev.Attendees[0].Email == "priya@example.com" {
			priya = true
		}
	}
	if !priya {
		t.Fatalf("Priya not invited by address: %+v", fake.Events("ann@example.com", "primary"))
	}
	// Invited to an event already in Google: its attendees there, once
	// approved.
	ask = ann.say("Add Priya to my dentist appointment")
	mustContain(t, ask, "Shall I invite Priya <priya@example.com> to “Dentist")
	mustContain(t, ann.click(ask, "Approve"), "Invited Priya <priya@example.com> to Dentist")
	var dentist *calendar.Event
	for _, ev := range fake.Events("ann@example.com", "primary") {
		if strings.Contains(ev.Summary, "entist") {
			dentist = ev
		}
	}
	if dentist == nil || len(dentist.Attendees) != 1 || dentist.Attendees[0].Email != "priya@example.com" {
		t.Fatalf("the dentist in Google after the invitation: %+v", dentist.Attendees[0])
	}

	// A change in Google and a burst of 50 pushes: one or two syncs, and
	// the change is in "what's on my calendar".
	lists := func() int { return fake.Count("GET /calendar/v3/calendars/{id}/events") }
	// The leader's first poll syncs every calendar: it and any sync
	// before it end first, so only the pushes' syncs are counted.
	waitFirstRun(t, app, "the first poll and the syncs before the pushes", google.PollArgs{}.Kind(), google.SyncArgs{}.Kind())
	before := lists()
	tomorrow := time.Now().In(berlin).AddDate(0, 0, 1)
	at := time.Date(tomorrow.Year(), tomorrow.Month(), tomorrow.Day(), 18, 0, 0, 0, berlin)
	fake.PutEvent("ann@example.com", "primary", &calendar.Event{Summary: "Parents evening",
		Start: &calendar.EventDateTime{DateTime: at.Format(time.RFC3339)},
		End:   &calendar.EventDateTime{DateTime: at.Add(time.Hour).Format(time.RFC3339)}})
	// The sync's events.list is held while the pushes arrive, so that
	// however slowly this machine answers them they all land while at
	// most one sync is under way: that one, and at most one more.
	release := fake.Hold("GET /calendar/v3/calendars/{id}/events")
	defer release()
	var wg sync.WaitGroup
	statuses := make([]int, 50)
	for i := range 50 {
		wg.Go(func() {
			if st := fake.Push("ann@example.com", "primary"); len(st) == 1 {
				statuses[i] = st[0]
			}
		})
	}
	wg.Wait()
	for i, st := range statuses {
		if st != 200 {
			t.Fatalf("push %d answered %d", i, st)
		}
	}
	release()
	uid := ann.contact().User.ID
	pipelinetest.WaitForJobs(t, app.River, "the pushed change synced", func() bool {
		es, _ := app.Store.FindEvents(context.Background(), hearth.CalendarEventFilter{UserID: uid, Query: "parents evening"})
		return len(es) == 1
	})
	n := lists() - before
	t.Logf("50 pushes cost %d events.list syncs", n)
	if n < 1 || n > 2 {
		t.Fatalf("50 pushes cost %d syncs, want 1 or 2", n)
	}
	mustContain(t, ann.say("what's on my calendar tomorrow?"), "Parents evening", "entist")

	// A forged push: 403 and nothing enqueued.
	req, _ := http.NewRequest(http.MethodPost, base+"/webhooks/google/calendar", nil)
	req.Header.Set("X-Goog-Channel-ID", fake.Channels()[0].Id)
	req.Header.Set("X-Goog-Channel-Token", "forged")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusForbidden {
		t.Fatalf("forged push: %d", res.StatusCode)
	}

	// Disconnect: revoked at Google, channels stopped, tokens deleted; the
	// built-in calendar is back.
	mustContain(t, ann.say("disconnect google"), "Disconnected ann@example.com")
	if !fake.Revoked("ann@example.com") || len(fake.Channels()) != 0 {
		t.Fatal("the grant was not revoked or a channel is left")
	}
	mustContain(t, ann.say("google status"), "isn't connected")
	mustContain(t, ann.say("Add yoga tomorrow at 8am to my calendar"), "oga")
	if len(fake.Events("ann@example.com", "primary")) != 6 {
		t.Fatal("an event went to Google after disconnecting")
	}
}

func TestGoogleRevokedGrant(t *testing.T) {
	t.Parallel()
	base, app, fake := startGoogleApp(t)
	bob := newChatter(t, base, app, "Bob", "Europe/London")
	bob.say("stop my briefings")
	connectGoogle(t, bob, fake, "bob@example.com")
	uid := bob.contact().User.ID
	ctx := context.Background()
	notices := func() int {
		return bob.count(`SELECT count(*) FROM messages m JOIN conversations c ON c.id = m.conversation_id
			WHERE c.user_id = $1 AND m.sender = 'bot' AND m.text LIKE 'Google stopped accepting%'`, uid)
	}
	syncs := func() int {
		return bob.count(`SELECT count(*) FROM river_job WHERE kind = 'google_sync' AND state = 'completed'`)
	}

	// Bob revokes Hearth's access in Google's settings; the next sync
	// finds out, and Bob gets one message of its own asking to reconnect.
	fake.RevokeGrant("bob@example.com")
	done := syncs()
	if _, err := app.River.Insert(ctx, google.SyncArgs{UserID: uid, CalendarID: "primary", Round: 100}, nil); err != nil {
		t.Fatal(err)
	}
	mustContain(t, bob.reply("the reconnect notice"), "Google stopped accepting my access", "bob@example.com", "connect google")
	pipelinetest.WaitForJobs(t, app.River, "the sync that found the revoked grant", func() bool { return syncs() > done })
	// Another sync: no second message.
	done = syncs()
	if _, err := app.River.Insert(ctx, google.SyncArgs{UserID: uid, CalendarID: "primary", Round: 101}, nil); err != nil {
		t.Fatal(err)
	}
	pipelinetest.WaitForJobs(t, app.River, "the second sync", func() bool { return syncs() > done })
	if n := notices(); n != 1 {
		t.Fatalf("%d reconnect messages; want 1", n)
	}

	// The built-in calendar takes over, and replies carry no notice.
	r := bob.say("Add gym tomorrow at 7am to my calendar")
	mustContain(t, r, "ym")
	if strings.Contains(r.Text, "stopped accepting") {
		t.Fatalf("told again: %q", r.Text)
	}
	es, err := app.Store.FindEvents(ctx, hearth.CalendarEventFilter{UserID: uid})
	if err != nil || len(es) != 1 || es[0].ExternalID != "" {
		t.Fatalf("events %+v %v", es, err)
	}
	if n := notices(); n != 1 {
		t.Fatalf("%d reconnect messages after an action; want 1", n)
	}
	mustContain(t, bob.say("google status"), "stopped accepting", "connect google")
	// Reconnecting makes Google work again.
	connectGoogle(t, bob, fake, "bob@example.com")
	mustContain(t, bob.say("google status"), "connected as bob@example.com")
}

// TestGoogleRevokedDuringAction: a grant found revoked by an action
// (not a sync) gives the same one message, apart from the reply, and the
// event lands in the built-in calendar.
func TestGoogleRevokedDuringAction(t *testing.T) {
	t.Parallel()
	base, app, fake := startGoogleApp(t)
	dee := newChatter(t, base, app, "Dee", "Europe/London")
	dee.say("stop my briefings")
	connectGoogle(t, dee, fake, "dee@example.com")
	uid := dee.contact().User.ID
	fake.RevokeGrant("dee@example.com")
	first := dee.say("Add swim tomorrow at 8am to my calendar")
	second := dee.reply("the other message")
	texts := first.Text + "\n---\n" + second.Text
	if !strings.Contains(texts, "wim") || !strings.Contains(texts, "Google stopped accepting") {
		t.Fatalf("want the reply and the notice, got %q", texts)
	}
	if strings.Contains(first.Text, "wim") == strings.Contains(first.Text, "stopped accepting") {
		t.Fatalf("the notice is not a message of its own: %q", texts)
	}
	if n := dee.count(`SELECT count(*) FROM messages m JOIN conversations c ON c.id = m.conversation_id
		WHERE c.user_id = $1 AND m.text LIKE 'Google stopped accepting%'`, uid); n != 1 {
		t.Fatalf("%d reconnect messages; want 1", n)
	}
	es, err := app.Store.FindEvents(context.Background(), hearth.CalendarEventFilter{UserID: uid})
	if err != nil || len(es) != 1 || es[0].ExternalID != "" {
		t.Fatalf("events %+v %v", es, err)
	}
}

// TestGoogleEventReminderFollowsGoogle: a meeting made and then moved in
// Google itself reaches Hearth by push, and its reminder moves with it.
func TestGoogleEventReminderFollowsGoogle(t *testing.T) {
	t.Parallel()
	base, app, fake := startGoogleApp(t)
	cy := newChatter(t, base, app, "Cy", "Europe/Berlin")
	cy.say("stop my briefings")
	connectGoogle(t, cy, fake, "cy@example.com")
	mustContain(t, cy.say("remind me 30 minutes before meetings"), "30 minutes")
	berlin, _ := time.LoadLocation("Europe/Berlin")
	tomorrow := time.Now().In(berlin).AddDate(0, 0, 1)
	ten := time.Date(tomorrow.Year(), tomorrow.Month(), tomorrow.Day(), 10, 0, 0, 0, berlin)
	uid := cy.contact().User.ID
	synced := func(start time.Time) {
		t.Helper()
		if st := fake.Push("cy@example.com", "primary"); len(st) != 1 || st[0] != 200 {
			t.Fatalf("push %v", st)
		}
		pipelinetest.WaitForJobs(t, app.River, "the meeting synced", func() bool {
			es, _ := app.Store.FindEvents(context.Background(), hearth.CalendarEventFilter{UserID: uid, Query: "board meeting"})
			return len(es) == 1 && es[0].Start.Equal(start)
		})
	}
	ev := fake.PutEvent("cy@example.com", "primary", &calendar.Event{Summary: "Board meeting",
		Start: &calendar.EventDateTime{DateTime: ten.Format(time.RFC3339)},
		End:   &calendar.EventDateTime{DateTime: ten.Add(time.Hour).Format(time.RFC3339)}})
	synced(ten)
	clock := &fakeClock{t: time.Now()}
	sched := scheduler.New(scheduler.Config{Store: app.Store, Now: clock.Now,
		Visible: func(ch hearth.Channel) bool { return ch == hearth.ChannelWebchat }})
	fireDue(t, app, sched) // plans the 09:30 reminder
	// Moved to 11:00 in Google.
	ev.Start.DateTime = ten.Add(time.Hour).Format(time.RFC3339)
	ev.End.DateTime = ten.Add(2 * time.Hour).Format(time.RFC3339)
	fake.PutEvent("cy@example.com", "primary", ev)
	synced(ten.Add(time.Hour))
	for _, at := range []time.Time{ten.Add(-30 * time.Minute), ten.Add(30 * time.Minute)} {
		clock.Set(at)
		fireDue(t, app, sched)
	}
	mustContain(t, cy.reply("the moved meeting's reminder"), "In 30 minutes", "Board meeting", "11:00 AM")
}

// waitFirstRun waits until the leader's periodic job of kind first has
// run once and no job of it or of kinds is still to run: a periodic job
// runs when leadership begins, later on a loaded machine, and a scenario
// that counts what its own requests cause counts after it.
func waitFirstRun(t *testing.T, app *App, what, first string, kinds ...string) {
	t.Helper()
	ctx := context.Background()
	pipelinetest.WaitForJobs(t, app.River, what, func() bool {
		ran, err := app.River.JobList(ctx, river.NewJobListParams().Kinds(first).States(rivertype.JobStateCompleted).First(1))
		if err != nil || len(ran.Jobs) == 0 {
			return false
		}
		busy, err := app.River.JobList(ctx, river.NewJobListParams().Kinds(append(kinds, first)...).States(
			rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRetryable,
			rivertype.JobStateRunning, rivertype.JobStateScheduled).First(1))
		return err == nil && len(busy.Jobs) == 0
	})
}
