package google

import (
	"context"
	"errors"
	"net/mail"
	"strings"
	"unicode"

	people "google.golang.org/api/people/v1"

	"github.com/hearthbot/hearth"
)

// Recipients from the user's Google contacts: "email Dana about Friday"
// with no address for Dana in memory looks in the user's contacts
// (people.searchContacts) and in the people they wrote to
// (otherContacts.search). The scopes are asked with Gmail ("connect
// gmail") or on their own ("connect contacts").

// Scopes of the address book: read-only, the saved contacts and the
// "other contacts" Gmail keeps of people the user wrote to.
const (
	ScopeContacts      = people.ContactsReadonlyScope
	ScopeOtherContacts = people.ContactsOtherReadonlyScope
)

// ContactsScopes are the scopes "connect contacts" asks for (on top of
// those granted before).
var ContactsScopes = []string{ScopeOpenID, ScopeEmail, ScopeContacts, ScopeOtherContacts}

// maxContacts bounds what one search takes from each source.
const maxContacts = 10

// SearchContacts returns the entries of the user's Google address book
// that a name ("Dana", "Dana Smith") can stand for, one per email
// address, as Google matched them (saved contacts first). A user who did
// not grant the contacts scopes has none, and so has one whose address
// book Google cannot give just now (the refusal is logged): Hearth then
// asks for the address as it does without contacts. What comes back is
// the user's data but not their words: names are kept on one line and
// short, and only valid addresses are kept.
func (m *Mail) SearchContacts(ctx context.Context, userID int64, name string) ([]hearth.AddressBookEntry, error) {
	name = strings.TrimSpace(name)
	a, err := m.g.active(ctx, userID)
	if errors.Is(err, errNotConnected) || name == "" {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	saved, other := hasScope(a.Scopes, ScopeContacts), hasScope(a.Scopes, ScopeOtherContacts)
	if !saved && !other {
		return nil, nil
	}
	opts, err := m.g.clientOptions(a, "")
	if err != nil {
		return nil, err
	}
	svc, err := people.NewService(ctx, opts...)
	if err != nil {
		return nil, err
	}
	// Google answers searches from a cache that a request with an empty
	// query refreshes: when a search finds nothing, the cache is warmed
	// up and the search made once more.
	for warm := false; ; warm = true {
		out, refused := m.searchContacts(ctx, svc, userID, name, saved, other)
		if refused || len(out) > 0 || warm {
			return out, nil
		}
		if _, refused := m.searchContacts(ctx, svc, userID, "", saved, other); refused {
			return nil, nil
		}
	}
}

// searchContacts searches the saved contacts, then the other contacts;
// a refusal is logged and ends the search with what was found.
func (m *Mail) searchContacts(ctx context.Context, svc *people.Service, userID int64, name string, saved, other bool) (out []hearth.AddressBookEntry, refused bool) {
	seen := map[string]bool{}
	add := func(res *people.SearchResponse) {
		for _, r := range res.Results {
			for _, e := range entries(r.Person) {
				if k := strings.ToLower(e.Email); !seen[k] {
					seen[k] = true
					out = append(out, e)
				}
			}
		}
	}
	const mask = "names,emailAddresses"
	if saved {
		res, err := svc.People.SearchContacts().Query(name).ReadMask(mask).PageSize(maxContacts).Context(ctx).Do()
		if err != nil {
			m.g.cfg.Log.WarnContext(ctx, "google contacts search failed; asking for the address instead", "user", userID, "error", err)
			return nil, true
		}
		add(res)
	}
	if other {
		res, err := svc.OtherContacts.Search().Query(name).ReadMask(mask).PageSize(maxContacts).Context(ctx).Do()
		if err != nil {
			m.g.cfg.Log.WarnContext(ctx, "google other contacts search failed; using saved contacts only", "user", userID, "error", err)
			return out, true
		}
		add(res)
	}
	return out, false
}

// entries are a person's email addresses with their name, each a valid
// address, the name on one line, without control characters, at most 80
// characters.
func entries(p *people.Person) []hearth.AddressBookEntry {
	if p == nil {
		return nil
	}
	name := ""
	for _, n := range p.Names {
		if n != nil && strings.TrimSpace(n.DisplayName) != "" {
			name = n.DisplayName
			break
		}
	}
	name = clip(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, name), 80)
	var out []hearth.AddressBookEntry
	for _, e := range p.EmailAddresses {
		if e == nil {
			continue
		}
		a, err := mail.ParseAddress(strings.TrimSpace(e.Value))
		if err != nil || a.Name != "" || strings.ContainsAny(a.Address, " <>\r\n") {
			continue
		}
		out = append(out, hearth.AddressBookEntry{Name: name, Email: a.Address})
	}
	return out
}
