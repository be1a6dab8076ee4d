package hybrid

import (
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/stage"
)

// A model's change to a list is labelled with the list's own title,
// whatever title the model wrote: the reply says what really changed.
func TestRelabelNotes(t *testing.T) {
	c := stage.Context{Notes: []hearth.Note{{ID: 3, Title: "Shopping list"}}}
	for _, tt := range []struct {
		kind action.Kind
		args any
		want any
	}{
		{action.NoteCheck, action.NoteCheckArgs{ID: 3, Title: "Packing list", Items: []string{"milk"}, Done: true},
			action.NoteCheckArgs{ID: 3, Title: "Shopping list", Items: []string{"milk"}, Done: true}},
		{action.NoteRemove, action.NoteRemoveArgs{ID: 3, Title: "Packing list", Items: []string{"milk"}},
			action.NoteRemoveArgs{ID: 3, Title: "Shopping list", Items: []string{"milk"}}},
		{action.NoteRemove, action.NoteRemoveArgs{ID: 9, Title: "Packing list", Items: []string{"milk"}},
			action.NoteRemoveArgs{ID: 9, Title: "Packing list", Items: []string{"milk"}}}, // not the user's: left
	} {
		a, err := action.New(tt.kind, tt.args)
		if err != nil {
			t.Fatal(err)
		}
		got, err := relabel(a, c)
		want, _ := action.New(tt.kind, tt.want)
		if err != nil || string(got.Payload) != string(want.Payload) {
			t.Errorf("relabel %s = %s, %v; want %s", a.Payload, got.Payload, err, want.Payload)
		}
	}
}

// A model's change to an event is labelled with the event's title, and
// whether others are invited (a change of its notes reaches them, so it is
// asked about) is the context's to say: an event the context does not
// hold counts as shared.
func TestRelabelEventUpdate(t *testing.T) {
	c := stage.Context{Events: []hearth.CalendarEvent{{ID: 4, Title: "Dentist"}, {ID: 5, Title: "Standup", Attendees: []string{"a@example.com"}}}}
	notes := "bring the x-rays"
	for _, tt := range []struct {
		args  action.EventUpdateArgs
		title string
		risk  action.Risk
	}{
		{action.EventUpdateArgs{ID: 4, Title: "Lunch", Update: hearth.CalendarEventUpdate{Description: &notes}}, "Dentist", action.Low},
		{action.EventUpdateArgs{ID: 5, Update: hearth.CalendarEventUpdate{Description: &notes}}, "Standup", action.High},
		{action.EventUpdateArgs{ID: 9, Update: hearth.CalendarEventUpdate{Description: &notes}}, "", action.High},
	} {
		a, err := action.New(action.CalendarUpdate, tt.args)
		if err != nil {
			t.Fatal(err)
		}
		got, err := relabel(a, c)
		if err != nil {
			t.Fatal(err)
		}
		p, err := action.Decode[action.EventUpdateArgs](got)
		if err != nil || p.Title != tt.title || action.RiskOf(got) != tt.risk {
			t.Errorf("event %d relabelled %s (risk %s); want title %q, risk %s", tt.args.ID, got.Payload, action.RiskOf(got), tt.title, tt.risk)
		}
	}
}
