package scheduler

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
)

func TestReminderMessage(t *testing.T) {
	berlin := mustLoc(t, "Europe/Berlin")
	due := time.Date(2026, 6, 20, 17, 0, 0, 0, berlin)
	task := hearth.Schedule{Kind: hearth.ScheduleTask, Title: "Call mom", Due: due}
	allDay := hearth.Schedule{Kind: hearth.ScheduleTask, Title: "File taxes", Due: time.Date(2026, 6, 20, 0, 0, 0, 0, berlin), AllDay: true}
	bday := hearth.Schedule{Kind: hearth.ScheduleBirthday, Detail: hearth.ScheduleDetail{Month: 1, Day: 2, About: "John", What: "birthday"}}
	tests := []struct {
		name string
		sc   hearth.Schedule
		at   time.Time
		want string
	}{
		{"at the due time", task, due, "“Call mom” — due now (5:00 PM)"},
		{"the morning of a timed task", task, time.Date(2026, 6, 20, 9, 0, 0, 0, berlin), "“Call mom” is due today at 5:00 PM"},
		{"the day before", task, time.Date(2026, 6, 19, 9, 0, 0, 0, berlin), "“Call mom” is due tomorrow at 5:00 PM"},
		{"days before a date", allDay, time.Date(2026, 6, 13, 9, 0, 0, 0, berlin), "“File taxes” is due in 7 days (Saturday, June 20)"},
		{"on the date", allDay, time.Date(2026, 6, 20, 9, 0, 0, 0, berlin), "“File taxes” is due today"},
		{"a birthday across the new year", bday, time.Date(2026, 12, 30, 9, 0, 0, 0, berlin), "John's birthday is in 3 days (Saturday, January 2)"},
		{"a birthday on the day", bday, time.Date(2027, 1, 2, 9, 0, 0, 0, berlin), "Today is John's birthday"},
		{"a recurring reminder", hearth.Schedule{Kind: hearth.ScheduleReminder, Title: "Water the plants"}, due, "Reminder: Water the plants"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := reminderMessage(tt.sc, tt.at, berlin, FireArgs{ScheduleID: 7, At: tt.at.Unix()})
			if !strings.Contains(out.Text, tt.want) {
				t.Fatalf("%q lacks %q", out.Text, tt.want)
			}
			if len(out.Buttons) != 3 || out.Buttons[0].ID != "sched:done:7:"+itoa(tt.at.Unix()) {
				t.Fatalf("buttons %+v", out.Buttons)
			}
		})
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
