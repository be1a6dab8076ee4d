package nlucmd

import (
	"context"
	"encoding/json"
	"errors"
)

// runClassify implements `bot nlu classify`. OWNED BY THE INTENT HELPER.
func runClassify(ctx context.Context, env Env) error {
	return errors.New("nlu classify: not implemented yet")
}

// testIntents reports accuracy for rows with "intent". OWNED BY THE INTENT HELPER.
func testIntents(ctx context.Context, env Env, rows []json.RawMessage) error {
	return errors.New("nlu test: intent rows not implemented yet")
}
