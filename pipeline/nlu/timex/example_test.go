package timex_test

import (
	"fmt"
	"time"

	"github.com/hearthbot/hearth/pipeline/nlu/timex"
)

// Parse finds the date in a message; the caller strips the span to get
// the task title.
func ExampleParse() {
	ny, _ := time.LoadLocation("America/New_York")
	ref := time.Date(2026, 3, 10, 14, 20, 0, 0, ny) // a Tuesday afternoon
	text := "remind me to call mom tomorrow at 5pm"
	m, ok := timex.Parse(text, ref, timex.Options{})
	if !ok {
		return
	}
	fmt.Printf("%q\n", m.Text)
	fmt.Printf("title: %q\n", text[:m.Start]+text[m.End:])
	fmt.Println(m.Kind, m.Value.Format(time.RFC3339), m.Grain)
	// Output:
	// "tomorrow at 5pm"
	// title: "remind me to call mom "
	// value 2026-03-11T17:00:00-04:00 hour
}

// Find returns every expression, left to right; intervals have an
// exclusive end, and an open side is the zero time.
func ExampleFind() {
	ref := time.Date(2026, 3, 10, 14, 20, 0, 0, time.UTC)
	text := "busy from 9:30 to 11 on thursday, free after 5 on friday"
	for _, m := range timex.Find(text, ref, timex.Options{}) {
		fmt.Printf("%q %s %s", m.Text, m.Kind, m.Grain)
		if !m.From.IsZero() {
			fmt.Print(" from ", m.From.Format("Mon 15:04"))
		}
		if !m.To.IsZero() {
			fmt.Print(" to ", m.To.Format("Mon 15:04"))
		}
		fmt.Println()
	}
	// Output:
	// "from 9:30 to 11 on thursday" interval minute from Thu 09:30 to Thu 11:01
	// "after 5 on friday" interval hour from Fri 17:00
}

// Latent readings such as a bare number are only returned on request.
func ExampleOptions() {
	ref := time.Date(2026, 3, 10, 14, 20, 0, 0, time.UTC)
	_, strict := timex.Parse("7", ref, timex.Options{})
	m, _ := timex.Parse("7", ref, timex.Options{Latent: true})
	fmt.Println(strict, m.Latent, m.Value.Format("15:04"))
	// Output:
	// false true 19:00
}
