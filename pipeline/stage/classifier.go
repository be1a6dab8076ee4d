package stage

import (
	"context"
	"time"

	"github.com/hearthbot/hearth/pipeline/nlu"
)

// Classifier adapts the offline classifier to the Intent stage.
type Classifier struct{ *nlu.Classifier }

// Understand classifies text; the offline classifier cannot fail.
func (c Classifier) Understand(_ context.Context, text string, recent []nlu.Turn, now time.Time) (Understanding, error) {
	return c.Classify(text, recent, now), nil
}
