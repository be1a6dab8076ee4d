package googletest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	calendar "google.golang.org/api/calendar/v3"
)

// The fake Calendar v3: events (list with sync tokens and pages, insert,
// patch, delete, instances), calendar lists, watch and channels.stop, and the
// helpers tests use to change a calendar as Google itself would.

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
