package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/store/storetest"
)

// TestAddFirstUser: of concurrent first sign-ins on a fresh install
// exactly one makes an account.
func TestAddFirstUser(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() { _, errs[i] = st.AddFirstUser(ctx, fmt.Sprintf("First %d", i)) })
	}
	wg.Wait()
	made := 0
	for _, err := range errs {
		switch {
		case err == nil:
			made++
		case !errors.Is(err, hearth.ErrConflict):
			t.Fatalf("a losing first sign-in: %v; want a conflict", err)
		}
	}
	if n, err := st.CountUsers(ctx); err != nil || made != 1 || n != 1 {
		t.Fatalf("%d made, %d users (%v); want exactly 1", made, n, err)
	}
}

// TestSessionsPurgeExpired: making a session removes the user's expired
// ones, and an expired session does not sign in.
func TestSessionsPurgeExpired(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	u, err := st.AddWebUser(ctx, "Ann")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if err := st.CreateSession(ctx, u.User.ID, []byte("old"), "c1", now, -time.Second); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := st.FindSession(ctx, []byte("old"), now); !errors.Is(err, hearth.ErrNotFound) {
		t.Fatalf("expired session found: %v", err)
	}
	if err := st.CreateSession(ctx, u.User.ID, []byte("new"), "c2", now, time.Hour); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM web_sessions`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d sessions (%v); want the expired one purged", n, err)
	}
}
