package google_test

import (
	"context"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/integrations/google"
)

func TestSearchContacts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t.Run("saved and other contacts, cleaned", func(t *testing.T) {
		t.Parallel()
		b := setup(t, "UTC")
		b.connectWith(t, google.GmailScopes...)
		b.fake.AddContact(email, "Dana Smith", "dana@example.org", "Dana@Example.org")
		b.fake.AddOtherContact(email, "Dana Lee", "dana.lee@example.net")
		b.fake.AddContact(email, "Dana\r\nBcc: x@evil.example", "not an address", "Eve <eve@evil.example>", "dana.x@example.com")
		b.fake.AddContact(email, "Sam Stone", "sam@example.org")
		got, err := b.mail().SearchContacts(ctx, b.user.ID, "Dana")
		if err != nil {
			t.Fatal(err)
		}
		want := []hearth.AddressBookEntry{
			{Name: "Dana Smith", Email: "dana@example.org"},
			{Name: "Dana Bcc: x@evil.example", Email: "dana.x@example.com"}, // on one line: a name, never a header
			{Name: "Dana Lee", Email: "dana.lee@example.net"},
		}
		if len(got) != len(want) {
			t.Fatalf("found %+v, want %+v", got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("entry %d: %+v, want %+v", i, got[i], want[i])
			}
		}
		// The first search met Google's cold cache: it warmed it up (an
		// empty query) and searched again; the next one searches once.
		const search = "GET /v1/people:searchContacts"
		if n := b.fake.Count(search); n != 3 {
			t.Fatalf("%d searchContacts calls for the first search, want 3 (search, warm-up, search)", n)
		}
		if sam, err := b.mail().SearchContacts(ctx, b.user.ID, "sam"); err != nil || len(sam) != 1 || b.fake.Count(search) != 4 {
			t.Fatalf("sam: %+v %v after %d calls", sam, err, b.fake.Count(search))
		}
		if none, err := b.mail().SearchContacts(ctx, b.user.ID, "Quentin"); err != nil || len(none) != 0 {
			t.Fatalf("Quentin: %+v %v", none, err)
		}
	})
	t.Run("without the contacts scopes: none, and Google is not asked", func(t *testing.T) {
		t.Parallel()
		b := setup(t, "UTC")
		b.connect(t)
		b.fake.AddContact(email, "Dana Smith", "dana@example.org")
		got, err := b.mail().SearchContacts(ctx, b.user.ID, "Dana")
		if err != nil || len(got) != 0 || b.fake.Count("GET /v1/people:searchContacts") != 0 {
			t.Fatalf("found %+v %v with %d searches", got, err, b.fake.Count("GET /v1/people:searchContacts"))
		}
	})
	t.Run("an address book Google cannot give is empty", func(t *testing.T) {
		t.Parallel()
		b := setup(t, "UTC")
		b.connectWith(t, google.ContactsScopes...)
		b.fake.AddContact(email, "Dana Smith", "dana@example.org")
		b.fake.Fail("GET", "/v1/people:searchContacts", 403, 1)
		if got, err := b.mail().SearchContacts(ctx, b.user.ID, "Dana"); err != nil || len(got) != 0 {
			t.Fatalf("refused: %+v %v", got, err)
		}
		if got, err := b.mail().SearchContacts(ctx, b.user.ID, "Dana"); err != nil || len(got) != 1 {
			t.Fatalf("after the refusal: %+v %v", got, err)
		}
	})
}
