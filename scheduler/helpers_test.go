package scheduler_test

import (
	"encoding/json"

	"github.com/riverqueue/river/rivertype"
)

func rivertypeWaiting() []rivertype.JobState {
	return []rivertype.JobState{rivertype.JobStateAvailable, rivertype.JobStateScheduled, rivertype.JobStateRetryable, rivertype.JobStatePending}
}

func unmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
