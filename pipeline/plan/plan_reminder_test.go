package plan

import (
	"reflect"
	"slices"
	"strings"
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
		{monday, "6", recur.Rule{Freq: recur.Weekly, Weekdays: recur.WeekdaysOf(time.Monday), At: recur.TimeOfDay{Hour: 18}}, true}, // a bare hour, as "at 6"
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
		if ok != tt.ok || !reflect.DeepEqual(got, tt.want) {
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
		{"skip my pills reminder tomorrow", true},
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
		{text: "pause my standup reminder", ok: true, ids: []int64{1}},
		{text: "stop the daily standup reminder", ok: true, ids: []int64{1}},
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

// TestRemindBefore checks a reminder ahead of a task or event: due that
// long before it (days before an all-day item at 9:00), named after it
// and when it is (after what to do then, if said), never a task named
// after the words "an hour before".
func TestRemindBefore(t *testing.T) {
	t.Parallel()
	z := mustZone(t, "America/New_York")
	at := func(m time.Month, d, h, min int) time.Time { return time.Date(2026, m, d, h, min, 0, 0, z) }
	dentist := hearth.CalendarEvent{ID: 40, Title: "Dentist appointment", Start: at(3, 12, 15, 0), End: at(3, 12, 16, 0)}
	passport := hearth.Task{ID: 1, Title: "Renew my passport", Status: hearth.TaskOpen, Due: at(4, 15, 0, 0), AllDay: true}
	aboutDentist := []hearth.Message{{From: hearth.FromUser, Text: "dentist next Thursday at 3"},
		{From: hearth.FromBot, Text: "Done — Dentist appointment is on your calendar for Thursday at 3:00 PM."}}
	aboutPassport := []hearth.Message{{From: hearth.FromUser, Text: "I need to renew my passport by April 15"},
		{From: hearth.FromBot, Text: "Got it — I'll remind you: “Renew my passport”, on Wed, Apr 15."}}
	tests := []struct {
		text   string
		recent []hearth.Message
		title  string
		due    time.Time
	}{
		{"remind me an hour before", aboutDentist, "Dentist appointment — Thu, Mar 12 at 3:00 PM", at(3, 12, 14, 0)},
		{"remind me about the dentist the day before", nil, "Dentist appointment — Thu, Mar 12 at 3:00 PM", at(3, 11, 15, 0)},
		{"please remind me 30 minutes before the dentist appointment", nil, "Dentist appointment — Thu, Mar 12 at 3:00 PM", at(3, 12, 14, 30)},
		{"remind me the night before the dentist", nil, "Dentist appointment — Thu, Mar 12 at 3:00 PM", at(3, 11, 20, 0)},
		{"remind me a week before it's due", aboutPassport, "Renew my passport — due Wed, Apr 15", at(4, 8, 9, 0)},
		{"remind me about it the day before", aboutPassport, "Renew my passport — due Wed, Apr 15", at(4, 14, 9, 0)},
		{"put a reminder in for the dentist the day before", nil, "Dentist appointment — Thu, Mar 12 at 3:00 PM", at(3, 11, 15, 0)},
		{"set a reminder an hour before the dentist", nil, "Dentist appointment — Thu, Mar 12 at 3:00 PM", at(3, 12, 14, 0)},
		// What to do then, said before or after the item: the reminder is
		// that, ahead of it (it was "I couldn't find one matching
		// “dentist to book a taxi”").
		{"remind me the day before the dentist to book a taxi", nil, "Book a taxi — Dentist appointment, Thu, Mar 12 at 3:00 PM", at(3, 11, 15, 0)},
		{"remind me to leave 30 minutes before the dentist", nil, "Leave — Dentist appointment, Thu, Mar 12 at 3:00 PM", at(3, 12, 14, 30)},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			t.Parallel()
			// An earlier reminder ahead of the dentist is a task that
			// matches too; the event is meant.
			earlier := hearth.Task{ID: 2, Title: "Dentist appointment — Thu, Mar 12 at 3:00 PM", Status: hearth.TaskOpen, Due: at(3, 12, 14, 0)}
			c := stage.Context{Now: at(3, 10, 9, 0), Location: z, Tasks: []hearth.Task{passport, earlier}, Events: []hearth.CalendarEvent{dentist}, Recent: tt.recent}
			p := planText(t, tt.text, c)
			a := decode[action.TaskCreateArgs](t, p.only(t, action.TaskCreate))
			if a.Title != tt.title || !a.Due.Equal(tt.due) || a.AllDay {
				t.Fatalf("made %q due %v (all day %v); want %q due %s", a.Title, a.Due.In(z), a.AllDay, tt.title, tt.due)
			}
		})
	}
	// Hours before what has no time, before what is gone by, and before
	// nothing named: asked or said, nothing made.
	c := stage.Context{Now: at(3, 12, 14, 30), Location: z, Tasks: []hearth.Task{passport}, Events: []hearth.CalendarEvent{dentist}}
	for _, text := range []string{"remind me an hour before the passport is due", "remind me an hour before the dentist", "remind me an hour before"} {
		if p := planText(t, text, c); len(p.actions) != 0 || len(p.errs) == 0 && len(p.questions) == 0 {
			t.Errorf("%q: planned %v; want a question", text, kindsOf(p.actions))
		}
	}
	// Before every event is the setting, not one reminder.
	if _, _, _, ok := remindBefore("remind me 30 minutes before my meetings"); ok {
		t.Error("a reminder before every meeting read as one reminder")
	}
}

// TestReminderChangeByPronoun checks that "move it to Tuesday" right after
// Hearth set a recurring reminder changes that reminder's days.
func TestReminderChangeByPronoun(t *testing.T) {
	t.Parallel()
	c := stage.Context{
		Now: time.Date(2026, 3, 5, 12, 0, 0, 0, time.UTC), Location: time.UTC,
		Reminders: []hearth.Schedule{
			{ID: 1, Kind: hearth.ScheduleReminder, Title: "Join the standup", Rule: []byte(`{"freq":"daily","at":"09:00"}`)},
			{ID: 2, Kind: hearth.ScheduleReminder, Title: "Water the plants", Rule: []byte(`{"freq":"weekly","weekdays":["mon"],"at":"08:00"}`)},
		},
		Recent: []hearth.Message{{From: hearth.FromUser, Text: "remind me to water the plants every Monday at 8am"},
			{From: hearth.FromBot, Text: "Got it — I'll remind you to water the plants every Monday at 08:00."}},
	}
	p, ok, err := planReminderChange(stage.PlanInput{Text: "move it to Tuesday", Context: c}, "move it to Tuesday")
	if !ok || err != nil || len(p.Actions) != 1 {
		t.Fatalf("plan %+v, %v, %v; want one change", p, ok, err)
	}
	got, err := action.Decode[action.ReminderUpdateArgs](p.Actions[0])
	if err != nil || got.ID != 2 || got.Rule.Weekdays != recur.WeekdaysOf(time.Tuesday) || got.Rule.At != (recur.TimeOfDay{Hour: 8}) {
		t.Fatalf("changed %+v (%v); want the plants on Tuesdays at 8", got, err)
	}
}

// TestPlanReminderSkip checks skipping one time of a recurring reminder:
// the day said, or its next time, joins the rule's skipped dates (those
// past are dropped), and a reminder not named is the one that comes on
// the day said, if only one does; a day it does not come on, or a
// reminder the user does not have, is said so; a skip that says no
// reminder is left to the other planners.
func TestPlanReminderSkip(t *testing.T) {
	t.Parallel()
	sched := func(id int64, title, rule string) hearth.Schedule {
		return hearth.Schedule{ID: id, Kind: hearth.ScheduleReminder, Title: title, Rule: []byte(rule)}
	}
	c := stage.Context{
		Now:      time.Date(2026, 3, 5, 12, 0, 0, 0, time.UTC), // a Thursday
		Location: time.UTC,
		Reminders: []hearth.Schedule{
			sched(1, "Join the standup", `{"freq":"daily","at":"09:00"}`),
			sched(2, "Put out the bins", `{"freq":"weekly","weekdays":["tue"],"at":"19:00","skip":["2026-03-03","2026-03-17"]}`),
		},
	}
	d := func(day int) recur.Date { return recur.Date{Year: 2026, Month: 3, Day: day} }
	tests := []struct {
		text    string
		ok      bool
		id      int64
		skipped recur.Date
		err     string
	}{
		{text: "skip my standup reminder tomorrow", ok: true, id: 1, skipped: d(6)},
		{text: "skip tomorrow's standup reminder", ok: true, id: 1, skipped: d(6)},
		{text: "please skip the next standup reminder", ok: true, id: 1, skipped: d(6)},
		{text: "skip the bins reminder next Tuesday", ok: true, id: 2, skipped: d(10)},
		{text: "skip the bins reminder on Wednesday", ok: true, err: "isn't on Wednesday"},
		{text: "skip the bins reminder on March 17", ok: true, err: "you skipped it already"},
		{text: "skip the yoga reminder tomorrow", ok: true, err: "couldn't find a repeating reminder about “yoga”"},
		{text: "skip the reminder tomorrow", ok: true, id: 1, skipped: d(6)},              // only the standup comes on Friday
		{text: "skip the reminder on Tuesday", ok: true, err: "which repeating reminder"}, // the standup and the bins both do
		{text: "skip the gym on Friday"},
		{text: "cancel my standup reminder"},
	}
	for _, tt := range tests {
		a, ok := reminderUpdated(t, planReminderSkip, c, tt.text, tt.ok, tt.err)
		if ok && (a.ID != tt.id || a.Skipped != tt.skipped || !slices.Contains(a.Rule.Skip, tt.skipped) || slices.Contains(a.Rule.Skip, d(3))) {
			t.Errorf("%q: %+v; want reminder %d skipping %v, and no day past", tt.text, a, tt.id, tt.skipped)
		}
	}
}

// reminderUpdated plans text with plan in c, checks it was taken (wantOK)
// and failed as wantErr says (a part of the error; "" for none), and
// returns the reminder.update planned, if one was.
func reminderUpdated(t *testing.T, plan func(stage.PlanInput, string) (stage.Plan, bool, error), c stage.Context, text string, wantOK bool, wantErr string) (action.ReminderUpdateArgs, bool) {
	t.Helper()
	p, ok, err := plan(stage.PlanInput{Text: text, Context: c}, text)
	if ok != wantOK || (err != nil) != (wantErr != "") || err != nil && !strings.Contains(err.Error(), wantErr) {
		t.Errorf("%q: ok %v, %v; want %v, %q", text, ok, err, wantOK, wantErr)
		return action.ReminderUpdateArgs{}, false
	}
	if !ok || err != nil {
		return action.ReminderUpdateArgs{}, false
	}
	if len(p.Actions) != 1 || p.Actions[0].Kind != action.ReminderUpdate {
		t.Fatalf("%q: actions %+v", text, p.Actions)
	}
	a, err := action.Decode[action.ReminderUpdateArgs](p.Actions[0])
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	return a, true
}
