package respond

import (
	"testing"
	"time"

	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/scheduler/recur"
)

// TestBulkApprovalText: several approvals of one turn are asked as one
// question: events to cancel by their titles, anything else each in its
// own words.
func TestBulkApprovalText(t *testing.T) {
	t.Parallel()
	out := func(k action.Kind, v any) stage.Outcome {
		a, err := action.New(k, v)
		if err != nil {
			t.Fatal(err)
		}
		return stage.Outcome{Action: a, Status: stage.AwaitingApproval}
	}
	yoga, haircut := out(action.CalendarDelete, action.EventRefArgs{ID: 1, Title: "Yoga"}), out(action.CalendarDelete, action.EventRefArgs{ID: 2, Title: "Haircut"})
	if got, want := bulkApprovalText([]stage.Outcome{yoga, haircut}, stage.Context{}), "Shall I cancel these 2 events: “Yoga” and “Haircut”?"; got != want {
		t.Errorf("got %q; want %q", got, want)
	}
	eggs := out(action.TaskCreate, action.TaskCreateArgs{Title: "Buy eggs"})
	if got, want := bulkApprovalText([]stage.Outcome{eggs, yoga}, stage.Context{}), "Shall I add “Buy eggs” to your tasks and cancel Yoga?"; got != want {
		t.Errorf("got %q; want %q", got, want)
	}
}

// TestRepeats says how a repeating event repeats, in the user's clock,
// from when, and until when.
func TestRepeats(t *testing.T) {
	t.Parallel()
	z, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	c := stage.Context{Now: time.Date(2026, 11, 28, 19, 0, 0, 0, z), Location: z} // a Saturday
	wed := recur.WeekdaysOf(time.Wednesday)
	for _, tt := range []struct {
		p    action.EventCreateArgs
		want string
	}{
		{action.EventCreateArgs{Start: time.Date(2026, 12, 2, 16, 0, 0, 0, z), Repeat: &recur.Rule{Freq: recur.Weekly, Weekdays: wed, At: recur.TimeOfDay{Hour: 16}}},
			"every Wednesday at 4:00 PM, starting Wednesday"},
		{action.EventCreateArgs{Start: time.Date(2026, 12, 2, 0, 0, 0, 0, z), AllDay: true, Repeat: &recur.Rule{Freq: recur.Weekly, Weekdays: wed}},
			"every Wednesday, starting Wednesday"},
		{action.EventCreateArgs{Start: time.Date(2026, 12, 2, 9, 30, 0, 0, z),
			Repeat: &recur.Rule{Freq: recur.Weekly, Weekdays: wed, At: recur.TimeOfDay{Hour: 9, Minute: 30}, Until: recur.Date{Year: 2026, Month: time.December, Day: 24}}},
			"every Wednesday at 9:30 AM, starting Wednesday, until December 24, 2026"},
	} {
		if got := repeats(tt.p, c); got != tt.want {
			t.Errorf("repeats(%v) = %q, want %q", tt.p.Repeat, got, tt.want)
		}
	}
}
