package builtin

import (
	"github.com/hearthbot/hearth/pipeline/action"
)

// Store is where the built-in providers keep everything: Hearth's own
// Postgres. Its methods are the provider interfaces themselves, because
// the built-in providers are exactly their rows (idempotent creates, soft
// deletes, user scoping); cmd/bot passes the store in.
type Store interface {
	action.Tasks
	action.Calendar
	action.Notes
	action.Mail
	action.Memories
	action.Relationships
}

// New returns an executor whose every provider is the built-in one,
// backed by st. A field can be replaced by another provider (Google's
// calendar, say) without touching the rest.
func New(st Store) *action.Executor {
	return &action.Executor{Tasks: st, Calendar: st, Notes: st, Mail: st, Memories: st, Relationships: st}
}
