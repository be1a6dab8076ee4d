package store_test

import (
	"context"
	"testing"

	"github.com/hearthbot/hearth/store/storetest"
)

// TestReclaimJobs: a restarted replica takes back exactly the jobs it was
// running when it died, not another live replica's, and not finished ones.
func TestReclaimJobs(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	jobs := []struct {
		state, by string
	}{
		{"running", "{hearth-0,hearth-1}"}, // retried on hearth-1, which died: reclaimed
		{"running", "{hearth-1}"},          // reclaimed
		{"running", "{hearth-1,hearth-2}"}, // now on hearth-2, alive: left alone
		{"completed", "{hearth-1}"},        // done: left alone
	}
	for _, j := range jobs {
		if _, err := st.Pool().Exec(ctx, `INSERT INTO river_job (kind, args, max_attempts, state, attempt, attempted_by, attempted_at, finalized_at)
			VALUES ('turn', '{}', 25, $1::river_job_state, 1, $2::text[], now(), CASE WHEN $1 = 'completed' THEN now() END)`, j.state, j.by); err != nil {
			t.Fatal(err)
		}
	}
	n, err := st.ReclaimJobs(ctx, "hearth-1")
	if err != nil || n != 2 {
		t.Fatalf("reclaimed %d (%v); want 2", n, err)
	}
	var available, running int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FILTER (WHERE state = 'available'), count(*) FILTER (WHERE state = 'running') FROM river_job`).Scan(&available, &running); err != nil {
		t.Fatal(err)
	}
	if available != 2 || running != 1 {
		t.Fatalf("%d available, %d running; want 2 and 1", available, running)
	}
	if n, err := st.ReclaimJobs(ctx, "hearth-1"); err != nil || n != 0 {
		t.Fatalf("reclaimed again: %d %v", n, err)
	}
}
