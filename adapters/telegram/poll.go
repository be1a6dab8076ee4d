package telegram

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/hearthbot/hearth"
)

// acceptTimeout bounds one attempt to store a polled update.
const acceptTimeout = 10 * time.Second

// Poll receives updates by long polling (getUpdates) until ctx ends, for
// a single instance without a public URL. It removes any webhook first:
// Telegram refuses getUpdates while one is set.
//
// Long polling is weaker than the webhook about invariant 1: the
// library's loop confirms an update to Telegram when it asks for the next
// one, not when Hearth has stored it. The adapter keeps that window to
// the one update being stored (see New) and retries it while the database
// is unavailable, so only a process killed during that store can lose it.
// Production uses the webhook.
func (a *Adapter) Poll(ctx context.Context) error {
	if a.cfg.Inbox == nil {
		return errors.New("telegram poll: no inbox configured")
	}
	if _, err := a.bot.DeleteWebhook(ctx, &bot.DeleteWebhookParams{}); err != nil {
		return fmt.Errorf("telegram poll: delete webhook: %w", err)
	}
	a.bot.Start(ctx)
	return nil
}

// onPolledUpdate stores one polled update, as the webhook would.
func (a *Adapter) onPolledUpdate(ctx context.Context, _ *bot.Bot, upd *models.Update) {
	raw, err := json.Marshal(upd)
	if err != nil {
		raw = nil // the payload is for debugging; the event matters more
	}
	in, ok := a.inbound(upd, raw)
	if !ok {
		a.answerCallback(ctx, upd.CallbackQuery, "")
		return
	}
	log := a.cfg.Logger.With("update_id", upd.ID)
	wait := 100 * time.Millisecond
	for {
		// Detached from ctx: a shutdown must not abort a store halfway,
		// since Telegram may already count this update as delivered.
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), acceptTimeout)
		_, err := a.cfg.Inbox.Accept(actx, in)
		cancel()
		switch {
		case err == nil:
			a.answerCallback(ctx, upd.CallbackQuery, "")
			return
		case errors.Is(err, hearth.ErrInvalid):
			// Telegram cannot send it differently; there is nothing to retry.
			log.WarnContext(ctx, "telegram: update refused", "error", err)
			if upd.CallbackQuery != nil {
				a.answerCallback(ctx, upd.CallbackQuery, "This button can't be used here.")
			} else {
				a.refuse(ctx, in, err)
			}
			return
		}
		log.WarnContext(ctx, "telegram: could not store update; retrying", "error", err, "wait", wait)
		select {
		case <-ctx.Done():
			log.ErrorContext(ctx, "telegram: stopped before an update was stored; it may be lost", "error", err)
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, 5*time.Second)
	}
}
