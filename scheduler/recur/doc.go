// Package recur models recurring reminders ("every Monday at 9", "every
// weekday at 8:30", "on the 1st of every month", "every year on March 15")
// and expands them into instants in a user's IANA time zone. Reading such
// phrases in chat messages is timex.ParseRecurrence's: timex is Hearth's
// one date language.
//
// It is pure and deterministic: no I/O, no clock of its own, no globals
// that change. Every instant it answers is computed from the times and the
// *time.Location passed in, never from the host's zone (architecture
// invariant 6).
//
// # Model
//
// A Rule is stored in local wall-clock terms (a frequency, an interval,
// weekdays or a day of the month, a time of day, and civil dates for start
// and until), not as instants. Expanding it in the user's current zone is
// what keeps "09:00" at 09:00 when the user moves or the clocks change.
// Rules round-trip through JSON and are validated when decoded.
//
// Start is the first date the rule may fire on and the anchor of its
// phase. The first occurrence is the first matching date on or after Start
// and Interval counts periods from that one's week, month or year: "every
// other Tuesday" anchored on a Wednesday fires the coming Tuesday, then
// every second week. (RFC 5545 counts from Start's own week instead and
// would skip that Tuesday, which is not what a person means.) Count counts
// occurrences from Start. timex.ParseRecurrence cannot know today's date, so
// it leaves Start zero; callers set it (usually to DateOf(now, loc)) before
// storing the rule. A rule whose meaning depends on Start (Interval > 1,
// Count > 0, or a weekly/monthly/yearly rule that takes its day from
// Start) is invalid without one.
//
// # Calendar conventions
//
//   - Weeks start on Monday (as in timex): "every other Tuesday" fires in
//     every second Monday-to-Sunday week counted from Start's week.
//   - A monthly rule on the 29th, 30th or 31st skips months that have no
//     such day, as RFC 5545 does; it never moves to the 1st of the next
//     month or to the last day. LastDay ("the last day of every month") is
//     its own option.
//   - A yearly rule on February 29 fires only in leap years.
//
// # Daylight saving time
//
// Occurrences are found on local calendar dates and each is resolved to
// an instant on its own, so a 07:30 rule fires at 07:30 local time on both
// sides of a transition (a day is never 24 hours).
//
// A wall-clock time that does not exist because the clocks jump forward
// (02:30 on the New York spring-forward day) fires at the same time moved
// forward by the length of the gap: 03:30 daylight time. A wall-clock time
// that occurs twice when the clocks fall back fires once, at its first
// occurrence (daylight time). Go's time.Date does neither reliably: the
// instant it picks depends on the zone's offset from UTC (it answers 01:30
// EST, before the gap, for New York but 03:30 CEST for Berlin, and the
// first 01:30 in New York but the second 02:30 in Berlin), so both cases
// are detected and corrected explicitly. The gap rule is the one timex
// uses, so a reminder parsed once and a reminder that recurs agree.
//
// # Why not rrule-go
//
// github.com/teambition/rrule-go is in go.mod, but it builds each
// occurrence with a bare time.Date in the start's location, so it inherits
// exactly the zone-dependent answers above (a New York reminder at 02:30
// on the spring-forward day would fire an hour early at 01:30 EST, a
// Berlin one at 02:30 on the fall-back day at the second, later 02:30).
// It also stores instants (DTSTART, UNTIL) rather than local dates. The
// four frequencies Hearth needs are a few dozen lines over civil dates, so
// the expander here is hand-written.
//
// # Parsing
//
// timex.ParseRecurrence finds one recurrence phrase in a message and returns its byte span
// so the caller can cut it out and keep the rest as the reminder's title.
// Defaults when the phrase gives no clock time: "morning" 08:00,
// "afternoon" 15:00, "evening" 19:00, "night" 21:00, otherwise 09:00. An
// hour without am/pm is read as a waking hour: 7 to 12 as given, 1 to 6 as
// the afternoon (13:00 to 18:00), 0 and 13 to 23 as given; "in the
// morning" or "in the evening" after it decides instead.
package recur
