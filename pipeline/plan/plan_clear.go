package plan

import (
	"slices"
	"strings"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu/timex"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// allEventsRef reports a reference to every event of a span rather than
// to one: "everything", "all my events", "all of my meetings", and what
// "clear my calendar" or "cancel my plans" name.
func allEventsRef(ref string) bool {
	f := strings.Fields(words.TrimWordsLeft(words.ASCIILower(ref), "my", "the", "our", "whole", "entire"))
	if len(f) == 1 && slices.Contains([]string{"calendar", "schedule", "diary", "day", "plans"}, f[0]) {
		return true
	}
	if len(f) == 0 || !slices.Contains([]string{"all", "every", "everything"}, f[0]) {
		return false
	}
	for _, w := range f[1:] {
		if !slices.Contains([]string{"of", "my", "the", "our", "plans", "things", "stuff"}, w) && !slices.Contains(eventNouns, w) {
			return false
		}
	}
	return true
}

// planEventDeleteAll cancels every event of the day or span the request
// names ("cancel everything on Friday", "cancel all my meetings next
// week"). Several events at once are a bulk change: the engine asks for
// approval of each (action.Engine's risks), so this only gathers them.
// Without a date it asks for one: a whole calendar is never cleared by
// one message.
func planEventDeleteAll(in stage.PlanInput, text string) (stage.Plan, error) {
	p := stage.Plan{Understood: "cancel all your events"}
	when := whenOf(in, text, true)
	if when == nil || when.Kind == timex.Interval && (when.From.IsZero() || when.To.IsZero()) {
		return p, needDetails("which day — I cancel a day's events (or a week's) at once, never the whole calendar")
	}
	now := stage.UserNow(in.Context)
	from, to := stage.Span(when, now, false)
	span := when.Text // "next week"
	if when.Kind == timex.Value && when.Grain <= timex.Day {
		span = stage.WhenPhrase(from, true, in.Context) // "on Saturday", "tomorrow"
	}
	p.Understood = "cancel everything " + span
	var hits []hearth.CalendarEvent
	for _, e := range in.Context.Events {
		if e.Start.Before(from) || !e.Start.Before(to) || !in.Context.Now.IsZero() && !e.End.After(in.Context.Now) {
			continue
		}
		hits = append(hits, e)
	}
	if len(hits) == 0 {
		return p, needDetails("which events: I couldn't find anything on your calendar %s", span)
	}
	for _, e := range hits {
		a, err := action.New(action.CalendarDelete, action.EventRefArgs{ID: e.ID, Title: e.Title})
		if err != nil {
			return plannedErr(p, err)
		}
		p.Actions = append(p.Actions, a)
	}
	return p, nil
}
