package main

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
)

// TestDrillGoogleDown: Google answers 503 to everything for a while.
// Meanwhile a change gets a clear answer (nothing claimed that did not
// happen, nothing half-written) and questions are answered from the
// synced copy; once Google is back, the same request lands in Google with
// nothing to restart.
func TestDrillGoogleDown(t *testing.T) {
	t.Parallel()
	base, app, fake := startGoogleApp(t)
	gus := newChatter(t, base, app, "Gus", "Europe/Paris")
	gus.say("stop my briefings")
	connectGoogle(t, gus, fake, "gus@example.com")
	mustContain(t, gus.say("Add dentist tomorrow at 3pm to my calendar"), "entist")
	if n := len(fake.Events("gus@example.com", "primary")); n != 1 {
		t.Fatalf("google has %d events; want the dentist", n)
	}

	fake.Fail("", "/calendar/v3", http.StatusServiceUnavailable, 1<<30)
	downAt := time.Now()
	r := gus.say("Add swim on Friday at 8am to my calendar")
	t.Logf("with Google down, the change was answered in %s: %q", time.Since(downAt).Round(time.Millisecond), r.Text)
	mustContain(t, r, "wim")
	if len(fake.Events("gus@example.com", "primary")) != 1 {
		t.Fatal("an event reached Google while it was down")
	}
	uid := gus.contact().User.ID
	evs, err := app.Store.FindEvents(context.Background(), hearth.CalendarEventFilter{UserID: uid})
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 || evs[0].Title != "Dentist" {
		t.Fatalf("events %+v; want only the dentist (nothing half-written while Google was down)", evs)
	}
	mustContain(t, r, "isn't answering")
	// Reading needs no Google: the synced copy answers.
	mustContain(t, gus.say("what's on my calendar tomorrow?"), "entist")

	fake.Restore()
	upAt := time.Now()
	r = gus.say("Add swim on Friday at 8am to my calendar")
	t.Logf("with Google back, answered in %s: %q", time.Since(upAt).Round(time.Millisecond), r.Text)
	mustContain(t, r, "wim")
	found := false
	for _, ev := range fake.Events("gus@example.com", "primary") {
		found = found || ev.Summary == "Swim"
	}
	if !found {
		t.Fatalf("after recovery the swim is not in Google: %+v", fake.Events("gus@example.com", "primary"))
	}
}
