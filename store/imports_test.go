package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

// fileEvent accepts a file event for a new web chat user and returns it.
func fileEvent(t *testing.T, st *store.Store, name string) hearth.Receipt {
	t.Helper()
	ctx := context.Background()
	key := fmt.Sprintf("%s-%d", name, userSeq.Add(1))
	tx, err := st.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // after Commit a no-op
	r, err := st.AcceptInboundTx(ctx, tx, hearth.Inbound{Channel: hearth.ChannelWebchat, ExternalID: "file:" + key, ConversationKey: key, UserKey: key,
		UserName: name, Timezone: "Europe/Rome", Kind: hearth.KindFile, Text: "a.csv", File: &hearth.FileRef{Name: "a.csv", Data: []byte("Task\nx\n")}})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Commit(ctx, tx); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestImports(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	r := fileEvent(t, st, "Ann")
	other := fileEvent(t, st, "Ben")

	f, err := st.ImportFile(ctx, r.EventID)
	if err != nil || string(f.Data) != "Task\nx\n" || f.Name != "a.csv" {
		t.Fatalf("file %+v (%v)", f, err)
	}
	im, err := st.CreateImport(ctx, hearth.Import{UserID: r.UserID, ConversationID: r.ConversationID, EventID: r.EventID, Signature: "sig", ExpiresAt: time.Now().Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	again, err := st.CreateImport(ctx, hearth.Import{UserID: r.UserID, ConversationID: r.ConversationID, EventID: r.EventID, Signature: "sig", ExpiresAt: time.Now().Add(time.Hour)})
	if err != nil || again.ID != im.ID {
		t.Fatalf("a second create for the event made %d (%v); want %d", again.ID, err, im.ID)
	}
	batch := hearth.ImportBatch{
		Tasks:  []hearth.Task{{Title: "Pay rent"}, {Title: "Done already", Status: hearth.TaskDone}},
		Events: []hearth.CalendarEvent{{Title: "Choir", Start: time.Now(), End: time.Now().Add(time.Hour)}},
		Facts:  []hearth.Memory{{Content: "Ann's birthday is March 15", About: "Ann"}},
	}
	commit := func(userID, id int64, b hearth.ImportBatch) (hearth.ImportCounts, error) {
		tx, err := st.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback(ctx) //nolint:errcheck // after Commit a no-op
		c, err := st.CommitImportTx(ctx, tx, userID, id, time.Now(), b)
		if err != nil {
			return c, err
		}
		return c, st.Commit(ctx, tx)
	}
	// Still asking: not committed.
	if _, err := commit(r.UserID, im.ID, batch); !errors.Is(err, hearth.ErrConflict) {
		t.Fatalf("commit of an import still asking: %v; want a conflict", err)
	}
	tx, _ := st.Begin(ctx)
	im.State = hearth.ImportReady
	if ok, err := st.SaveImportTx(ctx, tx, im, 0); !ok || err != nil {
		t.Fatalf("save: %v, %v", ok, err)
	}
	if ok, err := st.SaveImportTx(ctx, tx, im, 5); ok || err != nil {
		t.Fatalf("a save at another step: %v, %v; want refused", ok, err)
	}
	st.Commit(ctx, tx) //nolint:errcheck // checked by what follows
	if _, err := commit(other.UserID, im.ID, batch); !errors.Is(err, hearth.ErrConflict) {
		t.Fatalf("another user's commit: %v; want a conflict", err)
	}
	c, err := commit(r.UserID, im.ID, batch)
	if err != nil || c != (hearth.ImportCounts{Tasks: 2, Events: 1, Facts: 1}) {
		t.Fatalf("commit: %+v, %v", c, err)
	}
	if _, err := commit(r.UserID, im.ID, batch); !errors.Is(err, hearth.ErrConflict) {
		t.Fatalf("a second commit: %v; want a conflict", err)
	}
	if f, _ := st.ImportFile(ctx, r.EventID); f.Data != nil {
		t.Error("the file's bytes are kept after the commit")
	}
	last, ok, err := st.LastImport(ctx, r.UserID)
	if err != nil || !ok || last.ID != im.ID || last.Counts.Tasks != 2 {
		t.Fatalf("last import %+v, %v, %v", last, ok, err)
	}
	var done int
	st.Pool().QueryRow(ctx, `SELECT count(*) FROM tasks WHERE import_id = $1 AND status = 'done' AND completed_at IS NOT NULL`, im.ID).Scan(&done) //nolint:errcheck // checked below
	if done != 1 {
		t.Error("a done to-do was not imported done")
	}

	// The imported events, linked to an outside calendar once.
	tx, _ = st.Begin(ctx)
	ids, err := st.ImportEventIDsTx(ctx, tx, im.ID)
	tx.Rollback(ctx) //nolint:errcheck // read only
	if err != nil || len(ids) != 1 {
		t.Fatalf("import events %v, %v", ids, err)
	}
	if e, ok, err := st.LinkImportedEvent(ctx, r.UserID, ids[0], "primary", "abc"); err != nil || !ok || e.ExternalID != "abc" || e.CalendarID != "primary" {
		t.Fatalf("link %+v, %v, %v", e, ok, err)
	}
	if e, ok, err := st.LinkImportedEvent(ctx, r.UserID, ids[0], "other", "xyz"); err != nil || !ok || e.ExternalID != "abc" {
		t.Fatalf("a second link %+v, %v, %v; want the first kept", e, ok, err)
	}
	if _, ok, err := st.LinkImportedEvent(ctx, other.UserID, ids[0], "primary", "abc"); err != nil || ok {
		t.Fatalf("another user's link: %v, %v", ok, err)
	}
	if es, err := st.UndoneImportEvents(ctx, r.UserID, im.ID); err != nil || len(es) != 0 {
		t.Fatalf("undone events before the undo: %+v, %v", es, err)
	}

	if _, err := st.UndoImport(ctx, other.UserID, im.ID); !errors.Is(err, hearth.ErrConflict) {
		t.Fatalf("another user's undo: %v; want a conflict", err)
	}
	u, err := st.UndoImport(ctx, r.UserID, im.ID)
	if err != nil || u != (hearth.ImportCounts{Tasks: 2, Events: 1, Facts: 1}) {
		t.Fatalf("undo: %+v, %v", u, err)
	}
	if _, err := st.UndoImport(ctx, r.UserID, im.ID); !errors.Is(err, hearth.ErrConflict) {
		t.Fatalf("a second undo: %v; want a conflict", err)
	}
	if es, err := st.UndoneImportEvents(ctx, r.UserID, im.ID); err != nil || len(es) != 1 || es[0].ExternalID != "abc" {
		t.Fatalf("undone events: %+v, %v", es, err)
	}
	if _, ok, err := st.LinkImportedEvent(ctx, r.UserID, ids[0], "primary", "abc"); err != nil || ok {
		t.Fatalf("link after the undo: %v, %v; want refused", ok, err)
	}
	tasks, _ := st.FindTasks(ctx, hearth.TaskFilter{UserID: r.UserID, IncludeUndated: true})
	if len(tasks) != 0 {
		t.Errorf("%d tasks after undo", len(tasks))
	}

	// Learned mappings are per person.
	tx, _ = st.Begin(ctx)
	if err := st.SaveMappingTx(ctx, tx, r.UserID, "sig", json.RawMessage(`{"kind":"tasks"}`)); err != nil {
		t.Fatal(err)
	}
	st.Commit(ctx, tx) //nolint:errcheck // checked by what follows
	if m, ok, err := st.LearnedMapping(ctx, r.UserID, "sig"); err != nil || !ok || string(m) != `{"kind": "tasks"}` {
		t.Fatalf("learned %s, %v, %v", m, ok, err)
	}
	if _, ok, _ := st.LearnedMapping(ctx, other.UserID, "sig"); ok {
		t.Error("another user sees the mapping")
	}
	if n, err := st.ForgetMappings(ctx, r.UserID); n != 1 || err != nil {
		t.Fatalf("forget: %d, %v", n, err)
	}
	if _, ok, _ := st.LearnedMapping(ctx, r.UserID, "sig"); ok {
		t.Error("a forgotten mapping is still there")
	}
}
