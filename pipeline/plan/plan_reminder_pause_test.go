package plan

import (
	"reflect"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/scheduler/recur"
)

// TestPlanReminderPause: a pause skips every time the reminder comes in
// it, the days skipped before kept; a resume gives back the times still
// to come; a pause that skips nothing, one too long, and a reminder not
// there are said so; other pauses are not a reminder's.
func TestPlanReminderPause(t *testing.T) {
	t.Parallel()
	c := stage.Context{
		Now:      time.Date(2026, 3, 5, 12, 0, 0, 0, time.UTC), // a Thursday
		Location: time.UTC,
		Reminders: []hearth.Schedule{
			{ID: 1, Kind: hearth.ScheduleReminder, Title: "Join the standup", Rule: []byte(`{"freq":"weekly","weekdays":["mon","tue","wed","thu","fri"],"at":"09:00"}`)},
			{ID: 2, Kind: hearth.ScheduleReminder, Title: "Put out the bins", Rule: []byte(`{"freq":"weekly","weekdays":["tue"],"at":"19:00","skip":["2026-03-03","2026-03-17"]}`)},
		},
	}
	d := func(day int) recur.Date { return recur.Date{Year: 2026, Month: 3, Day: day} }
	tests := []struct {
		text    string
		ok      bool
		id      int64
		skip    []recur.Date
		paused  recur.Date
		resumed bool
		err     string
	}{
		{text: "pause the standup reminder for a week", ok: true, id: 1, skip: []recur.Date{d(6), d(9), d(10), d(11), d(12)}, paused: d(12)},
		{text: "pause my standup reminder until Tuesday", ok: true, id: 1, skip: []recur.Date{d(6), d(9)}, paused: d(10)},
		{text: "suspend the standup reminder through Monday", ok: true, id: 1, skip: []recur.Date{d(6), d(9)}, paused: d(10)},
		{text: "pause the bins reminder for three weeks", ok: true, id: 2, skip: []recur.Date{d(10), d(17), d(24)}, paused: d(26)},
		{text: "resume the bins reminder", ok: true, id: 2, resumed: true},
		{text: "resume the standup reminder", ok: true, err: "it isn't paused"},
		{text: "pause the bins reminder until Monday", ok: true, err: "it doesn't come before then"},
		{text: "pause the standup reminder for a year", ok: true, err: "more than 100 times"},
		{text: "pause the bins reminder for a month", ok: true, id: 2, skip: []recur.Date{d(10), d(17), d(24), d(31)}, paused: recur.Date{Year: 2026, Month: 4, Day: 5}},
		{text: "pause the standup reminder for a bit", ok: true, err: "how long to pause it"},
		{text: "pause the yoga reminder for a week", ok: true, err: "couldn't find a repeating reminder about “yoga”"},
		{text: "pause the music for a minute"},
		{text: "cancel my standup reminder"},
	}
	for _, tt := range tests {
		a, ok := reminderUpdated(t, planReminderPause, c, tt.text, tt.ok, tt.err)
		if ok && (a.ID != tt.id || !reflect.DeepEqual(a.Rule.Skip, tt.skip) || a.Paused != tt.paused || a.Resumed != tt.resumed) {
			t.Errorf("%q: %+v; want reminder %d skipping %v, paused until %v, resumed %v", tt.text, a, tt.id, tt.skip, tt.paused, tt.resumed)
		}
	}
}
