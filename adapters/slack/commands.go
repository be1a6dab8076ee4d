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
	"github.com/hearthbot/hearth/commands"
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
	helpIntro = "Talk to me in a direct message, or mention me in a channel and I'll answer in the thread. " +
		"`/hearth <anything>` is the same as writing it to me, and `/hearth help` shows this help."
	onItText   = "On it…"
	onItDMText = "On it… the answer is coming in this DM."
	dmOnlyText = "That one is personal, so I only do it in our direct message: open a DM with me and send `/hearth %s` there."
)

// Commands is the registry /hearth dispatches to: `/hearth NAME args`
// runs the command NAME, and help lists them.
type Commands interface {
	Lookup(name string) (commands.Command, bool)
	Help(prefix string) string
}

// directMessage says whether a slash command was typed in the user's DM
// with Hearth, where replies are private. Slack's DM channel ids start
// with D.
func directMessage(cmd slack.SlashCommand) bool {
	return strings.HasPrefix(cmd.ChannelID, "D") || cmd.ChannelName == "directmessage"
}

// ServeCommands is the slash command endpoint for /hearth (mount it at
// POST CommandsPath). It verifies the raw body, answers help at once
// (generated from the commands registry), and stores anything else,
// acknowledged with a short ephemeral "On it…" only after the Inbox
// stored it; the real answer comes from the turn. `/hearth NAME args`
// naming a registered command is stored as that command (a
// hearth.KindCommand event the turn dispatches to the registry by name);
// a private one (briefing, link) runs only in the user's DM with Hearth
// (elsewhere an ephemeral answer says so). Any other text is stored as a
// message, as if written to Hearth.
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
				httpreply.JSON(w, http.StatusOK, ephemeral(refusal(err)))
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
	word, rest = strings.ToLower(word), strings.TrimSpace(rest)
	reply = onItText
	kind := hearth.KindMessage
	if word == "" || word == "help" {
		return a.help(), in, false, nil
	}
	if c, ok := a.lookup(word); ok {
		// A private answer (a briefing, a link code) is for the user's
		// eyes only: a code seen in a channel would let whoever redeems
		// it first into this person's account.
		if c.Private {
			if !directMessage(cmd) {
				return fmt.Sprintf(dmOnlyText, word), in, false, nil
			}
			reply = onItDMText
		}
		kind, text = hearth.KindCommand, strings.TrimSpace(word+" "+rest)
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
		Kind:            kind,
		Text:            text,
		Payload:         withoutToken(payload),
	}, true, nil
}

// ephemeral is a slash command answer only the caller sees.
func ephemeral(text string) *slack.Msg {
	return &slack.Msg{ResponseType: slack.ResponseTypeEphemeral, Text: text}
}

func (a *Adapter) lookup(name string) (commands.Command, bool) {
	if a.cfg.Commands == nil {
		return commands.Command{}, false
	}
	return a.cfg.Commands.Lookup(name)
}

// help is /hearth help: how to talk to Hearth in Slack, and the commands,
// generated from the registry.
func (a *Adapter) help() string {
	if a.cfg.Commands == nil {
		return helpIntro
	}
	return helpIntro + "\n" + a.cfg.Commands.Help("/hearth ")
}
