package plan

import (
	"strings"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/stage"
)

// planEventNote adds a note to an event's description ("add a note to the
// dentist appointment: bring the x-rays"): the next event of that name,
// its notes kept and the new one after them. A note on an event others
// are invited to reaches them, so it is asked about first (the risk
// policy reads Shared).
func planEventNote(in stage.PlanInput, refText, note string) (stage.Plan, error) {
	p := stage.Plan{Understood: "add a note to an event"}
	e, ref, err := eventNamed(in, refText)
	if err != nil {
		return p, err
	}
	p.Understood = "add a note to " + ref
	desc := strings.TrimSpace(note)
	if old := strings.TrimSpace(e.Description); old != "" {
		desc = old + "\n" + desc
	}
	a, err := action.New(action.CalendarUpdate, action.EventUpdateArgs{ID: e.ID, Title: e.Title, Noted: strings.TrimSpace(note),
		Shared: len(e.Attendees) > 0, Update: hearth.CalendarEventUpdate{Description: &desc}})
	if err != nil {
		return plannedErr(p, err)
	}
	p.Actions = []action.Action{a}
	return p, nil
}

// planEventPlace sets where an event is ("lunch with Sam is at Luigi's",
// "set the location of the dentist to 12 Main Street"): the next event
// of that name. A place on an event others are invited to reaches them,
// so it is asked about first, as a note is.
func planEventPlace(in stage.PlanInput, refText, place string) (stage.Plan, error) {
	p := stage.Plan{Understood: "set where an event is"}
	e, ref, err := eventNamed(in, refText)
	if err != nil {
		return p, err
	}
	p.Understood = "set where " + ref + " is"
	a, err := action.New(action.CalendarUpdate, action.EventUpdateArgs{ID: e.ID, Title: e.Title,
		Shared: len(e.Attendees) > 0, Update: hearth.CalendarEventUpdate{Location: &place}})
	if err != nil {
		return plannedErr(p, err)
	}
	p.Actions = []action.Action{a}
	return p, nil
}

// eventNamed is the next event refText names ("the dentist appointment"
// on a day said, or the next of that name) and the name read from it; the
// error asks which event when none is.
func eventNamed(in stage.PlanInput, refText string) (hearth.CalendarEvent, string, error) {
	ref := inviteRef(refText, in.Context)
	if ref == "" {
		return hearth.CalendarEvent{}, "", needDetails("which event")
	}
	when := whenOf(in, refText, false)
	hits := MatchEvents(ref, when, in.Context)
	if bare := WithoutEventNoun(ref); len(hits) == 0 && bare != ref {
		hits = MatchEvents(bare, when, in.Context)
	}
	if len(hits) == 0 {
		return hearth.CalendarEvent{}, ref, needDetails("which event: I couldn't find an event matching “%s”", ref)
	}
	return hits[0], ref, nil
}
