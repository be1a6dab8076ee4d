// Package hearth holds the domain types every part of Hearth shares: the
// things a user keeps with Hearth (tasks, calendar events, notes, emails,
// memories). Packages around it wrap one dependency each: store
// (Postgres), integrations (Google and the built-in providers), pipeline
// (understanding and acting), adapters (chat platforms).
package hearth
