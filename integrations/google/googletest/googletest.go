// Package googletest is a fake Google for tests: OAuth (consent, token,
// refresh, revoke), userinfo and the Calendar v3 API (events list with
// sync tokens and paging, insert, patch, delete, instances of recurring
// events, watch and channels.stop), with scriptable failures (401, 429,
// 5xx, 410). Point HEARTH_GOOGLE_ENDPOINT (or the integration's
// Endpoints) at URL and drive it through the real google.golang.org/api
// clients. The Gmail and Keep APIs are in gmail.go and keep.go.
package googletest

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

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

// Channels returns the live push channels.
func (s *Server) Channels() []calendar.Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []calendar.Channel
	for _, c := range s.channels {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Id < out[j].Id })
	return out
}

// Events returns the events of an account's calendar as a full
// singleEvents listing would (instances expanded, cancelled left out), by
// start.
func (s *Server) Events(email, calendarID string) []*calendar.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.accounts[email]
	if a == nil {
		return nil
	}
	var out []*calendar.Event
	for _, e := range a.events[s.calID(a, calendarID)] {
		for _, it := range s.expand(e, 0) {
			if it.Status != "cancelled" {
				out = append(out, it)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return startOf(out[i]).Before(startOf(out[j])) })
	return out
}

// PutEvent inserts or replaces an event as a change made in Google
// itself would (no push is sent; call Push). It returns the stored event.
func (s *Server) PutEvent(email, calendarID string, ev *calendar.Event) *calendar.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.account(email)
	if ev.Id == "" {
		ev.Id = newID()
	}
	if ev.Status == "" {
		ev.Status = "confirmed"
	}
	s.seq++
	cal := s.calID(a, calendarID)
	if a.events[cal] == nil {
		a.events[cal] = map[string]*event{}
	}
	a.events[cal][ev.Id] = &event{ev: ev, seq: s.seq, exceptions: map[string]*exception{}}
	return ev
}

// DeleteEvent cancels an event as a deletion in Google itself would.
func (s *Server) DeleteEvent(email, calendarID, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.account(email)
	if e := a.events[s.calID(a, calendarID)][id]; e != nil {
		s.seq++
		e.ev.Status, e.seq = "cancelled", s.seq
	}
}

// AddCalendar gives an account another calendar (a shared "Family"
// calendar, say), listed by calendarList.
func (s *Server) AddCalendar(email, id, summary string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.account(email).calendars[id] = summary
}

// Push sends a change notification ("exists") to every channel watching
// the calendar, as Google does after a change, and returns the statuses
// Hearth answered.
func (s *Server) Push(email, calendarID string) []int {
	s.mu.Lock()
	a := s.account(email)
	key := email + "/" + s.calID(a, calendarID)
	var chans []calendar.Channel
	for id, c := range s.channels {
		if s.chanCal[id] == key {
			chans = append(chans, *c)
		}
	}
	s.mu.Unlock()
	var out []int
	for _, c := range chans {
		out = append(out, s.send(c, "exists"))
	}
	return out
}

// send posts one notification to a channel's address.
func (s *Server) send(c calendar.Channel, state string) int {
	s.mu.Lock()
	s.pushed[c.Id]++
	n := s.pushed[c.Id]
	s.mu.Unlock()
	req, _ := http.NewRequest(http.MethodPost, c.Address, nil)
	req.Header.Set("X-Goog-Channel-ID", c.Id)
	req.Header.Set("X-Goog-Channel-Token", c.Token)
	req.Header.Set("X-Goog-Resource-ID", c.ResourceId)
	req.Header.Set("X-Goog-Resource-State", state)
	req.Header.Set("X-Goog-Message-Number", strconv.Itoa(n))
	req.Header.Set("X-Goog-Channel-Expiration", time.UnixMilli(c.Expiration).UTC().Format(time.RFC1123))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
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
	case strings.HasPrefix(r.URL.Path, "/calendar/v3/"):
		s.calendarAPI(w, r)
	case strings.HasPrefix(r.URL.Path, "/gmail/v1/users/me/"):
		s.gmailAPI(w, r)
	case strings.HasPrefix(r.URL.Path, "/v1/notes"):
		s.keepAPI(w, r)
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

func (s *Server) auth(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.mu.Lock()
	s.lastAuth = q
	s.counts["auth"]++
	if q.Get("client_id") != ClientID || q.Get("redirect_uri") == "" {
		s.mu.Unlock()
		http.Error(w, "invalid_client", http.StatusBadRequest)
		return
	}
	code := "code-" + newID()
	s.codes[code] = s.consent
	a := s.account(s.consent)
	for _, sc := range strings.Fields(q.Get("scope")) {
		if !contains(a.scopes, sc) {
			a.scopes = append(a.scopes, sc)
		}
	}
	s.mu.Unlock()
	u, _ := url.Parse(q.Get("redirect_uri"))
	v := u.Query()
	v.Set("code", code)
	v.Set("state", q.Get("state"))
	u.RawQuery = v.Encode()
	http.Redirect(w, r, u.String(), http.StatusFound)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func oauthError(w http.ResponseWriter, code string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	json.NewEncoder(w).Encode(map[string]string{"error": code, "error_description": code})
}

func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, "invalid_request")
		return
	}
	id, secret, ok := r.BasicAuth()
	if !ok {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	if id != ClientID || secret != ClientSecret {
		oauthError(w, "invalid_client")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var email string
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		s.counts["exchange"]++
		email = s.codes[r.PostForm.Get("code")]
		delete(s.codes, r.PostForm.Get("code"))
		if email == "" {
			oauthError(w, "invalid_grant")
			return
		}
		s.accounts[email].revoked = false
	case "refresh_token":
		s.counts["refresh"]++
		email = s.refresh[r.PostForm.Get("refresh_token")]
		if email == "" {
			oauthError(w, "invalid_grant")
			return
		}
	default:
		oauthError(w, "unsupported_grant_type")
		return
	}
	at := "at-" + newID()
	s.access[at] = email
	out := map[string]any{"access_token": at, "token_type": "Bearer", "expires_in": 3600,
		"scope": strings.Join(s.accounts[email].scopes, " ")}
	if r.PostForm.Get("grant_type") == "authorization_code" {
		rt := "rt-" + newID()
		s.refresh[rt] = email
		out["refresh_token"] = rt
	}
	writeJSON(w, out)
}

func (s *Server) revoke(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	tok := r.Form.Get("token")
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts["revoke"]++
	email := s.refresh[tok]
	if email == "" {
		email = s.access[tok]
	}
	if email == "" {
		oauthError(w, "invalid_token")
		return
	}
	s.revokeLocked(email)
	w.WriteHeader(http.StatusOK)
}

// caller returns the account of the request's bearer token.
func (s *Server) caller(r *http.Request) *account {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if email := s.access[tok]; email != "" {
		return s.accounts[email]
	}
	return nil
}

func (s *Server) userinfo(w http.ResponseWriter, r *http.Request) {
	a := s.caller(r)
	if a == nil {
		apiError(w, http.StatusUnauthorized, "invalid credentials")
		return
	}
	writeJSON(w, map[string]any{"sub": "sub-" + a.email, "email": a.email, "email_verified": true})
}

func (s *Server) calendarAPI(w http.ResponseWriter, r *http.Request) {
	a := s.caller(r)
	if a == nil {
		apiError(w, http.StatusUnauthorized, "invalid credentials")
		return
	}
	rest := strings.TrimPrefix(r.URL.Path, "/calendar/v3/")
	if rest == "channels/stop" && r.Method == http.MethodPost {
		var c calendar.Channel
		json.NewDecoder(r.Body).Decode(&c)
		s.mu.Lock()
		defer s.mu.Unlock()
		if old := s.channels[c.Id]; old == nil || old.ResourceId != c.ResourceId {
			apiError(w, http.StatusNotFound, "channel not found")
			return
		}
		delete(s.channels, c.Id)
		delete(s.chanCal, c.Id)
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if rest == "users/me/calendarList" && r.Method == http.MethodGet {
		s.mu.Lock()
		defer s.mu.Unlock()
		list := &calendar.CalendarList{Kind: "calendar#calendarList", Items: []*calendar.CalendarListEntry{
			{Id: a.email, Summary: a.email, Primary: true, AccessRole: "owner"}}}
		ids := make([]string, 0, len(a.calendars))
		for id := range a.calendars {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			list.Items = append(list.Items, &calendar.CalendarListEntry{Id: id, Summary: a.calendars[id], AccessRole: "owner"})
		}
		writeJSON(w, list)
		return
	}
	parts := strings.Split(rest, "/")
	if len(parts) < 3 || parts[0] != "calendars" || parts[2] != "events" {
		apiError(w, http.StatusNotFound, "no such calendar endpoint in the fake")
		return
	}
	calID, _ := url.PathUnescape(parts[1])
	s.mu.Lock()
	defer s.mu.Unlock()
	cal := s.calID(a, calID)
	if a.events[cal] == nil {
		a.events[cal] = map[string]*event{}
	}
	events := a.events[cal]
	switch {
	case len(parts) == 3 && r.Method == http.MethodGet:
		s.list(w, r, events)
	case len(parts) == 3 && r.Method == http.MethodPost:
		var ev calendar.Event
		if err := json.NewDecoder(r.Body).Decode(&ev); err != nil {
			apiError(w, http.StatusBadRequest, "bad event")
			return
		}
		if ev.Id == "" {
			ev.Id = newID()
		}
		if events[ev.Id] != nil {
			apiError(w, http.StatusConflict, "The requested identifier already exists.")
			return
		}
		if ev.Start == nil || ev.End == nil {
			apiError(w, http.StatusBadRequest, "Missing start or end time.")
			return
		}
		ev.Status = "confirmed"
		s.seq++
		events[ev.Id] = &event{ev: &ev, seq: s.seq, exceptions: map[string]*exception{}}
		writeJSON(w, &ev)
	case len(parts) == 4 && parts[3] == "watch" && r.Method == http.MethodPost:
		var c calendar.Channel
		if err := json.NewDecoder(r.Body).Decode(&c); err != nil || c.Id == "" || c.Address == "" {
			apiError(w, http.StatusBadRequest, "bad channel")
			return
		}
		if s.channels[c.Id] != nil {
			apiError(w, http.StatusBadRequest, "channel id not unique")
			return
		}
		c.ResourceId = "res-" + newID()
		c.ResourceUri = r.URL.String()
		if c.Expiration == 0 {
			c.Expiration = time.Now().Add(7 * 24 * time.Hour).UnixMilli()
		}
		c.Kind = "api#channel"
		s.channels[c.Id] = &c
		s.chanCal[c.Id] = a.email + "/" + cal
		writeJSON(w, &c)
	case len(parts) == 5 && parts[4] == "instances" && r.Method == http.MethodGet:
		e := events[parts[3]]
		if e == nil {
			apiError(w, http.StatusNotFound, "Not Found")
			return
		}
		items := []*calendar.Event{}
		for _, it := range s.expand(e, 0) {
			if it.Status != "cancelled" {
				items = append(items, it)
			}
		}
		writeJSON(w, &calendar.Events{Kind: "calendar#events", Items: items})
	case len(parts) == 4:
		s.one(w, r, events, parts[3])
	default:
		apiError(w, http.StatusNotFound, "no such calendar endpoint in the fake")
	}
}

// one answers get, patch and delete of an event or of one instance of a
// recurring event.
func (s *Server) one(w http.ResponseWriter, r *http.Request, events map[string]*event, id string) {
	master, inst := id, ""
	if events[id] == nil {
		if m, _, ok := strings.Cut(id, "_"); ok && events[m] != nil && len(events[m].ev.Recurrence) > 0 {
			master, inst = m, id
		}
	}
	e := events[master]
	if e == nil || (inst == "" && e.ev.Status == "cancelled" && r.Method != http.MethodGet) {
		apiError(w, http.StatusNotFound, "Not Found")
		return
	}
	current := e.ev
	if inst != "" {
		current = nil
		for _, it := range s.expand(e, 0) {
			if it.Id == inst {
				current = it
			}
		}
		if current == nil || current.Status == "cancelled" {
			apiError(w, http.StatusNotFound, "Not Found")
			return
		}
	}
	switch r.Method {
	case http.MethodGet:
		writeJSON(w, current)
	case http.MethodDelete:
		s.seq++
		if inst != "" {
			c := *current
			c.Status = "cancelled"
			e.exceptions[inst] = &exception{ev: &c, seq: s.seq}
		} else {
			e.ev.Status, e.seq = "cancelled", s.seq
		}
		w.WriteHeader(http.StatusNoContent)
	case http.MethodPatch, http.MethodPut:
		body, _ := io.ReadAll(r.Body)
		c := *current
		if r.Method == http.MethodPut {
			c = calendar.Event{Id: current.Id, Status: current.Status, RecurringEventId: current.RecurringEventId, OriginalStartTime: current.OriginalStartTime}
		}
		if err := json.Unmarshal(body, &c); err != nil {
			apiError(w, http.StatusBadRequest, "bad event")
			return
		}
		c.Id = current.Id
		s.seq++
		if inst != "" {
			e.exceptions[inst] = &exception{ev: &c, seq: s.seq}
		} else {
			e.ev, e.seq = &c, s.seq
		}
		writeJSON(w, &c)
	default:
		apiError(w, http.StatusMethodNotAllowed, "method")
	}
}

// list answers events.list: a full listing, or the changes since a sync
// token, paged.
func (s *Server) list(w http.ResponseWriter, r *http.Request, events map[string]*event) {
	q := r.URL.Query()
	single := q.Get("singleEvents") == "true"
	var since int64
	if tok := q.Get("syncToken"); tok != "" {
		n, err := strconv.ParseInt(strings.TrimPrefix(tok, "s"), 10, 64)
		if err != nil || n < s.syncFloor {
			apiError(w, http.StatusGone, "Sync token is no longer valid, a full sync is required.")
			return
		}
		since = n
		if since == 0 {
			since = -1
		}
	}
	offset, snapshot := 0, s.seq
	if pt := q.Get("pageToken"); pt != "" {
		o, snap, ok := strings.Cut(pt, "|")
		offset, _ = strconv.Atoi(o)
		snapshot, _ = strconv.ParseInt(snap, 10, 64)
		if !ok {
			apiError(w, http.StatusBadRequest, "bad page token")
			return
		}
	}
	var items []*calendar.Event
	ids := make([]string, 0, len(events))
	for id := range events {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		e := events[id]
		if !single || len(e.ev.Recurrence) == 0 {
			if (since == 0 && e.ev.Status != "cancelled") || (since != 0 && e.seq > since) {
				items = append(items, e.ev)
			}
			continue
		}
		for _, it := range s.expand(e, since) {
			if since == 0 && it.Status == "cancelled" {
				continue
			}
			items = append(items, it)
		}
	}
	size := s.pageSize
	if m, err := strconv.Atoi(q.Get("maxResults")); err == nil && m > 0 && m < size {
		size = m
	}
	out := &calendar.Events{Kind: "calendar#events", TimeZone: "UTC"}
	if offset < len(items) {
		end := min(offset+size, len(items))
		out.Items = items[offset:end]
		if end < len(items) {
			out.NextPageToken = fmt.Sprintf("%d|%d", end, snapshot)
		}
	}
	if out.NextPageToken == "" {
		out.NextSyncToken = fmt.Sprintf("s%d", snapshot)
	}
	writeJSON(w, out)
}

// expand returns a recurring event's instances (with exceptions applied)
// changed after since (0: all), or the event itself.
func (s *Server) expand(e *event, since int64) []*calendar.Event {
	if len(e.ev.Recurrence) == 0 {
		if since != 0 && e.seq <= since {
			return nil
		}
		return []*calendar.Event{e.ev}
	}
	var out []*calendar.Event
	for _, start := range occurrences(e.ev) {
		id := e.ev.Id + "_" + instanceSuffix(e.ev, start)
		x := e.exceptions[id]
		changed := e.seq > since || (x != nil && x.seq > since)
		if since != 0 && !changed {
			continue
		}
		if x != nil {
			out = append(out, x.ev)
			continue
		}
		out = append(out, instance(e.ev, id, start))
	}
	return out
}

func startOf(ev *calendar.Event) time.Time {
	if ev.Start == nil {
		return time.Time{}
	}
	if ev.Start.Date != "" {
		t, _ := time.Parse("2006-01-02", ev.Start.Date)
		return t
	}
	t, _ := time.Parse(time.RFC3339, ev.Start.DateTime)
	return t
}
