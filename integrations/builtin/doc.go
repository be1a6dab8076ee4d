// Package builtin is Hearth's own tasks, calendar, notes, outbox and
// memories: the providers actions land in when no outside service is
// connected, so the bot works offline (ARCHITECTURE invariant 8).
//
// Everything is kept in Hearth's own Postgres and nothing leaves the
// machine. Mail in particular is never transmitted: sending an email
// records that the user approved it, and when, in the outbox.
//
// The store implements every provider interface with exactly the
// right method set (idempotent creates, soft deletes, user scoping), so
// this package declares that as its Store and New returns it as each
// interface.
package builtin
