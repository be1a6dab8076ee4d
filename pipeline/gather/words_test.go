package gather

import (
	"context"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage/stagetest"
)

// askedMemory is a fact source that counts the searches made of it.
type askedMemory struct {
	memoryList
	asked int
}

func (m *askedMemory) FindMemories(ctx context.Context, f hearth.MemoryFilter) ([]hearth.Memory, error) {
	m.asked++
	return m.memoryList.FindMemories(ctx, f)
}

// TestSpanQuestion checks that a question for what the calendar or the
// tasks hold over a span is answered from them alone, memory unsearched
// (a search of facts by words is the dearest read a turn makes), and that
// a question with words of its own, or a person in it, searches memory as
// before.
func TestSpanQuestion(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 11, 9, 0, 0, 0, time.UTC) // a Wednesday
	tests := []struct {
		text   string
		memory bool
	}{
		{"What's on my calendar tomorrow?", false},
		{"What do I have to do this week?", false},
		{"what's on my schedule for friday", false},
		{"What do I have on Saturday?", false},
		{"what tasks are due today?", false},
		{"When is my haircut?", true},
		{"What do I need to buy for the party this week?", true},
		{"What's on with Sam tomorrow?", true},
		{"What's Sam's phone number?", true},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			u := stagetest.Classifier().Classify(tt.text, []nlu.Turn{}, now)
			if u.Intent != nlu.AskInfo {
				t.Fatalf("understood as %s %v; the test wants a question", u.Intent, u.Domains)
			}
			facts := &askedMemory{}
			src := Sources{Tasks: taskList{}, Calendar: eventList{}, Notes: noteList{}, Memories: facts}
			if _, err := src.Gather(context.Background(), u, tt.text, hearth.User{ID: 1}, nil, now); err != nil {
				t.Fatal(err)
			}
			if asked := facts.asked > 0; asked != tt.memory {
				t.Errorf("understood as %v %+v: memory searched %d times; want searched: %v", u.Domains, u.Slots, facts.asked, tt.memory)
			}
		})
	}
}
