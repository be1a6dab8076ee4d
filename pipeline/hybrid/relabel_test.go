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
