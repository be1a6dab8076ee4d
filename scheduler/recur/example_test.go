package recur_test

import (
	"fmt"
	"time"

	"github.com/hearthbot/hearth/scheduler/recur"
)

// Next on a rule stored in local terms: 02:30 does not exist on March 8 in
// New York, so that occurrence fires at 03:30 daylight time.
func ExampleRule_Next() {
	ny, _ := time.LoadLocation("America/New_York")
	r := recur.Rule{Freq: recur.Daily, At: recur.TimeOfDay{Hour: 2, Minute: 30}}
	at := time.Date(2026, 3, 6, 12, 0, 0, 0, ny)
	for range 3 {
		at, _ = r.Next(at, ny)
		fmt.Println(at.Format("2006-01-02 15:04 MST"))
	}
	// Output:
	// 2026-03-07 02:30 EST
	// 2026-03-08 03:30 EDT
	// 2026-03-09 02:30 EDT
}

// LeadTimes gives the 7/3/1-days-before reminders of a date-only deadline,
// dropping those already past.
func ExampleLeadTimes() {
	ny, _ := time.LoadLocation("America/New_York")
	due := time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC) // a Postgres date
	now := time.Date(2026, 3, 4, 12, 0, 0, 0, ny)
	for _, t := range recur.LeadTimes(due, []int{7, 3, 1}, recur.TimeOfDay{Hour: 9}, ny, now) {
		fmt.Println(t.Format("2006-01-02 15:04 MST"))
	}
	// Output:
	// 2026-03-07 09:00 EST
	// 2026-03-09 09:00 EDT
}
