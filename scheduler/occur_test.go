package scheduler

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/scheduler/recur"
)

func mustLoc(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func ruleJSON(t *testing.T, r recur.Rule) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestNext walks the occurrences of each kind of schedule, across the DST
// changes of New York (2026-03-08, 2026-11-01) and Berlin (2026-03-29,
// 2026-10-25).
func TestNext(t *testing.T) {
	ny, berlin := mustLoc(t, "America/New_York"), mustLoc(t, "Europe/Berlin")
	def := hearth.DefaultScheduleSettings()
	briefing := func(tz string) hearth.Schedule {
		return hearth.Schedule{Kind: hearth.ScheduleBriefing, Timezone: tz, Settings: def}
	}
	daily := func(tz string, h, m int, start recur.Date) hearth.Schedule {
		return hearth.Schedule{Kind: hearth.ScheduleReminder, Timezone: tz, Settings: def,
			Rule: ruleJSON(t, recur.Rule{Freq: recur.Daily, At: recur.TimeOfDay{Hour: h, Minute: m}, Start: start})}
	}
	off := def
	off.BriefingEnabled = false
	tests := []struct {
		name  string
		sc    hearth.Schedule
		after time.Time
		want  []time.Time // successive occurrences; a zero time ends them
	}{
		{
			name: "07:30 briefing stays 07:30 across New York's spring forward", sc: briefing("America/New_York"),
			after: time.Date(2026, 3, 7, 8, 0, 0, 0, ny),
			want:  []time.Time{time.Date(2026, 3, 8, 11, 30, 0, 0, time.UTC), time.Date(2026, 3, 9, 11, 30, 0, 0, time.UTC)},
		},
		{
			name: "07:30 briefing stays 07:30 across New York's fall back", sc: briefing("America/New_York"),
			after: time.Date(2026, 10, 31, 8, 0, 0, 0, ny),
			want:  []time.Time{time.Date(2026, 11, 1, 12, 30, 0, 0, time.UTC), time.Date(2026, 11, 2, 12, 30, 0, 0, time.UTC)},
		},
		{
			name: "07:30 briefing stays 07:30 across Berlin's spring forward", sc: briefing("Europe/Berlin"),
			after: time.Date(2026, 3, 28, 8, 0, 0, 0, berlin),
			want:  []time.Time{time.Date(2026, 3, 29, 5, 30, 0, 0, time.UTC), time.Date(2026, 3, 30, 5, 30, 0, 0, time.UTC)},
		},
		{
			name: "07:30 briefing stays 07:30 across Berlin's fall back", sc: briefing("Europe/Berlin"),
			after: time.Date(2026, 10, 24, 8, 0, 0, 0, berlin),
			want:  []time.Time{time.Date(2026, 10, 25, 6, 30, 0, 0, time.UTC), time.Date(2026, 10, 26, 6, 30, 0, 0, time.UTC)},
		},
		{
			name: "02:30 does not exist in New York on 2026-03-08: fires at 03:30 EDT", sc: daily("America/New_York", 2, 30, recur.Date{Year: 2026, Month: 3, Day: 1}),
			after: time.Date(2026, 3, 7, 12, 0, 0, 0, ny),
			want:  []time.Time{time.Date(2026, 3, 8, 7, 30, 0, 0, time.UTC), time.Date(2026, 3, 9, 6, 30, 0, 0, time.UTC)},
		},
		{
			name: "02:30 does not exist in Berlin on 2026-03-29: fires at 03:30 CEST", sc: daily("Europe/Berlin", 2, 30, recur.Date{Year: 2026, Month: 3, Day: 1}),
			after: time.Date(2026, 3, 28, 12, 0, 0, 0, berlin),
			want:  []time.Time{time.Date(2026, 3, 29, 1, 30, 0, 0, time.UTC), time.Date(2026, 3, 30, 0, 30, 0, 0, time.UTC)},
		},
		{
			name: "01:30 happens twice in New York on 2026-11-01: fires once, at the first", sc: daily("America/New_York", 1, 30, recur.Date{Year: 2026, Month: 10, Day: 1}),
			after: time.Date(2026, 10, 31, 12, 0, 0, 0, ny),
			want:  []time.Time{time.Date(2026, 11, 1, 5, 30, 0, 0, time.UTC), time.Date(2026, 11, 2, 6, 30, 0, 0, time.UTC)},
		},
		{
			name: "02:30 happens twice in Berlin on 2026-10-25: fires once, at the first", sc: daily("Europe/Berlin", 2, 30, recur.Date{Year: 2026, Month: 10, Day: 1}),
			after: time.Date(2026, 10, 24, 12, 0, 0, 0, berlin),
			want:  []time.Time{time.Date(2026, 10, 25, 0, 30, 0, 0, time.UTC), time.Date(2026, 10, 26, 1, 30, 0, 0, time.UTC)},
		},
		{
			name: "a task due on a date: 7, 3 and 1 days before and on the day, at 09:00",
			sc: hearth.Schedule{Kind: hearth.ScheduleTask, Timezone: "America/New_York", Settings: def,
				Due: time.Date(2026, 6, 20, 0, 0, 0, 0, ny), AllDay: true},
			after: time.Date(2026, 6, 1, 0, 0, 0, 0, ny),
			want: []time.Time{
				time.Date(2026, 6, 13, 9, 0, 0, 0, ny), time.Date(2026, 6, 17, 9, 0, 0, 0, ny),
				time.Date(2026, 6, 19, 9, 0, 0, 0, ny), time.Date(2026, 6, 20, 9, 0, 0, 0, ny), {},
			},
		},
		{
			name: "a task with a due time: the lead day, then the due time",
			sc: hearth.Schedule{Kind: hearth.ScheduleTask, Timezone: "America/New_York", Settings: hearth.ScheduleSettings{LeadDays: []int{1}},
				Due: time.Date(2026, 6, 20, 17, 0, 0, 0, ny)},
			after: time.Date(2026, 6, 18, 12, 0, 0, 0, ny),
			want:  []time.Time{time.Date(2026, 6, 19, 9, 0, 0, 0, ny), time.Date(2026, 6, 20, 17, 0, 0, 0, ny), {}},
		},
		{
			name: "a birthday: 3 days before and on the day, every year",
			sc: hearth.Schedule{Kind: hearth.ScheduleBirthday, Timezone: "Europe/Berlin", Settings: def,
				Detail: hearth.ScheduleDetail{Month: 3, Day: 15, About: "John", What: "birthday"}},
			after: time.Date(2026, 3, 1, 0, 0, 0, 0, berlin),
			want: []time.Time{time.Date(2026, 3, 12, 9, 0, 0, 0, berlin), time.Date(2026, 3, 15, 9, 0, 0, 0, berlin),
				time.Date(2027, 3, 12, 9, 0, 0, 0, berlin)},
		},
		{
			name: "a weekly reminder, every Monday at 9",
			sc: hearth.Schedule{Kind: hearth.ScheduleReminder, Timezone: "Europe/Berlin", Settings: def,
				Rule: ruleJSON(t, recur.Rule{Freq: recur.Weekly, Weekdays: recur.WeekdaysOf(time.Monday), At: recur.TimeOfDay{Hour: 9}})},
			after: time.Date(2026, 11, 18, 0, 0, 0, 0, berlin),
			want:  []time.Time{time.Date(2026, 11, 23, 9, 0, 0, 0, berlin), time.Date(2026, 11, 30, 9, 0, 0, 0, berlin)},
		},
		{
			name: "a snooze fires once", sc: hearth.Schedule{Kind: hearth.ScheduleSnooze, Timezone: "Europe/Berlin", NextAt: time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)},
			after: time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC),
			want:  []time.Time{time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC), {}},
		},
		{name: "a done task reminds of nothing", sc: hearth.Schedule{Kind: hearth.ScheduleTask, Timezone: "Europe/Berlin", Due: time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC), Done: true},
			after: time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC), want: []time.Time{{}}},
		{name: "a muted schedule reminds of nothing", sc: hearth.Schedule{Kind: hearth.ScheduleBriefing, Timezone: "Europe/Berlin", Settings: def, Muted: true},
			after: time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC), want: []time.Time{{}}},
		{name: "stopped briefings", sc: hearth.Schedule{Kind: hearth.ScheduleBriefing, Timezone: "Europe/Berlin", Settings: off},
			after: time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC), want: []time.Time{{}}},
		{name: "no time zone, no occurrence", sc: hearth.Schedule{Kind: hearth.ScheduleBriefing, Settings: def},
			after: time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC), want: []time.Time{{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var z zones
			after := tt.after
			for i, want := range tt.want {
				got := z.Next(tt.sc, after)
				if !got.Equal(want) {
					t.Fatalf("occurrence %d after %v: got %v, want %v", i+1, after, got, want)
				}
				if !want.IsZero() && tt.sc.Kind != hearth.ScheduleSnooze && !z.IsOccurrence(tt.sc, want) {
					t.Fatalf("%v is not recognised as an occurrence", want)
				}
				after = got
			}
		})
	}
}

func TestGreeting(t *testing.T) {
	tests := []struct {
		hour int
		want string
	}{
		{0, "Good evening!"}, {4, "Good morning!"}, {7, "Good morning!"}, {11, "Good morning!"},
		{12, "Good afternoon!"}, {17, "Good afternoon!"}, {18, "Good evening!"}, {23, "Good evening!"},
	}
	for _, tt := range tests {
		if got := Greeting(time.Date(2026, 11, 23, tt.hour, 30, 0, 0, time.UTC)); got != tt.want {
			t.Errorf("%02d:30: %q; want %q", tt.hour, got, tt.want)
		}
	}
}

// Chat commands are what users typed: parsing them never panics, and
// what is accepted is a real time of day.
func FuzzParseClockWords(f *testing.F) {
	for _, s := range []string{"6:45", "6:45am", "7 pm", "18:30", "0 pm", "12am", "25:00", "9:99"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if tod, ok := parseClockWords(s); ok && !tod.Valid() {
			t.Fatalf("%q: accepted %+v", s, tod)
		}
	})
}

// TestQuietHoursHold: occurrences the user did not set for a time are held
// to the end of the quiet hours (across midnight or not), those they set
// are not, and a held occurrence is itself an occurrence (the fire job
// finds it).
func TestQuietHoursHold(t *testing.T) {
	berlin := mustLoc(t, "Europe/Berlin")
	at := func(d, h, m int) time.Time { return time.Date(2026, 11, d, h, m, 0, 0, berlin) }
	quiet := func(from, to string) hearth.ScheduleSettings {
		s := hearth.DefaultScheduleSettings()
		s.QuietFrom, s.QuietTo, s.EventLeadMinutes = from, to, 30
		return s
	}
	event := func(start time.Time, s hearth.ScheduleSettings) hearth.Schedule {
		return hearth.Schedule{Kind: hearth.ScheduleEvent, Timezone: "Europe/Berlin", Due: start, Settings: s}
	}
	task := func(due time.Time, s hearth.ScheduleSettings) hearth.Schedule {
		return hearth.Schedule{Kind: hearth.ScheduleTask, Timezone: "Europe/Berlin", Due: due, Settings: s}
	}
	tests := []struct {
		name  string
		sc    hearth.Schedule
		after time.Time
		want  time.Time
	}{
		{"no quiet hours", event(at(26, 6, 30), hearth.DefaultScheduleSettings()), at(25, 12, 0), time.Time{}}, // lead 0: off
		{"before an early event: held to 07:00", event(at(26, 6, 30), quiet("21:00", "07:00")), at(25, 12, 0), at(26, 7, 0)},
		{"late evening event: held to the morning", event(at(25, 23, 0), quiet("21:00", "07:00")), at(25, 12, 0), at(26, 7, 0)},
		{"outside the quiet hours: on time", event(at(26, 10, 0), quiet("21:00", "07:00")), at(25, 12, 0), at(26, 9, 30)},
		{"a daytime quiet window", event(at(26, 14, 0), quiet("13:00", "15:00")), at(25, 12, 0), at(26, 15, 0)},
		{"a task at its due time is asked for", task(at(25, 22, 0), quiet("21:00", "07:00")), at(25, 21, 59), at(25, 22, 0)},
		{"held, and after the held instant: none", event(at(26, 6, 30), quiet("21:00", "07:00")), at(26, 7, 0), time.Time{}},
	}
	var z zones
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := z.Next(tt.sc, tt.after)
			if !got.Equal(tt.want) {
				t.Fatalf("Next = %v, want %v", got, tt.want)
			}
			if !got.IsZero() && !z.IsOccurrence(tt.sc, got) {
				t.Fatalf("%v is not an occurrence", got)
			}
		})
	}
}
