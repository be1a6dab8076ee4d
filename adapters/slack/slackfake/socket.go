package slackfake

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"

	"github.com/gorilla/websocket"
)

// Ack is a Socket Mode acknowledgement the fake received.
type Ack struct {
	EnvelopeID string          `json:"envelope_id"`
	Payload    json.RawMessage `json:"payload"`
}

// socket is the fake's Socket Mode side: apps.connections.open hands out
// a WebSocket URL on the same server; a connection gets "hello", then
// every envelope sent with SendEnvelope, and its acknowledgements are
// recorded.
type socket struct {
	mu        sync.Mutex
	envelopes chan string
	acks      []Ack
	ackSignal chan struct{}
	opened    int
}

func newSocket() *socket {
	return &socket{envelopes: make(chan string, 16), ackSignal: make(chan struct{}, 1)}
}

func (s *socket) serve(w http.ResponseWriter, r *http.Request) {
	up := websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
	conn, err := up.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer conn.Close()
	if err := conn.WriteJSON(map[string]any{"type": "hello", "num_connections": 1,
		"connection_info": map[string]any{"app_id": "A1"}, "debug_info": map[string]any{"host": "fake"}}); err != nil {
		return
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			var ack Ack
			if err := conn.ReadJSON(&ack); err != nil {
				return
			}
			s.mu.Lock()
			s.acks = append(s.acks, ack)
			s.mu.Unlock()
			select {
			case s.ackSignal <- struct{}{}:
			default:
			}
		}
	}()
	for {
		select {
		case <-done:
			return
		case <-r.Context().Done():
			return
		case env := <-s.envelopes:
			if err := conn.WriteMessage(websocket.TextMessage, []byte(env)); err != nil {
				return
			}
		}
	}
}

// SendEnvelope queues a raw Socket Mode envelope for the connected client.
func (f *Server) SendEnvelope(envelope string) { f.socket.envelopes <- envelope }

// Acks returns the acknowledgements received so far.
func (f *Server) Acks() []Ack {
	f.socket.mu.Lock()
	defer f.socket.mu.Unlock()
	return append([]Ack(nil), f.socket.acks...)
}

// AckSignal receives (at most one pending value) after each new ack, so
// tests can wait on it instead of sleeping.
func (f *Server) AckSignal() <-chan struct{} { return f.socket.ackSignal }

// Connections counts apps.connections.open calls.
func (f *Server) Connections() int {
	f.socket.mu.Lock()
	defer f.socket.mu.Unlock()
	return f.socket.opened
}

func (f *Server) connectionsOpen(w http.ResponseWriter, r *http.Request) {
	f.socket.mu.Lock()
	f.socket.opened++
	f.socket.mu.Unlock()
	if !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer xapp-") {
		json.NewEncoder(w).Encode(map[string]any{"ok": false, "error": "not_allowed_token_type"}) //nolint:errcheck // test server
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"ok": true, "url": "ws://" + r.Host + "/socket"}) //nolint:errcheck // test server
}
