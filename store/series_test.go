package store_test

import (
	"errors"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/scheduler/recur"
	"github.com/hearthbot/hearth/store/storetest"
)

// TestEventSeries keeps a repeating event of the built-in calendar: its
// occurrences a year ahead at the same wall-clock time across the clock
// changes, once per key; deleted and restored as one, an occurrence
// cancelled before staying cancelled.
func TestEventSeries(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	swimming, live, every := seriesHelpers(t, berlin)

	t.Run("a year ahead, once per key", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		s := swimming(b.alice)
		first, err := b.st.CreateSeries(b.ctx, "turn:9:0", s, "")
		if err != nil {
			t.Fatal(err)
		}
		if !first.Start.Equal(s.Event.Start) || first.Series == "" {
			t.Fatalf("first occurrence %+v", first)
		}
		again, err := b.st.CreateSeries(b.ctx, "turn:9:0", s, "")
		if err != nil || again.ID != first.ID {
			t.Fatalf("second create = %+v, %v; want the first %+v", again, err, first)
		}
		// 2 December 2026 to 1 December 2027: 53 Wednesdays, across the
		// change to summer time and back.
		every(t, live(b), 53)
		if n := count(t, b, "event_series", b.alice); n != 1 {
			t.Fatalf("%d series, want 1", n)
		}
	})

	t.Run("deleted and restored as one", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		if _, err := b.st.CreateSeries(b.ctx, "", swimming(b.alice), ""); err != nil {
			t.Fatal(err)
		}
		evs := live(b)
		// One occurrence cancelled on its own first: it stays cancelled.
		if _, err := b.st.DeleteEvent(b.ctx, b.alice, evs[1].ID); err != nil {
			t.Fatal(err)
		}
		if _, err := b.st.DeleteSeries(b.ctx, b.bob, evs[3].ID); err == nil {
			t.Fatal("bob deleted alice's series")
		}
		before, err := b.st.DeleteSeries(b.ctx, b.alice, evs[3].ID)
		if err != nil || before.ID != evs[3].ID || before.Series != evs[0].Series {
			t.Fatalf("delete series = %+v, %v", before, err)
		}
		if n := len(live(b)); n != 0 {
			t.Fatalf("%d occurrences left after the series' delete", n)
		}
		for range 2 { // a retried undo changes nothing more
			if err := b.st.RestoreSeries(b.ctx, b.alice, before); err != nil {
				t.Fatal(err)
			}
			back := live(b)
			if len(back) != 52 || back[1].ID == evs[1].ID {
				t.Fatalf("%d back (second %d), want 52 without the one cancelled before (%d)", len(back), back[1].ID, evs[1].ID)
			}
		}
	})

	t.Run("bad input is refused and nothing is written", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		good := swimming(b.alice)
		for name, s := range map[string]hearth.EventSeries{
			"no rule":              {Event: good.Event, Zone: good.Zone, Occurrences: good.Occurrences, Through: good.Through},
			"no zone":              {Event: good.Event, Rule: good.Rule, Occurrences: good.Occurrences, Through: good.Through},
			"no occurrences":       {Event: good.Event, Rule: good.Rule, Zone: good.Zone, Through: good.Through},
			"kept until before":    {Event: good.Event, Rule: good.Rule, Zone: good.Zone, Occurrences: good.Occurrences, Through: good.Event.Start},
			"first is not the one": {Event: good.Event, Rule: good.Rule, Zone: good.Zone, Occurrences: good.Occurrences[1:], Through: good.Through},
		} {
			if _, err := b.st.CreateSeries(b.ctx, "", s, ""); err == nil {
				t.Errorf("%s: created", name)
			} else {
				wantInvalid(t, err)
			}
		}
		if n := count(t, b, "events", b.alice) + count(t, b, "event_series", b.alice); n != 0 {
			t.Fatalf("%d rows written by refused creates", n)
		}
	})
}

// TestEventSeriesExtended runs the extending job, which takes every
// user's series: its subtests have a database to themselves, one at a
// time.
func TestEventSeriesExtended(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	swimming, live, every := seriesHelpers(t, berlin)

	t.Run("extended as time passes, once", func(t *testing.T) {
		b := users(t, st)
		s := swimming(b.alice)
		if _, err := b.st.CreateSeries(b.ctx, "", s, ""); err != nil {
			t.Fatal(err)
		}
		// Eleven and a half months on, the series is kept until half a
		// month from now: the job keeps it a year ahead again.
		now := s.Event.Start.Add(350 * 24 * time.Hour)
		w := &action.SeriesWorker{Store: b.st, Now: func() time.Time { return now }}
		for range 2 {
			if _, err := w.Run(b.ctx); err != nil {
				t.Fatal(err)
			}
			// Every Wednesday from 2 December 2026 to 15 November 2028, the
			// last before now plus a year.
			every(t, live(b), 103)
		}
	})

	t.Run("changed from one occurrence on, and those added later too", func(t *testing.T) {
		b := users(t, st)
		s := swimming(b.alice)
		if _, err := b.st.CreateSeries(b.ctx, "", s, ""); err != nil {
			t.Fatal(err)
		}
		evs := live(b)
		start, end := time.Date(2026, 12, 16, 18, 30, 0, 0, berlin), time.Date(2026, 12, 16, 20, 0, 0, 0, berlin)
		title, place := "Swim club", "Lido"
		before, after, err := b.st.UpdateSeries(b.ctx, b.alice, evs[2].ID, hearth.CalendarEventUpdate{Start: &start, End: &end, Title: &title, Location: &place})
		if err != nil || before.ID != evs[2].ID || !before.Start.Equal(evs[2].Start) || !after.Start.Equal(start) || after.Title != title {
			t.Fatalf("update = %+v, %+v, %v", before, after, err)
		}
		w := &action.SeriesWorker{Store: b.st, Now: func() time.Time { return s.Event.Start.Add(350 * 24 * time.Hour) }}
		if _, err := w.Run(b.ctx); err != nil {
			t.Fatal(err)
		}
		moved := live(b)
		if len(moved) != 103 {
			t.Fatalf("%d occurrences, want 103", len(moved))
		}
		for i, e := range moved {
			s, want := e.Start.In(berlin), 16
			if i >= 2 {
				want = 18 // 18:30, in winter and in summer, and once extended
			}
			if s.Hour() != want || i >= 2 && (s.Minute() != 30 || e.End.Sub(e.Start) != 90*time.Minute || e.Title != title || e.Location != place) ||
				i < 2 && (e.Title != "Swimming" || e.Location != "Pool") || s.Weekday() != time.Wednesday {
				t.Fatalf("occurrence %d: %q at %q, %v–%v", i, e.Title, e.Location, s, e.End.In(berlin))
			}
		}
		if _, _, err := b.st.UpdateSeries(b.ctx, b.bob, evs[2].ID, hearth.CalendarEventUpdate{Title: &title}); err == nil {
			t.Fatal("bob changed alice's series")
		}
		for _, bad := range []hearth.CalendarEventUpdate{{Start: &start}, {Start: &end, End: &start}, {Title: new(string)}} {
			if _, _, err := b.st.UpdateSeries(b.ctx, b.alice, evs[2].ID, bad); !errors.Is(err, hearth.ErrInvalid) {
				t.Errorf("update %+v: %v, want invalid", bad, err)
			}
		}
	})

	// The job reads a series, then expands it, then writes: a series
	// moved or deleted in between is not extended from the old reading.
	t.Run("a stale reading extends nothing", func(t *testing.T) {
		b := users(t, st)
		for _, change := range []string{"move", "delete"} {
			s := swimming(b.alice)
			first, err := b.st.CreateSeries(b.ctx, "", s, "")
			if err != nil {
				t.Fatal(err)
			}
			due, err := b.st.SeriesToExtend(b.ctx, s.Through.Add(1000*24*time.Hour), 1000)
			if err != nil {
				t.Fatal(err)
			}
			var read hearth.EventSeries
			for _, sr := range due {
				if sr.Event.UserID == b.alice && sr.Event.Series == first.Series {
					read = sr
				}
			}
			rows := count(t, b, "events", b.alice)
			switch change {
			case "move":
				start, end := s.Event.Start.Add(time.Hour), s.Event.End.Add(time.Hour)
				_, _, err = b.st.UpdateSeries(b.ctx, b.alice, first.ID, hearth.CalendarEventUpdate{Start: &start, End: &end})
			case "delete":
				_, err = b.st.DeleteSeries(b.ctx, b.alice, first.ID)
			}
			if err != nil {
				t.Fatal(err)
			}
			to := read.Through.Add(30 * 24 * time.Hour)
			occ := action.Occurrences(recur.Rule{Freq: recur.Weekly, Weekdays: recur.WeekdaysOf(time.Wednesday), At: recur.TimeOfDay{Hour: 16}},
				read.Event, berlin, read.Through, to)
			if len(occ) == 0 || read.ID == 0 {
				t.Fatalf("nothing to extend %+v with", read)
			}
			if err := b.st.ExtendSeries(b.ctx, read, occ, to); err != nil {
				t.Fatal(err)
			}
			if n := count(t, b, "events", b.alice); n != rows {
				t.Fatalf("after a %s, a stale extension wrote %d rows", change, n-rows)
			}
		}
	})
}

// seriesHelpers are the series tests' own: a weekly swimming lesson from
// 2 December 2026 at 16:00 in Berlin for a user; the live events of a
// bundle's alice; and a check that events are n of those lessons, a week
// apart.
func seriesHelpers(t *testing.T, berlin *time.Location) (
	swimming func(user int64) hearth.EventSeries,
	live func(b providerBundle) []hearth.CalendarEvent,
	every func(t *testing.T, evs []hearth.CalendarEvent, n int),
) {
	swimming = func(user int64) hearth.EventSeries {
		t.Helper()
		first := hearth.CalendarEvent{UserID: user, Title: "Swimming", Start: time.Date(2026, 12, 2, 16, 0, 0, 0, berlin),
			End: time.Date(2026, 12, 2, 17, 0, 0, 0, berlin), Location: "Pool"}
		rule := recur.Rule{Freq: recur.Weekly, Weekdays: recur.WeekdaysOf(time.Wednesday), At: recur.TimeOfDay{Hour: 16}}
		s, rrule, err := action.NewSeries(first, rule, "Europe/Berlin")
		if err != nil || rrule != "RRULE:FREQ=WEEKLY;BYDAY=WE" {
			t.Fatalf("series: %q, %v", rrule, err)
		}
		return s
	}
	live = func(b providerBundle) []hearth.CalendarEvent {
		t.Helper()
		evs, err := b.st.FindEvents(b.ctx, hearth.CalendarEventFilter{UserID: b.alice, Limit: 500})
		if err != nil {
			t.Fatal(err)
		}
		return evs
	}
	// every checks that evs are weekly, Wednesdays 16:00–17:00 in Berlin,
	// of one series, from the first.
	every = func(t *testing.T, evs []hearth.CalendarEvent, n int) {
		t.Helper()
		if len(evs) != n {
			t.Fatalf("%d occurrences, want %d", len(evs), n)
		}
		for i, e := range evs {
			s, end := e.Start.In(berlin), e.End.In(berlin)
			if s.Weekday() != time.Wednesday || s.Hour() != 16 || s.Minute() != 0 || end.Hour() != 17 || e.Series == "" ||
				e.Series != evs[0].Series || e.Location != "Pool" || e.Title != "Swimming" {
				t.Fatalf("occurrence %d: %+v (%v–%v)", i, e, s, end)
			}
			if i > 0 && recur.DateOf(evs[i-1].Start, berlin).DaysUntil(recur.DateOf(e.Start, berlin)) != 7 {
				t.Fatalf("occurrence %d is not a week after the one before: %v, %v", i, evs[i-1].Start, e.Start)
			}
		}
	}
	return swimming, live, every
}
