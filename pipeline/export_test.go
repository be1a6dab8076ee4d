package pipeline

import (
	"context"
	"time"

	"github.com/hearthbot/hearth"
)

// CommitGroup commits ins as one group, as group commit does for
// messages that arrive together, and returns each one's outcome.
func (b *Inbox) CommitGroup(ctx context.Context, ins []hearth.Inbound) ([]hearth.Receipt, []error) {
	group := make([]*pending, len(ins))
	for i, in := range ins {
		group[i] = &pending{ctx: ctx, in: in, done: make(chan struct{})}
	}
	b.commitGroup(group)
	rs, errs := make([]hearth.Receipt, len(ins)), make([]error, len(ins))
	for i, p := range group {
		<-p.done
		rs[i], errs[i] = p.r, p.err
	}
	return rs, errs
}

// SetClock sets the clock TurnSlot reads.
func (b *Inbox) SetClock(now func() time.Time) { b.now = now }

// BehindDepth is how deep groups begin, on average, in a burst, and for
// how long (BehindAfter); BehindFor is how often a turn may start during
// one.
const (
	BehindDepth = behindDepth
	BehindAfter = behindAfter
	BehindFor   = behindFor
)

// GroupBegan records a group beginning with depth messages being
// acknowledged, as commitGroups does.
func (b *Inbox) GroupBegan(depth int) {
	b.group.mu.Lock()
	defer b.group.mu.Unlock()
	b.group.began(depth, b.now)
}
