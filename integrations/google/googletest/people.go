package googletest

import (
	"net/http"
	"strconv"
	"strings"

	people "google.golang.org/api/people/v1"
)

// The fake People API: people.searchContacts (the account's saved
// contacts, with the contacts.readonly scope) and otherContacts.search
// (the people the account wrote to, with contacts.other.readonly). A
// query matches, as Google's does, a contact one of whose names' or
// addresses' words begins with it. As Google's, searches are answered
// from a cache: a contact added since the last request with an empty
// query (the warm-up Google asks for) is not found until the next one.

// Scopes the fake's People API asks of a caller.
const (
	ScopeContacts      = "https://www.googleapis.com/auth/contacts.readonly"
	ScopeOtherContacts = "https://www.googleapis.com/auth/contacts.other.readonly"
)

type contact struct {
	name   string
	emails []string
	other  bool
	// cached: a warm-up request has been made since it was added.
	cached bool
}

// AddContact adds a saved contact to the account's address book.
func (s *Server) AddContact(email, name string, addresses ...string) {
	s.addContact(email, contact{name: name, emails: addresses})
}

// AddOtherContact adds an "other contact" (someone the account wrote to,
// not saved).
func (s *Server) AddOtherContact(email, name string, addresses ...string) {
	s.addContact(email, contact{name: name, emails: addresses, other: true})
}

func (s *Server) addContact(email string, c contact) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.contacts == nil {
		s.contacts = map[string][]contact{}
	}
	s.contacts[email] = append(s.contacts[email], c)
}

func (s *Server) peopleAPI(w http.ResponseWriter, r *http.Request) {
	a := s.caller(r)
	if a == nil {
		apiError(w, http.StatusUnauthorized, "invalid credentials")
		return
	}
	var other bool
	var scope string
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/v1/people:searchContacts":
		scope = ScopeContacts
	case r.Method == http.MethodGet && r.URL.Path == "/v1/otherContacts:search":
		other, scope = true, ScopeOtherContacts
	default:
		apiError(w, http.StatusNotFound, "no such People endpoint in the fake")
		return
	}
	q := r.URL.Query()
	if !strings.Contains(q.Get("readMask"), "emailAddresses") {
		apiError(w, http.StatusBadRequest, "readMask is required")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !contains(a.scopes, scope) {
		apiError(w, http.StatusForbidden, "Request had insufficient authentication scopes.")
		return
	}
	limit, _ := strconv.Atoi(q.Get("pageSize"))
	query := strings.ToLower(strings.TrimSpace(q.Get("query")))
	out := people.SearchResponse{}
	if query == "" {
		// The warm-up: the cache catches up.
		for i := range s.contacts[a.email] {
			if s.contacts[a.email][i].other == other {
				s.contacts[a.email][i].cached = true
			}
		}
		writeJSON(w, out)
		return
	}
	for i, c := range s.contacts[a.email] {
		if c.other != other || !c.cached || !contactMatches(c, query) {
			continue
		}
		p := &people.Person{ResourceName: "people/c" + strconv.Itoa(i), Names: []*people.Name{{DisplayName: c.name}}}
		if other {
			p.ResourceName = "otherContacts/c" + strconv.Itoa(i)
		}
		for _, e := range c.emails {
			p.EmailAddresses = append(p.EmailAddresses, &people.EmailAddress{Value: e})
		}
		out.Results = append(out.Results, &people.SearchResult{Person: p})
		if limit > 0 && len(out.Results) >= limit {
			break
		}
	}
	writeJSON(w, out)
}

// contactMatches reports whether a word of the contact's name or
// addresses begins with each word of the query.
func contactMatches(c contact, query string) bool {
	fields := strings.FieldsFunc(strings.ToLower(c.name+" "+strings.Join(c.emails, " ")), func(r rune) bool {
		return r == ' ' || r == '@' || r == '.'
	})
	for _, q := range strings.Fields(query) {
		found := false
		for _, f := range fields {
			if strings.HasPrefix(f, q) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
