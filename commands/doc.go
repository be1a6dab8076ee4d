// Package commands is the registry of Hearth's deterministic chat
// commands: linking chats, families, briefings and reminders, undo and
// approvals, help. Each command declares its name, the phrasings it
// answers (its examples, which are also its tests), one line of help and
// its handler; features keep their handlers and register them from
// cmd/bot, so the wiring stays visible.
//
// The pipeline consults the registry in one step, before intent: a typed
// phrasing ("send my briefing at 6:45"), a typed name ("/link ABCD-EFGH")
// and a command sent by a platform (Slack's "/hearth briefing", Telegram's
// "/briefing", stored as a hearth.KindCommand event) reach the same entry.
// Help, Slack's usage text and Telegram's command menu are generated from
// the registry, never written twice.
package commands
