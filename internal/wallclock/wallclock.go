// Package wallclock turns a local wall-clock time into an instant the way
// people expect across DST changes, the same everywhere in Hearth.
//
// time.Date alone is inconsistent here: for a wall time skipped by a
// spring-forward jump it answers an instant before the jump in zones west
// of UTC and after it in zones east of UTC, and for a wall time that
// occurs twice when clocks fall back it answers the first occurrence in
// New York but the second in Berlin.
package wallclock

import "time"

// Time returns the instant of the given wall-clock fields in loc. Fields
// out of range are normalised as time.Date does (day 32 is the 1st of the
// next month). A wall time skipped by a DST jump moves forward by the
// length of the gap (02:30 on a spring-forward day is 03:30, as java.time
// and Python's zoneinfo do); one that occurs twice resolves to its first
// occurrence, so a reminder fires once and never late.
func Time(y int, mo time.Month, d, h, mi, s, ns int, loc *time.Location) time.Time {
	t := time.Date(y, mo, d, h, mi, s, ns, loc)
	want := time.Date(y, mo, d, h, mi, s, ns, time.UTC)
	got := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
	switch diff := want.Sub(got); {
	case diff > 0:
		// In a gap, and time.Date answered the wall time before it:
		// cross the gap forward by the missing amount.
		return t.Add(diff)
	case diff < 0:
		// In a gap, and time.Date already answered after it.
		return t
	}
	// The wall time exists; it may exist twice. If the clocks went back at
	// the start of t's zone period and the same wall time under the
	// previous offset lies before that boundary, that earlier instant is
	// the first occurrence.
	start, _ := t.ZoneBounds()
	if start.IsZero() {
		return t
	}
	_, off := t.Zone()
	_, prevOff := start.Add(-time.Second).Zone()
	if prevOff <= off {
		return t
	}
	earlier := t.Add(-time.Duration(prevOff-off) * time.Second)
	if _, eo := earlier.Zone(); earlier.Before(start) && eo == prevOff {
		return earlier
	}
	return t
}
