package telegram

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/httpreply"
)

// ServeHTTP is the webhook (mount it at POST WebhookPath). It checks the
// secret token before reading anything, stores the update through the
// Inbox and only then answers 2xx, so Telegram redelivers whatever was not
// stored. Updates Hearth does not handle are acknowledged and dropped.
func (a *Adapter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		httpreply.Reason(w, http.StatusMethodNotAllowed, "use POST")
		return
	}
	if !a.secretOK(r.Header.Get(SecretHeader)) {
		httpreply.Reason(w, http.StatusUnauthorized, "wrong or missing secret token")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		httpreply.Reason(w, http.StatusRequestEntityTooLarge, "body is larger than 1 MiB")
		return
	case err != nil:
		httpreply.Reason(w, http.StatusBadRequest, "could not read the body")
		return
	}
	var upd models.Update
	if err := json.Unmarshal(body, &upd); err != nil {
		httpreply.Reason(w, http.StatusBadRequest, "body is not a valid Telegram update")
		return
	}
	if upd.ID <= 0 {
		httpreply.Reason(w, http.StatusBadRequest, "update_id is required")
		return
	}
	in, ok := a.inbound(&upd, body)
	if !ok {
		a.answerCallback(r.Context(), upd.CallbackQuery, "")
		httpreply.JSON(w, http.StatusOK, map[string]any{"ok": true, "ignored": true})
		return
	}
	rec, err := a.cfg.Inbox.Accept(r.Context(), in)
	switch {
	case err == nil:
	case errors.Is(err, hearth.ErrInvalid) && upd.CallbackQuery != nil:
		// A click the store refuses (someone else's button in a group, a
		// message from before a reset) will never be accepted: telling
		// Telegram 400 would only make it redeliver the click. The person
		// who clicked gets the reason instead.
		a.answerCallback(r.Context(), upd.CallbackQuery, "This button can't be used here.")
		httpreply.JSON(w, http.StatusOK, map[string]any{"ok": true, "ignored": true})
		return
	case errors.Is(err, hearth.ErrInvalid):
		// A message that can never be accepted (an over-long one): a 400
		// would only make Telegram redeliver it, so the writer gets the
		// reason, with the limit, in a short reply instead.
		a.refuse(r.Context(), in, err)
		httpreply.JSON(w, http.StatusOK, map[string]any{"ok": true, "ignored": true, "reason": hearth.ErrorMessage(err)})
		return
	default:
		httpreply.Error(w, r, a.cfg.Logger, err)
		return
	}
	// The click is stored, so the spinner on the user's button can stop.
	// This is the platform's acknowledgement of the click (like the 2xx),
	// not processing: the answer to the click comes later from the turn.
	a.answerCallback(r.Context(), upd.CallbackQuery, "")
	httpreply.JSON(w, http.StatusOK, map[string]any{"ok": true, "event_id": rec.EventID, "duplicate": rec.Duplicate})
}

// secretOK compares in constant time. Both sides are hashed first so the
// comparison takes the same time whatever the length of the guess.
func (a *Adapter) secretOK(got string) bool {
	if a.cfg.WebhookSecret == "" || got == "" {
		return false
	}
	g, w := sha256.Sum256([]byte(got)), sha256.Sum256([]byte(a.cfg.WebhookSecret))
	return subtle.ConstantTimeCompare(g[:], w[:]) == 1
}

// inbound maps an update to an inbound event; ok is false for updates
// Hearth does not answer.
func (a *Adapter) inbound(upd *models.Update, raw []byte) (in hearth.Inbound, ok bool) {
	switch {
	case upd.Message != nil:
		return a.messageEvent(upd.ID, upd.Message, raw)
	case upd.CallbackQuery != nil:
		return a.clickEvent(upd.CallbackQuery, raw)
	}
	// Edits, channel posts, reactions, membership changes and the rest:
	// nothing to answer.
	return in, false
}

func (a *Adapter) messageEvent(updateID int64, m *models.Message, raw []byte) (hearth.Inbound, bool) {
	// No sender: a channel post or an anonymous group admin. A bot sender:
	// never answered, which includes Hearth itself and keeps two bots
	// from talking to each other forever.
	if m.From == nil || m.From.IsBot || m.From.ID == a.me.ID {
		return hearth.Inbound{}, false
	}
	text := m.Text
	switch m.Chat.Type {
	case models.ChatTypePrivate:
	case models.ChatTypeGroup, models.ChatTypeSupergroup:
		if !a.addressed(m) {
			return hearth.Inbound{}, false
		}
		text = a.withoutMention(text)
	default:
		return hearth.Inbound{}, false
	}
	kind := hearth.KindMessage
	audio := audioRef(m)
	file := fileRef(m)
	if audio != nil {
		// Transcribed by the turn, not here: ingress only stores where
		// the recording is.
		kind, text = hearth.KindVoice, "voice note"
	} else if file != nil {
		// Imported by the turn, which downloads it (see package imports).
		kind, text = hearth.KindFile, file.Name
	} else if strings.TrimSpace(text) == "" {
		// Photos, stickers and voice notes carry no text. In a private
		// chat they get a reply saying what Hearth can't read yet; in a
		// group, silence is kinder than a bot answering every sticker.
		what := unsupportedKind(m)
		if what == "" || m.Chat.Type != models.ChatTypePrivate {
			return hearth.Inbound{}, false
		}
		kind, text = hearth.KindUnsupported, what
	} else if cmd, ok := a.command(strings.TrimSpace(text)); ok {
		// "/briefing", "/link CODE": dispatched to the registry by name.
		kind, text = hearth.KindCommand, cmd
	}
	return hearth.Inbound{
		Channel:         hearth.ChannelTelegram,
		ExternalID:      "update:" + strconv.FormatInt(updateID, 10),
		ConversationKey: strconv.FormatInt(m.Chat.ID, 10),
		UserKey:         strconv.FormatInt(m.From.ID, 10),
		UserName:        displayName(m.From),
		Kind:            kind,
		Text:            text,
		Payload:         raw,
		Audio:           audio,
		File:            file,
	}, true
}

// unsupportedKind names what a message without text carried, or "" for
// service messages (a member joined, a title changed) that need no reply.
func unsupportedKind(m *models.Message) string {
	switch {
	case m.Voice != nil:
		return "voice note"
	case m.VideoNote != nil:
		return "video note"
	case m.Audio != nil:
		return "audio"
	case len(m.Photo) > 0:
		return "photo"
	case m.Sticker != nil:
		return "sticker"
	case m.Video != nil:
		return "video"
	case m.Document != nil:
		return "file"
	case m.Location != nil:
		return "location"
	case m.Contact != nil:
		return "contact"
	}
	return ""
}

func (a *Adapter) clickEvent(q *models.CallbackQuery, raw []byte) (hearth.Inbound, bool) {
	if q.From.IsBot || q.From.ID == 0 {
		return hearth.Inbound{}, false
	}
	messageID, buttonID, ok := decodeCallbackData(q.Data)
	if !ok {
		return hearth.Inbound{}, false
	}
	var chat *models.Chat
	switch {
	case q.Message.Message != nil:
		chat = &q.Message.Message.Chat
	case q.Message.InaccessibleMessage != nil:
		chat = &q.Message.InaccessibleMessage.Chat
	}
	if chat == nil || chat.ID == 0 {
		return hearth.Inbound{}, false // an inline-mode message: not one of Hearth's
	}
	return hearth.Inbound{
		Channel: hearth.ChannelTelegram,
		// Not the callback query id: a double click makes two queries, and
		// it must be one click (as in the web chat).
		ExternalID:      "click:" + strconv.FormatInt(messageID, 10) + ":" + buttonID,
		ConversationKey: strconv.FormatInt(chat.ID, 10),
		UserKey:         strconv.FormatInt(q.From.ID, 10),
		UserName:        displayName(&q.From),
		Kind:            hearth.KindButton,
		MessageID:       messageID,
		ButtonID:        buttonID,
		Payload:         raw,
	}, true
}

// addressed says whether a group message is meant for the bot: it
// mentions the bot or replies to one of its messages. Everything else in
// a group is people talking to each other.
func (a *Adapter) addressed(m *models.Message) bool {
	if r := m.ReplyToMessage; r != nil && r.From != nil && r.From.ID == a.me.ID {
		return true
	}
	if a.mention == nil {
		return false
	}
	for _, e := range m.Entities {
		switch e.Type {
		case models.MessageEntityTypeMention, models.MessageEntityTypeBotCommand:
			if a.mention.MatchString(entityText(m.Text, e)) {
				return true
			}
		case models.MessageEntityTypeTextMention:
			if e.User != nil && e.User.ID == a.me.ID {
				return true
			}
		}
	}
	return a.mention.MatchString(m.Text)
}

// withoutMention drops "@botname" so the words meant for Hearth are what
// the pipeline reads; a bare mention keeps its text rather than becoming
// an empty message.
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

// entityText cuts an entity out of text. Telegram counts offsets in
// UTF-16 code units, not bytes or runes.
func entityText(text string, e models.MessageEntity) string {
	u := utf16.Encode([]rune(text))
	if e.Offset < 0 || e.Length <= 0 || e.Offset+e.Length > len(u) {
		return ""
	}
	return string(utf16.Decode(u[e.Offset : e.Offset+e.Length]))
}

func displayName(u *models.User) string {
	name := strings.TrimSpace(strings.TrimSpace(u.FirstName) + " " + strings.TrimSpace(u.LastName))
	if name == "" {
		name = u.Username
	}
	if name == "" {
		name = "Telegram user " + strconv.FormatInt(u.ID, 10)
	}
	return name
}

// answerCallback stops the spinner on a clicked button, best effort and
// briefly: a lost answer costs the user a spinner that times out by
// itself, while waiting longer would hold up the webhook.
func (a *Adapter) answerCallback(ctx context.Context, q *models.CallbackQuery, text string) {
	if q == nil || q.ID == "" {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, a.cfg.AckTimeout)
	defer cancel()
	if _, err := a.bot.AnswerCallbackQuery(ctx, &bot.AnswerCallbackQueryParams{CallbackQueryID: q.ID, Text: text}); err != nil {
		a.cfg.Logger.WarnContext(ctx, "telegram: answer callback query", "error", err)
	}
}

// refusal is the short reply to a message the inbox refuses, with its
// reason ("text is longer than 65536 bytes").
func refusal(err error) string {
	return "Sorry, I can't take that: " + hearth.ErrorMessage(err) + "."
}

// refuse tells the writer of in why it was not taken, in its chat.
// Nothing was stored, so the reply is sent directly rather than through
// the outbox; a failure to send is only logged.
func (a *Adapter) refuse(ctx context.Context, in hearth.Inbound, reason error) {
	_, err := a.Send(ctx, hearth.Delivery{Channel: hearth.ChannelTelegram, ConversationKey: in.ConversationKey, Text: refusal(reason)})
	if err != nil {
		a.cfg.Logger.WarnContext(ctx, "telegram: could not tell the user why a message was refused", "chat", in.ConversationKey, "error", err)
	}
}
