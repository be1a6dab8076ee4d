package timex

import (
	"reflect"
	"slices"

	"github.com/hearthbot/hearth/scheduler/recur"

	"strings"
	"testing"
	"time"
)

func TestParseRecurrence(t *testing.T) {
	t.Parallel()
	mon, tue, fri := recur.WeekdaysOf(time.Monday), recur.WeekdaysOf(time.Tuesday), recur.WeekdaysOf(time.Friday)
	at := func(h, m int) recur.TimeOfDay { return recur.TimeOfDay{Hour: h, Minute: m} }
	tests := []struct {
		text   string
		phrase string // the span's text; "" means no match
		want   recur.Rule
	}{
		{"remind me every Monday at 9 to water the plants", "every Monday at 9", recur.Rule{Freq: recur.Weekly, Interval: 1, Weekdays: mon, At: at(9, 0)}},
		{"every weekday at 8:30", "every weekday at 8:30", recur.Rule{Freq: recur.Weekly, Interval: 1, Weekdays: recur.WorkWeek, At: at(8, 30)}},
		{"stand-up every working day at 9.15", "every working day at 9.15", recur.Rule{Freq: recur.Weekly, Interval: 1, Weekdays: recur.WorkWeek, At: at(9, 15)}},
		{"Every day at 7am, stretch", "Every day at 7am", recur.Rule{Freq: recur.Daily, Interval: 1, At: at(7, 0)}},
		{"take out the bins every other Tuesday", "every other Tuesday", recur.Rule{Freq: recur.Weekly, Interval: 2, Weekdays: tue, At: at(9, 0)}},
		{"pay rent on the 1st of every month", "on the 1st of every month", recur.Rule{Freq: recur.Monthly, Interval: 1, MonthDay: 1, At: at(9, 0)}},
		{"the last day of each month: invoices", "the last day of each month", recur.Rule{Freq: recur.Monthly, Interval: 1, MonthDay: recur.LastDay, At: at(9, 0)}},
		{"every month on the 15th", "every month on the 15th", recur.Rule{Freq: recur.Monthly, Interval: 1, MonthDay: 15, At: at(9, 0)}},
		{"every 15th of the month pay the nanny", "every 15th of the month", recur.Rule{Freq: recur.Monthly, Interval: 1, MonthDay: 15, At: at(9, 0)}},
		{"every year on March 15", "every year on March 15", recur.Rule{Freq: recur.Yearly, Interval: 1, Month: time.March, MonthDay: 15, At: at(9, 0)}},
		{"wish Ann happy birthday every 15th of March", "every 15th of March", recur.Rule{Freq: recur.Yearly, Interval: 1, Month: time.March, MonthDay: 15, At: at(9, 0)}},
		{"yearly on feb 29", "yearly on feb 29", recur.Rule{Freq: recur.Yearly, Interval: 1, Month: time.February, MonthDay: 29, At: at(9, 0)}},
		{"daily", "daily", recur.Rule{Freq: recur.Daily, Interval: 1, At: at(9, 0)}},
		{"remind me daily to drink water", "daily", recur.Rule{Freq: recur.Daily, Interval: 1, At: at(9, 0)}},
		{"weekly on Fridays", "weekly on Fridays", recur.Rule{Freq: recur.Weekly, Interval: 1, Weekdays: fri, At: at(9, 0)}},
		{"every morning", "every morning", recur.Rule{Freq: recur.Daily, Interval: 1, At: at(8, 0)}},
		{"every evening", "every evening", recur.Rule{Freq: recur.Daily, Interval: 1, At: at(19, 0)}},
		{"every evening at 7", "every evening at 7", recur.Rule{Freq: recur.Daily, Interval: 1, At: at(19, 0)}},
		{"every Monday morning at 6", "every Monday morning at 6", recur.Rule{Freq: recur.Weekly, Interval: 1, Weekdays: mon, At: at(6, 0)}},
		{"every weekday morning", "every weekday morning", recur.Rule{Freq: recur.Weekly, Interval: 1, Weekdays: recur.WorkWeek, At: at(8, 0)}},
		{"every day at 5", "every day at 5", recur.Rule{Freq: recur.Daily, Interval: 1, At: at(17, 0)}},
		{"every day at 6 in the morning", "every day at 6 in the morning", recur.Rule{Freq: recur.Daily, Interval: 1, At: at(6, 0)}},
		{"every day at 12am", "every day at 12am", recur.Rule{Freq: recur.Daily, Interval: 1, At: at(0, 0)}},
		{"every day at noon", "every day at noon", recur.Rule{Freq: recur.Daily, Interval: 1, At: at(12, 0)}},
		{"at 7am every day do yoga", "at 7am every day", recur.Rule{Freq: recur.Daily, Interval: 1, At: at(7, 0)}},
		{"EVERY MON, WED AND FRI AT 6:30PM: gym!", "EVERY MON, WED AND FRI AT 6:30PM", recur.Rule{Freq: recur.Weekly, Interval: 1, Weekdays: recur.WeekdaysOf(time.Monday, time.Wednesday, time.Friday), At: at(18, 30)}},
		{"every 2 weeks on Tue and Thu", "every 2 weeks on Tue and Thu", recur.Rule{Freq: recur.Weekly, Interval: 2, Weekdays: recur.WeekdaysOf(time.Tuesday, time.Thursday), At: at(9, 0)}},
		{"every three days", "every three days", recur.Rule{Freq: recur.Daily, Interval: 3, At: at(9, 0)}},
		{"every 3 months on the 1st at noon", "every 3 months on the 1st at noon", recur.Rule{Freq: recur.Monthly, Interval: 3, MonthDay: 1, At: at(12, 0)}},
		{"every day at 9 for 10 times", "every day at 9 for 10 times", recur.Rule{Freq: recur.Daily, Interval: 1, At: at(9, 0), Count: 10}},
		{"every weekend at 10am", "every weekend at 10am", recur.Rule{Freq: recur.Weekly, Interval: 1, Weekdays: recur.Weekend, At: at(10, 0)}},
		{"everyday at 9", "everyday at 9", recur.Rule{Freq: recur.Daily, Interval: 1, At: at(9, 0)}},
		{"café every Monday — 9am ☕", "every Monday — 9am", recur.Rule{Freq: recur.Weekly, Interval: 1, Weekdays: mon, At: at(9, 0)}},
		{"book club on the first Thursday of every month at 8pm", "on the first Thursday of every month at 8pm",
			recur.Rule{Freq: recur.Monthly, Interval: 1, Nth: 1, Weekdays: recur.WeekdaysOf(time.Thursday), At: at(20, 0)}},
		{"remind me on the last Friday of every month to pay rent", "on the last Friday of every month",
			recur.Rule{Freq: recur.Monthly, Interval: 1, Nth: recur.LastDay, Weekdays: fri, At: at(9, 0)}},
		{"dinner with grandma every first Sunday of the month", "every first Sunday of the month",
			recur.Rule{Freq: recur.Monthly, Interval: 1, Nth: 1, Weekdays: recur.WeekdaysOf(time.Sunday), At: at(9, 0)}},
		{"every month on the 2nd Tuesday", "every month on the 2nd Tuesday", recur.Rule{Freq: recur.Monthly, Interval: 1, Nth: 2, Weekdays: tue, At: at(9, 0)}},
		{"the third Monday of every other month", "the third Monday of every other month", recur.Rule{Freq: recur.Monthly, Interval: 2, Nth: 3, Weekdays: mon, At: at(9, 0)}},
		{"every second Tuesday of the month", "every second Tuesday of the month", recur.Rule{Freq: recur.Monthly, Interval: 1, Nth: 2, Weekdays: tue, At: at(9, 0)}},
		{"gym Mondays and Wednesdays at 7am", "Mondays and Wednesdays at 7am", recur.Rule{Freq: recur.Weekly, Interval: 1, Weekdays: recur.WeekdaysOf(time.Monday, time.Wednesday), At: at(7, 0)}},
		{"remind me on Fridays to water the plants", "on Fridays", recur.Rule{Freq: recur.Weekly, Interval: 1, Weekdays: fri, At: at(9, 0)}},
		{"we do pizza night every Friday", "every Friday", recur.Rule{Freq: recur.Weekly, Interval: 1, Weekdays: fri, At: at(9, 0)}},
		{"at 7 in the morning every day", "at 7 in the morning every day", recur.Rule{Freq: recur.Daily, Interval: 1, At: at(7, 0)}},
		// Not recurrences.
		{"remind me on Friday to water the plants", "", recur.Rule{}},
		{"send the weekly report on Friday", "", recur.Rule{}},
		{"every second Tuesday", "", recur.Rule{}}, // every other one, to many
		{"the first Sunday of March", "", recur.Rule{}},
		{"my everyday bag", "", recur.Rule{}},
		{"every time I call", "", recur.Rule{}},
		{"every 2nd Tuesday", "", recur.Rule{}},
		{"every year on February 30", "", recur.Rule{}},
		{"remind me tomorrow at 9", "", recur.Rule{}},
		{"", "", recur.Rule{}},
	}
	for _, tt := range tests {
		r, sp, ok := ParseRecurrence(tt.text)
		if tt.phrase == "" {
			if ok {
				t.Errorf("ParseRecurrence(%q) = %+v at %v, want no match", tt.text, r, sp)
			}
			continue
		}
		if !ok {
			t.Errorf("ParseRecurrence(%q): no match, want %q", tt.text, tt.phrase)
			continue
		}
		if got := tt.text[sp.Start:sp.End]; got != tt.phrase {
			t.Errorf("ParseRecurrence(%q) span %q, want %q", tt.text, got, tt.phrase)
		}
		if !reflect.DeepEqual(r, tt.want) {
			t.Errorf("ParseRecurrence(%q) = %+v, want %+v", tt.text, r, tt.want)
		}
	}
}

// TestParseTitle is how callers use the span: the rest is the title.
func TestParseTitle(t *testing.T) {
	t.Parallel()
	text := "remind me every Monday at 9 to water the plants"
	_, sp, _ := ParseRecurrence(text)
	title := strings.Join(strings.Fields(text[:sp.Start]+text[sp.End:]), " ")
	if title != "remind me to water the plants" {
		t.Errorf("title %q", title)
	}
}

// TestParsedRulesNeedStart: interval rules parse without Start, are
// rejected until anchored, and work once anchored.
func TestParsedRulesNeedStart(t *testing.T) {
	t.Parallel()
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	r, _, ok := ParseRecurrence("every other Tuesday at 8")
	if !ok {
		t.Fatal("no match")
	}
	if err := r.Validate(); err == nil {
		t.Fatal("an unanchored interval rule should not validate")
	}
	now := time.Date(2026, 3, 11, 10, 0, 0, 0, ny) // a Wednesday
	r.Start = recur.DateOf(now, ny)
	var got []string
	for at := now; len(got) < 3; {
		n, ok := r.Next(at, ny)
		if !ok {
			t.Fatal("Next ended")
		}
		got = append(got, n.Format("2006-01-02 15:04 MST"))
		at = n
	}
	want := []string{"2026-03-17 08:00 EDT", "2026-03-31 08:00 EDT", "2026-04-14 08:00 EDT"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
