package webchat

import (
	"strconv"
	"sync"
)

// Hub wakes the live streams of a conversation when a message in it
// becomes visible. It is fed from Postgres notifications (see
// store.Listen), so a message delivered by any replica reaches a browser
// connected to any other. The zero value is ready to use.
type Hub struct {
	mu   sync.Mutex
	subs map[int64]map[chan struct{}]struct{}
}

// Subscribe returns a channel that receives a value (coalesced) whenever
// the conversation may have new messages, and a function to stop.
func (h *Hub) Subscribe(conversationID int64) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	h.mu.Lock()
	if h.subs == nil {
		h.subs = make(map[int64]map[chan struct{}]struct{})
	}
	if h.subs[conversationID] == nil {
		h.subs[conversationID] = make(map[chan struct{}]struct{})
	}
	h.subs[conversationID][ch] = struct{}{}
	h.mu.Unlock()
	return ch, func() {
		h.mu.Lock()
		delete(h.subs[conversationID], ch)
		if len(h.subs[conversationID]) == 0 {
			delete(h.subs, conversationID)
		}
		h.mu.Unlock()
	}
}

// Notify handles a notification payload: a conversation id wakes that
// conversation's streams; anything else (an empty payload after the
// listener reconnected) wakes every stream.
func (h *Hub) Notify(payload string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if id, err := strconv.ParseInt(payload, 10, 64); err == nil {
		wake(h.subs[id])
		return
	}
	for _, subs := range h.subs {
		wake(subs)
	}
}

func wake(subs map[chan struct{}]struct{}) {
	for ch := range subs {
		select {
		case ch <- struct{}{}:
		default: // a wake-up is already pending
		}
	}
}
