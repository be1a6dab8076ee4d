package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/integrations/google"
	"github.com/hearthbot/hearth/store/storetest"
)

// TestKeysRotate: tokens sealed under key A stay readable once B is the
// key and A an old one; `bot keys rotate` moves them to B (then B alone
// reads them); a token no configured key opens aborts the rotation with
// nothing written.
func TestKeysRotate(t *testing.T) {
	ctx := context.Background()
	st, dbURL := storetest.Open(t)
	secret := func(b byte) string { return base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{b}, 32)) }
	keyA, keyB, keyC := secret('a'), secret('b'), secret('c')
	parse := func(cur, old string) *google.Keys {
		k, err := google.ParseKeys(cur, old)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	token := func(u int64) string { return fmt.Sprintf(`{"refresh_token":"r%d"}`, u) }

	// Two users connected under A, one under C (a key nobody kept).
	var users []int64
	for i, k := range []string{keyA, keyA, keyC} {
		c, err := st.AddWebUser(ctx, fmt.Sprintf("user%d", i))
		if err != nil {
			t.Fatal(err)
		}
		u := c.User.ID
		users = append(users, u)
		if err := st.SaveGoogleAccount(ctx, hearth.GoogleAccount{UserID: u, Email: "x@example.com",
			Token: parse(k, "").Seal(u, []byte(token(u)))}); err != nil {
			t.Fatal(err)
		}
	}
	stored := func() map[int64][]byte {
		m := map[int64][]byte{}
		for _, u := range users {
			a, err := st.GoogleAccount(ctx, u)
			if err != nil {
				t.Fatal(err)
			}
			m[u] = a.Token
		}
		return m
	}
	cfg := Config{DatabaseURL: dbURL, EncryptionKey: keyB, EncryptionOldKeys: " " + keyA + " ,"}

	// B with A kept for reading opens A's tokens.
	both := parse(cfg.EncryptionKey, cfg.EncryptionOldKeys)
	before := stored()
	for _, u := range users[:2] {
		if got, err := both.Open(u, before[u]); err != nil || string(got) != token(u) {
			t.Fatalf("user %d under B with old A: %q %v", u, got, err)
		}
	}

	// C's token opens with neither: the rotation fails, names the user,
	// and writes nothing (not even the tokens it could re-seal).
	var out strings.Builder
	err := KeysRotate(ctx, cfg, &out)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("user %d", users[2])) || !strings.Contains(err.Error(), "HEARTH_ENCRYPTION_OLD_KEYS") {
		t.Fatalf("rotate with an unreadable token: %v", err)
	}
	for u, tok := range stored() {
		if !bytes.Equal(tok, before[u]) {
			t.Fatalf("a failed rotation changed user %d's token", u)
		}
	}

	// With C kept too, everything rotates; a second run has nothing to do.
	cfg.EncryptionOldKeys += "," + keyC
	out.Reset()
	if err := KeysRotate(ctx, cfg, &out); err != nil || !strings.Contains(out.String(), "re-sealed 3 of 3") {
		t.Fatalf("rotate: %q %v", out.String(), err)
	}
	out.Reset()
	if err := KeysRotate(ctx, cfg, &out); err != nil || !strings.Contains(out.String(), "re-sealed 0 of 3") {
		t.Fatalf("second rotate: %q %v", out.String(), err)
	}
	onlyB := parse(keyB, "")
	for u, tok := range stored() {
		if got, err := onlyB.Open(u, tok); err != nil || string(got) != token(u) {
			t.Fatalf("user %d under B alone after rotation: %q %v", u, got, err)
		}
		if _, err := parse(keyA, "").Open(u, tok); err == nil {
			t.Fatalf("user %d's token still opens under A", u)
		}
	}

	// A wrong key for the command: a clear error, nothing written.
	before = stored()
	if err := KeysRotate(ctx, Config{DatabaseURL: dbURL, EncryptionKey: keyA}, &out); err == nil || !strings.Contains(err.Error(), "nothing was changed") {
		t.Fatalf("rotate under a wrong key: %v", err)
	}
	for u, tok := range stored() {
		if !bytes.Equal(tok, before[u]) {
			t.Fatalf("a rotation under a wrong key changed user %d's token", u)
		}
	}
}
