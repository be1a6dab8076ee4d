package main

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
)

// seriesOf returns the chatter's events of the coming fortnight titled
// title, and fails unless they are all one series.
func seriesOf(t *testing.T, c *chatter, title string) []hearth.CalendarEvent {
	t.Helper()
	var out []hearth.CalendarEvent
	for _, e := range c.events() {
		if e.Title != title {
			continue
		}
		if e.Series == "" || len(out) > 0 && e.Series != out[0].Series {
			t.Fatalf("%q is not one series: %+v", title, c.events())
		}
		out = append(out, e)
	}
	return out
}

// TestRepeatingEvents adds repeating events through the web chat API,
// offline, to the built-in calendar, and cancels them: asked whether the
// next one or every one, each done at once (the user named their own
// event), "for good" without asking, and undo bringing back what the
// cancel took.
func TestRepeatingEvents(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Ada", "Europe/Berlin")
	berlin, _ := time.LoadLocation("Europe/Berlin")

	mustContain(t, c.say("the kids have swimming every Wednesday at 4pm"), "Kids' swimming", "every Wednesday at 4:00 PM")
	swims := seriesOf(t, c, "Kids' swimming")
	if len(swims) != 2 {
		t.Fatalf("%d swimming lessons in a fortnight, want 2", len(swims))
	}
	for _, e := range swims {
		if s := e.Start.In(berlin); s.Weekday() != time.Wednesday || s.Hour() != 16 || e.End.Sub(e.Start) != time.Hour {
			t.Fatalf("swimming at %v–%v", s, e.End.In(berlin))
		}
	}
	mustContain(t, c.say("bin day every Tuesday"), "Bin day", "every Tuesday, starting")
	// Two in a fortnight, three when today is a Tuesday (today's counts).
	bins := seriesOf(t, c, "Bin day")
	if len(bins) < 2 || !bins[0].AllDay {
		t.Fatalf("bin days %+v, want all-day ones", bins)
	}
	mustContain(t, c.say("what's on next week?"), "Kids' swimming", "Bin day")
	mustContain(t, c.say("when is swimming?"), "Kids' swimming is", "4:00 PM")
	mustContain(t, c.say("when's my next swimming?"), "Kids' swimming is", "4:00 PM")

	// Just the next one: it goes, the next week's stays.
	ask := c.say("cancel swimming")
	mustContain(t, ask, "repeats", "every one")
	mustContain(t, c.click(ask, "Just "+strings.TrimPrefix(ask.Buttons[0].Label, "Just ")), "removed Kids' swimming", "just this one")
	if left := seriesOf(t, c, "Kids' swimming"); len(left) != 1 || left[0].ID != swims[1].ID {
		t.Fatalf("after cancelling the next one: %+v", left)
	}
	// Every one: none left, and undo brings back those it took.
	ask = c.say("cancel the kids' swimming")
	mustContain(t, c.click(ask, "Every one"), "every time it repeats")
	if left := seriesOf(t, c, "Kids' swimming"); len(left) != 0 {
		t.Fatalf("after cancelling every one: %+v", left)
	}
	mustContain(t, c.say("undo"), "back")
	if left := seriesOf(t, c, "Kids' swimming"); len(left) != 1 || left[0].ID != swims[1].ID {
		t.Fatalf("after undo: %+v; want the one left before", left)
	}

	// Another time of day: the next one, or every one (here, from now
	// on without asking); undo puts every one back.
	hours := func() (h []int) {
		for _, e := range seriesOf(t, c, "Bin day") {
			h = append(h, e.Start.In(berlin).Hour())
		}
		for _, e := range c.events() {
			if e.Title == "Kids' swimming" {
				h = append(h, e.Start.In(berlin).Hour())
			}
		}
		return h
	}
	mustContain(t, c.say("piano every Monday at 5pm"), "every Monday at 5:00 PM")
	ask = c.say("move piano to 6pm")
	mustContain(t, ask, "repeats", "Move just the next one")
	mustContain(t, c.click(ask, "Every one"), "moved Piano to 6:00 PM, every time it repeats")
	for _, e := range seriesOf(t, c, "Piano") {
		if s := e.Start.In(berlin); s.Hour() != 18 || e.End.Sub(e.Start) != time.Hour {
			t.Fatalf("piano at %v after moving every one to 6pm", s)
		}
	}
	mustContain(t, c.say("move piano to 7:30pm from now on"), "every time it repeats")
	mustContain(t, c.say("undo"), "back")
	for _, e := range seriesOf(t, c, "Piano") {
		if s := e.Start.In(berlin); s.Hour() != 18 {
			t.Fatalf("piano at %v after undo, want 6pm", s)
		}
	}
	// Told as news, "now": every one, and undo.
	mustContain(t, c.say("piano is now at 5:30pm"), "moved Piano to 5:30 PM, every time it repeats")
	for _, e := range seriesOf(t, c, "Piano") {
		if s := e.Start.In(berlin); s.Hour() != 17 || s.Minute() != 30 {
			t.Fatalf("piano at %v after the news", s)
		}
	}
	c.say("undo")
	before := hours()
	ask = c.say("move piano to 8pm")
	mustContain(t, c.click(ask, "Just "+strings.TrimPrefix(ask.Buttons[0].Label, "Just ")), "moved Piano")
	if pianos := seriesOf(t, c, "Piano"); pianos[0].Start.In(berlin).Hour() != 20 || pianos[1].Start.In(berlin).Hour() != 18 {
		t.Fatalf("after moving the next one: %+v", pianos)
	}
	if after := hours(); !slices.Equal(before, after) {
		t.Fatalf("moving piano moved others: %v, then %v", before, after)
	}
	// Another day: the next one alone, and the reply says so; every one
	// to another day is beyond Hearth yet, which it says, offering the
	// next one.
	mustContain(t, c.say("move piano to Tuesday"), "moved Piano", "just this one")
	ask = c.say("move piano to Thursdays from now on")
	mustContain(t, ask, "not to another day yet", "Move just the next one")
	if len(ask.Buttons) != 1 {
		t.Fatalf("buttons %+v, want the next one's alone", ask.Buttons)
	}
	mustContain(t, c.click(ask, ask.Buttons[0].Label), "moved Piano", "just this one")
	if pianos := seriesOf(t, c, "Piano"); pianos[0].Start.In(berlin).Weekday() != time.Thursday || pianos[1].Start.In(berlin).Weekday() != time.Monday {
		t.Fatalf("after moving the next one to another day: %+v", pianos)
	}
	// From next week: every one from then on, and the reply says from when.
	mustContain(t, c.say("move piano to 7pm from next week"), "moved Piano to 7:00 PM from", " on.")
	if pianos := seriesOf(t, c, "Piano"); pianos[len(pianos)-1].Start.In(berlin).Hour() != 19 {
		t.Fatalf("after moving every one from next week: %+v", pianos)
	}

	// Renamed as one, and back.
	pianos := seriesOf(t, c, "Piano")
	mustContain(t, c.say("rename piano to keyboard lesson"), "renamed Piano to Keyboard lesson, every time it repeats")
	if renamed := seriesOf(t, c, "Keyboard lesson"); len(renamed) != len(pianos) || len(seriesOf(t, c, "Piano")) != 0 {
		t.Fatalf("renamed %d of %d", len(renamed), len(pianos))
	}
	c.say("undo")
	if back := seriesOf(t, c, "Piano"); len(back) != len(pianos) {
		t.Fatalf("%d pianos after undo, want %d", len(back), len(pianos))
	}

	// "For good" asks nothing; undo of the add takes every one away.
	mustContain(t, c.say("cancel bin day for good"), "every time it repeats")
	if bins := seriesOf(t, c, "Bin day"); len(bins) != 0 {
		t.Fatalf("bin days left: %+v", bins)
	}
	c.say("undo")
	if back := seriesOf(t, c, "Bin day"); len(back) != len(bins) {
		t.Fatalf("bin days after undo: %+v, want %d", back, len(bins))
	}
	// "No more bin day" ends it as "for good" does (it was small talk).
	mustContain(t, c.say("no more bin day"), "every time it repeats")
	if left := seriesOf(t, c, "Bin day"); len(left) != 0 {
		t.Fatalf("bin days left after no more: %+v", left)
	}
	c.say("undo")
	// Other ways to say it: days in the plural, the nth weekday of a
	// month, an end; a reminder the same way.
	mustContain(t, c.say("gym Mondays and Thursdays at 7am"), "Gym", "every Monday and Thursday at 7:00 AM")
	mustContain(t, c.say("book club on the first Thursday of every month at 8pm"), "Book club", "on the first Thursday of every month at 8:00 PM")
	mustContain(t, c.say("choir every Tuesday at 7pm until the end of January"), "Choir", "every Tuesday at 7:00 PM", "until January 31")
	mustContain(t, c.say("remind me on the last Friday of every month to pay rent"), "pay rent on the last Friday of every month")
	// Said as news, or taken for small talk by the classifier: still the
	// calendar's.
	mustContain(t, c.say("I go running every Sunday at 8am"), "Added Running", "every Sunday at 8:00 AM")
	mustContain(t, c.say("family movie night every Friday at 7pm"), "Added Family movie night", "every Friday at 7:00 PM")
	mustContain(t, c.say("every Thursday I have band practice at 6pm"), "Added Band practice", "every Thursday at 6:00 PM")
	mustContain(t, c.say("piano lesson every other Thursday at 5:30pm"), "every other Thursday at 5:30 PM")
	c.say("undo")
	if len(seriesOf(t, c, "Piano lesson")) != 0 {
		t.Fatal("undo left the piano lessons")
	}
}

// TestGoogleRepeatingEvent adds a repeating event to a connected Google
// Calendar: one recurring event in Google, whose instances the local copy
// holds at once (no push needed); "every one" deletes it in Google, and
// undo makes it again.
func TestGoogleRepeatingEvent(t *testing.T) {
	t.Parallel()
	base, app, fake := startGoogleApp(t)
	ann := newChatter(t, base, app, "Ann", "Europe/Berlin")
	ann.say("stop my briefings")
	connectGoogle(t, ann, fake, "ann@example.com")
	berlin, _ := time.LoadLocation("Europe/Berlin")

	// yoga is Google's instances of the one recurring event.
	yoga := func() (master string, n int) {
		t.Helper()
		for _, ev := range fake.Events("ann@example.com", "primary") {
			if ev.Summary != "Yoga" {
				continue
			}
			start, _ := time.Parse(time.RFC3339, ev.Start.DateTime)
			if ev.RecurringEventId == "" || master != "" && ev.RecurringEventId != master ||
				start.In(berlin).Weekday() != time.Tuesday || start.In(berlin).Hour() != 18 {
				t.Fatalf("yoga in google: %+v at %v", ev, start.In(berlin))
			}
			master, n = ev.RecurringEventId, n+1
		}
		return master, n
	}
	mustContain(t, ann.say("yoga every Tuesday at 6pm"), "every Tuesday at 6:00 PM")
	master, n := yoga()
	if n < 52 {
		t.Fatalf("google has %d yoga classes, want a recurring event", n)
	}
	local := seriesOf(t, ann, "Yoga")
	if len(local) != 2 || local[0].Series != master {
		t.Fatalf("local copy %+v; want this fortnight's two instances of %s", local, master)
	}

	ask := ann.say("cancel yoga")
	mustContain(t, ann.click(ask, "Every one"), "every time it repeats")
	if _, n := yoga(); n != 0 {
		t.Fatalf("google still has %d yoga classes", n)
	}
	if left := seriesOf(t, ann, "Yoga"); len(left) != 0 {
		t.Fatalf("local copy keeps %+v", left)
	}
	mustContain(t, ann.say("undo"), "back")
	again, n := yoga()
	if n < 52 || again == master {
		t.Fatalf("after undo google has %d yoga classes of %q (was %q)", n, again, master)
	}
	if local := seriesOf(t, ann, "Yoga"); len(local) != 2 {
		t.Fatalf("local copy after undo: %+v", local)
	}

	// Every one moved: Google's series, so every instance.
	ask = ann.say("move yoga to 7pm")
	mustContain(t, ann.click(ask, "Every one"), "every time it repeats")
	for _, ev := range fake.Events("ann@example.com", "primary") {
		if start, _ := time.Parse(time.RFC3339, ev.Start.DateTime); ev.Summary == "Yoga" && start.In(berlin).Hour() != 19 {
			t.Fatalf("yoga in google at %v after moving every one to 7pm", start.In(berlin))
		}
	}
	for _, e := range seriesOf(t, ann, "Yoga") {
		if e.Start.In(berlin).Hour() != 19 {
			t.Fatalf("local yoga at %v", e.Start.In(berlin))
		}
	}
	mustContain(t, ann.say("undo"), "back")
	for _, ev := range fake.Events("ann@example.com", "primary") {
		if start, _ := time.Parse(time.RFC3339, ev.Start.DateTime); ev.Summary == "Yoga" && start.In(berlin).Hour() != 18 {
			t.Fatalf("yoga in google at %v after undo", start.In(berlin))
		}
	}

	// The first Thursday of every month: Google's rule says so (BYDAY=1TH).
	mustContain(t, ann.say("book club on the first Thursday of every month at 8pm"), "on the first Thursday of every month")
	clubs := 0
	for _, ev := range fake.Events("ann@example.com", "primary") {
		start, _ := time.Parse(time.RFC3339, ev.Start.DateTime)
		if ev.Summary != "Book club" {
			continue
		}
		if s := start.In(berlin); s.Weekday() != time.Thursday || s.Day() > 7 || s.Hour() != 20 {
			t.Fatalf("book club in google on %v", s)
		}
		clubs++
	}
	if clubs < 12 {
		t.Fatalf("google has %d book clubs, want a monthly series", clubs)
	}

	// Renamed: Google's series, and the local copy.
	mustContain(t, ann.say("rename yoga to power yoga"), "every time it repeats")
	if _, n := yoga(); n != 0 {
		t.Fatalf("google still has %d classes called Yoga", n)
	}
	if local := seriesOf(t, ann, "Power yoga"); len(local) != 2 {
		t.Fatalf("local copy after the rename: %+v", ann.events())
	}

	// An undo tried twice (a retried job) makes the series once.
	powerYoga := func() (masters map[string]int) {
		masters = map[string]int{}
		for _, ev := range fake.Events("ann@example.com", "primary") {
			if ev.Summary == "Power yoga" {
				masters[ev.RecurringEventId]++
			}
		}
		return masters
	}
	was := powerYoga()
	cal, uid := app.Google.Calendar(), ann.contact().User.ID
	before, err := cal.DeleteSeries(context.Background(), uid, seriesOf(t, ann, "Power yoga")[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := cal.RestoreSeries(context.Background(), uid, before); err != nil {
			t.Fatal(err)
		}
	}
	if now := powerYoga(); len(now) != 1 || len(was) != 1 {
		t.Fatalf("series in google before %v, after a twice-tried restore %v: want one each", was, now)
	}
}
