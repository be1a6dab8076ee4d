package slack

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/slack-go/slack"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/httpreply"
)

// withoutToken drops the top-level "token" (Slack's legacy verification
// token, a shared secret) from a payload before it is stored for
// debugging; anything that is not a JSON object is kept as it is.
func withoutToken(raw []byte) json.RawMessage {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return raw
	}
	if _, ok := m["token"]; !ok {
		return raw
	}
	delete(m, "token")
	out, err := json.Marshal(m)
	if err != nil {
		return raw
	}
	return out
}

// Ephemeral answers to /hearth.
const (
	helpText = "Talk to me in a direct message, or mention me in a channel and I'll answer in the thread.\n" +
		"• `/hearth <anything>`: the same as writing it to me\n" +
		"• `/hearth help`: this help\n" +
		"• `/hearth briefing`: your briefing now\n" +
		"• `/hearth link`: a one-time code to use me from your other chats (Telegram, the web chat) as one person; " +
		"`/hearth link CODE` joins this Slack account to the one that made CODE"
	onItText      = "On it…"
	dmOnlyText    = "That one is personal, so I only do it in our direct message: open a DM with me and send `/hearth %s` there."
	briefingText  = "briefing now"
	linkCodeReply = "On it… your code is coming in this DM."
)

// directMessage says whether a slash command was typed in the user's DM
// with Hearth, where replies are private. Slack's DM channel ids start
// with D.
func directMessage(cmd slack.SlashCommand) bool {
	return strings.HasPrefix(cmd.ChannelID, "D") || cmd.ChannelName == "directmessage"
}

// ServeCommands is the slash command endpoint for /hearth (mount it at
// POST CommandsPath). It verifies the raw body, answers help at once, and
// stores anything else as a message from the user, acknowledged with a
// short ephemeral "On it…" only after the Inbox stored it; the real answer
// comes from the turn. "briefing" is stored as the message "briefing now"
// and "link [CODE]" as "/link [CODE]", both only in the user's DM with
// Hearth (elsewhere an ephemeral answer says so): what they answer is
// private.
func (a *Adapter) ServeCommands(w http.ResponseWriter, r *http.Request) {
	body, ok := a.readVerified(w, r)
	if !ok {
		return
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		httpreply.Reason(w, http.StatusBadRequest, "body is not a form")
		return
	}
	cmd := slack.SlashCommand{
		ChannelID:   form.Get("channel_id"),
		UserID:      form.Get("user_id"),
		UserName:    form.Get("user_name"),
		Command:     form.Get("command"),
		Text:        form.Get("text"),
		TriggerID:   form.Get("trigger_id"),
		ChannelName: form.Get("channel_name"),
	}
	payload, err := json.Marshal(cmd)
	if err != nil {
		httpreply.Reason(w, http.StatusBadRequest, "command cannot be encoded")
		return
	}
	reply, in, store, err := a.command(cmd, payload)
	if err != nil {
		httpreply.Reason(w, http.StatusBadRequest, err.Error())
		return
	}
	if store {
		if _, err := a.cfg.Inbox.Accept(r.Context(), in); err != nil {
			if errors.Is(err, hearth.ErrInvalid) {
				// Shown to the user, who can fix it (an overly long text).
				httpreply.JSON(w, http.StatusOK, ephemeral("Sorry, I can't take that: "+hearth.ErrorMessage(err)))
				return
			}
			httpreply.Error(w, r, a.cfg.Logger, err)
			return
		}
	}
	httpreply.JSON(w, http.StatusOK, ephemeral(reply))
}

// command decides what /hearth does: the immediate reply, and the
// message to store when store is true.
func (a *Adapter) command(cmd slack.SlashCommand, payload json.RawMessage) (reply string, in hearth.Inbound, store bool, err error) {
	if cmd.UserID == "" || cmd.ChannelID == "" || cmd.TriggerID == "" {
		return "", in, false, errors.New("user_id, channel_id and trigger_id are required")
	}
	text := strings.TrimSpace(cmd.Text)
	word, rest, _ := strings.Cut(text, " ")
	reply = onItText
	switch word = strings.ToLower(word); word {
	case "", "help":
		return helpText, in, false, nil
	case "briefing", "link":
		// A briefing (tasks, calendar) and a link code are for the user's
		// eyes only: a code seen in a channel would let whoever redeems it
		// first into this person's account.
		if !directMessage(cmd) {
			return fmt.Sprintf(dmOnlyText, word), in, false, nil
		}
		if word == "briefing" {
			// The scheduler's briefing answers this phrase like any chat's.
			text = briefingText
		} else {
			// The same one-time code flow as "/link" in any chat
			// (the link command): a code, or redeeming one.
			text = strings.TrimSpace("/link " + strings.TrimSpace(rest))
			if strings.TrimSpace(rest) == "" {
				reply = linkCodeReply
			}
		}
	}
	name := cmd.UserName
	if name == "" {
		name = "Slack user " + cmd.UserID
	}
	return reply, hearth.Inbound{
		Channel: hearth.ChannelSlack,
		// Slack does not retry slash commands; the trigger id is unique
		// per invocation.
		ExternalID:      "command:" + cmd.TriggerID,
		ConversationKey: cmd.ChannelID,
		UserKey:         cmd.UserID,
		UserName:        name,
		Kind:            hearth.KindMessage,
		Text:            text,
		Payload:         withoutToken(payload),
	}, true, nil
}

// ephemeral is a slash command answer only the caller sees.
func ephemeral(text string) *slack.Msg {
	return &slack.Msg{ResponseType: slack.ResponseTypeEphemeral, Text: text}
}
