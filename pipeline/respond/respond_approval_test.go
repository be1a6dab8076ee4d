package respond

import (
	"testing"

	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/stage"
)

// TestBulkApprovalText: several approvals of one turn are asked as one
// question: events to cancel by their titles, anything else each in its
// own words.
func TestBulkApprovalText(t *testing.T) {
	t.Parallel()
	out := func(k action.Kind, v any) stage.Outcome {
		a, err := action.New(k, v)
		if err != nil {
			t.Fatal(err)
		}
		return stage.Outcome{Action: a, Status: stage.AwaitingApproval}
	}
	yoga, haircut := out(action.CalendarDelete, action.EventRefArgs{ID: 1, Title: "Yoga"}), out(action.CalendarDelete, action.EventRefArgs{ID: 2, Title: "Haircut"})
	if got, want := bulkApprovalText([]stage.Outcome{yoga, haircut}, stage.Context{}), "Shall I cancel these 2 events: “Yoga” and “Haircut”?"; got != want {
		t.Errorf("got %q; want %q", got, want)
	}
	eggs := out(action.TaskCreate, action.TaskCreateArgs{Title: "Buy eggs"})
	if got, want := bulkApprovalText([]stage.Outcome{eggs, yoga}, stage.Context{}), "Shall I add “Buy eggs” to your tasks and cancel Yoga?"; got != want {
		t.Errorf("got %q; want %q", got, want)
	}
}
