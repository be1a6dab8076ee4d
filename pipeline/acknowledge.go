package pipeline

import (
	"context"
	"fmt"
)

// Acknowledge is the interim turn handler: it confirms each message, offers
// two buttons, and says which button was clicked. It exercises the whole
// durable path (event → turn → deliver) until the four stages answer.
var Acknowledge HandlerFunc = func(ctx context.Context, t Turn) ([]Outbound, error) {
	switch t.Event.Kind {
	case KindButton:
		return []Outbound{{Text: fmt.Sprintf("You picked %q.", buttonLabel(t.Event.ButtonID))}}, nil
	default:
		return []Outbound{{
			Text:    fmt.Sprintf("Got it, %s: %q. I can't act on messages yet; this is the durable path saying hello.", t.User.DisplayName, t.Event.Text),
			Buttons: []Button{{ID: "thanks", Label: "Thanks"}, {ID: "help", Label: "What can you do?"}},
		}}, nil
	}
}

func buttonLabel(id string) string {
	switch id {
	case "thanks":
		return "Thanks"
	case "help":
		return "What can you do?"
	}
	return id
}
