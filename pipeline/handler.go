package pipeline

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

// Turn is one inbound event being answered, with the user who sent it.
type Turn struct {
	Event hearth.InboundEvent
	User  hearth.User
}

// Answer is what a turn produced: the replies to deliver, and the writes
// that must commit together with them. The turn worker stores the
// replies, enqueues their deliveries and runs the writes in one
// transaction, so reading TurnWorker shows everything a turn commits and
// a retried turn never finds half of it done.
type Answer struct {
	Replies []hearth.Outbound
	// Writes run in order inside the transaction that stores the replies.
	// None run when the turn fails, or when it had been answered before
	// (a retried job).
	Writes []Write
	// Traced is true when the answer already stores the turn's trace (the
	// runner's own, with its intent and actions, in Trace or Writes), so
	// the commands registry adds none of its own over it.
	Traced bool
	// Trace, when set, is the turn's trace: the turn worker stores it in
	// the statement that completes the turn, a round trip fewer than a
	// write of its own.
	Trace *hearth.Trace
	// Actions are what a command ran through the action engine, for the
	// trace the commands registry adds (the runner's own trace lists its
	// actions itself).
	Actions []hearth.TraceAction
}

// Write is one write of a turn's unit of work, run by the turn worker in
// the transaction that completes the turn.
type Write func(ctx context.Context, tx pgx.Tx) error

// Reply returns an Answer of one text reply.
func Reply(text string) Answer {
	return Answer{Replies: []hearth.Outbound{{Text: text}}}
}

// Add appends writes to the answer.
func (a *Answer) Add(w ...Write) { a.Writes = append(a.Writes, w...) }

// A Handler answers one turn. It may be called again for the same turn
// after a crash or an error, so effects it causes outside its Answer must
// be keyed on the event (see ARCHITECTURE.md, invariant 2).
type Handler interface {
	HandleTurn(ctx context.Context, t Turn) (Answer, error)
}

// HandlerFunc adapts a function to a Handler.
type HandlerFunc func(ctx context.Context, t Turn) (Answer, error)

// HandleTurn calls f(ctx, t).
func (f HandlerFunc) HandleTurn(ctx context.Context, t Turn) (Answer, error) {
	return f(ctx, t)
}
