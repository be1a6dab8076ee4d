// Package stagetest is the test kit of the pipeline's stages: a user's
// data on a fixed day, and the offline classifier loaded once.
package stagetest

import (
	"sync"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
)

// Classifier returns the offline classifier, loaded once per test binary.
var Classifier = sync.OnceValue(func() *nlu.Classifier {
	c, err := nlu.New()
	if err != nil {
		panic(err) // the embedded model is part of the binary
	}
	return c
})

// Fixture is a user's data on Tuesday 2026-03-10 09:00 in New York.
func Fixture(t testing.TB) stage.Context {
	t.Helper()
	z, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	at := func(d, h, m int) time.Time { return time.Date(2026, 3, d, h, m, 0, 0, z) }
	return stage.Context{
		Now:      at(10, 9, 0),
		Location: z,
		Tasks: []hearth.Task{
			{ID: 1, Title: "Call mom", Status: hearth.TaskOpen, Due: at(10, 17, 0)},
			{ID: 2, Title: "Finish the quarterly report", Status: hearth.TaskOpen, Priority: 3, Due: at(12, 0, 0), AllDay: true},
			{ID: 3, Title: "Buy milk", Status: hearth.TaskOpen},
			{ID: 4, Title: "Buy birthday present for John", Status: hearth.TaskOpen},
			{ID: 5, Title: "Renew passport", Status: hearth.TaskDone},
		},
		Events: []hearth.CalendarEvent{
			{ID: 10, Title: "Dentist appointment", Start: at(13, 9, 0), End: at(13, 10, 0)},
			{ID: 11, Title: "Team meeting", Start: at(11, 14, 0), End: at(11, 15, 0)},
			{ID: 12, Title: "Team meeting", Start: at(12, 14, 0), End: at(12, 15, 0)},
		},
		Memories: []hearth.Memory{
			{ID: 20, Content: "John's birthday is March 15th", About: "John", Category: hearth.MemoryPersonal},
			{ID: 21, Content: "Emma's teacher is Mrs. Lee", About: "Emma", Category: hearth.MemoryPersonal},
			{ID: 22, Content: "Emma's school play is on April 2nd", About: "Emma", Category: hearth.MemoryPersonal},
		},
		Notes: []hearth.Note{
			{ID: 30, Title: "Shopping list", Items: []hearth.ChecklistItem{{Text: "bread"}}},
			{ID: 31, Title: "Gift ideas", Body: "Book for dad"},
		},
	}
}

// Zone loads an IANA zone or fails the test.
func Zone(t testing.TB, name string) *time.Location {
	t.Helper()
	z, err := time.LoadLocation(name)
	if err != nil {
		t.Fatalf("load zone %s: %v", name, err)
	}
	return z
}
