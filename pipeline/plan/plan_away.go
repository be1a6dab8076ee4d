package plan

import (
	"strings"
	"time"

	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/pipeline/nlu/timex"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// Days off ("I'm out of the office from December 20 to January 3", "we're
// on holiday next week"), which the classifier sends to the calendar
// (nlu.AwayTold): an all-day event over every day they cover.

// awayTitle names days off as a calendar shows them: "Holiday" (of "On
// holiday", newEventTitle's title of "we're on holiday"), "On leave",
// "Out of the office".
func awayTitle(title string) string {
	rest, ok := strings.CutPrefix(words.ASCIILower(title), "on ")
	if !ok || rest == "" || rest == "leave" || strings.HasSuffix(rest, " leave") {
		return title // "On leave" says more than "Leave"
	}
	return prose.UpperFirst(rest)
}

// awaySpan is the days time off covers: a week or a month said
// ("next week") all of it, and "until the 14th" from today.
func awaySpan(m *timex.Match, now time.Time) *timex.Match {
	if m == nil {
		return nil
	}
	w := *m
	switch {
	case w.Kind == timex.Value && w.Grain == timex.Week:
		w.Kind, w.From, w.To, w.Grain = timex.Interval, w.Value, w.Value.AddDate(0, 0, 7), timex.Day
	case w.Kind == timex.Value && w.Grain == timex.Month:
		w.Kind, w.From, w.To, w.Grain = timex.Interval, w.Value, w.Value.AddDate(0, 1, 0), timex.Day
	case w.Kind == timex.Interval && w.From.IsZero() && w.To.After(now):
		w.From = stage.MidnightIn(now, now.Location())
	}
	return &w
}
