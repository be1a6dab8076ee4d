package pipeline

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/hearthbot/hearth"
)

// Group commit: messages that arrive while earlier ones are being
// committed are stored and enqueued together, in one transaction, so a
// burst costs the database one round trip and one commit per group
// instead of four round trips and a commit per message: the store writes
// each message's turn job in the statement that stores it (River's row,
// as River's clients write it), and the statements travel in one batch,
// which commits by itself. Measured with `bot bench ingress -with-river
// -pause-turns` on two cores: 5,200-5,800 messages a second when River's
// client enqueued the group's jobs (begin and store, enqueue, commit:
// three round trips per group), 6,600-7,250 this way. Nobody is
// acknowledged before the group's commit (ARCHITECTURE.md, the durable
// path), and nothing waits to fill a group: a message arriving at an idle
// Inbox is committed at once, alone.
const (
	// groupsInFlight bounds the groups being committed at once. Measured
	// with `bot bench ingress` on two cores: more groups make smaller
	// ones, each paying its own commit.
	groupsInFlight = 2
	// groupMax bounds one group, so one commit's latency stays small.
	groupMax = 64
	// groupTimeout bounds one group's transaction; its members' own
	// contexts do not cancel it, since it carries others' messages.
	groupTimeout = 30 * time.Second
	// Acknowledging is behind in a burst: when groups have begun deep for
	// behindAfter (the number of messages being acknowledged, waiting for
	// a group or in one being committed, as a group begins, averaged over
	// about the last depthWindow groups, at behindDepth or more; once
	// behind, at three quarters of it). It stays so for behindFor after;
	// meanwhile a turn starts only when none is running and none started
	// in the last behindFor (see TurnSlot).
	//
	// A steady load the machine can answer has its stalls too: they fill
	// every group for tens of milliseconds, and its turns wait with its
	// messages, so holding turns back then only makes the stall longer.
	// From the depths recorded by `bot bench turns -rate 300` and `bot
	// bench ingress` (16 clients): in a burst, groups began 15 deep in
	// half the cases; at a steady 300/s, 1 or 2 deep in two thirds, but 6
	// or more in one in seven. The earlier rule, three groups in a row 6
	// deep, held turns back for 31% of the steady run; the average depth
	// alone, for 1-3%, in its stalls; held for 100 ms, for none of the
	// recorded runs. Measured live at 300/s, p99: 490-870 ms with the
	// earlier rule, 134-240 ms held for 100 ms, 108-144 ms held for
	// behindAfter, 126-189 ms with no gate at all; each rule still covers
	// a burst (`bot bench ingress -with-river`). Counting messages against
	// turns started misses the burst: 16 clients that wait for their
	// answers send no faster than turns are answered.
	behindDepth = 8
	depthWindow = 16
	behindAfter = 200 * time.Millisecond
	behindFor   = 50 * time.Millisecond
)

// GroupStore is the part of the store group commit needs: a group's
// messages stored with their turn jobs, those of known senders in known
// conversations in one round trip and one commit (known[i] false for the
// others: nothing was written for them). On error the messages are
// accepted again one by one, which finds any the group stored duplicates.
type GroupStore interface {
	StoreMessages(ctx context.Context, ins []hearth.Inbound, job hearth.TurnJob) (rs []hearth.Receipt, known []bool, err error)
}

// pending is one message waiting for its group's commit.
type pending struct {
	ctx  context.Context
	in   hearth.Inbound
	r    hearth.Receipt
	err  error
	done chan struct{}
}

// grouper collects messages and commits them in groups; the goroutines
// committing are started by arrivals and end when nothing is waiting.
// It also keeps the turns running in this process (TurnSlot).
type grouper struct {
	mu      sync.Mutex
	queue   []*pending
	running int
	// committing counts the messages in groups being committed.
	committing int
	// avgDepth is the average depth at which groups began (see
	// behindDepth), lastGroup when the last began, deepSince when the
	// average last reached the bar (zero while under it), and behindAt
	// when the last group began behind.
	avgDepth  float64
	lastGroup time.Time
	deepSince time.Time
	behindAt  time.Time
	// turns is the turns running, and lastStart when the last began;
	// changed is closed (and replaced) when a turn ends, to wake turns
	// waiting for a slot.
	turns     int
	lastStart time.Time
	changed   chan struct{}
	// notified is when a group last sent River's insert notification.
	notified time.Time
}

// TurnSlot is taken by the turn worker before each turn and released
// after it. Acknowledging a message goes first: on a small machine the
// turns and the acknowledging path share the CPU and the database, and a
// platform that is not acknowledged in time sends its event again (Slack
// after 3 seconds). So while a burst of messages waits for its groups
// (and for behindFor after), a turn starts only when no other is running
// and none started in the last behindFor: the burst is acknowledged at the
// speed of the queue while its turns drain behind it, slowly, however long
// it lasts. Otherwise a slot is free.
func (b *Inbox) TurnSlot(ctx context.Context) (release func(), err error) {
	g := &b.group
	for {
		g.mu.Lock()
		now := b.now()
		wait := g.behindAt.Add(behindFor).Sub(now) // until the burst has passed
		if g.turns == 0 {
			wait = min(wait, g.lastStart.Add(behindFor).Sub(now))
		}
		if wait <= 0 {
			g.turns++
			g.lastStart = now
			g.mu.Unlock()
			return g.endTurn, nil
		}
		if g.changed == nil {
			g.changed = make(chan struct{})
		}
		changed := g.changed
		g.mu.Unlock()
		t := time.NewTimer(wait)
		select {
		case <-changed:
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		}
		t.Stop()
	}
}

// began notes a group beginning with depth messages being acknowledged
// (g.mu held). A burst is continuous: after a pause of behindFor the
// average starts again from this group.
func (g *grouper) began(depth int, now func() time.Time) {
	t := now()
	if t.Sub(g.lastGroup) > behindFor {
		g.avgDepth, g.deepSince = 0, time.Time{}
	}
	g.lastGroup = t
	g.avgDepth += (float64(depth) - g.avgDepth) / depthWindow
	bar := float64(behindDepth)
	if t.Sub(g.behindAt) <= behindFor {
		bar = bar * 3 / 4 // a dip in a burst does not end it
	}
	if g.avgDepth < bar {
		g.deepSince = time.Time{}
		return
	}
	if g.deepSince.IsZero() {
		g.deepSince = t
	}
	if t.Sub(g.deepSince) >= behindAfter {
		g.behindAt = t
	}
}

func (g *grouper) endTurn() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.turns--
	if g.changed != nil {
		close(g.changed)
		g.changed = nil
	}
}

// acceptGrouped queues in for the next group and waits for the group's
// outcome. It waits past ctx's end once the group has begun: the answer
// must say whether the message was stored.
func (b *Inbox) acceptGrouped(ctx context.Context, in hearth.Inbound) (hearth.Receipt, error) {
	p := &pending{ctx: ctx, in: in, done: make(chan struct{})}
	g := &b.group
	g.mu.Lock()
	g.queue = append(g.queue, p)
	if g.running < groupsInFlight {
		g.running++
		go b.commitGroups()
	}
	g.mu.Unlock()
	<-p.done
	return p.r, p.err
}

// commitGroups commits groups until nothing is waiting.
func (b *Inbox) commitGroups() {
	g := &b.group
	for {
		g.mu.Lock()
		n := min(len(g.queue), groupMax)
		if n == 0 {
			g.running--
			g.mu.Unlock()
			return
		}
		g.began(len(g.queue)+g.committing, b.now)
		group := make([]*pending, 0, n)
		for _, p := range g.queue[:n] {
			if err := p.ctx.Err(); err != nil {
				// Gone before its group began: not stored, and told so.
				p.err = err
				close(p.done)
				continue
			}
			group = append(group, p)
		}
		g.queue = append(g.queue[:0], g.queue[n:]...)
		g.committing += len(group)
		g.mu.Unlock()
		if len(group) > 0 {
			b.commitGroup(group)
		}
		g.mu.Lock()
		g.committing -= len(group)
		g.mu.Unlock()
	}
}

// commitGroup stores and enqueues group in one transaction. A message
// from a new sender or in a new conversation is accepted alone after it,
// as is each message of a group that failed (one bad event, a lost
// database), so a failure is its own message's.
func (b *Inbox) commitGroup(group []*pending) {
	defer func() {
		for _, p := range group {
			close(p.done)
		}
	}()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(group[0].ctx), groupTimeout)
	defer cancel()
	ins := make([]hearth.Inbound, len(group))
	for i, p := range group {
		ins[i] = p.in
	}
	rs, known, err := b.groups.StoreMessages(ctx, ins, b.turnJob())
	if errors.Is(err, hearth.ErrUnavailable) {
		for _, p := range group {
			p.err = err
		}
		return
	}
	for i, p := range group {
		if err == nil && known[i] {
			p.r = rs[i]
			continue
		}
		p.r, p.err = b.acceptOne(ctx, p.in)
	}
}

// turnJob is how the store writes a group's turn jobs: as River's client
// inserts TurnArgs, and with River's insert notification at most once per
// NotifyCooldown, as River's client limits its own (once per its
// FetchCooldown: a producer fetches no more often than that).
func (b *Inbox) turnJob() hearth.TurnJob {
	opts := TurnArgs{}.InsertOpts()
	job := hearth.TurnJob{Kind: TurnArgs{}.Kind(), Queue: opts.Queue, MaxAttempts: opts.MaxAttempts}
	g := &b.group
	g.mu.Lock()
	defer g.mu.Unlock()
	if now := b.now(); now.Sub(g.notified) >= b.NotifyCooldown {
		g.notified = now
		job.Notify = true
	}
	return job
}
