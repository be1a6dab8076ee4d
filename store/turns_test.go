package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

// A conversation deleted with its events is not found, rather than
// leased by someone else: its turn job must not wait for it.
func TestLeaseGoneConversation(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	_, _, _, _, err := st.LeaseConversation(context.Background(), 424242, "job:1", time.Minute)
	if !errors.Is(err, hearth.ErrNotFound) {
		t.Fatalf("err = %v; want hearth.ErrNotFound", err)
	}
}

// A refused lease gives its connection back before it looks whether the
// conversation is gone: on a pool of one it must not wait for itself.
func TestLeaseRefusedOnOneConnection(t *testing.T) {
	t.Parallel()
	st, url := storetest.Open(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tx, rs, err := st.BeginMessages(ctx, []hearth.Inbound{{
		Channel: hearth.ChannelWebchat, ExternalID: "m1", ConversationKey: "ann", UserKey: "ann",
		UserName: "Ann", Kind: hearth.KindMessage, Text: "hello",
	}})
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	conv := rs[0].ConversationID
	if _, _, leased, _, err := st.LeaseConversation(ctx, conv, "job:1", time.Minute); err != nil || !leased {
		t.Fatalf("first lease: %v, %v", leased, err)
	}
	one, err := store.Open(ctx, url, store.Config{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	if _, _, leased, _, err := one.LeaseConversation(ctx, conv, "job:2", time.Minute); err != nil || leased {
		t.Fatalf("second lease: leased %v, %v; want refused, at once", leased, err)
	}
}
