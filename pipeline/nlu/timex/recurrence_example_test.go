package timex_test

import (
	"fmt"
	"time"

	"github.com/hearthbot/hearth/pipeline/nlu/timex"
	"github.com/hearthbot/hearth/scheduler/recur"
)

// ParseRecurrence finds the recurrence in a message; the caller anchors it on the
// user's today, cuts the span out for the title and asks for the next
// occurrences in the user's zone. The 02:30 reminder on the New York
// spring-forward day fires at 03:30.
func ExampleParseRecurrence() {
	ny, _ := time.LoadLocation("America/New_York")
	now := time.Date(2026, 3, 5, 14, 0, 0, 0, ny) // a Thursday
	text := "remind me every Sunday at 2:30am to water the plants"

	r, sp, ok := timex.ParseRecurrence(text)
	if !ok {
		return
	}
	r.Start = recur.DateOf(now, ny)
	fmt.Printf("%q → %s\n", text[sp.Start:sp.End], r)
	fmt.Printf("title: %q\n", text[:sp.Start]+text[sp.End:])
	for at, i := now, 0; i < 3; i++ {
		at, _ = r.Next(at, ny)
		fmt.Println(at.Format("Mon 2006-01-02 15:04 MST"))
	}
	// Output:
	// "every Sunday at 2:30am" → every Sunday at 02:30
	// title: "remind me  to water the plants"
	// Sun 2026-03-08 03:30 EDT
	// Sun 2026-03-15 02:30 EDT
	// Sun 2026-03-22 02:30 EDT
}
