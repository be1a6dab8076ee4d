package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/store/storetest"
)

// TestExportAndDeleteUser: an export holds the user's data and no
// credentials; deleting the account removes everything of theirs but
// leaves the family's facts with the family.
func TestExportAndDeleteUser(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	ann, err := st.AddWebUser(ctx, "Ann")
	if err != nil {
		t.Fatal(err)
	}
	bob, err := st.AddWebUser(ctx, "Bob")
	if err != nil {
		t.Fatal(err)
	}
	inv, err := st.CreateFamilyInvite(ctx, ann.User.ID, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.JoinFamily(ctx, hearth.NormaliseCode(inv.Code), bob.User.ID); err != nil {
		t.Fatal(err)
	}
	mine, err := st.StoreMemory(ctx, "", hearth.Memory{UserID: ann.User.ID, Content: "Ann's blood type is O negative", Tier: hearth.TierPrivate})
	if err != nil {
		t.Fatal(err)
	}
	ours, err := st.StoreMemory(ctx, "", hearth.Memory{UserID: ann.User.ID, Content: "The wifi password is on the fridge", Tier: hearth.TierBasic})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.GiveMemoryToFamily(ctx, ann.User.ID, ours.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateTask(ctx, "k1", hearth.Task{UserID: ann.User.ID, Title: "Call the plumber", Status: hearth.TaskOpen}); err != nil {
		t.Fatal(err)
	}
	if err := st.CreateSession(ctx, ann.User.ID, []byte("hash"), "csrf-secret", time.Now(), time.Hour); err != nil {
		t.Fatal(err)
	}

	// A turn of Ann's leaves a trace; it goes with her event.
	var event int64
	if err := st.Pool().QueryRow(ctx, `INSERT INTO inbound_events (channel, external_id, conversation_id, user_id, kind, text)
		VALUES ('webchat', 'ann-1', $1, $2, 'message', 'hi') RETURNING id`, ann.ConversationID, ann.User.ID).Scan(&event); err != nil {
		t.Fatal(err)
	}
	if err := st.SaveTrace(ctx, hearth.Trace{EventID: event, ConversationID: ann.ConversationID, UserID: ann.User.ID, Intent: "greeting"}); err != nil {
		t.Fatal(err)
	}

	raw, err := st.ExportUser(ctx, ann.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"user", "messages", "tasks", "facts", "identities", "family_members"} {
		if _, ok := doc[want]; !ok {
			t.Errorf("export lacks %s (has %v)", want, keys(doc))
		}
	}
	text := string(raw)
	for _, want := range []string{"Call the plumber", "O negative", "Ann"} {
		if !strings.Contains(text, want) {
			t.Errorf("export lacks %q", want)
		}
	}
	if strings.Contains(text, "csrf-secret") || doc["web_sessions"] != nil {
		t.Error("export holds session credentials")
	}

	if err := st.DeleteUser(ctx, ann.User.ID); err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteUser(ctx, ann.User.ID); !errors.Is(err, hearth.ErrNotFound) {
		t.Fatalf("deleting again: %v; want not found", err)
	}
	if _, err := st.ExportUser(ctx, ann.User.ID); !errors.Is(err, hearth.ErrNotFound) {
		t.Fatalf("export of a deleted user: %v", err)
	}
	var owner *int64
	var family *int64
	if err := st.Pool().QueryRow(ctx, `SELECT user_id, family_id FROM facts WHERE id = $1`, ours.ID).Scan(&owner, &family); err != nil {
		t.Fatalf("the family's fact went with Ann: %v", err)
	}
	if owner == nil || *owner != bob.User.ID || family == nil {
		t.Fatalf("family fact now of user %v, family %v; want Bob's family", owner, family)
	}
	var left int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM facts WHERE id = $1`, mine.ID).Scan(&left); err != nil || left != 0 {
		t.Fatalf("Ann's own fact is still there (%d, %v)", left, err)
	}
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM turn_traces WHERE user_id = $1 OR conversation_id = $2`, ann.User.ID, ann.ConversationID).Scan(&left); err != nil || left != 0 {
		t.Fatalf("Ann's turn trace is still there (%d, %v)", left, err)
	}
	if _, err := st.FindUserByName(ctx, "Bob"); err != nil {
		t.Fatalf("Bob went with Ann: %v", err)
	}
}

func keys(m map[string]json.RawMessage) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}
