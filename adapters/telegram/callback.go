package telegram

import (
	"fmt"

	"github.com/hearthbot/hearth/pipeline"
)

// maxCallbackData is Telegram's limit on an inline button's callback
// data, in bytes.
const maxCallbackData = 64

// encodeCallbackData writes a button's callback data (see
// pipeline.EncodeButtonRef).
func encodeCallbackData(messageID int64, buttonID string) (string, error) {
	data, err := pipeline.EncodeButtonRef(messageID, buttonID, maxCallbackData)
	if err != nil {
		return "", fmt.Errorf("telegram callback data: %w", err)
	}
	return data, nil
}

// decodeCallbackData reverses encodeCallbackData.
func decodeCallbackData(data string) (messageID int64, buttonID string, ok bool) {
	return pipeline.DecodeButtonRef(data, maxCallbackData)
}
