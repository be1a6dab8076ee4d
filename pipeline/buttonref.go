package pipeline

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// EncodeButtonRef writes the button of a Hearth message as
// "<message id>|<button id>", for platforms that hand an opaque string
// back with a click (Telegram callback data, Slack button values). It
// names everything the pipeline needs; the store checks that the button
// was offered in the clicker's conversation. maxBytes is the platform's
// limit.
func EncodeButtonRef(messageID int64, buttonID string, maxBytes int) (string, error) {
	if messageID <= 0 {
		return "", fmt.Errorf("message id %d is not positive", messageID)
	}
	if buttonID == "" || !utf8.ValidString(buttonID) {
		return "", fmt.Errorf("button id %q is empty or not UTF-8", buttonID)
	}
	ref := strconv.FormatInt(messageID, 10) + "|" + buttonID
	if len(ref) > maxBytes {
		return "", fmt.Errorf("button id %q makes a reference longer than the platform's %d bytes", buttonID, maxBytes)
	}
	return ref, nil
}

// DecodeButtonRef reverses EncodeButtonRef. It accepts only what
// EncodeButtonRef can produce, so a forged or foreign reference (another
// app's button, an older format) is refused rather than half-understood.
func DecodeButtonRef(ref string, maxBytes int) (messageID int64, buttonID string, ok bool) {
	if len(ref) > maxBytes || !utf8.ValidString(ref) {
		return 0, "", false
	}
	idPart, buttonID, found := strings.Cut(ref, "|")
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
