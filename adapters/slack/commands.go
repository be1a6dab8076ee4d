package slack

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/slack-go/slack"

	"github.com/hearthbot/hearth/pipeline"
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
		"• `/hearth briefing`, `/hearth link`: coming soon"
	comingSoonText = "That one is coming soon. For now, just tell me what you need."
	onItText       = "On it…"
)

// ServeCommands is the slash command endpoint for /hearth (mount it at
// POST CommandsPath). It verifies the raw body, answers help (and the
// subcommands not built yet) at once, and stores anything else as a
// message from the user, acknowledged with a short ephemeral "On it…"
// only after the Inbox stored it; the real answer comes from the turn.
func (a *Adapter) ServeCommands(w http.ResponseWriter, r *http.Request) {
	body, ok := a.readVerified(w, r)
	if !ok {
		return
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		writeError(w, http.StatusBadRequest, "body is not a form")
		return
	}
	cmd := slack.SlashCommand{
		ChannelID: form.Get("channel_id"),
		UserID:    form.Get("user_id"),
		UserName:  form.Get("user_name"),
		Command:   form.Get("command"),
		Text:      form.Get("text"),
		TriggerID: form.Get("trigger_id"),
	}
	payload, err := json.Marshal(cmd)
	if err != nil {
		writeError(w, http.StatusBadRequest, "command cannot be encoded")
		return
	}
	reply, in, store, err := a.command(cmd, payload)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if store {
		if _, err := a.cfg.Inbox.Accept(r.Context(), in); err != nil {
			var invalid *pipeline.InvalidError
			if errors.As(err, &invalid) {
				// Shown to the user, who can fix it (an overly long text).
				writeJSON(w, http.StatusOK, ephemeral("Sorry, I can't take that: "+invalid.Reason))
				return
			}
			a.fail(w, r, err)
			return
		}
	}
	writeJSON(w, http.StatusOK, ephemeral(reply))
}

// command decides what /hearth does: the immediate reply, and the
// message to store when store is true.
func (a *Adapter) command(cmd slack.SlashCommand, payload json.RawMessage) (reply string, in pipeline.Inbound, store bool, err error) {
	if cmd.UserID == "" || cmd.ChannelID == "" || cmd.TriggerID == "" {
		return "", in, false, errors.New("user_id, channel_id and trigger_id are required")
	}
	text := strings.TrimSpace(cmd.Text)
	word, _, _ := strings.Cut(text, " ")
	switch strings.ToLower(word) {
	case "", "help":
		return helpText, in, false, nil
	case "briefing", "link":
		return comingSoonText, in, false, nil
	}
	name := cmd.UserName
	if name == "" {
		name = "Slack user " + cmd.UserID
	}
	return onItText, pipeline.Inbound{
		Channel: pipeline.ChannelSlack,
		// Slack does not retry slash commands; the trigger id is unique
		// per invocation.
		ExternalID:      "command:" + cmd.TriggerID,
		ConversationKey: cmd.ChannelID,
		UserKey:         cmd.UserID,
		UserName:        name,
		Kind:            pipeline.KindMessage,
		Text:            text,
		Payload:         withoutToken(payload),
	}, true, nil
}

// ephemeral is a slash command answer only the caller sees.
func ephemeral(text string) *slack.Msg {
	return &slack.Msg{ResponseType: slack.ResponseTypeEphemeral, Text: text}
}
