package plan

import (
	"context"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
)

func TestPlanLists(t *testing.T) {
	notes := []hearth.Note{
		{ID: 1, Title: "Shopping list", Items: []hearth.ChecklistItem{{Text: "Milk"}, {Text: "eggs"}}},
		{ID: 2, Title: "Shopping list", Family: true, Items: []hearth.ChecklistItem{{Text: "bread"}, {Text: "milk", Done: true}}},
	}
	tests := []struct {
		text string
		kind action.Kind
		id   int64
		want any // the payload planned
	}{
		{"add tea to our shopping list", action.NoteAppend, 2, action.NoteAppendArgs{ID: 2, Title: "Shopping list", Items: []hearth.ChecklistItem{{Text: "tea"}}}},
		{"add tea to my shopping list", action.NoteAppend, 1, action.NoteAppendArgs{ID: 1, Title: "Shopping list", Items: []hearth.ChecklistItem{{Text: "tea"}}}},
		{"add tea to the family's grocery list", action.NoteCreate, 0, action.NoteCreateArgs{Title: "Grocery list", Family: true, Items: []hearth.ChecklistItem{{Text: "tea"}}}},
		{"cross the milk off my shopping list", action.NoteCheck, 1, action.NoteCheckArgs{ID: 1, Title: "Shopping list", Items: []string{"Milk"}, Done: true}},
		{"tick off bread on our shopping list", action.NoteCheck, 2, action.NoteCheckArgs{ID: 2, Title: "Shopping list", Items: []string{"bread"}, Done: true}},
		{"please remove eggs and milk from the shopping list", action.NoteCheck, 1, action.NoteCheckArgs{ID: 1, Title: "Shopping list", Items: []string{"eggs", "Milk"}, Done: true}},
		{"mark bread as done on our shopping list", action.NoteCheck, 2, action.NoteCheckArgs{ID: 2, Title: "Shopping list", Items: []string{"bread"}, Done: true}},
		{"untick milk on our shopping list", action.NoteCheck, 2, action.NoteCheckArgs{ID: 2, Title: "Shopping list", Items: []string{"milk"}, Done: false}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			in := stage.PlanInput{Text: tt.text, Understanding: stage.Understanding{Intent: nlu.RequestAction, Domains: []nlu.Domain{nlu.Keep}}, Context: stage.Context{Notes: notes}}
			p, err := planKeep(context.Background(), in)
			if err != nil || len(p.Actions) != 1 {
				t.Fatalf("plan %+v, %v", p, err)
			}
			want, _ := action.New(tt.kind, tt.want)
			if p.Actions[0].Kind != tt.kind || string(p.Actions[0].Payload) != string(want.Payload) {
				t.Fatalf("planned %s %s; want %s %s", p.Actions[0].Kind, p.Actions[0].Payload, tt.kind, want.Payload)
			}
		})
	}
	in := stage.PlanInput{Text: "cross milk off the packing list", Understanding: stage.Understanding{Intent: nlu.RequestAction, Domains: []nlu.Domain{nlu.Keep}}, Context: stage.Context{Notes: notes}}
	if p, err := planKeep(context.Background(), in); err == nil || len(p.Actions) != 0 {
		t.Fatalf("a missing list planned %+v, %v; want a question back", p, err)
	}
}
