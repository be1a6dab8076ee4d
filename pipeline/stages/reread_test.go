package stages

import (
	"context"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu"
)

// taskList is a fake task source: the open tasks it holds.
type taskList []hearth.Task

func (l taskList) FindTasks(_ context.Context, f hearth.TaskFilter) ([]hearth.Task, error) {
	var out []hearth.Task
	for _, t := range l {
		if f.Status == "" || t.Status == f.Status {
			out = append(out, t)
		}
	}
	return out, nil
}

// TestDoneStatementCompletesTask checks that a statement of something done
// completes the open task it names, whatever the classifier made of it,
// and that any other statement is left as understood.
func TestDoneStatementCompletesTask(t *testing.T) {
	t.Parallel()
	z := mustZone(t, "America/New_York")
	now := time.Date(2026, 3, 10, 9, 0, 0, 0, z)
	tasks := taskList{
		{ID: 1, Title: "Pay rent", Status: hearth.TaskOpen},
		{ID: 2, Title: "Call mom", Status: hearth.TaskOpen, Due: time.Date(2026, 3, 10, 17, 0, 0, 0, z)},
		{ID: 3, Title: "Pick up the dry cleaning", Status: hearth.TaskOpen},
		{ID: 4, Title: "Submit the expense report", Status: hearth.TaskOpen},
		{ID: 5, Title: "Renew passport", Status: hearth.TaskDone},
		{ID: 6, Title: "Tidy the garage", Status: hearth.TaskOpen},
	}
	tests := []struct {
		text string
		want int64 // the task completed; 0: none, the turn is understood as before
	}{
		{"I paid the rent", 1},
		{"I called mom", 2},
		{"just called Mom!", 2},
		{"picked up the dry cleaning", 3},
		{"I finally submitted the expense report", 4},
		{"we tidied the garage", 6},
		// Not a task of the user's, or not done.
		{"I paid for lunch", 0},
		{"I called the plumber", 0},
		{"I renewed my passport", 0}, // already done
		{"I didn't call mom", 0},
		{"I need to pay the rent", 0},
		{"did I pay the rent?", 0},
		{"I started the expense report", 0},
		{"I love my mom", 0},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			t.Parallel()
			before := planTestClassifier.Classify(tt.text, []nlu.Turn{}, now)
			u, err := Sources{Tasks: tasks}.Completion(context.Background(), before, tt.text, 1)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == 0 {
				if u.Intent != before.Intent || len(u.Domains) != len(before.Domains) {
					t.Fatalf("understood %s %v, want the classifier's %s %v", u.Intent, u.Domains, before.Intent, before.Domains)
				}
				if u.Intent == nlu.RequestAction && len(u.Domains) > 0 && u.Domains[0] == nlu.Task {
					c := Context{Now: now, Location: z, Tasks: tasks}
					p, _ := planTask(context.Background(), PlanInput{Text: tt.text, Understanding: u, User: hearth.User{ID: 1}, Context: c})
					for _, a := range p.Actions {
						if a.Kind == action.TaskComplete {
							t.Fatalf("completed a task: %+v", p.Actions)
						}
					}
				}
				return
			}
			if u.Intent != nlu.RequestAction || len(u.Domains) != 1 || u.Domains[0] != nlu.Task || !u.RequiresAction {
				t.Fatalf("understood %s %v, want a task request", u.Intent, u.Domains)
			}
			c := Context{Now: now, Location: z, Tasks: tasks}
			p, err := planTask(context.Background(), PlanInput{Text: tt.text, Understanding: u, User: hearth.User{ID: 1}, Context: c})
			if err != nil || len(p.Actions) != 1 || p.Actions[0].Kind != action.TaskComplete {
				t.Fatalf("plan %+v, %v; want one task.complete", p, err)
			}
			if a := decode[action.TaskRefArgs](t, p.Actions[0]); a.ID != tt.want {
				t.Fatalf("completed %+v, want task %d", a, tt.want)
			}
		})
	}
}
