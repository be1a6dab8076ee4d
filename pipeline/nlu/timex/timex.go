// Package timex finds and resolves English date and time expressions
// ("tomorrow at 5pm", "friday after next", "from 9:30 to 11 on thursday")
// relative to a reference instant in the user's IANA time zone.
//
// It is pure and deterministic: no I/O, no globals that change, no clock
// of its own.
package timex
