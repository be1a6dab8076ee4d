package timex

import (
	"testing"
	"time"
)

// TestSpokenDates covers dates and times as people say them (issue 16,
// section 5), one or two cases per category of the grammar.
func TestSpokenDates(t *testing.T) {
	t.Parallel()
	ref := time.Date(2026, 6, 17, 14, 20, 30, 0, time.UTC) // a Wednesday
	tests := []struct {
		text string
		want want
	}{
		// bare month names and this/next/last month
		{"the lease is up in August", want{span: "in August", value: "2026-08-01 00:00:00", grain: Month}},
		{"taxes are due October", want{span: "October", value: "2026-10-01 00:00:00", grain: Month}},
		{"next June", want{span: "next June", value: "2027-06-01 00:00:00", grain: Month}},
		{"next July", want{span: "next July", value: "2026-07-01 00:00:00", grain: Month}},
		{"last March", want{span: "last March", value: "2026-03-01 00:00:00", grain: Month}},
		{"this December", want{span: "this December", value: "2026-12-01 00:00:00", grain: Month}},
		{"next March 3rd", want{span: "next March 3rd", value: "2027-03-03 00:00:00", grain: Day}},
		{"in April next year", want{span: "in April next year", value: "2027-04-01 00:00:00", grain: Month}},
		{"late September", want{span: "late September", from: "2026-09-21 00:00:00", to: "2026-10-01 00:00:00", grain: Day}},
		{"early next week", want{span: "early next week", from: "2026-06-22 00:00:00", to: "2026-06-25 00:00:00", grain: Day}},
		// possessives
		{"cancel tomorrow's 3pm meeting", want{span: "tomorrow's 3pm", value: "2026-06-18 15:00:00", grain: Hour}},
		{"what's on friday's agenda", want{span: "on friday", value: "2026-06-19 00:00:00", grain: Day}},
		// spoken clock times
		{"half three", want{span: "half three", value: "2026-06-17 15:30:00", grain: Minute}},
		{"meet at half seven tomorrow", want{span: "at half seven tomorrow", value: "2026-06-18 07:30:00", grain: Minute}},
		{"twenty after 3pm", want{span: "twenty after 3pm", value: "2026-06-17 15:20:00", grain: Minute}},
		{"ten to six", want{span: "ten to six", value: "2026-06-17 17:50:00", grain: Minute}},
		{"quarter to noon tomorrow", want{span: "quarter to noon tomorrow", value: "2026-06-18 11:45:00", grain: Minute}},
		// approximate times
		{"call me 3ish", want{span: "3ish", value: "2026-06-17 15:00:00", grain: Hour}},
		{"around 1030 tomorrow", want{span: "around 1030 tomorrow", value: "2026-06-18 10:30:00", grain: Minute}},
		{"5-ish", want{span: "5-ish", value: "2026-06-17 17:00:00", grain: Hour}},
		// durations in words
		{"in 2 more minutes", want{span: "in 2 more minutes", value: "2026-06-17 14:22:30", grain: Second}},
		{"in two and a half hours", want{span: "in two and a half hours", value: "2026-06-17 16:50:30", grain: Second}},
		{"in an hour and a half", want{span: "in an hour and a half", value: "2026-06-17 15:50:30", grain: Second}},
		{"in 1 hour and 15 minutes", want{span: "in 1 hour and 15 minutes", value: "2026-06-17 15:35:30", grain: Second}},
		// offsets from a time
		{"15 minutes from 1pm tomorrow", want{span: "15 minutes from 1pm tomorrow", value: "2026-06-18 13:15:00", grain: Minute}},
		{"half an hour before noon", want{span: "half an hour before noon", value: "2026-06-18 11:30:00", grain: Minute}},
		// day-of-month references
		{"the 20th of next month", want{span: "the 20th of next month", value: "2026-07-20 00:00:00", grain: Day}},
		// weeks
		{"the week of October 6th", want{span: "the week of October 6th", value: "2026-10-05 00:00:00", grain: Week}},
		// numeric dates with month names, month and year
		{"born 31/Oct/1974", want{span: "31/Oct/1974", value: "1974-10-31 00:00:00", grain: Day}},
		{"since 2/2013", want{span: "since 2/2013", from: "2013-02-01 00:00:00", grain: Month}},
		{"card expires 11/2028", want{span: "11/2028", value: "2028-11-01 00:00:00", grain: Month}},
		// a number that belongs to the task is not a time
		{"remind me to water plant number 4 tomorrow at 5pm", want{span: "tomorrow at 5pm", value: "2026-06-18 17:00:00", grain: Hour}},
		{"water plant 4 tomorrow at 5pm", want{span: "tomorrow at 5pm", value: "2026-06-18 17:00:00", grain: Hour}},
		{"book room 12 for friday", want{span: "for friday", value: "2026-06-19 00:00:00", grain: Day}},
		{"dinner for two on friday at 7pm", want{span: "on friday at 7pm", value: "2026-06-19 19:00:00", grain: Hour}},
		{"a table for 4 on friday", want{span: "on friday", value: "2026-06-19 00:00:00", grain: Day}},
		// and what must stay a non-date
		{"we may go", want{}},
		{"they march on", want{}},
		{"a late lunch", want{}},
		{"about 3 people", want{}},
	}
	for _, tt := range tests {
		check(t, tt.text, ref, Options{}, tt.want)
	}
}
