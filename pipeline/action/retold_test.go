package action_test

import (
	"context"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
)

// TestUndoOfARetoldValue: the current value of an attribute told again in
// another message is the fact Hearth had; undo of the retelling leaves
// it, and undo of the first telling takes it back.
func TestUndoOfARetoldValue(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	tell := func(turn action.Turn) {
		t.Helper()
		recs, err := b.engine.Run(ctx, turn, []action.Action{newAction(t, action.MemoryStore, action.MemoryStoreArgs{Content: "Jon works at Acme",
			Category: hearth.MemoryWork, Entity: &action.EntityArgs{Name: "Jon", Kind: hearth.EntityPerson}, Attribute: hearth.AttrEmployer, Value: "Acme"})})
		if err != nil || recs[0].State != action.StateDone {
			t.Fatalf("remember: %+v, %v", recs, err)
		}
	}
	employers := func() int {
		t.Helper()
		ms, err := b.store.FindMemories(ctx, hearth.MemoryFilter{UserID: b.turn.UserID, Attribute: hearth.AttrEmployer})
		if err != nil {
			t.Fatal(err)
		}
		return len(ms)
	}
	tell(b.turn)
	tell(b.newTurn(t, "ann"))
	for _, want := range []int{1, 0} {
		if _, ok, err := b.engine.Undo(ctx, b.turn.ConversationID, b.turn.UserID); err != nil || !ok {
			t.Fatalf("undo: %v %v", ok, err)
		}
		if got := employers(); got != want {
			t.Fatalf("after an undo: %d employers, want %d", got, want)
		}
	}
}
