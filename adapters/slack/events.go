package slack

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/slack-go/slack/slackevents"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/httpreply"
)

// envelope is the outer Events API request.
type envelope struct {
	Type      string          `json:"type"`
	Challenge string          `json:"challenge"`
	EventID   string          `json:"event_id"`
	Event     json.RawMessage `json:"event"`
}

// innerEvent holds the fields of message and app_mention events Hearth
// reads; slackevents' own types are not used because MessageEvent's
// custom decoding folds edited messages into the top level.
type innerEvent struct {
	Type        string `json:"type"`
	Subtype     string `json:"subtype"`
	Channel     string `json:"channel"`
	ChannelType string `json:"channel_type"`
	User        string `json:"user"`
	BotID       string `json:"bot_id"`
	Text        string `json:"text"`
	TS          string `json:"ts"`
	ThreadTS    string `json:"thread_ts"`
	// Files come with file_share messages (and mentions with a file).
	Files []sharedFile `json:"files"`
}

// errMalformed marks a request Slack would never send: 400.
var errMalformed = errors.New("malformed Slack payload")

// ServeEvents is the Events API endpoint (mount it at POST EventsPath).
// It verifies the signature over the raw body, answers url_verification
// with the challenge, stores DMs and app mentions through the Inbox and
// only then answers 2xx. Retries (X-Slack-Retry-Num) take the same path:
// the event_id dedupe makes a retry of a stored event a duplicate, and a
// retry of one refused with 503 is stored now. Events Hearth does not
// answer are acknowledged and dropped.
func (a *Adapter) ServeEvents(w http.ResponseWriter, r *http.Request) {
	body, ok := a.readVerified(w, r)
	if !ok {
		return
	}
	var env envelope
	if err := json.Unmarshal(body, &env); err != nil || env.Type == "" {
		httpreply.Reason(w, http.StatusBadRequest, "body is not a Slack Events API request")
		return
	}
	switch env.Type {
	case slackevents.URLVerification:
		if env.Challenge == "" {
			httpreply.Reason(w, http.StatusBadRequest, "challenge is required")
			return
		}
		// slackevents.ChallengeResponse has no JSON tags; Slack wants "challenge".
		httpreply.JSON(w, http.StatusOK, map[string]string{"challenge": env.Challenge})
		return
	case slackevents.CallbackEvent:
	default:
		// app_rate_limited and whatever Slack adds later.
		httpreply.JSON(w, http.StatusOK, map[string]any{"ok": true, "ignored": true})
		return
	}
	in, ok, err := a.callbackInbound(body)
	switch {
	case err != nil:
		httpreply.Reason(w, http.StatusBadRequest, err.Error())
		return
	case !ok:
		httpreply.JSON(w, http.StatusOK, map[string]any{"ok": true, "ignored": true})
		return
	}
	rec, err := a.cfg.Inbox.Accept(r.Context(), in)
	switch {
	case errors.Is(err, hearth.ErrInvalid):
		// Slack would only send the same bytes again, so it gets a 200;
		// the person who wrote gets the reason (for an over-long message,
		// the limit) in a short reply.
		a.refuse(r.Context(), in, err)
		httpreply.JSON(w, http.StatusOK, map[string]any{"ok": true, "ignored": true, "reason": hearth.ErrorMessage(err)})
		return
	case err != nil:
		httpreply.Error(w, r, a.cfg.Logger, err)
		return
	}
	httpreply.JSON(w, http.StatusOK, map[string]any{"ok": true, "event_id": rec.EventID, "duplicate": rec.Duplicate,
		"retry": r.Header.Get(retryNumHeader) != ""})
}

// callbackInbound maps an event_callback body (from HTTP or a Socket Mode
// envelope) to an inbound event; ok is false for events Hearth does not
// answer, err wraps errMalformed for payloads Slack would never send.
func (a *Adapter) callbackInbound(body []byte) (in hearth.Inbound, ok bool, err error) {
	var env envelope
	if err := json.Unmarshal(body, &env); err != nil {
		return in, false, fmt.Errorf("%w: %w", errMalformed, err)
	}
	if env.Type != slackevents.CallbackEvent {
		return in, false, nil
	}
	if env.EventID == "" || len(env.Event) == 0 || string(env.Event) == "null" {
		return in, false, fmt.Errorf("%w: event_id and event are required", errMalformed)
	}
	var ev innerEvent
	if err := json.Unmarshal(env.Event, &ev); err != nil {
		return in, false, fmt.Errorf("%w: event: %w", errMalformed, err)
	}
	// Bots are never answered, Hearth included: two bots would otherwise
	// talk to each other forever. Subtypes (message_changed,
	// message_deleted, bot_message, channel_join, …) are not someone
	// writing to Hearth.
	// file_share is someone sharing a file, such as an audio clip.
	if ev.BotID != "" || (ev.Subtype != "" && ev.Subtype != "file_share") || ev.User == "" || ev.User == a.botUserID {
		return in, false, nil
	}
	in = hearth.Inbound{
		Channel:    hearth.ChannelSlack,
		ExternalID: "event:" + env.EventID,
		UserKey:    ev.User,
		// Slack events carry no display name; the user id stands in until
		// the wiring asks users.info, as it does for the time zone.
		UserName: "Slack user " + ev.User,
		Kind:     hearth.KindMessage,
		Payload:  withoutToken(body),
	}
	switch ev.Type {
	case string(slackevents.Message):
		// Direct messages only: a mention in a channel arrives as its own
		// app_mention event, and the rest of a channel is people talking
		// to each other.
		if ev.ChannelType != "im" {
			return hearth.Inbound{}, false, nil
		}
		in.ConversationKey = ev.Channel
		in.Text = ev.Text
	case string(slackevents.AppMention):
		// Answered in the thread of the mention (or the thread it was
		// written in).
		thread := ev.ThreadTS
		if thread == "" {
			thread = ev.TS
		}
		if thread == "" {
			return hearth.Inbound{}, false, fmt.Errorf("%w: app_mention without ts", errMalformed)
		}
		in.ConversationKey = ev.Channel + ":" + thread
		in.Text = a.withoutMention(ev.Text)
	default:
		return hearth.Inbound{}, false, nil
	}
	if ev.Channel == "" {
		return hearth.Inbound{}, false, fmt.Errorf("%w: event without channel", errMalformed)
	}
	// An audio clip is a voice note: ingress stores where it is, and the
	// turn downloads and transcribes it.
	if audio := audioRef(ev.Files); audio != nil {
		in.Kind, in.Text, in.Audio = hearth.KindVoice, "audio clip", audio
	} else if file := fileRef(ev.Files); file != nil {
		// A file to import, downloaded by the turn like an audio clip.
		in.Kind, in.Text, in.File = hearth.KindFile, file.Name, file
	}
	// Other files without a caption carry nothing to answer.
	if strings.TrimSpace(in.Text) == "" {
		return hearth.Inbound{}, false, nil
	}
	return in, true, nil
}

// withoutMention drops Hearth's own mention (<@U123> or <@U123|name>)
// so the words meant for it are what the pipeline reads; a bare mention
// keeps its text rather than becoming an empty message.
func (a *Adapter) withoutMention(text string) string {
	if a.mention == nil {
		return text
	}
	stripped := strings.TrimLeft(strings.TrimSpace(a.mention.ReplaceAllString(text, "")), ",:; ")
	if strings.TrimSpace(stripped) == "" {
		return text
	}
	return stripped
}

// refusal is the short reply to a message the inbox refuses, with its
// reason ("text is longer than 65536 bytes").
func refusal(err error) string {
	return "Sorry, I can't take that: " + hearth.ErrorMessage(err) + "."
}

// refuse tells the writer of in why it was not taken, in its
// conversation. Nothing was stored, so the reply is sent directly rather
// than through the outbox; a failure to send is only logged.
func (a *Adapter) refuse(ctx context.Context, in hearth.Inbound, reason error) {
	_, err := a.Send(ctx, hearth.Delivery{Channel: hearth.ChannelSlack, ConversationKey: in.ConversationKey, Text: refusal(reason)})
	if err != nil {
		a.cfg.Logger.WarnContext(ctx, "slack: could not tell the user why a message was refused", "conversation", in.ConversationKey, "error", err)
	}
}
