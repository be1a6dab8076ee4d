package builtin

import (
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/store"
)

// The store is every built-in provider.
var (
	_ action.Tasks    = (*store.Store)(nil)
	_ action.Calendar = (*store.Store)(nil)
	_ action.Notes    = (*store.Store)(nil)
	_ action.Mail     = (*store.Store)(nil)
	_ action.Memories = (*store.Store)(nil)
)

// New returns an executor whose every provider is the built-in one,
// backed by st. A field can be replaced by another provider (Google's
// calendar, say) without touching the rest.
func New(st *store.Store) *action.Executor {
	return &action.Executor{Tasks: st, Calendar: st, Notes: st, Mail: st, Memories: st}
}
