package googletest

import (
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"time"

	keep "google.golang.org/api/keep/v1"
)

// The fake Keep API: notes.create, list, get and delete. Keep's API is for
// Google Workspace accounts with it enabled: until EnableKeep, an account
// is refused 403, as a consumer account is.

type keepbox struct {
	enabled bool
	notes   map[string]*keep.Note // name → note
}

func (s *Server) keepbox(email string) *keepbox {
	if s.keep == nil {
		s.keep = map[string]*keepbox{}
	}
	k := s.keep[email]
	if k == nil {
		k = &keepbox{notes: map[string]*keep.Note{}}
		s.keep[email] = k
	}
	return k
}

// EnableKeep makes the account's Keep API work (a Workspace account with
// Keep enabled).
func (s *Server) EnableKeep(email string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keepbox(email).enabled = true
}

// KeepNotes returns the account's Keep notes (not trashed), by creation.
func (s *Server) KeepNotes(email string) []*keep.Note {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.keepbox(email).list()
}

// PutKeepNote adds a note as one made in Keep itself would be, and
// returns it.
func (s *Server) PutKeepNote(email string, n *keep.Note) *keep.Note {
	s.mu.Lock()
	defer s.mu.Unlock()
	n.Name = "notes/" + newID()
	n.CreateTime = time.Now().UTC().Format(time.RFC3339Nano)
	s.keepbox(email).notes[n.Name] = n
	return n
}

// DeleteKeepNote deletes a note as the user would in Keep.
func (s *Server) DeleteKeepNote(email, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.keepbox(email).notes, name)
}

func (k *keepbox) list() []*keep.Note {
	var out []*keep.Note
	for _, n := range k.notes {
		if !n.Trashed {
			out = append(out, n)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].CreateTime < out[j].CreateTime || out[i].CreateTime == out[j].CreateTime && out[i].Name < out[j].Name
	})
	return out
}

func (s *Server) keepAPI(w http.ResponseWriter, r *http.Request) {
	a := s.caller(r)
	if a == nil {
		apiError(w, http.StatusUnauthorized, "invalid credentials")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k := s.keepbox(a.email)
	if !k.enabled {
		apiError(w, http.StatusForbidden, "Google Keep API has not been used in this project before or it is disabled, or the account is not a Workspace account.")
		return
	}
	if !contains(a.scopes, keep.KeepScope) {
		apiError(w, http.StatusForbidden, "Request had insufficient authentication scopes.")
		return
	}
	name := strings.TrimPrefix(r.URL.Path, "/v1/")
	switch {
	case name == "notes" && r.Method == http.MethodPost:
		var n keep.Note
		if err := json.NewDecoder(r.Body).Decode(&n); err != nil {
			apiError(w, http.StatusBadRequest, "bad note")
			return
		}
		n.Name = "notes/" + newID()
		n.CreateTime = time.Now().UTC().Format(time.RFC3339Nano)
		n.UpdateTime = n.CreateTime
		k.notes[n.Name] = &n
		writeJSON(w, n)
	case name == "notes" && r.Method == http.MethodGet:
		writeJSON(w, keep.ListNotesResponse{Notes: k.list()})
	case strings.HasPrefix(name, "notes/"):
		n := k.notes[name]
		if n == nil || n.Trashed {
			apiError(w, http.StatusNotFound, "Requested entity was not found.")
			return
		}
		switch r.Method {
		case http.MethodGet:
			writeJSON(w, n)
		case http.MethodDelete:
			delete(k.notes, name)
			writeJSON(w, map[string]any{})
		default:
			apiError(w, http.StatusMethodNotAllowed, "method")
		}
	default:
		apiError(w, http.StatusNotFound, "no such Keep endpoint in the fake")
	}
}
