package hearth_test

import (
	"reflect"
	"testing"

	"github.com/hearthbot/hearth"
)

func TestAddItems(t *testing.T) {
	t.Parallel()
	type items = []hearth.ChecklistItem
	list := items{{Text: "Milk"}, {Text: "eggs", Done: true}, {Text: "bread"}}
	tests := []struct {
		name                            string
		add                             items
		after, added, reopened, already items
	}{
		{"new items go at the end", items{{Text: " apples "}},
			append(list, hearth.ChecklistItem{Text: "apples"}), items{{Text: "apples"}}, nil, nil},
		{"an item on the list is not added again, whatever its case", items{{Text: "milk"}},
			list, nil, nil, items{{Text: "Milk"}}},
		{"a ticked item asked for again is put back on", items{{Text: "Eggs"}},
			items{{Text: "Milk"}, {Text: "eggs"}, {Text: "bread"}}, nil, items{{Text: "eggs"}}, nil},
		{"asked for twice in one go, added once", items{{Text: "pears"}, {Text: "Pears"}},
			append(list, hearth.ChecklistItem{Text: "pears"}), items{{Text: "pears"}}, nil, nil},
		{"a mix", items{{Text: "bread"}, {Text: "tea"}, {Text: "eggs"}},
			items{{Text: "Milk"}, {Text: "eggs"}, {Text: "bread"}, {Text: "tea"}}, items{{Text: "tea"}}, items{{Text: "eggs"}}, items{{Text: "bread"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := append(items(nil), list...)
			after, added, reopened, already := hearth.AddItems(list, tt.add)
			if !reflect.DeepEqual(after, tt.after) || !reflect.DeepEqual(added, tt.added) ||
				!reflect.DeepEqual(reopened, tt.reopened) || !reflect.DeepEqual(already, tt.already) {
				t.Errorf("AddItems = %v, added %v, reopened %v, already %v; want %v, %v, %v, %v",
					after, added, reopened, already, tt.after, tt.added, tt.reopened, tt.already)
			}
			if !reflect.DeepEqual(list, before) {
				t.Errorf("the list given was changed: %v", list)
			}
		})
	}
}

func TestNoteName(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		note hearth.Note
		want string
	}{
		{hearth.Note{Title: "Shopping list", Body: "weekly"}, "Shopping list"},
		{hearth.Note{Body: "Gate code 4471."}, "Gate code 4471"},
		{hearth.Note{Body: "The plumber is coming Tuesday between eight and noon"}, "The plumber is coming Tuesday between…"},
		{hearth.Note{Body: "The plumber comes Friday.\nBring the invoice."}, "The plumber comes Friday"}, // its first sentence
		{hearth.Note{Body: "Plumber Friday. Bring the invoice."}, "Plumber Friday"},
		{hearth.Note{}, ""},
	} {
		if got := tt.note.Name(); got != tt.want {
			t.Errorf("%+v.Name() = %q; want %q", tt.note, got, tt.want)
		}
	}
}

func TestNoteForShopping(t *testing.T) {
	for title, want := range map[string]bool{"Shopping list": true, "Groceries": true, "Weekly grocery run": true, "Packing list": false, "Shopping-mall ideas": true, "": false} {
		if got := (hearth.Note{Title: title}).ForShopping(); got != want {
			t.Errorf("%q: ForShopping %v; want %v", title, got, want)
		}
	}
}
