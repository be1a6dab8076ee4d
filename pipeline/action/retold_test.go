package action_test

import (
	"context"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
)

// TestUndoOfARetoldFact: a fact told again in another message (the
// current value of an attribute, or the same words in another case) is
// the fact Hearth had, not a second one; undo of the retelling leaves it,
// and undo of the first telling takes it back. The same words told with
// another tier are a fact of their own, which undo takes back first.
func TestUndoOfARetoldFact(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name          string
		first, second action.MemoryStoreArgs
		filter        hearth.MemoryFilter
		twice         int   // facts after the second telling
		imported      bool  // the first telling is an import's, no message's
		undos         []int // facts after each undo
	}{
		{
			name: "attribute",
			first: action.MemoryStoreArgs{Content: "Jon works at Acme", Category: hearth.MemoryWork,
				Entity: &action.EntityArgs{Name: "Jon", Kind: hearth.EntityPerson}, Attribute: hearth.AttrEmployer, Value: "Acme"},
			second: action.MemoryStoreArgs{Content: "Jon works at Acme", Category: hearth.MemoryWork,
				Entity: &action.EntityArgs{Name: "Jon", Kind: hearth.EntityPerson}, Attribute: hearth.AttrEmployer, Value: "acme"},
			filter: hearth.MemoryFilter{Attribute: hearth.AttrEmployer},
			twice:  1, undos: []int{1, 0},
		},
		{
			name:   "same words",
			first:  action.MemoryStoreArgs{Content: "The spare key is under the blue pot", About: "spare key", Category: hearth.MemoryPersonal},
			second: action.MemoryStoreArgs{Content: "the spare key is under the blue pot", About: "Spare key", Category: hearth.MemoryPersonal},
			filter: hearth.MemoryFilter{About: "spare key"},
			twice:  1, undos: []int{1, 0},
		},
		{
			// An imported fact told in chat stays when the telling is
			// taken back: no message of the conversation made it.
			name:     "same words as an import",
			first:    action.MemoryStoreArgs{Content: "The spare key is under the blue pot", About: "spare key", Category: hearth.MemoryPersonal},
			second:   action.MemoryStoreArgs{Content: "The spare key is under the blue pot", About: "spare key", Category: hearth.MemoryPersonal},
			filter:   hearth.MemoryFilter{About: "spare key"},
			imported: true,
			twice:    1, undos: []int{1},
		},
		{
			// Told again as private, it is a fact of its own: who may see
			// what is never decided by the first telling.
			name:   "same words, another tier",
			first:  action.MemoryStoreArgs{Content: "The spare key is under the blue pot", About: "spare key", Category: hearth.MemoryPersonal},
			second: action.MemoryStoreArgs{Content: "The spare key is under the blue pot", About: "spare key", Category: hearth.MemoryPersonal, Tier: hearth.TierPrivate},
			filter: hearth.MemoryFilter{About: "spare key"},
			twice:  2, undos: []int{1, 0},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := setup(t)
			ctx := context.Background()
			tell := func(turn action.Turn, args action.MemoryStoreArgs) {
				t.Helper()
				recs, err := b.engine.Run(ctx, turn, []action.Action{newAction(t, action.MemoryStore, args)})
				if err != nil || recs[0].State != action.StateDone {
					t.Fatalf("remember: %+v, %v", recs, err)
				}
			}
			facts := func() int {
				t.Helper()
				f := tc.filter
				f.UserID = b.turn.UserID
				ms, err := b.store.FindMemories(ctx, f)
				if err != nil {
					t.Fatal(err)
				}
				return len(ms)
			}
			if tc.imported {
				if _, err := b.store.StoreMemory(ctx, "import:1:0", hearth.Memory{UserID: b.turn.UserID,
					Content: tc.first.Content, About: tc.first.About, Category: tc.first.Category}); err != nil {
					t.Fatal(err)
				}
			} else {
				tell(b.turn, tc.first)
			}
			tell(b.newTurn(t, "ann"), tc.second)
			if got := facts(); got != tc.twice {
				t.Fatalf("told twice: %d facts, want %d", got, tc.twice)
			}
			for i, want := range tc.undos {
				rec, ok, err := b.engine.Undo(ctx, b.turn.ConversationID, b.turn.UserID)
				if err != nil || !ok {
					t.Fatalf("undo: %v %v", ok, err)
				}
				if got := facts(); got != want {
					t.Fatalf("after an undo: %d facts, want %d", got, want)
				}
				// Only the undo of a retelling took nothing back, and says so.
				if nothing := i == 0 && tc.twice == 1; rec.ChangedNothing() != nothing {
					t.Errorf("undo %d: ChangedNothing = %v, want %v", i+1, rec.ChangedNothing(), nothing)
				}
			}
		})
	}
}
