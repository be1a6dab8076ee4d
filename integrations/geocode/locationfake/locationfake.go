// Package locationfake is a fake Amazon Location Service place index for
// tests: SearchPlaceIndexForText over a fixed table of addresses, spoken
// to by the real SDK pointed at the server's URL.
package locationfake

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/hearthbot/hearth"
)

// Server is a fake place index. Places maps an address (matched ignoring
// case and surrounding space) to where it is.
type Server struct {
	*httptest.Server
	Index string

	mu       sync.Mutex
	places   map[string]hearth.Coordinates
	searched []string
}

// New starts a fake index named index knowing places, closed when the
// test ends.
func New(t testing.TB, index string, places map[string]hearth.Coordinates) *Server {
	s := &Server{Index: index, places: map[string]hearth.Coordinates{}}
	for a, c := range places {
		s.places[strings.ToLower(strings.TrimSpace(a))] = c
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /places/v0/indexes/{index}/search/text", s.search)
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

// Searched returns the texts searched so far.
func (s *Server) Searched() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.searched...)
}

func (s *Server) search(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	if r.PathValue("index") != s.Index {
		w.Header().Set("X-Amzn-Errortype", "ResourceNotFoundException")
		w.WriteHeader(http.StatusNotFound)
		json.NewEncoder(w).Encode(map[string]string{"message": "place index not found"}) //nolint:errcheck // test server
		return
	}
	var in struct{ Text string }
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Text == "" {
		w.Header().Set("X-Amzn-Errortype", "ValidationException")
		w.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(w).Encode(map[string]string{"message": "Text is required"}) //nolint:errcheck // test server
		return
	}
	s.mu.Lock()
	s.searched = append(s.searched, in.Text)
	c, ok := s.places[strings.ToLower(strings.TrimSpace(in.Text))]
	s.mu.Unlock()
	results := []any{}
	if ok {
		results = append(results, map[string]any{
			"Place":     map[string]any{"Label": in.Text, "Geometry": map[string]any{"Point": []float64{c.Lon, c.Lat}}},
			"Relevance": 1,
		})
	}
	json.NewEncoder(w).Encode(map[string]any{ //nolint:errcheck // test server
		"Results": results,
		"Summary": map[string]any{"Text": in.Text, "DataSource": "Fake", "MaxResults": 1},
	})
}
