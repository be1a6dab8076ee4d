package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
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
