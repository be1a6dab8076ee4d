// Package builtin is Hearth's own tasks, calendar, notes, outbox and
// memories: the providers actions land in when no outside service is
// connected, so the bot works offline (ARCHITECTURE invariant 8).
//
// Everything is kept in Hearth's own Postgres and nothing leaves the
// machine. Mail in particular is never transmitted: sending an email
// records that the user approved it, and when, in the outbox.
//
// The store already implements every provider interface with exactly the
// right method set (idempotent creates, soft deletes, user scoping), so
// this package only names that fact: New returns the store as each
// interface, and compile-time checks keep it true.
package builtin
