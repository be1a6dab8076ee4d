package plan

import (
	"testing"
	"time"

	"github.com/hearthbot/hearth/scheduler/recur"
)

// TestChangedRule checks that a change replaces only what it says: a time
// keeps the days, days keep the time, and a target with neither changes
// nothing.
func TestChangedRule(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 5, 12, 0, 0, 0, time.UTC)
	daily := recur.Rule{Freq: recur.Daily, At: recur.TimeOfDay{Hour: 9}}
	monday := recur.Rule{Freq: recur.Weekly, Weekdays: recur.WeekdaysOf(time.Monday), At: recur.TimeOfDay{Hour: 19}}
	tests := []struct {
		old    recur.Rule
		target string
		want   recur.Rule
		ok     bool
	}{
		{daily, "9:30", recur.Rule{Freq: recur.Daily, At: recur.TimeOfDay{Hour: 9, Minute: 30}}, true},
		{daily, "8am instead", recur.Rule{Freq: recur.Daily, At: recur.TimeOfDay{Hour: 8}}, true},
		{daily, "half past 7", recur.Rule{Freq: recur.Daily, At: recur.TimeOfDay{Hour: 7, Minute: 30}}, true},
		{monday, "Thursdays", recur.Rule{Freq: recur.Weekly, Weekdays: recur.WeekdaysOf(time.Thursday), At: recur.TimeOfDay{Hour: 19}}, true},
		{monday, "every Tuesday and Friday at 6pm", recur.Rule{Freq: recur.Weekly, Weekdays: recur.WeekdaysOf(time.Tuesday, time.Friday), At: recur.TimeOfDay{Hour: 18}}, true},
		{daily, "weekdays", recur.Rule{Freq: recur.Weekly, Weekdays: recur.WorkWeek, At: recur.TimeOfDay{Hour: 9}}, true},
		{monday, "every day", recur.Rule{Freq: recur.Daily, At: recur.TimeOfDay{Hour: 19}}, true},
		{daily, "the piano", daily, false},
		{daily, "", daily, false},
	}
	for _, tt := range tests {
		got, ok := changedRule(tt.old, tt.target, now)
		if ok != tt.ok || got != tt.want {
			t.Errorf("changedRule(%s, %q) = %s, %v; want %s, %v", tt.old, tt.target, got, ok, tt.want, tt.ok)
		}
	}
}

// TestReminderChangeParts checks how a request splits into the reminder
// it names and what it should become.
func TestReminderChangeParts(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 5, 12, 0, 0, 0, time.UTC)
	tests := []struct{ text, ref, target string }{
		{"change my daily standup reminder to 9:30", "my daily standup reminder", "9:30"},
		{"move my weekly bins reminder to Thursdays", "my weekly bins reminder", "Thursdays"},
		{"make the vitamins reminder 8am instead", "the vitamins reminder", "8am"},
		{"please set the water plants reminder for 6pm", "the water plants reminder", "6pm"},
		{"add milk", "", ""},
	}
	for _, tt := range tests {
		ref, target, _ := reminderChangeParts(tt.text, now)
		if ref != tt.ref || target != tt.target {
			t.Errorf("reminderChangeParts(%q) = %q, %q; want %q, %q", tt.text, ref, target, tt.ref, tt.target)
		}
	}
}
