package store_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/store/storetest"
)

func eventTitles(es []hearth.CalendarEvent) []string {
	return titles(es, func(e hearth.CalendarEvent) string { return e.Title })
}

func TestEvents(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	at := func(day, hour, minute int) time.Time { return time.Date(2026, 5, day, hour, minute, 0, 0, time.UTC) }

	t.Run("create is idempotent and round-trips", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		rome, err := time.LoadLocation("Europe/Rome")
		if err != nil {
			t.Skip("no tzdata:", err)
		}
		in := hearth.CalendarEvent{
			UserID: b.alice, Title: "Dentist", Start: time.Date(2026, 5, 4, 9, 0, 0, 0, rome), End: time.Date(2026, 5, 4, 10, 0, 0, 0, rome),
			Location: "Via Roma 1", Attendees: []string{"ann@example.com", " ", "ann@example.com"}, Description: "bring the card",
		}
		first, err := b.st.CreateEvent(b.ctx, "turn:2:0", in)
		if err != nil {
			t.Fatal(err)
		}
		if !first.Start.Equal(in.Start) || first.Start.Location() != time.UTC || !first.End.Equal(in.End) ||
			!reflect.DeepEqual(first.Attendees, []string{"ann@example.com"}) || first.Location != in.Location || first.Description != in.Description {
			t.Fatalf("created %+v; want %+v in UTC with attendees cleaned", first, in)
		}
		again, err := b.st.CreateEvent(b.ctx, "turn:2:0", hearth.CalendarEvent{UserID: b.alice, Title: "Other", Start: at(1, 1, 0), End: at(1, 2, 0)})
		if err != nil || !reflect.DeepEqual(again, first) {
			t.Fatalf("second create = %+v, %v; want the first %+v", again, err, first)
		}
		if n := count(t, b, "events", b.alice); n != 1 {
			t.Fatalf("%d events; want 1", n)
		}
	})

	t.Run("bad input is refused and nothing is written", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		for _, e := range []hearth.CalendarEvent{
			{UserID: b.alice, Title: "", Start: at(1, 9, 0), End: at(1, 10, 0)},
			{UserID: b.alice, Title: "No start", End: at(1, 10, 0)},
			{UserID: b.alice, Title: "No end", Start: at(1, 10, 0)},
			{UserID: b.alice, Title: "Backwards", Start: at(1, 10, 0), End: at(1, 9, 0)},
			{Title: "No user", Start: at(1, 9, 0), End: at(1, 10, 0)},
		} {
			_, err := b.st.CreateEvent(b.ctx, "", e)
			wantInvalid(t, err)
		}
		if n := count(t, b, "events", b.alice); n != 0 {
			t.Fatalf("%d events written; want 0", n)
		}
	})

	t.Run("update, scoping, delete and restore", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		created, err := b.st.CreateEvent(b.ctx, "", hearth.CalendarEvent{UserID: b.alice, Title: "Standup", Start: at(4, 9, 0), End: at(4, 9, 15)})
		if err != nil {
			t.Fatal(err)
		}
		before, after, err := b.st.UpdateEvent(b.ctx, b.alice, created.ID, hearth.CalendarEventUpdate{
			Start: ptr(at(4, 10, 0)), End: ptr(at(4, 10, 30)), Attendees: ptr([]string{"team@example.com"}),
		})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(before, created) || !after.Start.Equal(at(4, 10, 0)) || !after.End.Equal(at(4, 10, 30)) ||
			!reflect.DeepEqual(after.Attendees, []string{"team@example.com"}) || after.Title != "Standup" {
			t.Fatalf("update = %+v → %+v", before, after)
		}
		// The notes, alone: the rest stays.
		noted, noted2, err := b.st.UpdateEvent(b.ctx, b.alice, created.ID, hearth.CalendarEventUpdate{Description: ptr("bring the agenda")})
		if err != nil || !reflect.DeepEqual(noted, after) || noted2.Description != "bring the agenda" || !noted2.Start.Equal(after.Start) {
			t.Fatalf("notes update = %+v → %+v, %v", noted, noted2, err)
		}
		after = noted2
		// Moving the start past the end alone is refused, and changes nothing.
		_, _, err = b.st.UpdateEvent(b.ctx, b.alice, created.ID, hearth.CalendarEventUpdate{Start: ptr(at(4, 11, 0))})
		wantInvalid(t, err)

		_, _, err = b.st.UpdateEvent(b.ctx, b.bob, created.ID, hearth.CalendarEventUpdate{Title: ptr("Bob's now")})
		wantNotFound(t, "update by another user", err)
		_, err = b.st.DeleteEvent(b.ctx, b.bob, created.ID)
		wantNotFound(t, "delete by another user", err)
		wantNotFound(t, "restore by another user", b.st.RestoreEvent(b.ctx, b.bob, created.ID))

		deleted, err := b.st.DeleteEvent(b.ctx, b.alice, created.ID)
		if err != nil || !reflect.DeepEqual(deleted, after) {
			t.Fatalf("delete = %+v, %v; want %+v", deleted, err, after)
		}
		if got, _ := b.st.FindEvents(b.ctx, hearth.CalendarEventFilter{UserID: b.alice}); len(got) != 0 {
			t.Fatalf("deleted event still found: %v", eventTitles(got))
		}
		if err := b.st.RestoreEvent(b.ctx, b.alice, created.ID); err != nil {
			t.Fatal(err)
		}
		if got, _ := b.st.FindEvents(b.ctx, hearth.CalendarEventFilter{UserID: b.alice}); len(got) != 1 || !reflect.DeepEqual(got[0], after) {
			t.Fatalf("restored = %+v; want %+v", got, after)
		}
	})

	t.Run("find overlapping a window, by start", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		for _, e := range []hearth.CalendarEvent{
			{Title: "Ends as the window starts", Start: at(6, 9, 0), End: at(6, 10, 0)},
			{Title: "Inside", Start: at(6, 10, 30), End: at(6, 11, 0)},
			{Title: "Starts as the window starts", Start: at(6, 10, 0), End: at(6, 10, 45), Location: "Kitchen"},
			{Title: "Overnight, spans the window", Start: at(5, 22, 0), End: at(7, 1, 0)},
			{Title: "Reminder at noon", Start: at(6, 12, 0), End: at(6, 12, 0)},
			{Title: "Starts as the window ends", Start: at(6, 13, 0), End: at(6, 14, 0)},
			{Title: "Moment at ten", Start: at(6, 10, 0), End: at(6, 10, 0), Description: "kitchen timer"},
		} {
			e.UserID = b.alice
			if _, err := b.st.CreateEvent(b.ctx, "", e); err != nil {
				t.Fatal(err)
			}
		}
		for _, tc := range []struct {
			name string
			f    hearth.CalendarEventFilter
			want []string
		}{
			{"[10:00, 13:00)", hearth.CalendarEventFilter{From: at(6, 10, 0), To: at(6, 13, 0)},
				[]string{"Overnight, spans the window", "Starts as the window starts", "Moment at ten", "Inside", "Reminder at noon"}},
			{"open start", hearth.CalendarEventFilter{To: at(6, 10, 0)},
				[]string{"Overnight, spans the window", "Ends as the window starts"}},
			{"open end", hearth.CalendarEventFilter{From: at(6, 12, 30)},
				[]string{"Overnight, spans the window", "Starts as the window ends"}},
			{"query words in title, location or description", hearth.CalendarEventFilter{Query: "kitchen"},
				[]string{"Starts as the window starts", "Moment at ten"}},
			{"limit", hearth.CalendarEventFilter{Limit: 1}, []string{"Overnight, spans the window"}},
		} {
			tc.f.UserID = b.alice
			got, err := b.st.FindEvents(b.ctx, tc.f)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if names := eventTitles(got); !reflect.DeepEqual(names, tc.want) {
				t.Errorf("%s: got %q; want %q", tc.name, names, tc.want)
			}
		}
		if got, _ := b.st.FindEvents(b.ctx, hearth.CalendarEventFilter{UserID: b.bob}); len(got) != 0 {
			t.Fatalf("bob sees alice's events: %v", eventTitles(got))
		}
		_, err := b.st.FindEvents(b.ctx, hearth.CalendarEventFilter{UserID: b.alice, From: at(6, 13, 0), To: at(6, 10, 0)})
		wantInvalid(t, err)
	})
}
