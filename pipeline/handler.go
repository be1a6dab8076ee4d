package pipeline

import (
	"context"
	"github.com/hearthbot/hearth"
)

// Turn is one inbound event being answered, with the user who sent it.
type Turn struct {
	Event hearth.InboundEvent
	User  hearth.User
}

// A Handler answers one turn with the replies to deliver. It may be
// called again for the same turn after a crash or an error, so effects it
// causes must be keyed on the event (see ARCHITECTURE.md, invariant 2).
type Handler interface {
	HandleTurn(ctx context.Context, t Turn) ([]hearth.Outbound, error)
}

// HandlerFunc adapts a function to a Handler.
type HandlerFunc func(ctx context.Context, t Turn) ([]hearth.Outbound, error)

// HandleTurn calls f(ctx, t).
func (f HandlerFunc) HandleTurn(ctx context.Context, t Turn) ([]hearth.Outbound, error) {
	return f(ctx, t)
}
