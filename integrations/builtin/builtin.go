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

// Providers is the set of built-in providers, one field per interface, for
// wiring in cmd/bot. Each field can be replaced by another provider (for
// example Google's calendar) without touching the rest.
type Providers struct {
	Tasks    action.Tasks
	Calendar action.Calendar
	Notes    action.Notes
	Mail     action.Mail
	Memories action.Memories
}

// New returns the built-in providers, all backed by st.
func New(st *store.Store) Providers {
	return Providers{Tasks: st, Calendar: st, Notes: st, Mail: st, Memories: st}
}
