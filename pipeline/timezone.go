package pipeline

import (
	"context"
	"fmt"
	"strings"

	"github.com/hearthbot/hearth"
)

// TimezoneSetter stores a user's IANA zone.
type TimezoneSetter interface {
	SetTimezone(ctx context.Context, userID int64, tz string) error
}

// recentMessages is what RequireTimezone needs, when the store has it, to
// carry out the request the time-zone question interrupted.
type recentMessages interface {
	RecentMessages(ctx context.Context, conversationID int64, n int) ([]hearth.Message, error)
}

// ZoneButtonPrefix starts the ids of the buttons that pick a time zone
// when a name is ambiguous ("tz:America/Chicago").
const ZoneButtonPrefix = "tz:"

// zoneQuestion is the question for users whose zone is unknown; "which
// time zone" marks it in the transcript.
const zoneQuestion = "Before we start: which time zone are you in? Reply with your city or its zone, like Chicago, London, CET or Europe/Berlin, so the dates and times I note mean what you mean."

// RequireTimezone answers turns of users whose zone is unknown by asking
// for it (and storing it once they name one) and passes everyone else to
// next. The answer may be a city, a country, an abbreviation or an offset
// (ZonesNamed); a name with several zones is asked about with a button
// for each. Once the zone is known, the request the question interrupted
// ("remind me to call mom at 5") is carried out, when the store can give
// the conversation's recent messages. Every date Hearth resolves is in
// the user's zone, never the host's (ARCHITECTURE.md, invariant 6).
func RequireTimezone(store TimezoneSetter, next Handler) Handler {
	return HandlerFunc(func(ctx context.Context, t Turn) (Answer, error) {
		if t.User.Timezone != "" {
			return next.HandleTurn(ctx, t)
		}
		zone := ""
		switch t.Event.Kind {
		case hearth.KindMessage:
			switch zs := ZonesNamed(t.Event.Text); len(zs) {
			case 0:
			case 1:
				zone = zs[0]
			default:
				out := hearth.Outbound{Text: "Which one do you mean?"}
				for _, z := range zs {
					out.Buttons = append(out.Buttons, hearth.Button{ID: ZoneButtonPrefix + z, Label: z})
				}
				return Answer{Replies: []hearth.Outbound{out}}, nil
			}
		case hearth.KindButton:
			if z, ok := strings.CutPrefix(t.Event.ButtonID, ZoneButtonPrefix); ok {
				if _, err := LoadTimezone(z); err == nil {
					zone = z
				}
			}
		}
		if zone == "" {
			return Reply(zoneQuestion), nil
		}
		if err := store.SetTimezone(ctx, t.User.ID, zone); err != nil {
			return Answer{}, fmt.Errorf("set timezone: %w", err)
		}
		thanks := fmt.Sprintf("Thanks! I'll use %s for your dates and times.", zone)
		if text := interrupted(ctx, store, t.Event.ConversationID); text != "" {
			resumed := t
			resumed.User.Timezone = zone
			resumed.Event.Kind, resumed.Event.Text, resumed.Event.ButtonID = hearth.KindMessage, text, ""
			ans, err := next.HandleTurn(ctx, resumed)
			if err != nil {
				return Answer{}, err
			}
			ans.Replies = append([]hearth.Outbound{{Text: thanks}}, ans.Replies...)
			return ans, nil
		}
		return Reply(thanks + " What can I do for you?"), nil
	})
}

// interrupted returns the request (three words or more) that the
// time-zone question first interrupted in the conversation, or "" when
// there is none (or no way to read the conversation).
func interrupted(ctx context.Context, store TimezoneSetter, conversationID int64) string {
	h, ok := store.(recentMessages)
	if !ok || conversationID == 0 {
		return ""
	}
	msgs, err := h.RecentMessages(ctx, conversationID, 12)
	if err != nil {
		return "" // the zone is stored; the request can be said again
	}
	// The request is the message the last question answered, found by
	// its event: on a platform a reply takes its place in the transcript
	// when it is delivered, so a request sent after the question may
	// stand before it there, and carrying that one out here would answer
	// it twice (its own turn answers it too).
	for i := len(msgs) - 1; i >= 0; i-- {
		q := msgs[i]
		if q.From != hearth.FromBot || !strings.Contains(q.Text, "which time zone") {
			continue
		}
		if q.EventID == 0 {
			return ""
		}
		for _, m := range msgs[:i] {
			// A request, not a greeting: "hello" needs no second answer.
			if m.From != hearth.FromBot && m.EventID == q.EventID && len(strings.Fields(m.Text)) >= 3 {
				return m.Text
			}
		}
		return ""
	}
	return ""
}
