package nlucmd

import (
	"context"
	"encoding/json"
	"errors"
)

// runTime implements `bot nlu time`. OWNED BY THE TIME HELPER.
func runTime(ctx context.Context, env Env) error {
	return errors.New("nlu time: not implemented yet")
}

// testTimes reports accuracy for rows with "type". OWNED BY THE TIME HELPER.
func testTimes(ctx context.Context, env Env, rows []json.RawMessage) error {
	return errors.New("nlu test: time rows not implemented yet")
}
