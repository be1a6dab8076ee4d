package webchat

import (
	"context"
	"strconv"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline"
)

// Sender delivers to the web chat. The transcript is the web chat's
// mailbox: marking a message delivered makes it visible and notifies the
// streams, so sending itself has nothing to do.
type Sender struct{}

// Send returns the message's own id as its platform id.
func (Sender) Send(_ context.Context, d hearth.Delivery) (string, error) {
	return "webchat:" + strconv.FormatInt(d.MessageID, 10), nil
}

// DeliversByTranscript marks the web chat as delivered by its transcript:
// replies are visible the moment the turn commits them.
func (Sender) DeliversByTranscript() {}

var _ pipeline.TranscriptSender = Sender{}
