package slack

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/slack-go/slack"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/httpreply"
)

// ServeInteractions is the interactivity endpoint (mount it at POST
// InteractionsPath). It verifies the raw body before parsing the form,
// stores a click on one of Hearth's buttons as a button event and only
// then answers 200. Clicks are keyed by message and button, not by
// Slack's trigger id: a double click is one click.
func (a *Adapter) ServeInteractions(w http.ResponseWriter, r *http.Request) {
	body, ok := a.readVerified(w, r)
	if !ok {
		return
	}
	form, err := url.ParseQuery(string(body))
	if err != nil || form.Get("payload") == "" {
		httpreply.Reason(w, http.StatusBadRequest, "body is not a form with a payload")
		return
	}
	in, ok, err := a.clickInbound([]byte(form.Get("payload")))
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
	case err == nil:
	case errors.Is(err, hearth.ErrInvalid):
		// A click the store refuses (someone else's approval in a shared
		// thread, a message from before a reset) will never be accepted;
		// a non-200 would only show the clicker a warning sign.
		a.cfg.Logger.WarnContext(r.Context(), "slack: click refused", "reason", hearth.ErrorMessage(err))
		httpreply.JSON(w, http.StatusOK, map[string]any{"ok": true, "ignored": true})
		return
	default:
		httpreply.Error(w, r, a.cfg.Logger, err)
		return
	}
	httpreply.JSON(w, http.StatusOK, map[string]any{"ok": true, "event_id": rec.EventID, "duplicate": rec.Duplicate})
}

// clickInbound maps an interaction payload (JSON) to a button event; ok
// is false for interactions that are not a click on one of Hearth's
// buttons.
func (a *Adapter) clickInbound(payload []byte) (in hearth.Inbound, ok bool, err error) {
	var cb slack.InteractionCallback
	if err := json.Unmarshal(payload, &cb); err != nil {
		return in, false, fmt.Errorf("%w: interaction payload: %w", errMalformed, err)
	}
	if cb.Type != slack.InteractionTypeBlockActions {
		return in, false, nil
	}
	if cb.User.ID == "" || cb.User.ID == a.botUserID {
		return in, false, nil
	}
	var messageID int64
	var buttonID string
	for _, act := range cb.ActionCallback.BlockActions {
		if act == nil || act.Type != slack.ActionType(slack.METButton) {
			continue
		}
		if id, b, found := decodeButtonValue(act.Value); found {
			messageID, buttonID = id, b
			break
		}
	}
	if messageID == 0 {
		return in, false, nil // another app's button, or not a button
	}
	channel := cb.Container.ChannelID
	if channel == "" {
		channel = cb.Channel.ID
	}
	if channel == "" {
		return in, false, nil // a button in a view or an ephemeral surface
	}
	// The conversation the button was posted in: a thread reply names its
	// thread; a top-level message that later grew a thread has thread_ts
	// equal to its own ts and is still top-level.
	key := channel
	thread := cb.Message.ThreadTimestamp
	if thread == "" {
		thread = cb.Container.ThreadTs
	}
	if thread != "" && thread != cb.Message.Timestamp && thread != cb.Container.MessageTs {
		key += ":" + thread
	}
	name := cb.User.Name
	if name == "" {
		name = "Slack user " + cb.User.ID
	}
	return hearth.Inbound{
		Channel:         hearth.ChannelSlack,
		ExternalID:      "click:" + strconv.FormatInt(messageID, 10) + ":" + buttonID,
		ConversationKey: key,
		UserKey:         cb.User.ID,
		UserName:        name,
		Kind:            hearth.KindButton,
		MessageID:       messageID,
		ButtonID:        buttonID,
		Payload:         withoutToken(payload),
	}, true, nil
}
