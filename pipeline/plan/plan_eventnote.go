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
	ref := inviteRef(refText, in.Context)
	if ref == "" {
		return p, needDetails("which event")
	}
	p.Understood = "add a note to " + ref
	when := whenOf(in, refText, false)
	hits := MatchEvents(ref, when, in.Context)
	if bare := WithoutEventNoun(ref); len(hits) == 0 && bare != ref {
		hits = MatchEvents(bare, when, in.Context)
	}
	if len(hits) == 0 {
		return p, needDetails("which event: I couldn't find an event matching “%s”", ref)
	}
	e := hits[0]
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
