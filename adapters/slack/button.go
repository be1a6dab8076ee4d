package slack

import (
	"fmt"

	"github.com/hearthbot/hearth/pipeline"
)

// maxButtonValue is Slack's limit on a button's value, in characters;
// bytes are counted, which is stricter.
const maxButtonValue = 2000

// encodeButtonValue writes a button's value (see pipeline.EncodeButtonRef).
func encodeButtonValue(messageID int64, buttonID string) (string, error) {
	v, err := pipeline.EncodeButtonRef(messageID, buttonID, maxButtonValue)
	if err != nil {
		return "", fmt.Errorf("slack button value: %w", err)
	}
	return v, nil
}

// decodeButtonValue reverses encodeButtonValue.
func decodeButtonValue(v string) (messageID int64, buttonID string, ok bool) {
	return pipeline.DecodeButtonRef(v, maxButtonValue)
}
