package recur

import (
	"errors"
	"testing"
	"time"
)

func TestRRULE(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	start := Date{2026, time.December, 2}
	tests := []struct {
		name   string
		rule   Rule
		allDay bool
		want   string
	}{
		{"daily", Rule{Freq: Daily, At: TimeOfDay{8, 0}}, false, "RRULE:FREQ=DAILY"},
		{"weekly on two days", Rule{Freq: Weekly, Weekdays: WeekdaysOf(time.Wednesday, time.Monday), At: TimeOfDay{16, 0}}, false,
			"RRULE:FREQ=WEEKLY;BYDAY=MO,WE"},
		{"every other week", Rule{Freq: Weekly, Interval: 2, Start: start, At: TimeOfDay{9, 30}}, false, "RRULE:FREQ=WEEKLY;INTERVAL=2"},
		{"last day of the month", Rule{Freq: Monthly, MonthDay: LastDay, At: TimeOfDay{9, 0}}, false, "RRULE:FREQ=MONTHLY;BYMONTHDAY=-1"},
		{"first Sunday of the month", Rule{Freq: Monthly, Nth: 1, Weekdays: WeekdaysOf(time.Sunday), At: TimeOfDay{19, 0}}, false, "RRULE:FREQ=MONTHLY;BYDAY=1SU"},
		{"last Friday of the month", Rule{Freq: Monthly, Nth: LastDay, Weekdays: WeekdaysOf(time.Friday), At: TimeOfDay{9, 0}}, false, "RRULE:FREQ=MONTHLY;BYDAY=-1FR"},
		{"yearly, ten times", Rule{Freq: Yearly, Month: time.March, MonthDay: 3, Count: 10, Start: start}, true,
			"RRULE:FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3;COUNT=10"},
		// The last second of June 30 in Berlin (summer time) is 21:59:59 UTC.
		{"until, timed", Rule{Freq: Weekly, Weekdays: WeekdaysOf(time.Tuesday), At: TimeOfDay{18, 0}, Until: Date{2027, time.June, 30}}, false,
			"RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20270630T215959Z"},
		{"until, all day", Rule{Freq: Weekly, Weekdays: WeekdaysOf(time.Tuesday), Until: Date{2027, time.June, 30}}, true,
			"RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20270630"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.rule.RRULE(berlin, tt.allDay)
			if err != nil || got != tt.want {
				t.Errorf("RRULE = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	if _, err := (Rule{Freq: Weekly, Interval: 2}).RRULE(berlin, false); !errors.Is(err, ErrInvalid) {
		t.Errorf("a rule with no start: %v, want ErrInvalid", err)
	}
	if _, err := (Rule{Freq: Daily}).RRULE(nil, false); !errors.Is(err, ErrInvalid) {
		t.Errorf("no zone: %v, want ErrInvalid", err)
	}
}
