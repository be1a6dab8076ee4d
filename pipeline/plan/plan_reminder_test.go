package plan

import (
	"slices"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/stage"
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
	rent := recur.Rule{Freq: recur.Monthly, MonthDay: 1, At: recur.TimeOfDay{Hour: 9}}
	onDay := func(d, h int) recur.Rule {
		return recur.Rule{Freq: recur.Monthly, MonthDay: d, At: recur.TimeOfDay{Hour: h}}
	}
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
		{rent, "the 5th", onDay(5, 9), true},
		{rent, "the fifth", onDay(5, 9), true},
		{onDay(5, 9), "the first of the month", onDay(1, 9), true},
		{rent, "the 15th at 10am", onDay(15, 10), true},
		{rent, "the 15th of every month at 6pm", onDay(15, 18), true},
		{rent, "the 31st", onDay(31, 9), true},
		{rent, "the last day of the month", onDay(recur.LastDay, 9), true},
		{rent, "8am", onDay(1, 8), true},
		{daily, "the 5th", daily, false}, // a daily reminder has no day of the month to change
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
		{"move my rent reminder to the 5th", "my rent reminder", "the 5th"},
		{"change the rent reminder to the first of the month", "the rent reminder", "the first of the month"},
		{"make my bills reminder the 15th at 9am", "my bills reminder", "the 15th at 9am"},
		{"add milk", "", ""},
	}
	for _, tt := range tests {
		ref, target, _ := reminderChangeParts(tt.text, now)
		if ref != tt.ref || target != tt.target {
			t.Errorf("reminderChangeParts(%q) = %q, %q; want %q, %q", tt.text, ref, target, tt.ref, tt.target)
		}
	}
}

// TestIsChange checks which requests change what exists: a reminder the
// user names with "my" or "the" is changed even with no "to", a new one
// ("a reminder") is not.
func TestIsChange(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want bool
	}{
		{"make my bills reminder the 15th at 9am", true},
		{"make the vitamins reminder 8am instead", true},
		{"change the rent reminder to the first of the month", true},
		{"move my rent reminder to the 5th", true},
		{"cancel my dentist reminder", true},
		{"make a reminder for the 15th at 9am", false},
		{"make my bed", false},
		{"update my note with the door code", false},
	}
	for _, tt := range tests {
		if got := IsChange(tt.text); got != tt.want {
			t.Errorf("IsChange(%q) = %v; want %v", tt.text, got, tt.want)
		}
	}
}

// TestPlanReminderCancel checks which requests cancel a recurring
// reminder by its name: a loose name finds it, two that fit are a
// question, and a task's name, a name without "reminder" and a name no
// reminder has are left to the task planner.
func TestPlanReminderCancel(t *testing.T) {
	t.Parallel()
	sched := func(id int64, title, rule string) hearth.Schedule {
		return hearth.Schedule{ID: id, Kind: hearth.ScheduleReminder, Title: title, Rule: []byte(rule)}
	}
	c := stage.Context{
		Now:      time.Date(2026, 3, 5, 12, 0, 0, 0, time.UTC),
		Location: time.UTC,
		Reminders: []hearth.Schedule{
			sched(1, "Join the standup", `{"freq":"daily","at":"09:00"}`),
			sched(2, "Take the vitamins", `{"freq":"daily","at":"07:00"}`),
			sched(3, "Buy vitamins", `{"freq":"weekly","weekdays":["sun"],"at":"18:00"}`),
		},
		Tasks: []hearth.Task{{ID: 9, Title: "Call the dentist", Status: hearth.TaskOpen}},
	}
	tests := []struct {
		text string
		ok   bool
		ids  []int64 // the one cancelled, or the question's options
	}{
		{text: "cancel my daily standup reminder", ok: true, ids: []int64{1}},
		{text: "please remove the standup reminder", ok: true, ids: []int64{1}},
		{text: "delete my vitamins reminder", ok: true, ids: []int64{2, 3}},
		{text: "cancel my dentist reminder"},
		{text: "cancel the standup"},
		{text: "cancel my piano reminder"},
		{text: "change my standup reminder to 10"},
	}
	for _, tt := range tests {
		p, ok, err := planReminderCancel(stage.PlanInput{Text: tt.text, Context: c}, tt.text)
		if ok != tt.ok || err != nil {
			t.Errorf("%q: ok %v, %v; want %v", tt.text, ok, err, tt.ok)
			continue
		}
		var acts []action.Action
		if p.Question != nil {
			for _, o := range p.Question.Options {
				acts = append(acts, o.Actions...)
			}
		} else {
			acts = p.Actions
		}
		var ids []int64
		for _, a := range acts {
			r, err := action.Decode[action.ReminderRefArgs](a)
			if a.Kind != action.ReminderCancel || err != nil {
				t.Fatalf("%q: action %s %s", tt.text, a.Kind, a.Payload)
			}
			ids = append(ids, r.ID)
		}
		if !slices.Equal(ids, tt.ids) || len(tt.ids) > 1 && p.Question == nil {
			t.Errorf("%q: cancels %v (question %v); want %v", tt.text, ids, p.Question != nil, tt.ids)
		}
	}
}
