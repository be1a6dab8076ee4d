package pipeline

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/hearthbot/hearth"
)

// PushStore is what PushTx needs of the store: a message Hearth writes
// first, stored once per key in the user's chat, and the web chat's way of
// showing it.
type PushStore interface {
	StoreScheduledTx(ctx context.Context, tx pgx.Tx, userID int64, key string, out hearth.Outbound) (id, conv int64, ch hearth.Channel, stored bool, err error)
	MarkVisibleTx(ctx context.Context, tx pgx.Tx, conv int64, ids []int64) error
}

// TxInserter enqueues a job in the caller's transaction (a River client).
type TxInserter interface {
	InsertTx(ctx context.Context, tx pgx.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
}

// PushTx is the one way Hearth writes to a user first (a reminder, a
// briefing, a notice): in the caller's transaction it stores out in the
// user's chat once per key and either shows it in the transcript (a
// channel that delivers by transcript, visible reports which) or enqueues
// its delivery. It reports whether the message was new (a key stored
// before changes nothing, so a retried job sends nothing twice) and, when
// it shows in the transcript, the conversation whose live views the
// caller tells after its commit (NotifyConversation); 0 otherwise.
func PushTx(ctx context.Context, tx pgx.Tx, st PushStore, q TxInserter, visible func(hearth.Channel) bool, userID int64, key string, out hearth.Outbound) (stored bool, tell int64, err error) {
	id, conv, ch, stored, err := st.StoreScheduledTx(ctx, tx, userID, key, out)
	if err != nil || !stored {
		return false, 0, err
	}
	if visible != nil && visible(ch) {
		err, tell = st.MarkVisibleTx(ctx, tx, conv, []int64{id}), conv
	} else if q == nil {
		err = fmt.Errorf("no job queue to deliver it")
	} else {
		_, err = q.InsertTx(ctx, tx, DeliverArgs{MessageID: id}, nil)
	}
	if err != nil {
		return false, 0, fmt.Errorf("push %s: %w", key, err)
	}
	return true, tell, nil
}
