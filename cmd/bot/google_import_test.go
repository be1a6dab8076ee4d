package main

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/adapters/webchat"
	"github.com/hearthbot/hearth/pipeline/pipelinetest"
)

// TestGoogleImportedEvents: a calendar file imported by a user who
// connected Google goes out to Google after the commit, one job per
// event, each linked to its local row so that a sync adds nothing; undo
// takes the events back out of Google too.
func TestGoogleImportedEvents(t *testing.T) {
	t.Parallel()
	base, app, fake := startGoogleApp(t)
	cleo := newChatter(t, base, app, "Cleo", "Europe/Berlin")
	cleo.say("stop my briefings")
	connectGoogle(t, cleo, fake, "cleo@example.com")
	uid := cleo.contact().User.ID
	ctx := context.Background()

	day := time.Now().UTC().AddDate(0, 0, 10).Format("20060102")
	ics := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n"
	for i, title := range []string{"Pottery class", "Book club", "Piano recital"} {
		ics += fmt.Sprintf("BEGIN:VEVENT\r\nUID:imp-%d@test\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:%s\r\nDTSTART:%sT%02d0000Z\r\nDTEND:%sT%02d3000Z\r\nEND:VEVENT\r\n", i, title, day, 9+i, day, 9+i)
	}
	ics += "END:VCALENDAR\r\n"

	sum := cleo.send("club.ics", []byte(ics))
	for len(sum.Buttons) > 0 && !hasButton(sum, "Approve") {
		sum = cleo.click(sum, sum.Buttons[0].Label)
	}
	mustContain(t, cleo.click(sum, "Approve"), "Imported from “club.ics”", "3 events")

	titles := func() []string {
		var out []string
		for _, ev := range fake.Events("cleo@example.com", "primary") {
			out = append(out, ev.Summary)
		}
		sort.Strings(out)
		return out
	}
	pipelinetest.WaitForJobs(t, app.River, "the imported events in Google", func() bool { return len(titles()) == 3 })
	if got := fmt.Sprint(titles()); got != "[Book club Piano recital Pottery class]" {
		t.Fatalf("google has %s", got)
	}
	if n := cleo.count(`SELECT count(*) FROM events WHERE user_id = $1 AND import_id IS NOT NULL AND calendar_id = 'primary' AND external_id IS NOT NULL AND deleted_at IS NULL`, uid); n != 3 {
		t.Fatalf("%d imported events linked to Google; want 3", n)
	}

	// A sync sees them in Google and adds nothing.
	syncs := fake.Count("GET /calendar/v3/calendars/{id}/events")
	fake.Push("cleo@example.com", "primary")
	pipelinetest.WaitForJobs(t, app.River, "the sync after the push", func() bool {
		return fake.Count("GET /calendar/v3/calendars/{id}/events") > syncs
	})
	es, err := app.Store.FindEvents(ctx, hearth.CalendarEventFilter{UserID: uid})
	if err != nil || len(es) != 3 {
		t.Fatalf("%d local events after the sync (%v); want 3", len(es), err)
	}

	// Undo takes them out of Google as well.
	mustContain(t, cleo.say("undo the import"), "Undone", "club.ics")
	pipelinetest.WaitForJobs(t, app.River, "the undone events gone from Google", func() bool { return len(titles()) == 0 })
	if n := cleo.count(`SELECT count(*) FROM events WHERE user_id = $1 AND deleted_at IS NULL`, uid); n != 0 {
		t.Fatalf("%d events left after undo", n)
	}
}

func hasButton(m webchat.Message, label string) bool {
	for _, b := range m.Buttons {
		if b.Label == label {
			return true
		}
	}
	return false
}
