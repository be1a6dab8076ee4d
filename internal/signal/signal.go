// Package signal wakes everyone waiting for a change: fakes and test kits
// use it so that tests wait on events, never on sleeps.
package signal

import (
	"sync"
	"testing"
	"time"
)

// Signal is closed-channel broadcasting: C returns a channel that is
// closed by the next Notify. The zero value is ready to use.
type Signal struct {
	mu sync.Mutex
	ch chan struct{}
}

// C returns a channel closed at the next Notify.
func (s *Signal) C() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ch == nil {
		s.ch = make(chan struct{})
	}
	return s.ch
}

// Notify wakes every waiter.
func (s *Signal) Notify() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ch != nil {
		close(s.ch)
		s.ch = nil
	}
}

// Await waits until cond holds, checking it now and after every Notify,
// and fails t after 20 seconds.
func (s *Signal) Await(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.NewTimer(20 * time.Second)
	defer deadline.Stop()
	for {
		woken := s.C() // before the check, so no Notify between them is missed
		if cond() {
			return
		}
		select {
		case <-woken:
		case <-deadline.C:
			t.Fatalf("waited 20s in vain for %s", what)
		}
	}
}
