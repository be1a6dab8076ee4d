package google

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline"
)

// Messages stores a message Hearth sends on its own, as the scheduler
// does: keyed so it exists once, then shown in the web chat's transcript
// or enqueued for delivery, in the same transaction.
type Messages interface {
	StoreScheduledTx(ctx context.Context, tx pgx.Tx, userID int64, key string, out hearth.Outbound) (id, conv int64, ch hearth.Channel, stored bool, err error)
	MarkVisibleTx(ctx context.Context, tx pgx.Tx, conv int64, ids []int64) error
	NotifyConversation(ctx context.Context, conversationID int64) error
}

// reconnectText is the one message a user gets when Google stops
// accepting their grant.
func reconnectText(a hearth.GoogleAccount) string {
	return "Google stopped accepting my access to your calendar (" + a.Email +
		"), so I'm using Hearth's own calendar for now. Say “connect google” to reconnect."
}

// notifyRevoked sends the user whose grant Google refused one message
// asking them to reconnect, through the durable delivery path: the claim
// (per revocation: reconnecting clears it), the message keyed by the
// revocation, and its delivery commit together. A user already told, or
// whose account works or is gone, gets nothing.
func (g *Google) notifyRevoked(ctx context.Context, userID int64) error {
	a, err := g.cfg.Store.GoogleAccount(ctx, userID)
	if errors.Is(err, hearth.ErrNotFound) || (err == nil && (a.RevokedAt.IsZero() || !a.NotifiedAt.IsZero())) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("google notice: %w", err)
	}
	tx, err := g.cfg.Store.Begin(ctx)
	if err != nil {
		return fmt.Errorf("google notice: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // after Commit this is a no-op
	claimed, err := g.cfg.Store.ClaimGoogleNoticeTx(ctx, tx, userID)
	if err != nil || !claimed {
		return err
	}
	key := fmt.Sprintf("google-reconnect:%d:%d", userID, a.RevokedAt.UnixMicro())
	stored, tell, err := pipeline.PushTx(ctx, tx, g.cfg.Store, g.cfg.Queue, g.cfg.Visible, userID, key, hearth.Outbound{Text: reconnectText(a)})
	if err != nil {
		return fmt.Errorf("google notice: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("google notice: %w", err)
	}
	if tell != 0 {
		if err := g.cfg.Store.NotifyConversation(ctx, tell); err != nil {
			g.cfg.Log.Warn("live views not told of a notice", "user", userID, "error", err)
		}
	}
	g.cfg.Log.Info("asked a user to reconnect google", "user", userID, "delivered", stored)
	return nil
}
