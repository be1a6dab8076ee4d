package nlu_test

import (
	"fmt"
	"time"

	"github.com/hearthbot/hearth/pipeline/nlu"
)

func Example() {
	c, err := nlu.New()
	if err != nil {
		fmt.Println(err)
		return
	}
	now := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)

	res := c.Classify("Email Sarah that I'll be late", nil, now)
	fmt.Println(res.Intent, res.Domains, res.RequiresAction)
	fmt.Printf("to %s: %q\n", res.Slots.Recipient, res.Slots.Gist)

	// A short answer refers to the bot's last turn.
	recent := []nlu.Turn{{FromBot: true, Text: "Which calendar?", Options: []string{"Work", "Family"}}}
	res = c.Classify("the second one", recent, now)
	fmt.Println(res.Intent, res.Slots.Option)
	// Output:
	// request_action [email] true
	// to Sarah: "I'll be late"
	// followup 2
}
