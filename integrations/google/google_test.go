package google_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"
	calendar "google.golang.org/api/calendar/v3"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/commands"
	"github.com/hearthbot/hearth/integrations/google"
	"github.com/hearthbot/hearth/integrations/google/googletest"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

const email = "user@example.com"

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

type testBundle struct {
	st      *store.Store
	fake    *googletest.Server
	g       *google.Google
	river   *river.Client[pgx.Tx]
	hook    *httptest.Server
	clock   *clock
	user    hearth.User
	mu      sync.Mutex
	backoff []int
}

// setup wires the integration against a private database, the fake
// Google and an insert-only River client; Hearth's callback and webhooks
// are served on hook, which is the public URL. opts change the
// integration's configuration.
func setup(t *testing.T, tz string, opts ...func(*google.Config)) *testBundle {
	t.Helper()
	st, _ := storetest.Open(t)
	b := &testBundle{st: st, fake: googletest.New(t), clock: &clock{t: time.Now()}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+google.CallbackPath, func(w http.ResponseWriter, r *http.Request) { b.g.Callback(w, r) })
	mux.HandleFunc("POST "+google.WebhookPath, func(w http.ResponseWriter, r *http.Request) { b.g.Webhook(w, r) })
	mux.HandleFunc("POST "+google.GmailPushPath, func(w http.ResponseWriter, r *http.Request) { b.mail().PushWebhook(w, r) })
	b.hook = httptest.NewServer(mux)
	t.Cleanup(b.hook.Close)
	rc, err := river.NewClient(riverpgxv5.New(st.Pool()), &river.Config{})
	if err != nil {
		t.Fatal(err)
	}
	b.river = rc
	keys, err := google.NewKeys(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	cfg := google.Config{
		ClientID: googletest.ClientID, ClientSecret: googletest.ClientSecret, PublicURL: b.hook.URL,
		Endpoint: b.fake.URL + "/", Keys: keys, Store: st, People: st, Queue: rc, Now: b.clock.Now,
		Backoff: func(n int) time.Duration {
			b.mu.Lock()
			b.backoff = append(b.backoff, n)
			b.mu.Unlock()
			return time.Millisecond
		},
	}
	for _, o := range opts {
		o(&cfg)
	}
	b.g, err = google.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c, err := st.SignIn(context.Background(), hearth.ChannelWebchat, "ann", "Ann", "ann", tz)
	if err != nil {
		t.Fatal(err)
	}
	b.user = c.User
	return b
}

// connect goes through consent: the consent link, the fake's redirect to
// the callback, the exchange.
func (b *testBundle) connect(t *testing.T) {
	t.Helper()
	res, err := http.Get(b.g.ConnectURL(b.user.ID, google.CalendarScopes...))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), "connected as "+email) {
		t.Fatalf("callback: %d %s", res.StatusCode, body)
	}
}

func (b *testBundle) sync(t *testing.T) {
	t.Helper()
	if err := b.g.Sync(context.Background(), b.user.ID, "primary"); err != nil {
		t.Fatal(err)
	}
}

func (b *testBundle) local(t *testing.T) []hearth.CalendarEvent {
	t.Helper()
	es, err := b.st.FindEvents(context.Background(), hearth.CalendarEventFilter{UserID: b.user.ID, Limit: 500})
	if err != nil {
		t.Fatal(err)
	}
	return es
}

func (b *testBundle) jobs(t *testing.T, kind string) int {
	t.Helper()
	res, err := b.river.JobList(context.Background(), river.NewJobListParams().Kinds(kind).
		States(rivertype.JobStateAvailable, rivertype.JobStateScheduled, rivertype.JobStatePending).First(1000))
	if err != nil {
		t.Fatal(err)
	}
	return len(res.Jobs)
}

func titles(es []hearth.CalendarEvent) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Title)
	}
	return out
}

func timed(title string, start time.Time, d time.Duration) *calendar.Event {
	return &calendar.Event{Summary: title,
		Start: &calendar.EventDateTime{DateTime: start.Format(time.RFC3339)},
		End:   &calendar.EventDateTime{DateTime: start.Add(d).Format(time.RFC3339)}}
}

func TestConnect(t *testing.T) {
	t.Parallel()
	b := setup(t, "Europe/Berlin")
	b.connect(t)
	auth := b.fake.LastAuth()
	if auth.Get("access_type") != "offline" || auth.Get("include_granted_scopes") != "true" ||
		!strings.Contains(auth.Get("scope"), google.ScopeCalendar) || strings.Contains(auth.Get("scope"), "gmail") {
		t.Fatalf("consent request %v", auth)
	}
	if b.fake.Count("exchange") != 1 {
		t.Fatalf("exchanges %d", b.fake.Count("exchange"))
	}
	a, err := b.st.GoogleAccount(context.Background(), b.user.ID)
	if err != nil {
		t.Fatal(err)
	}
	if a.Email != email || !slices.Contains(a.Scopes, google.ScopeCalendar) {
		t.Fatalf("account %+v", a)
	}
	// Sealed: neither token appears in the stored bytes.
	if bytes.Contains(a.Token, []byte("at-")) || bytes.Contains(a.Token, []byte("rt-")) {
		t.Fatal("the token is stored in the clear")
	}
	if b.jobs(t, google.SyncArgs{}.Kind()) != 1 || b.jobs(t, google.WatchArgs{}.Kind()) != 1 {
		t.Fatal("the first sync and watch were not enqueued")
	}
	cals, _ := b.st.GoogleCalendars(context.Background(), b.user.ID)
	if len(cals) != 1 || cals[0].CalendarID != "primary" || !cals[0].Default {
		t.Fatalf("calendars %+v", cals)
	}
	// What the Gmail and Keep features build on: scopes granted so far,
	// and client options acting as the user.
	ctx := context.Background()
	if ok, _ := b.g.HasScope(ctx, b.user.ID, google.ScopeCalendar); !ok {
		t.Fatal("calendar scope not recorded")
	}
	if ok, _ := b.g.HasScope(ctx, b.user.ID, "https://www.googleapis.com/auth/gmail.modify"); ok {
		t.Fatal("a scope never asked for is granted")
	}
	if _, err := b.g.ClientOptions(ctx, b.user.ID+99, "calendar/v3/"); !errors.Is(err, hearth.ErrNotFound) {
		t.Fatalf("options for a stranger: %v", err)
	}
	opts, err := b.g.ClientOptions(ctx, b.user.ID, "calendar/v3/")
	if err != nil {
		t.Fatal(err)
	}
	svc, err := calendar.NewService(ctx, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Events.List("primary").Do(); err != nil {
		t.Fatalf("a client from ClientOptions: %v", err)
	}
}

func TestCallbackRefusesBadState(t *testing.T) {
	t.Parallel()
	b := setup(t, "UTC")
	good := b.g.ConnectURL(b.user.ID, google.CalendarScopes...)
	u, _ := url.Parse(good)
	state := u.Query().Get("state")
	forged := strings.Replace(state, ".", ".9", 1)
	other := b.g.ConnectURL(b.user.ID+1, google.CalendarScopes...) // someone else's
	ou, _ := url.Parse(other)
	swapped := strings.SplitN(state, ".", 2)[0] + "." + strings.SplitN(ou.Query().Get("state"), ".", 2)[1]
	cases := map[string]string{"forged": forged, "user swapped": swapped, "empty": "", "garbage": "abc"}
	for name, s := range cases {
		res, err := http.Get(b.hook.URL + google.CallbackPath + "?" + url.Values{"state": {s}, "code": {"stolen"}}.Encode())
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusBadRequest {
			t.Fatalf("%s state: %d", name, res.StatusCode)
		}
	}
	// Expired: the link is 11 minutes old.
	b.clock.Add(11 * time.Minute)
	res, err := http.Get(good)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusBadRequest {
		t.Fatalf("expired state: %d", res.StatusCode)
	}
	if n := b.fake.Count("exchange"); n != 0 {
		t.Fatalf("%d codes exchanged with a bad state", n)
	}
	if _, err := b.st.GoogleAccount(context.Background(), b.user.ID); !errors.Is(err, hearth.ErrNotFound) {
		t.Fatalf("account after bad states: %v", err)
	}
}

func TestRefreshOn401AndBackoff(t *testing.T) {
	t.Parallel()
	b := setup(t, "UTC")
	b.connect(t)
	before, _ := b.st.GoogleAccount(context.Background(), b.user.ID)
	b.fake.ExpireAccessTokens() // the next call gets 401
	b.fake.Fail(http.MethodPost, "/calendar/v3/calendars/", http.StatusTooManyRequests, 1)
	b.fake.Fail(http.MethodPost, "/calendar/v3/calendars/", http.StatusServiceUnavailable, 1)
	start := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	e, err := b.g.Calendar().CreateEvent(context.Background(), "t1:0", hearth.CalendarEvent{UserID: b.user.ID, Title: "Dentist", Start: start, End: start.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if b.fake.Count("refresh") != 1 {
		t.Fatalf("refreshes %d", b.fake.Count("refresh"))
	}
	after, _ := b.st.GoogleAccount(context.Background(), b.user.ID)
	if bytes.Equal(before.Token, after.Token) {
		t.Fatal("the refreshed token was not stored")
	}
	if got := b.fake.Count("POST /calendar/v3/calendars/{id}/events"); got != 4 { // 401, 429, 503, 200
		t.Fatalf("insert requests %d", got)
	}
	if !slices.Equal(b.backoff, []int{1, 2}) {
		t.Fatalf("backoff %v", b.backoff)
	}
	// A retried action (same key) makes no second event.
	if _, err := b.g.Calendar().CreateEvent(context.Background(), "t1:0", hearth.CalendarEvent{UserID: b.user.ID, Title: "Dentist", Start: start, End: start.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if evs := b.fake.Events(email, "primary"); len(evs) != 1 || evs[0].Id != e.ExternalID {
		t.Fatalf("google has %d events", len(evs))
	}
}

func TestPushSyncRenewAndForgedTokens(t *testing.T) {
	t.Parallel()
	b := setup(t, "Europe/Berlin")
	b.connect(t)
	ctx := context.Background()
	b.sync(t)
	if err := b.g.Renew(ctx, b.user.ID); err != nil {
		t.Fatal(err)
	}
	chans := b.fake.Channels()
	if len(chans) != 1 || chans[0].Address != b.hook.URL+google.WebhookPath {
		t.Fatalf("channels %+v", chans)
	}
	ch := chans[0]
	syncsBefore := b.jobs(t, google.SyncArgs{}.Kind())

	// Forged: a known channel with a wrong token, an unknown channel, no
	// headers: 4xx and nothing enqueued.
	for name, h := range map[string][2]string{
		"wrong token":     {ch.Id, "x" + ch.Token},
		"unknown channel": {"hearth-nope", ch.Token},
		"nothing":         {"", ""},
	} {
		req, _ := http.NewRequest(http.MethodPost, b.hook.URL+google.WebhookPath, nil)
		req.Header.Set("X-Goog-Channel-ID", h[0])
		req.Header.Set("X-Goog-Channel-Token", h[1])
		req.Header.Set("X-Goog-Resource-State", "exists")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode < 400 || res.StatusCode >= 500 {
			t.Fatalf("%s: %d", name, res.StatusCode)
		}
	}
	if n := b.jobs(t, google.SyncArgs{}.Kind()); n != syncsBefore {
		t.Fatalf("forged pushes enqueued %d syncs", n-syncsBefore)
	}

	// A change in Google, pushed: a sync job; running it brings the event.
	start := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	ev := b.fake.PutEvent(email, "primary", timed("Team standup", start, 30*time.Minute))
	if st := b.fake.Push(email, "primary"); !slices.Equal(st, []int{200}) {
		t.Fatalf("push answered %v", st)
	}
	if b.jobs(t, google.SyncArgs{}.Kind()) != syncsBefore+1 {
		t.Fatal("a push enqueued no sync")
	}
	// Another push before that sync begins adds none.
	b.fake.Push(email, "primary")
	if b.jobs(t, google.SyncArgs{}.Kind()) != syncsBefore+1 {
		t.Fatal("a second push before the sync began enqueued another")
	}
	b.sync(t)
	if got := titles(b.local(t)); !slices.Equal(got, []string{"Team standup"}) {
		t.Fatalf("local after push %v", got)
	}
	// Moved in Google, then deleted: the local copy follows.
	ev.Start.DateTime = start.Add(time.Hour).Format(time.RFC3339)
	ev.End.DateTime = start.Add(90 * time.Minute).Format(time.RFC3339)
	b.fake.PutEvent(email, "primary", ev)
	b.sync(t)
	if l := b.local(t); len(l) != 1 || !l[0].Start.Equal(start.Add(time.Hour)) {
		t.Fatalf("local after move %+v", l)
	}
	b.fake.DeleteEvent(email, "primary", ev.Id)
	b.sync(t)
	if l := b.local(t); len(l) != 0 {
		t.Fatalf("local after delete %+v", l)
	}

	// Renewal: within RenewBefore of expiry a new channel is opened, then
	// the old one stopped.
	b.clock.Add(7*24*time.Hour - time.Hour)
	if err := b.g.Renew(ctx, 0); err != nil {
		t.Fatal(err)
	}
	chans = b.fake.Channels()
	if len(chans) != 1 || chans[0].Id == ch.Id {
		t.Fatalf("channels after renewal %+v (old %s)", chans, ch.Id)
	}
	if b.fake.Count("POST /calendar/v3/channels/stop") != 1 {
		t.Fatal("the old channel was not stopped")
	}
	// The old channel's late push is refused; the new one's accepted.
	req, _ := http.NewRequest(http.MethodPost, b.hook.URL+google.WebhookPath, nil)
	req.Header.Set("X-Goog-Channel-ID", ch.Id)
	req.Header.Set("X-Goog-Channel-Token", ch.Token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Fatalf("old channel's push: %d", res.StatusCode)
	}
	if st := b.fake.Push(email, "primary"); !slices.Equal(st, []int{200}) {
		t.Fatalf("new channel's push answered %v", st)
	}
}

func TestFullResyncOn410(t *testing.T) {
	t.Parallel()
	b := setup(t, "UTC")
	b.connect(t)
	b.fake.SetPageSize(2) // paging too
	start := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	var ids []string
	for i, title := range []string{"One", "Two", "Three", "Four", "Five"} {
		ids = append(ids, b.fake.PutEvent(email, "primary", timed(title, start.Add(time.Duration(i)*time.Hour), time.Hour)).Id)
	}
	b.sync(t)
	if got := titles(b.local(t)); len(got) != 5 {
		t.Fatalf("first sync %v", got)
	}
	// While the token lapses: one deleted, one added, one changed.
	b.fake.DeleteEvent(email, "primary", ids[1])
	b.fake.PutEvent(email, "primary", timed("Six", start.Add(5*time.Hour), time.Hour))
	b.fake.ExpireSyncTokens()
	b.sync(t)
	want := []string{"One", "Three", "Four", "Five", "Six"}
	if got := titles(b.local(t)); !slices.Equal(got, want) {
		t.Fatalf("after 410: %v, want %v", got, want)
	}
	// And incremental again afterwards.
	b.fake.DeleteEvent(email, "primary", ids[0])
	b.sync(t)
	if got := titles(b.local(t)); !slices.Equal(got, want[1:]) {
		t.Fatalf("after the resync, incremental: %v", got)
	}
}

func TestAllDayAndZones(t *testing.T) {
	t.Parallel()
	b := setup(t, "America/Los_Angeles")
	b.connect(t)
	la, _ := time.LoadLocation("America/Los_Angeles")
	day := time.Date(2026, 12, 24, 0, 0, 0, 0, la)
	eve, err := b.g.Calendar().CreateEvent(context.Background(), "t2:0", hearth.CalendarEvent{UserID: b.user.ID, Title: "Christmas Eve", Start: day, End: day.AddDate(0, 0, 1), AllDay: true})
	if err != nil {
		t.Fatal(err)
	}
	evs := b.fake.Events(email, "primary")
	if len(evs) != 1 || evs[0].Start.Date != "2026-12-24" || evs[0].End.Date != "2026-12-25" || evs[0].Start.DateTime != "" {
		t.Fatalf("google has %+v", evs[0].Start)
	}
	// A note added to it ("add a note to …: bring the crackers") is its
	// description in Google too, the day left as it was.
	notes := "bring the crackers"
	if _, _, err := b.g.Calendar().UpdateEvent(context.Background(), b.user.ID, eve.ID, hearth.CalendarEventUpdate{Description: &notes}); err != nil {
		t.Fatal(err)
	}
	if evs := b.fake.Events(email, "primary"); len(evs) != 1 || evs[0].Description != notes || evs[0].Start.Date != "2026-12-24" {
		t.Fatalf("google has %+v after the note", evs[0])
	}
	// An all-day event made in Google is the user's whole local day.
	b.fake.PutEvent(email, "primary", &calendar.Event{Summary: "Holiday",
		Start: &calendar.EventDateTime{Date: "2026-12-31"}, End: &calendar.EventDateTime{Date: "2027-01-01"}})
	b.sync(t)
	l := b.local(t)
	if len(l) != 2 {
		t.Fatalf("local %+v", l)
	}
	h := l[1]
	if !h.AllDay || !h.Start.Equal(time.Date(2026, 12, 31, 0, 0, 0, 0, la)) || !h.End.Equal(time.Date(2027, 1, 1, 0, 0, 0, 0, la)) {
		t.Fatalf("holiday %+v", h)
	}
	if l[0].Title != "Christmas Eve" || !l[0].Start.Equal(day) {
		t.Fatalf("christmas eve after sync %+v", l[0])
	}
}

func TestRecurringAcrossDSTWithChangedInstance(t *testing.T) {
	t.Parallel()
	b := setup(t, "Europe/Berlin")
	b.connect(t)
	ctx := context.Background()
	berlin, _ := time.LoadLocation("Europe/Berlin")
	// Thursdays at 09:00 Berlin from October 15th; summer time ends on
	// October 25th 2026.
	first := time.Date(2026, 10, 15, 9, 0, 0, 0, berlin)
	master, err := b.g.Calendar().CreateEvent(ctx, "t3:0", hearth.CalendarEvent{UserID: b.user.ID, Title: "Choir",
		Start: first, End: first.Add(90 * time.Minute), Recurrence: []string{"RRULE:FREQ=WEEKLY;COUNT=4"}})
	if err != nil {
		t.Fatal(err)
	}
	b.sync(t)
	l := b.local(t)
	if len(l) != 4 {
		t.Fatalf("instances %d: %v (the series row must give way to its instances)", len(l), titles(l))
	}
	for i, e := range l {
		local := e.Start.In(berlin)
		if local.Hour() != 9 || local.Minute() != 0 || local.Weekday() != time.Thursday {
			t.Fatalf("instance %d at %s", i, local)
		}
		if e.ExternalID == master.ExternalID {
			t.Fatal("the series itself is listed as an event")
		}
	}
	if l[0].Start.UTC().Hour() != 7 || l[3].Start.UTC().Hour() != 8 {
		t.Fatalf("UTC hours %d and %d: DST not followed", l[0].Start.UTC().Hour(), l[3].Start.UTC().Hour())
	}
	// "Skip this Thursday's": the third instance is deleted in Google.
	if _, err := b.g.Calendar().DeleteEvent(ctx, b.user.ID, l[2].ID); err != nil {
		t.Fatal(err)
	}
	// And the last one moves to 10:00.
	ten := l[3].Start.Add(time.Hour)
	tenEnd := ten.Add(90 * time.Minute)
	if _, _, err := b.g.Calendar().UpdateEvent(ctx, b.user.ID, l[3].ID, hearth.CalendarEventUpdate{Start: &ten, End: &tenEnd}); err != nil {
		t.Fatal(err)
	}
	evs := b.fake.Events(email, "primary")
	if len(evs) != 3 {
		t.Fatalf("google has %d instances", len(evs))
	}
	b.sync(t)
	l = b.local(t)
	if len(l) != 3 || l[2].Start.In(berlin).Hour() != 10 || l[1].Start.In(berlin).Day() != 22 {
		t.Fatalf("after skip and move: %+v", l)
	}
}

func TestRevokedGrantFallsBack(t *testing.T) {
	t.Parallel()
	b := setup(t, "UTC")
	b.connect(t)
	b.fake.RevokeGrant(email)
	start := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	e, err := b.g.Calendar().CreateEvent(context.Background(), "t4:0", hearth.CalendarEvent{UserID: b.user.ID, Title: "Gym", Start: start, End: start.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if e.ExternalID != "" {
		// The returned row was written before Google refused; the stored
		// one is the built-in calendar's.
		got, _ := b.st.FindEvent(context.Background(), b.user.ID, e.ID)
		if got.ExternalID != "" {
			t.Fatalf("event still linked to Google: %+v", got)
		}
	}
	a, _ := b.st.GoogleAccount(context.Background(), b.user.ID)
	if a.RevokedAt.IsZero() {
		t.Fatal("the account is not marked revoked")
	}
	// From now on the built-in calendar answers without asking Google.
	n := b.fake.Count("refresh")
	if _, err := b.g.Calendar().CreateEvent(context.Background(), "t4:1", hearth.CalendarEvent{UserID: b.user.ID, Title: "Swim", Start: start, End: start.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if b.fake.Count("refresh") != n {
		t.Fatal("Google was asked again after it refused the grant")
	}
	if got := titles(b.local(t)); len(got) != 2 {
		t.Fatalf("local %v", got)
	}
}

func TestDisconnect(t *testing.T) {
	t.Parallel()
	b := setup(t, "UTC")
	b.connect(t)
	ctx := context.Background()
	b.fake.PutEvent(email, "primary", timed("Synced", time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), time.Hour))
	b.sync(t)
	if err := b.g.Renew(ctx, b.user.ID); err != nil {
		t.Fatal(err)
	}
	got, err := b.g.Disconnect(ctx, b.user.ID)
	if err != nil || got != email {
		t.Fatalf("disconnect: %q %v", got, err)
	}
	if !b.fake.Revoked(email) || len(b.fake.Channels()) != 0 {
		t.Fatalf("revoked %v, channels %v", b.fake.Revoked(email), b.fake.Channels())
	}
	if _, err := b.st.GoogleAccount(ctx, b.user.ID); !errors.Is(err, hearth.ErrNotFound) {
		t.Fatalf("account after disconnect: %v", err)
	}
	if l := b.local(t); len(l) != 0 {
		t.Fatalf("synced copies left: %v", titles(l))
	}
}

func TestFamilyCalendar(t *testing.T) {
	t.Parallel()
	b := setup(t, "Europe/Berlin")
	b.connect(t)
	ctx := context.Background()
	b.fake.AddCalendar(email, "family123@group.calendar.google.com", "Family")
	var cmd func(string) string
	for _, c := range b.g.Commands() {
		if c.Name == "google_calendar" {
			cmd = func(norm string) string {
				if !c.Match(norm) {
					t.Fatalf("%q does not match", norm)
				}
				ans, ok, err := c.Handler.HandleCommand(ctx, commandsRequest(b.user, norm))
				if err != nil || !ok {
					t.Fatalf("%q: %v %v", norm, ok, err)
				}
				return ans.Replies[0].Text
			}
		}
	}
	if got := cmd("sync my work calendar"); !strings.Contains(got, "can't find") || !strings.Contains(got, "Family") {
		t.Fatalf("unknown calendar: %q", got)
	}
	if got := cmd("put family things on the family calendar"); !strings.Contains(got, "Family calendar") {
		t.Fatalf("family: %q", got)
	}
	start := time.Date(2026, 12, 4, 18, 0, 0, 0, time.UTC)
	for key, title := range map[string]string{"t5:0": "Emma's school play", "t5:1": "Budget review"} {
		if _, err := b.g.Calendar().CreateEvent(ctx, key, hearth.CalendarEvent{UserID: b.user.ID, Title: title, Start: start, End: start.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	fam, prim := b.fake.Events(email, "family123@group.calendar.google.com"), b.fake.Events(email, "primary")
	if len(fam) != 1 || fam[0].Summary != "Emma's school play" || len(prim) != 1 || prim[0].Summary != "Budget review" {
		t.Fatalf("family %d, primary %d", len(fam), len(prim))
	}
	// Both calendars sync; an event added to the family calendar in Google
	// comes too.
	b.fake.PutEvent(email, "family123@group.calendar.google.com", timed("Grandma visits", start.Add(24*time.Hour), time.Hour))
	for _, cal := range []string{"primary", "family123@group.calendar.google.com"} {
		if err := b.g.Sync(ctx, b.user.ID, cal); err != nil {
			t.Fatal(err)
		}
	}
	if got := titles(b.local(t)); len(got) != 3 {
		t.Fatalf("local %v", got)
	}
	if err := b.g.Renew(ctx, b.user.ID); err != nil {
		t.Fatal(err)
	}
	if len(b.fake.Channels()) != 2 {
		t.Fatalf("channels %d, want one per calendar", len(b.fake.Channels()))
	}
}

func commandsRequest(u hearth.User, norm string) commands.Request {
	return commands.Request{Turn: pipeline.Turn{User: u, Event: hearth.InboundEvent{Kind: hearth.KindMessage, Text: norm}}, Text: norm, Norm: norm}
}

func TestOneSyncAtATime(t *testing.T) {
	t.Parallel()
	b := setup(t, "UTC")
	b.connect(t)
	ctx := context.Background()
	if _, err := b.st.BeginGoogleSync(ctx, b.user.ID, "primary", false, false, time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := b.g.Sync(ctx, b.user.ID, "primary"); !errors.Is(err, hearth.ErrConflict) {
		t.Fatalf("a second sync while one runs: %v", err)
	}
	// One that ran longer than the stale limit (it crashed) is taken over.
	if _, err := b.st.BeginGoogleSync(ctx, b.user.ID, "primary", false, false, time.Nanosecond); err != nil {
		t.Fatalf("taking over a stale sync: %v", err)
	}
	if err := b.st.AbortGoogleSync(ctx, b.user.ID, "primary"); err != nil {
		t.Fatal(err)
	}
	b.sync(t)
}

func TestRefusedEventLeavesNoCopyAndHandshake(t *testing.T) {
	t.Parallel()
	b := setup(t, "UTC")
	b.connect(t)
	ctx := context.Background()
	b.fake.Fail(http.MethodPost, "/calendar/v3/calendars/", http.StatusBadRequest, 1)
	start := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	_, err := b.g.Calendar().CreateEvent(ctx, "t6:0", hearth.CalendarEvent{UserID: b.user.ID, Title: "Refused", Start: start, End: start.Add(time.Hour)})
	if !errors.Is(err, hearth.ErrInvalid) {
		t.Fatalf("refused create: %v", err)
	}
	if l := b.local(t); len(l) != 0 {
		t.Fatalf("a refused event left a copy: %v", titles(l))
	}
	// The retried action succeeds and the copy is back.
	if _, err := b.g.Calendar().CreateEvent(ctx, "t6:0", hearth.CalendarEvent{UserID: b.user.ID, Title: "Refused", Start: start, End: start.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	b.sync(t)
	if l := b.local(t); len(l) != 1 {
		t.Fatalf("after the retry: %v", titles(l))
	}
	// The watch handshake may arrive before the channel is stored: its
	// token is enough.
	id := "hearth-not-yet-stored"
	req, _ := http.NewRequest(http.MethodPost, b.hook.URL+google.WebhookPath, nil)
	req.Header.Set("X-Goog-Channel-ID", id)
	req.Header.Set("X-Goog-Channel-Token", channelToken(t, id))
	req.Header.Set("X-Goog-Resource-State", "sync")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("handshake: %d", res.StatusCode)
	}
}

func channelToken(t *testing.T, id string) string {
	t.Helper()
	keys, err := google.NewKeys(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	return keys.ChannelToken(id)
}

func TestReconnectAnotherAccount(t *testing.T) {
	t.Parallel()
	b := setup(t, "UTC")
	b.connect(t)
	ctx := context.Background()
	b.fake.PutEvent(email, "primary", timed("Old account's", time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), time.Hour))
	b.sync(t)
	b.fake.SetConsent("second@example.com")
	res, err := http.Get(b.g.ConnectURL(b.user.ID, google.CalendarScopes...))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	a, err := b.st.GoogleAccount(ctx, b.user.ID)
	if err != nil || a.Email != "second@example.com" {
		t.Fatalf("account %+v %v", a, err)
	}
	if l := b.local(t); len(l) != 0 {
		t.Fatalf("the old account's events stayed: %v", titles(l))
	}
	cals, _ := b.st.GoogleCalendars(ctx, b.user.ID)
	if len(cals) != 1 || cals[0].SyncToken != "" {
		t.Fatalf("calendars %+v: the old sync token must not be used", cals)
	}
}

// TestImportedEventJobIsIdempotent: the job that sends an imported event
// to Google, run twice (a retry), makes one Google event, linked to the
// local row, so a sync adds no second copy; an event deleted before its
// job runs (the import undone) is not sent.
func TestImportedEventJobIsIdempotent(t *testing.T) {
	b := setup(t, "Europe/Berlin")
	b.connect(t)
	b.sync(t)
	ctx := context.Background()
	start := time.Now().Add(48 * time.Hour).Truncate(time.Hour).UTC()
	mk := func(title string) hearth.CalendarEvent {
		e, err := b.st.CreateEvent(ctx, "", hearth.CalendarEvent{UserID: b.user.ID, Title: title, Start: start, End: start.Add(time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	e := mk("Imported talk")
	for range 2 {
		if err := b.g.ImportEvent(ctx, google.ImportEventArgs{UserID: b.user.ID, ImportID: 7, EventID: e.ID}); err != nil {
			t.Fatal(err)
		}
	}
	evs := b.fake.Events(email, "primary")
	if len(evs) != 1 || evs[0].Summary != "Imported talk" {
		t.Fatalf("google has %+v", evs)
	}
	got, err := b.st.FindEvent(ctx, b.user.ID, e.ID)
	if err != nil || got.ExternalID != evs[0].Id || got.CalendarID != "primary" {
		t.Fatalf("local row %+v (%v) not linked to %s", got, err, evs[0].Id)
	}
	b.sync(t)
	if es, _ := b.st.FindEvents(ctx, hearth.CalendarEventFilter{UserID: b.user.ID}); len(es) != 1 {
		t.Fatalf("%d local events after the sync; want 1", len(es))
	}

	gone := mk("Undone talk")
	if _, err := b.st.DeleteEvent(ctx, b.user.ID, gone.ID); err != nil {
		t.Fatal(err)
	}
	if err := b.g.ImportEvent(ctx, google.ImportEventArgs{UserID: b.user.ID, ImportID: 7, EventID: gone.ID}); err != nil {
		t.Fatal(err)
	}
	if n := len(b.fake.Events(email, "primary")); n != 1 {
		t.Fatalf("google has %d events; the deleted one went out", n)
	}
}

// TestAttendeesLinkedToPeople: an attendee named without an address is
// invited at the current email of the person (entity) the name stands
// for; a name standing for several people with different addresses is
// not invited; a name with no person falls back to a memory's words.
func TestAttendeesLinkedToPeople(t *testing.T) {
	b := setup(t, "UTC")
	b.connect(t)
	ctx := context.Background()
	uid := b.user.ID
	person := func(name string, aliases []string, emails ...string) {
		t.Helper()
		e, err := b.st.SaveEntity(ctx, hearth.Entity{UserID: uid, Kind: hearth.EntityPerson, Name: name, Aliases: aliases})
		if err != nil {
			t.Fatal(err)
		}
		for _, addr := range emails {
			if _, err := b.st.StoreMemory(ctx, "", hearth.Memory{UserID: uid, EntityID: e.ID, About: name, Attribute: hearth.AttrEmail, Value: addr,
				Content: name + "'s email is " + addr}); err != nil {
				t.Fatal(err)
			}
		}
	}
	person("Sam Kim", []string{"Sammy"}, "sam.old@example.com", "sam.kim@example.com")
	person("Alex Park", nil, "alex.park@example.com")
	person("Alex Ruiz", nil, "alex.ruiz@example.com")
	person("Noor Haddad", nil)
	if _, err := b.st.StoreMemory(ctx, "", hearth.Memory{UserID: uid, About: "Priya", Content: "Priya's email is priya@example.com"}); err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	for i, tc := range []struct {
		attendee, want string
	}{
		{"Sam Kim", "sam.kim@example.com"},
		{"Sammy", "sam.kim@example.com"},
		{"Sam", "sam.kim@example.com"},
		{"Alex", ""},
		{"Alex Ruiz", "alex.ruiz@example.com"},
		{"Priya", "priya@example.com"},
		{"Noor", ""},
		{"Zed", ""},
	} {
		t.Run(tc.attendee, func(t *testing.T) {
			title := fmt.Sprintf("Meeting %d", i)
			if _, err := b.g.Calendar().CreateEvent(ctx, fmt.Sprintf("att:%d", i), hearth.CalendarEvent{UserID: uid, Title: title,
				Start: start, End: start.Add(time.Hour), Attendees: []string{tc.attendee}}); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, ev := range b.fake.Events(email, "primary") {
				if ev.Summary == title {
					for _, a := range ev.Attendees {
						got = append(got, a.Email)
					}
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(slices.DeleteFunc([]string{tc.want}, func(s string) bool { return s == "" })) {
				t.Fatalf("%s invited %v; want %q", tc.attendee, got, tc.want)
			}
		})
	}
}
