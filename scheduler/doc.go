// Package scheduler is Hearth writing first: reminders (tasks with due
// times and dates, recurring reminders set by chat, birthdays and
// anniversaries remembered as memories, snoozes, and timed calendar
// events when the user asked to be reminded before them) and the daily
// briefing.
//
// Every schedulable item has a durable row in Postgres holding its next
// occurrence (hearth.Schedule). The Planner, a River periodic job run by the
// elected leader, first syncs those rows with what changed (new dated
// tasks, edited memories, a user's new time zone or settings), then turns
// the occurrences coming due into River jobs (FireArgs: those due at one
// instant, up to 32 to a job, whose messages are stored in one
// transaction) and moves each row on to its following occurrence in the
// same transaction, so each occurrence is planned once. The fire job
// re-reads each item when it runs: a task completed or deleted, a zone
// changed or a reminder
// cancelled since means the occurrence no longer exists and nothing is
// sent. The message itself is keyed on the occurrence (or, for briefings,
// on the user's local date), so even a job run twice sends once.
//
// Occurrences are computed with scheduler/recur, which keeps a 07:30
// briefing at 07:30 local time across DST changes, moves a wall time
// skipped by spring-forward to the next valid instant and fires a
// repeated wall time once. Occurrences missed by less than the grace
// window (after downtime) fire late with a short note; older ones are
// skipped and logged.
//
// Commands wraps the turn handler with the chat commands ("list my
// reminders", "remind me every Monday at 9 to …", "send my briefing at
// 6:45", "briefing now", …) and the reminder buttons (Done, Snooze 1 h,
// Tomorrow morning).
//
// The briefing's Family updates section reads the events of the user's
// family members through the store's BriefingData, whose query admits only the
// members who let the user see their events (package family and
// store/families.go).
package scheduler
