package telegram

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxCallbackData is Telegram's limit on an inline button's callback
// data, in bytes.
const maxCallbackData = 64

// encodeCallbackData writes the button of a Hearth message as
// "<message id>|<button id>": the click comes back with exactly this, and
// it names everything the pipeline needs (the store checks that the
// button was offered in the clicker's conversation).
func encodeCallbackData(messageID int64, buttonID string) (string, error) {
	if messageID <= 0 {
		return "", fmt.Errorf("message id %d is not positive", messageID)
	}
	if buttonID == "" || !utf8.ValidString(buttonID) {
		return "", fmt.Errorf("button id %q is empty or not UTF-8", buttonID)
	}
	data := strconv.FormatInt(messageID, 10) + "|" + buttonID
	if len(data) > maxCallbackData {
		return "", fmt.Errorf("button id %q makes callback data longer than Telegram's %d bytes", buttonID, maxCallbackData)
	}
	return data, nil
}

// decodeCallbackData reverses encodeCallbackData. It accepts only what
// encodeCallbackData can produce, so a forged or foreign (another bot
// version's) payload is refused rather than half-understood.
func decodeCallbackData(data string) (messageID int64, buttonID string, ok bool) {
	if len(data) > maxCallbackData || !utf8.ValidString(data) {
		return 0, "", false
	}
	idPart, buttonID, found := strings.Cut(data, "|")
	if !found || buttonID == "" {
		return 0, "", false
	}
	id, err := strconv.ParseInt(idPart, 10, 64)
	// The round trip rejects "+5", "05" and the like: one click, one spelling.
	if err != nil || id <= 0 || strconv.FormatInt(id, 10) != idPart {
		return 0, "", false
	}
	return id, buttonID, true
}
