package telegram

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/pipeline"
)

// Send delivers d to its chat (d.ConversationKey is the chat id), its
// Markdown text rendered as Telegram's HTML (parse_mode HTML), with one
// inline keyboard row per button, and returns Telegram's message id.
// Errors wrap pipeline.ErrPermanent when resending cannot help (the chat
// is gone, the bot was blocked, Telegram refused the message itself); a
// rate limit or a network failure is returned as is, for the deliver job
// to retry with backoff.
func (a *Adapter) Send(ctx context.Context, d hearth.Delivery) (string, error) {
	params := &bot.SendMessageParams{ChatID: d.ConversationKey, Text: markdown.TelegramHTML(d.Text), ParseMode: models.ParseModeHTML}
	if len(d.Buttons) > 0 {
		kb := &models.InlineKeyboardMarkup{InlineKeyboard: make([][]models.InlineKeyboardButton, 0, len(d.Buttons))}
		for _, b := range d.Buttons {
			data, err := encodeCallbackData(d.MessageID, b.ID)
			if err != nil {
				return "", fmt.Errorf("telegram send message %d: %w: %w", d.MessageID, hearth.ErrPermanent, err)
			}
			// One button per row: labels are sentences as often as words,
			// and a row of long labels is cut off on a phone.
			kb.InlineKeyboard = append(kb.InlineKeyboard, []models.InlineKeyboardButton{{Text: b.Label, CallbackData: data}})
		}
		params.ReplyMarkup = kb
	}
	m, err := a.bot.SendMessage(ctx, params)
	if err != nil {
		return "", fmt.Errorf("telegram send message %d: %w", d.MessageID, sendError(err))
	}
	return strconv.Itoa(m.ID), nil
}

// Edit rewrites a message sent before (an answered prompt) with its new
// text, rendered as Send renders it; without buttons, the inline keyboard
// goes away.
func (a *Adapter) Edit(ctx context.Context, d hearth.Delivery) error {
	id, err := strconv.Atoi(d.PlatformMessageID)
	if err != nil {
		return fmt.Errorf("telegram edit message %d: %w: platform id %q", d.MessageID, hearth.ErrPermanent, d.PlatformMessageID)
	}
	params := &bot.EditMessageTextParams{ChatID: d.ConversationKey, MessageID: id, Text: markdown.TelegramHTML(d.Text), ParseMode: models.ParseModeHTML}
	if len(d.Buttons) > 0 {
		kb := &models.InlineKeyboardMarkup{}
		for _, b := range d.Buttons {
			data, err := encodeCallbackData(d.MessageID, b.ID)
			if err != nil {
				return fmt.Errorf("telegram edit message %d: %w: %w", d.MessageID, hearth.ErrPermanent, err)
			}
			kb.InlineKeyboard = append(kb.InlineKeyboard, []models.InlineKeyboardButton{{Text: b.Label, CallbackData: data}})
		}
		params.ReplyMarkup = kb
	}
	if _, err := a.bot.EditMessageText(ctx, params); err != nil {
		return fmt.Errorf("telegram edit message %d: %w", d.MessageID, sendError(err))
	}
	return nil
}

var _ pipeline.Editor = (*Adapter)(nil)

// sendError sorts a Bot API error into retried and not retried.
func sendError(err error) error {
	var tooMany *bot.TooManyRequestsError
	var migrate *bot.MigrateError
	switch {
	case errors.As(err, &tooMany):
		return &hearth.RetryAfterError{After: time.Duration(tooMany.RetryAfter) * time.Second, Err: err}
	case errors.As(err, &migrate):
		// The group became a supergroup with a new id; this chat id is
		// dead for good.
		return fmt.Errorf("%w: chat moved to %d: %w", hearth.ErrPermanent, migrate.MigrateToChatID, err)
	case errors.Is(err, bot.ErrorForbidden), errors.Is(err, bot.ErrorBadRequest):
		// 403: blocked, kicked, deactivated user. 400: chat not found,
		// empty or too long text. The same request fails the same way.
		return fmt.Errorf("%w: %w", hearth.ErrPermanent, err)
	}
	return err
}

// SetWebhook registers publicURL + WebhookPath as the bot's webhook, with
// secret as the token Telegram repeats in SecretHeader. secret must be the
// adapter's Config.WebhookSecret (or the handler would refuse every
// update) and, as Telegram requires, 1 to 256 of A-Z, a-z, 0-9, _ and -.
func (a *Adapter) SetWebhook(ctx context.Context, publicURL, secret string) error {
	if !validSecret(secret) {
		return errors.New("telegram set webhook: the secret must be 1 to 256 of A-Z, a-z, 0-9, _ and -")
	}
	if secret != a.cfg.WebhookSecret {
		return errors.New("telegram set webhook: the secret differs from the one the handler checks")
	}
	u, err := url.Parse(publicURL)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return fmt.Errorf("telegram set webhook: %q is not an absolute http(s) URL", publicURL)
	}
	hook := strings.TrimRight(publicURL, "/") + WebhookPath
	_, err = a.bot.SetWebhook(ctx, &bot.SetWebhookParams{
		URL:            hook,
		SecretToken:    secret,
		AllowedUpdates: []string{models.AllowedUpdateMessage, models.AllowedUpdateCallbackQuery},
	})
	if err != nil {
		return fmt.Errorf("telegram set webhook %s: %w", hook, err)
	}
	return nil
}

func validSecret(s string) bool {
	if len(s) == 0 || len(s) > 256 {
		return false
	}
	for _, c := range s {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
		if !ok {
			return false
		}
	}
	return true
}
