package action_test

import (
	"fmt"
	"time"

	"github.com/hearthbot/hearth/pipeline/action"
)

// Actions are built from typed payloads, validated against the schema
// derived from those types, and sorted by the risk policy.
func Example() {
	due := time.Date(2026, 3, 11, 17, 0, 0, 0, time.UTC)
	task, err := action.New(action.TaskCreate, action.TaskCreateArgs{Title: "Call mom", Due: due})
	if err != nil {
		panic(err)
	}
	email, err := action.New(action.EmailSend, action.EmailArgs{To: []string{"Sarah <sarah@example.com>"}, Subject: "Late", Body: "I'll be late."})
	if err != nil {
		panic(err)
	}
	fmt.Println(task.Kind, string(task.Payload), action.RiskOf(task))
	fmt.Println(email.Kind, action.RiskOf(email))

	_, err = action.New(action.TaskCreate, action.TaskCreateArgs{})
	fmt.Println(err)
	// Output:
	// task.create {"title":"Call mom","due":"2026-03-11T17:00:00Z"} low
	// email.send high
	// invalid input: task.create: a task needs a title
}

// Schema gives a model the exact shape an action's payload must have.
func ExampleSchema() {
	s, err := action.Schema(action.NoteAppend)
	if err != nil {
		panic(err)
	}
	fmt.Println(s.Required)
	// Output:
	// [id]
}
