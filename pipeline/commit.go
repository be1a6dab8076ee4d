package pipeline

import (
	"context"
	"sync"

	"github.com/jackc/pgx/v5"
)

type commitHooksKey struct{}

type commitHooks struct {
	mu  sync.Mutex
	fns []func(ctx context.Context, tx pgx.Tx) error
}

// OnCommit registers fn to run inside the transaction that completes the
// current turn (the one that stores its replies), so what a handler
// records about the turn is committed with it, atomically and without a
// commit of its own. It reports false outside a turn; the caller then
// writes on its own.
func OnCommit(ctx context.Context, fn func(ctx context.Context, tx pgx.Tx) error) bool {
	h, ok := ctx.Value(commitHooksKey{}).(*commitHooks)
	if !ok {
		return false
	}
	h.mu.Lock()
	h.fns = append(h.fns, fn)
	h.mu.Unlock()
	return true
}

func withCommitHooks(ctx context.Context) (context.Context, *commitHooks) {
	h := &commitHooks{}
	return context.WithValue(ctx, commitHooksKey{}, h), h
}

func (h *commitHooks) run(ctx context.Context, tx pgx.Tx) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, fn := range h.fns {
		if err := fn(ctx, tx); err != nil {
			return err
		}
	}
	return nil
}
