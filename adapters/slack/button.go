package slack

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxButtonValue is Slack's limit on a button's value, in characters;
// bytes are counted here, which is stricter.
const maxButtonValue = 2000

// encodeButtonValue writes the button of a Hearth message as
// "<message id>|<button id>": the click comes back with exactly this, and
// it names everything the pipeline needs (the store checks that the
// button was offered in the clicker's conversation).
func encodeButtonValue(messageID int64, buttonID string) (string, error) {
	if messageID <= 0 {
		return "", fmt.Errorf("message id %d is not positive", messageID)
	}
	if buttonID == "" || !utf8.ValidString(buttonID) {
		return "", fmt.Errorf("button id %q is empty or not UTF-8", buttonID)
	}
	v := strconv.FormatInt(messageID, 10) + "|" + buttonID
	if len(v) > maxButtonValue {
		return "", fmt.Errorf("button id makes a value longer than Slack's %d characters", maxButtonValue)
	}
	return v, nil
}

// decodeButtonValue reverses encodeButtonValue. It accepts only what
// encodeButtonValue can produce, so a forged or foreign value (another
// app's button, an older format) is refused rather than half-understood.
func decodeButtonValue(v string) (messageID int64, buttonID string, ok bool) {
	if len(v) > maxButtonValue || !utf8.ValidString(v) {
		return 0, "", false
	}
	idPart, buttonID, found := strings.Cut(v, "|")
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
