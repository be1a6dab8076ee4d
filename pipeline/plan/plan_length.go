package plan

import (
	"regexp"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/nlu/timex"
	"github.com/hearthbot/hearth/pipeline/stage"
)

// planLength changes how long the event l names lasts ("it": the one the
// last reply was about), its start kept and its end moved ("make it an
// hour and a half", "extend the call by 15 minutes"). A task extended is
// due that much later. handled is false when l names neither, for the
// other readings of the words to go on ("make dinner 2 hours").
func planLength(in stage.PlanInput, l nlu.LengthChange) (p stage.Plan, handled bool, err error) {
	p = stage.Plan{Understood: "change how long an event is"}
	named := resolveRef(l.Ref, in.Context)
	ref := eventRefWords(named)
	switch {
	case hasEvent(ref, in.Context):
	case l.By > 0 && hasTask(taskRef(named), in.Context):
		// "Extend the tax return deadline by a week": due that much later.
		sh := shift{minutes: int(l.D / time.Minute)}
		if l.D%(24*time.Hour) == 0 {
			sh = shift{days: int(l.D / (24 * time.Hour))}
		}
		p, err := planShift(in, l.Ref, sh)
		return p, true, err
	case l.By != 0 && (ref == "" || isPronounRef(ref)):
		return p, true, needDetails("which event")
	case l.By != 0:
		return p, true, needDetails("which event: I couldn't find an event matching “%s”", ref)
	default:
		return p, false, nil // "make it 2 hours" of a task, say
	}
	p.Understood = "change how long “" + markdown.Escape(ref) + "” is"
	var labels []string
	var acts []action.Action
	for _, e := range MatchEvents(ref, nil, in.Context) {
		if e.AllDay {
			return p, true, needDetails("a time for it: “%s” is all day", e.Title)
		}
		end := e.Start.Add(l.D)
		if l.By != 0 {
			end = e.End.Add(time.Duration(l.By) * l.D)
		}
		if !end.After(e.Start) {
			return p, true, needDetails("a length: “%s” would end before it starts", e.Title)
		}
		a, err := action.New(action.CalendarUpdate, action.EventUpdateArgs{ID: e.ID, Title: e.Title, Update: hearth.CalendarEventUpdate{End: &end}})
		if err != nil {
			p, err = plannedErr(p, err)
			return p, true, err
		}
		acts = append(acts, a)
		labels = append(labels, eventLabel(e, in.Context))
	}
	return actOrAsk(p, "Which one should I change?", labels, acts), true, nil
}

// reLengthFor finds a length said of a new event: "for 30 minutes", "for
// an hour and a half", "for 2 hours".
var reLengthFor = regexp.MustCompile(`(?i)\s+for\s+((?:an?|half\s+an|one|two|three|four|five|\d+(?:\.\d+)?)(?:\s+and\s+a\s+half)?\s+(?:minutes?|mins?|hours?|hrs?)(?:\s+and\s+a\s+half)?(?:\s+(?:and\s+)?\d+\s+minutes?)?)\b`)

// lengthFor reads how long a new event lasts, when said ("a call with Ben
// for 30 minutes on Friday"), and text without it, for the title.
func lengthFor(text string) (time.Duration, string) {
	loc := reLengthFor.FindStringSubmatchIndex(text)
	if loc == nil {
		return 0, text
	}
	d, ok := timex.ParseDuration(text[loc[2]:loc[3]])
	if !ok || d > 24*time.Hour {
		return 0, text
	}
	return d, text[:loc[0]] + text[loc[1]:]
}
