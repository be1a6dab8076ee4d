package signal_test

import (
	"sync/atomic"
	"testing"

	"github.com/hearthbot/hearth/internal/signal"
)

func TestAwait(t *testing.T) {
	t.Parallel()
	var s signal.Signal
	var n atomic.Int32
	go func() {
		for range 5 {
			n.Add(1)
			s.Notify()
		}
	}()
	s.Await(t, "five notifications", func() bool { return n.Load() == 5 })
}
