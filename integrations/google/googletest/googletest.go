// Package googletest is a fake Google for tests: OAuth (consent, token,
// refresh, revoke), userinfo and the Calendar v3 API (events list with
// sync tokens and paging, insert, patch, delete, instances of recurring
// events, watch and channels.stop), with scriptable failures (401, 429,
// 5xx, 410). Point HEARTH_GOOGLE_ENDPOINT (or the integration's
// Endpoints) at URL and drive it through the real google.golang.org/api
// clients. The Gmail, Keep and People APIs are in gmail.go, keep.go and
// people.go; Google's signing certificates and ID tokens in idtoken.go.
package googletest

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	calendar "google.golang.org/api/calendar/v3"

	"github.com/hearthbot/hearth/internal/signal"
)

// ClientID and ClientSecret are the OAuth client the fake accepts.
const (
	ClientID     = "hearth-test.apps.googleusercontent.com"
	ClientSecret = "hearth-test-secret"
)

// Server is the fake Google. Create it with New.
type Server struct {
	// URL is the base URL replacing every Google host.
	URL string
	// Changed is notified after every request.
	Changed signal.Signal

	mu sync.Mutex
	// consent is the account the consent page signs in as.
	consent  string
	accounts map[string]*account
	codes    map[string]string // code → email
	access   map[string]string // access token → email
	refresh  map[string]string // refresh token → email
	seq      int64
	// syncFloor: sync tokens below it are answered 410 Gone.
	syncFloor int64
	channels  map[string]*calendar.Channel
	chanCal   map[string]string // channel id → email/calendar
	failures  []failure
	counts    map[string]int
	pageSize  int
	lastAuth  url.Values
	pushed    map[string]int // channel id → pushes sent
	// holds are the request keys (as Count names them) whose requests
	// wait until the channel is closed.
	holds map[string]chan struct{}
	// mail and keep are the Gmail and Keep of each account (gmail.go,
	// keep.go).
	mail map[string]*mailbox
	keep map[string]*keepbox
	// contacts are each account's address book (people.go).
	contacts map[string][]contact
}

type account struct {
	email   string
	scopes  []string
	revoked bool
	events  map[string]map[string]*event // calendar id → event id → event
	// calendars are the account's calendars besides its primary one, by
	// id, with their names.
	calendars map[string]string
}

type event struct {
	ev  *calendar.Event
	seq int64
	// exceptions are changed or cancelled instances of a recurring
	// event, by instance id.
	exceptions map[string]*exception
}

type exception struct {
	ev  *calendar.Event
	seq int64
}

type failure struct {
	method, prefix string
	status         int
	left           int
}

// New starts a fake Google, closed when the test ends. Its consent page
// signs in as user@example.com until SetConsent says otherwise.
func New(t testing.TB) *Server {
	s := &Server{
		consent: "user@example.com", accounts: map[string]*account{}, codes: map[string]string{},
		access: map[string]string{}, refresh: map[string]string{}, channels: map[string]*calendar.Channel{},
		chanCal: map[string]string{}, counts: map[string]int{}, pageSize: 250, pushed: map[string]int{},
		holds: map[string]chan struct{}{},
	}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// SetConsent makes the consent page sign in as email.
func (s *Server) SetConsent(email string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.consent = email
}

// SetPageSize sets the largest page events.list returns (default 250).
func (s *Server) SetPageSize(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pageSize = n
}

// Fail makes the next n requests whose method matches (empty: any) and
// whose path starts with prefix answer status.
func (s *Server) Fail(method, prefix string, status, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures = append(s.failures, failure{method, prefix, status, n})
}

// Restore ends every scripted failure still pending: Google is back.
func (s *Server) Restore() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures = nil
}

// Hold makes every request for key (as Count names it) wait, counted,
// until release is called, so a test can decide what happens while a
// request is in flight (pushes arriving during a sync, say). A held
// request whose client goes away is dropped.
func (s *Server) Hold(key string) (release func()) {
	ch := make(chan struct{})
	s.mu.Lock()
	s.holds[key] = ch
	s.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			delete(s.holds, key)
			s.mu.Unlock()
			close(ch)
		})
	}
}

// Count returns how many requests were made for a key: "METHOD /path"
// with ids replaced by {id} (e.g. "GET /calendar/v3/calendars/{id}/events"),
// or "exchange", "refresh", "revoke", "auth" for the OAuth endpoints.
func (s *Server) Count(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[key]
}

// LastAuth returns the query of the last consent request.
func (s *Server) LastAuth() url.Values {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastAuth
}

// ExpireAccessTokens makes every access token given so far invalid (the
// next API call with one answers 401).
func (s *Server) ExpireAccessTokens() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.access)
}

// ExpireSyncTokens makes every sync token given so far answer 410 Gone.
func (s *Server) ExpireSyncTokens() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	s.syncFloor = s.seq
}

// RevokeGrant revokes an account's grant as the user would in Google's
// settings: its tokens stop working.
func (s *Server) RevokeGrant(email string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.revokeLocked(email)
}

// Revoked reports whether the account's grant was revoked.
func (s *Server) Revoked(email string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.accounts[email]
	return a != nil && a.revoked
}

func (s *Server) revokeLocked(email string) {
	if a := s.accounts[email]; a != nil {
		a.revoked = true
	}
	for tok, e := range s.access {
		if e == email {
			delete(s.access, tok)
		}
	}
	for tok, e := range s.refresh {
		if e == email {
			delete(s.refresh, tok)
		}
	}
}

func (s *Server) account(email string) *account {
	a := s.accounts[email]
	if a == nil {
		a = &account{email: email, events: map[string]map[string]*event{}, calendars: map[string]string{}}
		s.accounts[email] = a
	}
	return a
}

// calID maps "primary" to the account's own calendar.
func (s *Server) calID(a *account, id string) string {
	if id == "primary" {
		return a.email
	}
	return id
}

func newID() string {
	b := make([]byte, 10)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// ServeHTTP answers as Google would.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer s.Changed.Notify()
	s.mu.Lock()
	key := r.Method + " " + pattern(r.URL.Path)
	s.counts[key]++
	if hold := s.holds[key]; hold != nil {
		s.mu.Unlock()
		s.Changed.Notify()
		select {
		case <-hold:
		case <-r.Context().Done():
			return
		}
		s.mu.Lock()
	}
	for i := range s.failures {
		f := &s.failures[i]
		if f.left > 0 && (f.method == "" || f.method == r.Method) && strings.HasPrefix(r.URL.Path, f.prefix) {
			f.left--
			s.mu.Unlock()
			if f.status == http.StatusTooManyRequests {
				w.Header().Set("Retry-After", "0")
			}
			apiError(w, f.status, "scripted failure")
			return
		}
	}
	s.mu.Unlock()
	switch {
	case r.URL.Path == "/o/oauth2/auth":
		s.auth(w, r)
	case r.URL.Path == "/token":
		s.token(w, r)
	case r.URL.Path == "/revoke":
		s.revoke(w, r)
	case r.URL.Path == "/v1/userinfo" || r.URL.Path == "/oauth2/v3/userinfo":
		s.userinfo(w, r)
	case r.URL.Path == "/oauth2/v3/certs" && r.Method == http.MethodGet:
		s.certs(w, r)
	case strings.HasPrefix(r.URL.Path, "/calendar/v3/"):
		s.calendarAPI(w, r)
	case strings.HasPrefix(r.URL.Path, "/gmail/v1/users/me/"):
		s.gmailAPI(w, r)
	case strings.HasPrefix(r.URL.Path, "/v1/notes"):
		s.keepAPI(w, r)
	case strings.HasPrefix(r.URL.Path, "/v1/people:") || strings.HasPrefix(r.URL.Path, "/v1/otherContacts"):
		s.peopleAPI(w, r)
	default:
		apiError(w, http.StatusNotFound, "no such endpoint in the fake")
	}
}

// pattern replaces the variable parts of a Calendar path with {id}.
func pattern(p string) string {
	parts := strings.Split(p, "/")
	for i, part := range parts {
		if i > 0 && (parts[i-1] == "calendars" || parts[i-1] == "events" || parts[i-1] == "drafts" || parts[i-1] == "messages" || parts[i-1] == "notes") && part != "watch" && part != "send" {
			parts[i] = "{id}"
		}
	}
	return strings.Join(parts, "/")
}

func apiError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"code": status, "message": msg}})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}
