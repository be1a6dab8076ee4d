package store_test

import (
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
// cancelled before staying cancelled; extended as time passes, once.
func TestEventSeries(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	swimming := func(user int64) hearth.EventSeries {
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
	live := func(b providerBundle) []hearth.CalendarEvent {
		t.Helper()
		evs, err := b.st.FindEvents(b.ctx, hearth.CalendarEventFilter{UserID: b.alice, Limit: 500})
		if err != nil {
			t.Fatal(err)
		}
		return evs
	}
	// every checks that evs are weekly, Wednesdays 16:00–17:00 in Berlin,
	// of one series, from the first.
	every := func(t *testing.T, evs []hearth.CalendarEvent, n int) {
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

	t.Run("extended as time passes, once", func(t *testing.T) {
		t.Parallel()
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
